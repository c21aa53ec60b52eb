"""code.py end to end, headless: whole matches played from replay files of key taps."""

import os
import subprocess
import sys

import pytest
from helpers import WHOLE_MATCHES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, env=None, timeout=600):
    e = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    e.update(env or {})
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=e, timeout=timeout)


@pytest.mark.parametrize("profile,game,seed,rules", WHOLE_MATCHES)
def test_a_whole_match_through_code_py(tmp_path, profile, game, seed, rules):
    replay = tmp_path / "match.txt"
    made = run(
        [
            os.path.join("tools", "make_replay.py"),
            str(replay),
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
        ]
    )
    assert made.returncode == 0, made.stderr
    expected = made.stdout.strip().splitlines()[-1]
    assert expected.startswith(game + " over:")
    frames = tmp_path / "frames"
    sounds = tmp_path / "sounds.txt"
    out = run(
        ["code.py"],
        {
            "SPIT_PROFILE": profile,
            "SPIT_REPLAY": str(replay),
            "SPIT_FRAMES": str(frames),
            "SPIT_SEED": str(seed),
            "SPIT_SOUND_LOG": str(sounds),
        },
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == expected  # the same game, move for move
    heard = {" ".join(line.split()[1:-1]) for line in sounds.read_text().splitlines()}
    assert {"menu", "tick", "match won"} <= heard  # a headless run logs the sounds it made
    pngs = sorted(os.listdir(frames))
    assert len(pngs) > 20 and pngs[0] == "frame_00000.png"


def test_unknown_profile_is_a_clear_message_not_a_traceback():
    out = run(["code.py"], {"SPIT_PROFILE": "teapot", "SPIT_REPLAY": os.devnull})
    assert out.returncode == 1
    assert "Unknown SPIT_PROFILE 'teapot' (from the environment)" in out.stdout and "pico-ssd1306" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_bad_replay_line_is_a_clear_message(tmp_path):
    replay = tmp_path / "bad.txt"
    replay.write_text("100 p0.stock2\n200 p3.jump\n")
    out = run(["code.py"], {"SPIT_REPLAY": str(replay)})
    assert out.returncode == 1
    assert "line 2" in out.stdout and "p3.jump" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize(
    "text,says",
    [
        ("100 p0.stock2\n900 end\n1000 p0.pile0\n", "line 3: nothing may follow the end line"),
        ("100 p0.stock2\n900 p0.pile0\n800 end\n", "line 3: the end comes before an event"),
    ],
)
def test_a_misplaced_end_line_is_a_clear_message(tmp_path, text, says):
    replay = tmp_path / "bad.txt"
    replay.write_text(text)
    out = run(["code.py"], {"SPIT_REPLAY": str(replay)})
    assert out.returncode == 1 and says in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_missing_library_is_a_clear_message(tmp_path):
    # Hide pygame from code.py, as on a desktop where make install never ran.
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('pygame'):\n"
        "            raise ImportError('No module named ' + repr(name))\n"
        "sys.meta_path.insert(0, Hide())\n"
    )
    out = run(["code.py"], {"PYTHONPATH": str(tmp_path), "SPIT_REPLAY": os.devnull})
    assert out.returncode == 1
    assert "library is missing" in out.stdout and "pygame" in out.stdout and "make install" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_computer_demo_plays_a_match_to_the_end(tmp_path):
    # Menu: Game -> Speed, down to Players, five changes to "demo", start; then watch.
    taps = ["p0.pile0", "p0.stock1"] + ["p0.pile0"] * 5 + ["p0.pile1"]
    lines = ["%d %s" % (500 + 300 * i, t) for i, t in enumerate(taps)]
    lines.append("150000 p0.stock4 up  # keep the replay running: the computer plays")
    replay = tmp_path / "demo.txt"
    replay.write_text("\n".join(lines) + "\n")
    out = run(["code.py"], {"SPIT_PROFILE": "pico-st7789-320", "SPIT_REPLAY": str(replay), "SPIT_SEED": "9"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1].startswith("speed over:")


def test_a_whole_match_crosses_the_wrap_of_ticks_ms(tmp_path):
    # The tick clock starts a minute before it wraps at 2**29 (SPIT_CLOCK): the
    # match goes on across the wrap move for move.
    replay = tmp_path / "match.txt"
    made = run(
        [
            os.path.join("tools", "make_replay.py"),
            str(replay),
            "--profile",
            "pico-st7789-240",
            "--seed",
            "3",
            "--gap",
            "260",
        ]
    )
    expected = made.stdout.strip().splitlines()[-1]
    out = run(
        ["code.py"],
        {
            "SPIT_PROFILE": "pico-st7789-240",
            "SPIT_REPLAY": str(replay),
            "SPIT_SEED": "3",
            "SPIT_CLOCK": str((1 << 29) - 60000),
        },
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == expected


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pybadge"])
def test_the_first_frame_of_a_match_shows_no_refused_mark_at_the_boards_clock(tmp_path, profile):
    # code.py's clock starts where the firmware's does (0x1fff0000,
    # 65,536 ms before the wrap); a match started from a position with nobody
    # pressing anything shows neither player's refused mark.
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import displayio
    import pygame
    from screens import mark_pixels

    from desktop.window import pygame_display_class
    from engine.spit import SPIT, Game
    from hardware import profiles
    from hardware.screen import Screen

    g = Game(7)
    g.play(0, SPIT)
    g.play(1, SPIT)
    replay = tmp_path / "r.txt"
    replay.write_text("1000 end\n")
    shot = tmp_path / "shot.png"
    out = run(
        ["code.py"],
        {"SPIT_PROFILE": profile, "SPIT_START": g.text(), "SPIT_REPLAY": str(replay), "SPIT_SHOT": str(shot)},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == g.text()
    image = pygame.image.load(str(shot))
    displayio.release_displays()
    p = profiles.get(profile)
    screen = Screen(pygame_display_class()(width=p["width"], height=p["height"], auto_refresh=False), p)
    assert [mark_pixels(image, screen.info[k]) for k in range(2)] == [0, 0]


def _race(seed):
    # A deal where, once both have called spit, each player's stock s0/s1 top
    # has the same rank and fits spit pile k only: whoever plays first, the
    # other's card fits no more.
    from engine.spit import SPIT, SPIT_PILES, Game

    g = Game(seed)
    g.play(0, SPIT)
    g.play(1, SPIT)
    for s0 in range(5):
        for s1 in range(5):
            a, b = g.top(s0), g.top(5 + s1)
            if a % 13 != b % 13:
                continue
            for k in range(2):
                if (
                    g.check(0, 2 * s0 + k) == 0
                    and g.check(0, 2 * s0 + 1 - k)
                    and g.check(1, 2 * s1 + k) == 0
                    and g.check(1, 2 * s1 + 1 - k)
                ):
                    return s0, s1, k, g.top(SPIT_PILES + k)
    return None


@pytest.mark.parametrize("first", [0, 1])
def test_a_slow_loop_orders_a_batch_of_presses_by_their_timestamps(tmp_path, first):
    # With SPIT_LOOP_MS=50 both presses, 15 ms apart, reach the game in one
    # batch of scans: the one pressed first plays, the other fits no more.
    seed = next(s for s in range(1, 2000) if _race(s))
    s0, s1, k, _ = _race(seed)
    early, late = ("p0.stock%d" % s0, "p1.stock%d" % s1) if first == 0 else ("p1.stock%d" % s1, "p0.stock%d" % s0)
    replay = tmp_path / "race.txt"
    replay.write_text("500 p0.pile1\n900 p0.pile0\n900 p1.pile0\n1505 %s\n1520 %s\n" % (early, late))
    finals = []
    for loop in ("50", "5"):
        out = run(
            ["code.py"],
            {
                "SPIT_PROFILE": "pico-st7789-240",
                "SPIT_REPLAY": str(replay),
                "SPIT_SEED": str(seed),
                "SPIT_LOOP_MS": loop,
            },
        )
        assert out.returncode == 0, out.stderr
        finals.append(out.stdout.strip().splitlines()[-1])
    from engine.spit import Game

    g = Game.from_text(finals[0])
    stocks = (s0, 5 + s1)
    assert g.counts[stocks[first]] < Game(seed).counts[stocks[first]]  # the first press played its card
    assert g.counts[stocks[1 - first]] == Game(seed).counts[stocks[1 - first]]  # the later one did not
    assert finals[0] == finals[1]  # as when the loop reads every scan


@pytest.mark.parametrize("name,value", [("SPIT_CLOCK", "soon"), ("SPIT_LOOP_MS", "2"), ("SPIT_SCALE", "big")])
def test_a_bad_setting_is_a_clear_message(tmp_path, name, value):
    replay = tmp_path / "r.txt"
    replay.write_text("100 p0.pile1\n")
    env = {"SPIT_REPLAY": str(replay), name: value}
    if name == "SPIT_SCALE":
        env = {"SPIT_HEADLESS": "", name: value, "SDL_VIDEODRIVER": "offscreen"}
    out = run(["code.py"], env)
    assert out.returncode == 1 and name in out.stdout and "Traceback" not in out.stdout + out.stderr


def start_line():
    from helpers import position

    return position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D").text()


@pytest.mark.parametrize("as_file", [False, True])
def test_a_match_starts_at_a_given_position(tmp_path, as_file):
    from engine.spit import Game

    start = line = start_line()
    if as_file:
        (tmp_path / "pos.txt").write_text("# a bug report's position\n" + line + "\n")
        start = str(tmp_path / "pos.txt")
    replay = tmp_path / "r.txt"
    replay.write_text("300 p1.stock0  # 6H onto the 7C: the one pile it fits\n")
    out = run(["code.py"], {"SPIT_START": start, "SPIT_REPLAY": str(replay)})
    assert out.returncode == 0, out.stderr
    g = Game.from_text(line)
    assert g.play(1, 0) == 0
    assert out.stdout.strip().splitlines()[-1] == g.text()


def test_a_bad_start_position_says_what_is_wrong(tmp_path):
    out = run(["code.py"], {"SPIT_START": start_line().replace(" 9C", " 7C"), "SPIT_REPLAY": os.devnull})
    assert out.returncode == 1 and "SPIT_START" in out.stdout and "7C appears twice" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr
    out = run(["code.py"], {"SPIT_START": "chess 1", "SPIT_REPLAY": os.devnull})
    assert out.returncode == 1 and "starts with spit or speed" in out.stdout


@pytest.mark.parametrize("what", ["demo", "pause"])
def test_a_fast_replay_ends_alike_with_the_same_frames_as_stepping_every_scan(tmp_path, what):
    # A headless replay jumps over the scans where nothing can happen
    # (SPIT_FAST=0 steps every one): the computer's reactions, the flashes, a
    # pause chord held and its countdown all fall on the same scans.
    replay = tmp_path / "r.txt"
    if what == "demo":
        taps = ["p0.pile0", "p0.stock1"] + ["p0.pile0"] * 5 + ["p0.pile1"]
        replay.write_text("".join("%d %s\n" % (500 + 300 * i, t) for i, t in enumerate(taps)) + "90000 p0.stock4 up\n")
    else:
        replay.write_text(
            "500 p0.pile1\n900 p0.stock0\n900 p1.stock0\n1500 p0.pile0 down\n1500 p0.pile1 down\n"
            "2700 p0.pile0 up\n2700 p0.pile1 up\n3000 p0.stock1\n3300 p1.stock1\n7000 p1.stock2\n"
        )
    results = []
    for fast in ("1", "0"):
        frames = tmp_path / ("frames" + fast)
        out = run(
            ["code.py"],
            {
                "SPIT_PROFILE": "pico-st7789-320",
                "SPIT_REPLAY": str(replay),
                "SPIT_SEED": "9",
                "SPIT_FAST": fast,
                "SPIT_FRAMES": str(frames),
            },
        )
        assert out.returncode == 0, out.stderr
        results.append((out.stdout.strip().splitlines()[-1], [p.read_bytes() for p in sorted(frames.iterdir())]))
    assert results[0][0] == results[1][0]
    assert len(results[0][1]) > 5 and results[0][1] == results[1][1]
    # Without SPIT_FRAMES a fast replay draws only its last frame: the same.
    shot = tmp_path / "last.png"
    out = run(
        ["code.py"],
        {"SPIT_PROFILE": "pico-st7789-320", "SPIT_REPLAY": str(replay), "SPIT_SEED": "9", "SPIT_SHOT": str(shot)},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines() == [results[0][0]]  # the position, and no library's chatter
    assert out.stderr == ""
    assert shot.read_bytes() == results[1][1][-1]


def test_a_save_file_that_is_a_folder_is_one_clear_line(tmp_path):
    # SPIT_SAVE naming a folder, a file in a folder that cannot be
    # made: one line naming it, no traceback, nothing left behind.
    folder = tmp_path / "saves"
    folder.mkdir()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for save, says in ((folder, "is a folder"), (blocker / "nvm.bin", "cannot be made")):
        out = run(["code.py"], {"SPIT_REPLAY": os.devnull, "SPIT_SAVE": str(save)})
        assert out.returncode == 1
        lines = out.stdout.strip().splitlines()
        assert len(lines) == 1 and str(save) in lines[0] and says in lines[0], out.stdout
        assert "Traceback" not in out.stdout + out.stderr
    assert list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["file", "saves"]


def test_a_corrupt_save_file_is_one_line_naming_it(tmp_path):
    save = tmp_path / "nvm.bin"
    save.write_bytes(bytes(range(256)) * 16)
    replay = tmp_path / "r.txt"
    replay.write_text("300 p0.stock1\n600 p0.pile0\n900 end\n")  # an option changed: the settings are saved
    out = run(["code.py"], {"SPIT_REPLAY": str(replay), "SPIT_SAVE": str(save)})
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stdout.splitlines() if "saved data" in line]
    assert len(said) == 1 and said[0].startswith(str(save) + ": saved data at 0 ") and "ignored" in said[0], out.stdout
    assert "Traceback" not in out.stdout + out.stderr
    assert not (tmp_path / "nvm.bin.tmp").exists()
    from hardware.storage import SETTINGS, Store

    assert Store(bytearray(save.read_bytes()), say=lambda m: None).load(SETTINGS) is not None  # saved afresh


@pytest.mark.parametrize(
    "text,says",
    [
        ("100 p0.stock2\n1000000000000 p0.pile0\n", "line 2: 1000000000000 ms is past a replay's longest"),
        ("100 p0.stock2\n200 p0.pi\xe9le0\n", "line 2: not UTF-8 text"),
    ],
)
def test_absurd_or_unreadable_replay_lines_are_a_clear_message(tmp_path, text, says):
    # A line at 10**12 ms spun a core; a non-UTF-8 file named neither file nor line.
    replay = tmp_path / "bad.txt"
    replay.write_bytes(text.encode("latin-1"))
    out = run(["code.py"], {"SPIT_REPLAY": str(replay)})
    assert out.returncode == 1 and str(replay) in out.stdout and says in out.stdout, out.stdout
    assert "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_long_replay_can_be_interrupted(tmp_path, sig):
    # SDL turned SIGTERM and SIGINT into quit events a headless replay never
    # read: the process ignored them. Stepping every scan of an hour-long
    # replay, the signal now ends it (the timeout only guards against a hang).
    import signal
    import time

    replay = tmp_path / "long.txt"
    replay.write_text("300 p0.stock1\n3600000 end\n")
    e = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        SPIT_REPLAY=str(replay),
        SPIT_FAST="0",
    )
    proc = subprocess.Popen(
        [sys.executable, "code.py"], cwd=ROOT, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(2)
    assert proc.poll() is None  # still replaying its hour
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=60)
    if sig == "SIGTERM":
        assert proc.returncode == -signal.SIGTERM
    else:
        assert proc.returncode == 0 and "interrupted" in out and "Traceback" not in out + err


def test_a_settings_line_circuitpython_cannot_read_is_named_on_the_desktop_too(tmp_path, monkeypatch):
    from hardware import launch
    from hardware.profiles import SetupError

    path = tmp_path / "settings.toml"
    path.write_text('SPIT_PROFILE = pybadge\nSPIT_SEED = 3\nSPIT_START = "x" # ok\nOTHER = bare\n')
    with pytest.raises(SetupError, match='SPIT_PROFILE = pybadge cannot be read: write SPIT_PROFILE = "pybadge"'):
        launch.unreadable(str(path), False)
    monkeypatch.setenv("SPIT_PROFILE", "pybadge")  # the environment's wins on a desktop: the line is never read
    launch.unreadable(str(path), False)
    with pytest.raises(SetupError):
        launch.unreadable(str(path), True)  # (a board has no environment)


@pytest.mark.parametrize("name,value", [("SPIT_SEED", "xyz"), ("SPIT_START", "garbage")])
def test_every_setting_is_checked_before_the_window_and_the_sound_open(tmp_path, name, value, monkeypatch):
    from hardware import launch

    opened = []

    def open_io(profile, link):
        opened.append(profile)
        raise AssertionError("opened before the settings were checked")

    def held():
        raise SystemExit(1)

    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit):
        launch.start(False, open_io, os.environ.get, held, str(tmp_path / "none.toml"))
    assert opened == []
