"""The board's program as the board runs it: code.py's board branch from a drive
that tools/flash.py wrote (with the libraries its profile needs), on the
MicroPython VM, with stand-ins (tests/board_vm/) for the hardware only. Every
run is repeated on CPython with the same driver: both must end alike."""

import os
import shutil
import subprocess
import sys

import pytest
from helpers import WHOLE_MATCHES
from test_code_py import run as run_code_py
from test_vm import ROOT, STAND_IN_PKGS, run_cpython, run_vm

STAND_INS = os.path.join(ROOT, "tests", "board_vm")
DRIVER = os.path.join(STAND_INS, "boardrun.py")
PROFILES = ("pico-st7789-240", "pico-st7789-320", "pico-ssd1306", "pybadge", "cardputer")
HELD_BACK = ("pybadge", "cardputer")  # every nvm write rewrites it all: saves wait (hardware/storage.py)
SMALL_MENU = ("pico-ssd1306", "cardputer")  # five lines of text: three options at a time


def board_of(profile):
    return profile if profile in ("pybadge", "cardputer") else "pico"


def board_run(drive, profile, *args, vm=True, steps=None):
    """Run the driver on the VM (the drive copied to /drive) or on CPython; the
    result's lines by their first word: {"final": ..., "nvm": ..., "line": [...]}."""
    if vm:
        args = [
            ("/drive/" + os.path.basename(a)) if isinstance(a, str) and a.startswith(str(drive)) else a for a in args
        ]
        out = run_vm(
            DRIVER,
            "/drive",
            board_of(profile),
            *args,
            pkgs=STAND_IN_PKGS,
            drive=str(drive),
            steps=steps,
            heap=160 * 1024 if steps else None,
        )
    else:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = run_cpython(DRIVER, str(drive), board_of(profile), *args, env=env)
    result = {"line": [], "want": []}
    for line in out.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("line", "want"):
            result[word].append(rest)
        else:
            result[word] = rest
    return result


def both(drive, profile, *args):
    vm = board_run(drive, profile, *args)
    assert board_run(drive, profile, *args, vm=False) == vm  # the same program, the same run
    return vm


def make_replay(path, profile, game, seed, rules):
    made = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "tools", "make_replay.py"),
            str(path),
            "--profile",
            profile,
            "--seed",
            str(seed),
            "--rules",
            rules,
            "--gap",
            "260",
            "--game",
            game,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    return made.stdout.strip().splitlines()[-1]


def whole_match_on_the_vm(drive, profile, game, seed, rules, name="match"):
    """A whole two-player match from the key events of its replay, on the VM:
    move for move the game the engine plays on CPython, and no allocation per
    ordinary move. Returns the replay, its final position and the run."""
    replay = drive / ("%s-%s-%d.txt" % (name, game, seed))
    expected = make_replay(replay, profile, game, seed, rules)
    assert expected.startswith(game + " over:")
    run = board_run(
        drive, profile, "--replay", str(replay), "--set", "SPIT_SEED=%d" % seed, "--alloc", "--memory", steps="vm_step"
    )
    assert run["final"] == expected
    # From the key event to the screen update, an ordinary move allocates nothing.
    moves, allocating, spent = (int(w) for w in run["moves"].split()[:5:2])
    assert moves > 20 and allocating == 0 and spent == 0, run["moves"]
    assert int(run["peak"]) < 128 * 1024  # a guard against growth; the figures: tools/bench_board.py
    return replay, expected, run


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """profile -> its project bundle's "CircuitPython 10.x" folder, unzipped
    as a maker unzips it onto CIRCUITPY (make bundle: the .mpy files make
    flash writes for CircuitPython 10), with the .mpy headers set back to
    MicroPython's ("M") so the VM runs the very same bytecode. The 9.x
    folder holds the same files, byte for byte."""
    import zipfile

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import bundle

    made, out = {}, tmp_path_factory.mktemp("dist")
    for profile in PROFILES:
        with zipfile.ZipFile(bundle.build(profile, str(out))) as z:
            names = z.namelist()
            top = "spit-%s/" % profile
            nine = sorted(
                n[len(top + "CircuitPython 9.x/") :] for n in names if n.startswith(top + "CircuitPython 9.x/")
            )
            ten = sorted(
                n[len(top + "CircuitPython 10.x/") :] for n in names if n.startswith(top + "CircuitPython 10.x/")
            )
            assert nine == ten and "code.py" in ten and "settings.toml" in ten
            assert all(z.read(top + "CircuitPython 9.x/" + n) == z.read(top + "CircuitPython 10.x/" + n) for n in ten)
            drive = tmp_path_factory.mktemp("bundle-" + profile)
            for n in ten:
                data = z.read(top + "CircuitPython 10.x/" + n)
                if n.endswith(".mpy"):
                    assert data[:2] == b"C\x06", n
                    data = b"M" + data[1:]
                os.makedirs(os.path.dirname(str(drive / n)), exist_ok=True)
                (drive / n).write_bytes(data)
        assert [p.name for p in drive.rglob("*.py")] == ["code.py"]
        assert ('SPIT_PROFILE = "%s"' % profile) in (drive / "settings.toml").read_text()
        made[profile] = drive
    return made


@pytest.mark.parametrize("profile,game,seed,rules", WHOLE_MATCHES)
def test_a_whole_two_player_match_from_key_events(bundles, profile, game, seed, rules):
    # Each profile's project bundle, unzipped onto a drive: a whole match
    # move for move, allocation-free.
    _, _, run = whole_match_on_the_vm(bundles[profile], profile, game, seed, rules)
    assert run["line"][0].strip() == "GAME OVER"  # and the screen says so
    print("%s %s: heap kept after start-up %s B, highest %s B" % (profile, game, run["startup"], run["peak"]))


def on_board(profile, taps):
    # The menu on a PyBadge: Up and Down move, B changes, A goes; elsewhere
    # stock 0 (up) and 1 (down) move, pile 0 changes, pile 1 goes.
    cursor = {"p0.stock1": "p0.pile1", "p0.stock0": "p0.pile0", "p0.pile0": "p1.pile0", "p0.pile1": "p1.pile1"}
    return [cursor.get(t, t) if profile == "pybadge" else t for t in taps]


def demo_replay(drive, profile, game):
    # Menu: Game -> Speed (for Speed), down to Players, five changes to "demo", start.
    taps = on_board(
        profile, (["p0.pile0"] if game == "speed" else []) + ["p0.stock1"] + ["p0.pile0"] * 5 + ["p0.pile1"]
    )
    path = drive / ("demo-%s.txt" % game)
    path.write_text("".join("%d %s\n" % (500 + 300 * i, t) for i, t in enumerate(taps)))
    return path


@pytest.mark.parametrize(
    "profile,game",
    [
        ("pico-st7789-240", "spit"),
        ("pico-st7789-320", "speed"),
        ("pico-ssd1306", "speed"),
        ("pybadge", "spit"),
        ("cardputer", "speed"),
    ],
)
def test_a_whole_computer_against_computer_match(drives, profile, game):
    drive = drives[profile]
    path = demo_replay(drive, profile, game)
    run = both(drive, profile, "--replay", str(path), "--set", "SPIT_SEED=9", "--stop", "over", "--until", "3600000")
    assert run["final"].startswith(game + " over:")
    assert run["menu"].split()[1] == "5"  # players: demo


@pytest.mark.parametrize("profile", PROFILES)
def test_a_match_saved_in_nvm_is_resumed_after_a_power_cut(drives, profile):
    drive = drives[profile]
    replay = drive / "save.txt"
    make_replay(replay, profile, "spit", 6, "S")
    first = both(drive, profile, "--replay", str(replay), "--set", "SPIT_SEED=6", "--stop", "round:3")
    assert first["final"].startswith("spit ready S 3 ")
    # Power cut: a new start with only the nvm kept. The menu offers the match
    # on its first line; pile 1 (start) resumes it.
    resume = drive / "resume.txt"
    resume.write_text("500 p0.pile1\n")
    before = board_run(drive, profile, "--nvm", first["nvm"], "--until", "400")
    if profile in HELD_BACK:
        # Every write erases its flash: after the settings' write, the rounds'
        # saves wait for SPARE_MS of play (storage.py), so a power cut within
        # it loses the match (tests/test_storage.py: leaving keeps it at once).
        assert not any(line.startswith(">Resume") for line in before["line"])
        return
    assert before["line"][0 if profile == "pico-ssd1306" else 1].startswith(">Resume Spit ")
    again = both(drive, profile, "--nvm", first["nvm"], "--replay", str(resume))
    assert again["final"] == first["final"]


def test_a_cardputer_set_for_radio_opens_it_and_says_hello_to_everyone(drives):
    # SPIT_LINK = "espnow": the menu opens at linked play, and "go" opens
    # the radio (hardware/radio.py) and says hello every 300 ms, to every
    # handheld in range: alone here, it waits for the other one.
    drive = drives["cardputer"]
    taps = ["p0.stock1", "p0.pile1"]
    path = drive / "radio.txt"
    path.write_text("".join("%d %s\n" % (500 + 300 * i, t) for i, t in enumerate(taps)) + "6000 end\n")
    run = both(drive, "cardputer", "--replay", str(path), "--set", "SPIT_LINK=espnow")
    assert [line.rstrip() for line in run["line"][:4]] == [
        "LINKED PLAY",
        "a new match:",
        "waiting for the",
        "other handheld",
    ]
    assert 15 <= int(run["radio"].split()[1]) <= 19  # (about 5.2 s of hellos, one each 300 ms)


def test_radio_on_a_board_without_one_is_a_clear_message(drives):
    out = run_vm(
        DRIVER, "/drive", "pico", "--set", "SPIT_LINK=espnow", pkgs=STAND_IN_PKGS, drive=str(drives["pico-st7789-240"])
    )
    assert "SPIT_LINK is 'espnow': on profile pico-st7789-240, whose link is a cable, SPIT_LINK = 1" in out, out


@pytest.mark.parametrize("profile,game", [("pybadge", "spit"), ("pico-st7789-240", "speed")])
def test_jumping_over_idle_scans_changes_nothing(drives, profile, game):
    # The driver jumps over the scans where nothing can happen (App.next_due);
    # stepping every scan must end alike: the final position, the screen's
    # lines, nvm, and every change of sound and lights at the same ms. (The
    # driver's jumps are the same on the VM: the other tests run it on both.)
    drive = drives[profile]
    pause = drive / "pause-jump.txt"
    pause.write_text(
        "500 p0.pile1\n1500 p0.pile0 down\n1500 p0.pile1 down\n2800 p0.pile0 up\n2800 p0.pile1 up\n"
        "3300 p1.pile0\n3800 p0.pile0\n8000 p0.pile0\n8400 p1.pile1\n9000 p0.pile1\n"
    )  # pause, countdown, on
    match = drive / "jump-match.txt"
    make_replay(match, profile, game, 7, "-")
    runs = [
        (
            "--replay",
            str(demo_replay(drive, profile, game)),
            "--set",
            "SPIT_SEED=9",
            "--stop",
            "over",
            "--until",
            "3600000",
        ),
        ("--replay", str(pause), "--set", "SPIT_SEED=5"),
        ("--replay", str(match), "--set", "SPIT_SEED=7"),
    ]
    for args in runs:
        jumping = board_run(drive, profile, *args, vm=False)
        stepping = board_run(drive, profile, *args, "--every-scan", vm=False)
        assert int(jumping["passes"]) * 2 < int(stepping["passes"])  # it did jump
        assert int(jumping["outputs"].split()[0]) > 5  # sounds and lights to compare
        del jumping["passes"], stepping["passes"]
        assert jumping == stepping


def random_presses(drive, profile, seed, count):
    path = drive / ("presses-%d.txt" % seed)
    made = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "tools", "make_replay.py"),
            str(path),
            "--profile",
            profile,
            "--seed",
            str(seed),
            "--presses",
            str(count),
        ],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    return path


def desktop_final(profile, replay, seed):
    out = run_code_py(["code.py"], {"SPIT_PROFILE": profile, "SPIT_REPLAY": str(replay), "SPIT_SEED": str(seed)})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("profile,seed", [("pybadge", 2), ("pico-st7789-240", 3)])
def test_random_presses_end_alike_on_the_board_and_the_desktop(drives, profile, seed):
    # Key events nobody planned (taps and holds 5 ms to 0.7 s apart, through
    # the menu, matches, pauses): the board program on the VM and on CPython,
    # and the desktop, debouncing alike, end in the same position.
    drive = drives[profile]
    replay = random_presses(drive, profile, seed, 2500)
    board = both(drive, profile, "--replay", str(replay), "--set", "SPIT_SEED=%d" % seed)
    assert board["final"] != "-"  # a match was played
    assert desktop_final(profile, replay, seed) == board["final"]


def test_a_replay_stops_at_its_end_line(drives):
    # "MS end" (what a recording ends with) stops the run at MS, as --until does.
    drive = drives["pico-st7789-240"]
    demo = demo_replay(drive, "pico-st7789-240", "spit")
    ended = drive / "demo-end.txt"
    ended.write_text(demo.read_text() + "20000 end\n")
    at_end = board_run(drive, "pico-st7789-240", "--replay", str(ended), "--set", "SPIT_SEED=9", vm=False)
    until = board_run(
        drive, "pico-st7789-240", "--replay", str(demo), "--set", "SPIT_SEED=9", "--until", "20000", vm=False
    )
    later = board_run(
        drive, "pico-st7789-240", "--replay", str(demo), "--set", "SPIT_SEED=9", "--until", "25000", vm=False
    )
    assert at_end == until and at_end["final"] != later["final"]
    ended.write_text(demo.read_text() + "20000 end\n21000 p0.pile0\n")
    with pytest.raises(AssertionError, match="nothing may follow the end line"):
        board_run(drive, "pico-st7789-240", "--replay", str(ended), vm=False)


def menu_taps(colour, lights):
    # Spit: players all the way round (back to two people, whose seats face
    # each other), each option on and off again, the seats side by side and
    # (colour screens) the four-colour deck; down past sound,
    # (lights) and the tally, the last line, to the first: the game becomes
    # Speed, its two options on; up through every line, past the first to the
    # last, and down to the first.
    taps = ["p0.stock1"] + ["p0.pile0"] * 6 + ["p0.stock1", "p0.pile0", "p0.pile0"] * 4
    taps += ["p0.stock1", "p0.pile0"] * (2 if colour else 1) + ["p0.stock1"] * (3 if lights else 2)
    taps += ["p0.stock1", "p0.pile0", "p0.stock1", "p0.stock1", "p0.pile0", "p0.stock1", "p0.pile0"]
    return taps + ["p0.stock0"] * 4 + ["p0.stock1"]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_menu_with_every_option_is_drawn_and_saved(drives, profile):
    drive = drives[profile]
    colour = profile != "pico-ssd1306"
    taps = on_board(profile, menu_taps(colour, profile in HELD_BACK))  # (those two have lights)
    path = drive / "menu.txt"
    end = ""
    if profile in HELD_BACK:  # its writes are held back SPARE_MS after the first (storage.py): wait for it
        from hardware.storage import SPARE_MS

        end = "%d end\n" % (300 + SPARE_MS + 120 * len(taps))
    path.write_text("".join("%d %s\n" % (300 + 120 * i, t) for i, t in enumerate(taps)) + end)
    run = both(drive, profile, "--replay", str(path))
    assert run["final"] == "-"  # no match was started
    if profile == "cardputer":  # the game took every key from the console, and gave it back when it ended
        assert run["console"] == "attached 0"
    kind, players, spit_rules, speed_rules, item = map(int, run["menu"].split())
    assert (kind, players, spit_rules, speed_rules, item) == (1, 0, 0, 3, 0)
    # The screen shows the menu as it is now (it redraws after every press).
    lines = [line.rstrip() for line in run["line"]]
    assert lines[: len(run["want"])] == run["want"]
    shown = "\n".join(lines)
    assert ">Game: Speed" in shown and "Win: 50 points" in shown
    assert "Sides: 5 cards" in shown or profile in SMALL_MENU  # (three lines of options there)
    if profile == "cardputer":  # in the words of its keys
        assert lines[-2:] == ["move: A/S or H/J", "Z/N change, X/M go"] and "Seats" not in shown
    elif profile == "pico-ssd1306":  # three lines of options, and how to use them in words
        assert lines[-2:] == ["move: stock 1 / 2", "pile 1 change, 2 go"] and "Seats" not in shown
    else:
        assert "Seats: side by side" in shown and ("Deck: 4 colours" in shown) == colour
        hint = (
            ("up/down move, A go", "left/right or B change")
            if profile == "pybadge"
            else ("move: stock 1 / 2", "pile 1 change, 2 go")
        )
        assert tuple(lines[-2:]) == hint, lines
    # The settings record in nvm holds the same choices.
    from hardware.storage import SETTINGS, Store

    nvm = bytearray(bytes.fromhex(run["nvm"]).ljust(4096, b"\xff"))
    # (the seats toggled once: side by side, or on a Cardputer, whose two people sit so, facing)
    style = (2 if colour else 0) | (1 if profile == "cardputer" else 0)
    assert Store(nvm).load(SETTINGS) == bytes([kind, spit_rules, players, speed_rules, style, 1])


def test_every_board_module_compiles_and_imports_on_the_vm(drives):
    # What the flashed drive holds, imported one by one on MicroPython.
    drive = drives["pico-st7789-240"]
    names = []
    for pkg in ("engine", "hardware"):
        for f in sorted(os.listdir(drive / pkg)):
            if f.endswith(".py") and f != "__init__.py":
                names.append(pkg + "." + f[:-3])
    assert not (drive / "desktop").exists()  # the desktop's room is never flashed
    script = drive / "import_all.py"
    script.write_text(
        "import sys\nsys.path.insert(1, '/drive')\nsys.path.insert(2, '/drive/lib')\n"
        "import board\nboard.use('pico')\n" + "".join("import %s\nprint('ok %s')\n" % (n, n) for n in names)
    )
    out = run_vm(os.path.join(STAND_INS, "runfile.py"), "/drive/import_all.py", pkgs=STAND_IN_PKGS, drive=str(drive))
    assert out.split() == [w for n in names for w in ("ok", n)]


LINK_OPENER = """
import gc, sys
sys.path.insert(1, '/drive')
sys.path.insert(2, '/drive/lib')
import board
board.use('pico')
import busio, displayio, keypad, microcontroller  # (loaded before the heap is read, as on a board)
from hardware import forget, profiles
state = []


def step():
    if not state:
        from hardware.board_setup import open_board

        state.append(open_board(profiles.get('pico-st7789-240'), linked=True))
        forget('hardware.board_setup')  # (as code.py does after start-up)
    elif len(state) == 1:
        gc.collect()
        state.append(gc.mem_alloc())
        io = state[0]
        io.open_link = None
    else:
        gc.collect()
        print('freed', state[1] - gc.mem_alloc())
        return False
    return True
"""


def test_a_board_set_up_for_a_link_keeps_none_of_the_setups_code(drives):
    # code.py forgets hardware/board_setup.py after start-up, so its
    # code leaves the heap; a linked handheld keeps a way to open the cable's
    # UART for the lobby. That must hold no function of the setup module (a
    # closure of it kept the whole module: 4 KB of a Pico's heap in every
    # linked match): letting the opener go frees no more than itself.
    drive = drives["pico-st7789-240"]
    (drive / "link_opener.py").write_text(LINK_OPENER)
    out = run_vm(
        os.path.join(STAND_INS, "runfile.py"),
        "/drive/link_opener.py",
        pkgs=STAND_IN_PKGS,
        drive=str(drive),
        steps="step",
    )
    freed = int(out.split()[-1])
    assert 0 < freed <= 128, out


@pytest.mark.parametrize(
    "profile,args,says",
    [
        ("pico-st7789-240", ("--set", "SPIT_PROFILE=teapot"), "Unknown SPIT_PROFILE 'teapot'"),
        (
            "pico-ssd1306",
            ("--hide", "adafruit_displayio_ssd1306"),
            "Library adafruit_displayio_ssd1306 is missing from CIRCUITPY/lib",
        ),
        ("pico-ssd1306", ("--i2c", "nopullup"), "check the wiring and the pull-up resistors"),
        ("pico-ssd1306", ("--i2c", "3d"), "No OLED answers at I2C address 0x3C on SDA GP26, SCL GP27"),
        ("pybadge", ("--hide", "neopixel"), "Library neopixel is missing from CIRCUITPY/lib"),
        ("pico-st7789-240", ("--set", "SPIT_PROFILE=pybadge"), "This board has no built-in display"),
        ("pybadge", ("--set", "SPIT_PROFILE=cardputer"), "This firmware does not scan a Cardputer's keyboard"),
        ("pico-st7789-240", ("--set", "SPIT_SEED=soon"), "SPIT_SEED must be a whole number"),
    ],
)
def test_bad_setup_is_a_clear_message_on_the_vm(drives, profile, args, says):
    out = run_vm(DRIVER, "/drive", board_of(profile), *args, pkgs=STAND_IN_PKGS, drive=str(drives[profile]))
    assert says in out and out.strip().endswith("held")  # the message, then the board's wait
    screen = [line for line in out.splitlines() if line.startswith("screen ")]
    if profile == "pybadge":  # a built-in screen shows every message, drawn at once
        assert len(screen) == 1 and says.split()[0] in screen[0], out


# A maker's wrong pins in hardware/profiles.py, refused as the RP2040 port
# refuses them (an SPI clock that is no SCK, I2C lines swapped, a pin with two
# users): a message naming the pins, no traceback (tests/board_vm/busio.py).
WRONG_PINS = [
    (
        "pico-st7789-240",
        ('"sck": "GP18"', '"sck": "GP16"'),
        "The display's SPI pins SCK GP16, MOSI GP19 are refused (Invalid pins)",
    ),
    (
        "pico-ssd1306",
        ('"sda": "GP26", "scl": "GP27"', '"sda": "GP27", "scl": "GP26"'),
        "The OLED's I2C pins SDA GP27, SCL GP26 are refused (Invalid pins)",
    ),
    ("pico-st7789-240", ('"GP12", "GP13")', '"GP12", "GP20")'), "A pin of the profile is refused (GP20 in use)"),
]


@pytest.mark.parametrize("profile,edit,says", WRONG_PINS)
def test_wrong_pins_in_the_profile_are_a_message_on_the_vm(drives, tmp_path, profile, edit, says):
    drive = tmp_path / "drive"
    shutil.copytree(drives[profile], drive)
    text = (drive / "hardware/profiles.py").read_text()
    assert edit[0] in text
    (drive / "hardware/profiles.py").write_text(text.replace(edit[0], edit[1]))
    out = run_vm(DRIVER, "/drive", board_of(profile), pkgs=STAND_IN_PKGS, drive=str(drive))
    assert says in out and "Traceback" not in out and out.strip().endswith("held"), out


def test_a_pygamer_is_told_it_is_not_supported(drives):
    # Its directions are an analog joystick, not shift-register buttons: the
    # left player would have none. Said on its screen, not a broken game.
    out = run_vm(DRIVER, "/drive", "pygamer", pkgs=STAND_IN_PKGS, drive=str(drives["pybadge"]))
    assert "This is a PyGamer" in out and out.strip().endswith("held")
    assert any(line.startswith("screen This is a PyGamer") for line in out.splitlines()), out


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pybadge"])
def test_a_setup_fault_after_the_display_opened_is_on_the_screen(drives, profile, tmp_path):
    # The card pictures are missing: the display is open, so the maker reads
    # what to do there (auto_refresh is off: the message is drawn at once).
    drive = tmp_path / "drive"
    shutil.copytree(drives[profile], drive)
    for sheet in drive.glob("hardware/sprites-*-cards.bmp"):
        sheet.unlink()
    out = run_vm(DRIVER, "/drive", board_of(profile), pkgs=STAND_IN_PKGS, drive=str(drive))
    assert "card pictures" in out and out.strip().endswith("held")
    screen = [line for line in out.splitlines() if line.startswith("screen ")]
    assert len(screen) == 1 and "card pictures" in screen[0] and "make flash" in screen[0], out


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pybadge"])
def test_pause_leave_and_resume_on_the_vm(drives, profile):
    drive = drives[profile]
    path = drive / "pause.txt"
    path.write_text(
        "500 p0.pile1          # start\n"
        "1500 p0.pile0 down    # player 0 holds both pile buttons (the first press calls spit)\n"
        "1500 p0.pile1 down\n"
        "2800 p0.pile0 up\n"
        "2800 p0.pile1 up\n"
        "3300 p1.pile0         # paused: a press that makes no move\n"
        "3800 p1.pile1         # leave\n"
        "4300 p0.pile1         # the menu's first line: resume\n"
    )
    run = both(drive, profile, "--replay", str(path), "--set", "SPIT_SEED=5")
    assert run["final"].startswith("spit ready:0 ")  # as it was left: player 0 had called, nobody else moved


def test_a_new_match_lets_the_code_of_a_speed_match_offered_go_on_the_vm(drives):
    # A Speed match left is offered in the menu, and keeps engine.speed
    # loaded there; a Spit match started instead lets it go, so Speed's code
    # does not sit in a Spit match's heap (3.3 KB on a Pico).
    drive = drives["pico-st7789-240"]
    path = drive / "speed_then_spit.txt"
    path.write_text(
        "500 p0.pile0          # Game: Speed\n"
        "1100 p0.pile1         # go\n"
        "2600 p0.pile0 down    # the pause\n"
        "2600 p0.pile1 down\n"
        "3900 p0.pile0 up\n"
        "3900 p0.pile1 up\n"
        "4700 p0.pile1         # leave: the Speed match is offered\n"
        "6200 p0.stock1        # Game\n"
        "6800 p0.pile0         # Spit\n"
        "7400 p0.pile1         # go: a new match\n"
        "8900 end\n"
    )
    run = board_run(drive, "pico-st7789-240", "--replay", str(path), "--set", "SPIT_SEED=5", "--modules")
    assert run["final"].startswith("spit ")
    modules = run["modules"].split()
    assert "engine.spit" in modules and "engine.speed" not in modules, modules
