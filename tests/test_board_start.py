"""The board's start-up refusing to run what it should not, on the VM: an
earlier copy's .py files beside the new .mpy files, a settings.toml line
CircuitPython cannot read. Each said on the screen and the console."""

import os
import shutil

import pytest
from test_vm import ROOT, STAND_IN_PKGS, run_vm

DRIVER = os.path.join(ROOT, "tests", "board_vm", "boardrun.py")


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pybadge"])
def test_an_earlier_copys_py_beside_a_new_mpy_is_named_not_run(drives, tmp_path, profile):
    # A bundle copied over an earlier install: CircuitPython would import the
    # old hardware/app.py before the new hardware/app.mpy beside it.
    drive = tmp_path / "drive"
    shutil.copytree(drives[profile], drive)
    (drive / "hardware" / "app.mpy").write_bytes(b"C\x06 the new one")
    (drive / "engine" / "spit.mpy").write_bytes(b"C\x06 the new one")
    board = "pico" if profile.startswith("pico") else profile
    # (--until: were the old code run, the game would stop a second in, and fail below)
    out = run_vm(DRIVER, "/drive", board, "--until", "1000", pkgs=STAND_IN_PKGS, drive=str(drive))
    assert "An earlier copy of the game left " in out and out.strip().endswith("held"), out
    assert "engine/spit.py and 1 more" in out or "hardware/app.py and 1 more" in out, out
    screen = [line for line in out.splitlines() if line.startswith("screen ")]
    assert len(screen) == 1 and "An earlier copy" in screen[0] and "Delete the .py files" in screen[0], out
    assert "menu" not in out.split("held")[0].split()  # the game never started


def test_the_files_start_up_looks_for_first_are_modules_the_game_ships():
    # An earlier copy is found by these three: were one renamed, no old copy would be.
    from hardware.leftovers import SENTINELS

    assert SENTINELS and all(os.path.isfile(os.path.join(ROOT, n)) for n in SENTINELS), SENTINELS


@pytest.mark.parametrize(
    "line,says",
    [
        ("SPIT_PROFILE = pico-st7789-240", 'write SPIT_PROFILE = "pico-st7789-240"'),
        ('SPIT_PROFILE = "pico-st7789-240', 'write SPIT_PROFILE = "pico-st7789-240"'),
        ("SPIT_SEED =", "SPIT_SEED has no value: a word goes in quotes"),
    ],
)
def test_a_settings_line_circuitpython_cannot_read_is_named_on_the_screen(drives, tmp_path, line, says):
    # Not the default board without a word: the setting and its fix.
    drive = tmp_path / "drive"
    shutil.copytree(drives["pico-st7789-240"], drive)
    (drive / "settings.toml").write_text("# mine\n" + line + "\n")
    out = run_vm(DRIVER, "/drive", "pico", "--until", "1000", pkgs=STAND_IN_PKGS, drive=str(drive))
    assert says in out and "Traceback" not in out and out.strip().endswith("held"), out
    assert "settings.toml: " + line.split("=")[0].strip() in out
    screen = [t for t in out.splitlines() if t.startswith("screen ")]
    assert len(screen) == 1 and line.split("=")[0].strip() in screen[0] and says.split()[-1] in screen[-1], out


def test_a_heap_start_size_the_firmware_dropped_is_said_on_the_console(capsys):
    # CircuitPython drops a CIRCUITPY_HEAP_START_SIZE larger than the board's
    # memory without a word (the heap then grows in areas: docs/firmware.md).
    from hardware.launch import heap_start

    class Gc:
        def __init__(self, total):
            self.total = total

        def mem_free(self):
            return self.total - 4000

        def mem_alloc(self):
            return 4000

    settings = {"CIRCUITPY_HEAP_START_SIZE": 168000}
    assert heap_start(settings.get, Gc(163208))  # (one area of 0.97 of it: taken)
    assert heap_start({}.get, Gc(170768))  # (none asked for)
    assert capsys.readouterr().out == ""
    settings["CIRCUITPY_HEAP_START_SIZE"] = 400000
    assert not heap_start(settings.get, Gc(170768))
    out = capsys.readouterr().out
    assert "CIRCUITPY_HEAP_START_SIZE = 400000 is more than this board has: the heap is 170768 B" in out
