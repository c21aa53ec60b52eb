"""The simulator's window (desktop/io.py, desktop/window.py): games typed and
recorded in it replay the same, a watched replay keeps time, the libraries' chatter
stays out of the terminal."""

import os

from test_code_py import ROOT, run


def window_session_body(body):
    """The text of a script that runs code.py's start() as code.py would,
    then body (a loop of its own over io and app, with pygame imported)."""
    return (
        "import importlib.util, os, sys\n"
        "sys.path.insert(0, %r)\n"
        "spec = importlib.util.spec_from_file_location('spit_main', os.path.join(%r, 'code.py'))\n"
        "main = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(main)\n"
        "import pygame\n"
        "io, app = main.start()\n" % (ROOT, ROOT) + body
    )


def window_session(path, body):
    """A session in the window driven from inside: window_session_body in a
    file. Returns the path."""
    path.write_text(window_session_body(body))
    return path


def typed_session(path, keys, until_ms):
    """A window session (window_session) whose keyboard types keys ({ms:
    key}) until until_ms, then prints the final position."""
    return window_session(
        path,
        "keys = %r\n"
        "while io.running and io.now_ms < %d:\n"
        "    key = keys.get(io.now_ms)\n"
        "    if key:\n"
        "        code = pygame.key.key_code(key)\n"
        "        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code))\n"
        "        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code))\n"
        "    io.pump()\n"
        "    app.step(io.ticks_ms())\n"
        "    io.refresh()\n"
        "io.finish()\n"
        "print(app.game.text())\n" % (keys, until_ms),
    )


def test_a_game_recorded_in_the_window_replays_the_same(tmp_path):
    # A session in the window (SDL's dummy video), keys from pygame's event
    # queue, recorded with SPIT_RECORD; its replay ends in the same position
    # with the same frames.
    script = typed_session(
        tmp_path / "session.py",
        {300: "x", 700: "a", 710: "h", 1200: "g", 1300: "s", 1400: "z", 1500: "d", 1600: "j", 1700: "k"},
        3500,
    )
    record = tmp_path / "keys.txt"
    live = run(
        [str(script)],
        {"SPIT_RECORD": str(record), "SPIT_FRAMES": str(tmp_path / "live"), "SPIT_SAVE": str(tmp_path / "unused.bin")},
    )
    assert live.returncode == 0, live.stderr
    header = record.read_text().splitlines()[1]
    settings = dict(w.split("=", 1) for w in header.split() if w.startswith("SPIT_") and "REPLAY" not in w)
    assert settings["SPIT_PROFILE"] == "pico-st7789-240" and settings["SPIT_SEED"].isdigit()
    lines = [line.split("#")[0].split() for line in record.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) >= 10 and lines[-1] == ["3500", "end"]  # it stops where the session did
    assert [int(w[0]) for w in lines] == sorted(int(w[0]) for w in lines)  # in time order, as replays must be
    again = run(["code.py"], dict(settings, SPIT_REPLAY=str(record), SPIT_FRAMES=str(tmp_path / "again")))
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().splitlines()[-1] == live.stdout.strip().splitlines()[-1]
    live_frames = sorted(os.listdir(tmp_path / "live"))
    assert len(live_frames) > 3 and live_frames == sorted(os.listdir(tmp_path / "again"))
    for name in live_frames:
        assert (tmp_path / "live" / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name


# A wall clock of the test's own for the desktop's window: it moves only when
# the program sleeps (or the test moves it).
WALL_CLOCK = (
    "import sys\n"
    "sys.path.insert(0, %r)\n"
    "import time\n"
    "import desktop.io\n"
    "import desktop.window\n"
    "class Wall:\n"
    "    now = 100.0\n"
    "    def monotonic(self):\n"
    "        return self.now\n"
    "    def sleep(self, s):\n"
    "        self.now += s\n"
    "    def __getattr__(self, name):\n"
    "        return getattr(time, name)\n"
    "wall = desktop.io.time = desktop.window.time = Wall()\n" % ROOT
)


def test_a_watched_replay_keeps_time_and_its_last_frame_until_esc(tmp_path):
    # SPIT_WATCH=1 plays a replay in the window at its own speed (SPIT_SPEED
    # times it); at its end the window stays, the clock standing, until Esc.
    # Its pace is read against a wall clock of the test's own that moves only
    # when the replay sleeps (and by 0.3 s of start-up before the first pass,
    # which must not count): at every pass the replay's ms are SPIT_SPEED
    # times the wall time since the first pass, to the scan.
    replay = tmp_path / "r.txt"
    replay.write_text("300 p0.pile1\n900 p0.stock0\n1000 p1.stock0\n1500 p0.pile0\n2000 end\n")
    script = tmp_path / "watch.py"
    script.write_text(
        WALL_CLOCK
        + window_session_body(
            "wall.now += 0.3\n"  # the display and the App took their time
            "passes = 0\n"
            "first = None\n"
            "worst = 0\n"
            "while io.running:\n"
            "    io.pump()\n"
            "    if first is None:\n"
            "        first = wall.now - io.now_ms / 4000.0\n"
            "    worst = max(worst, abs(io.now_ms - (wall.now - first) * 4000.0))\n"
            "    app.step(io.ticks_ms())\n"
            "    io.refresh()\n"
            "    if io.held:\n"
            "        if passes == 0:\n"
            "            waited = round((wall.now - first) * 1000)\n"
            "            print('over at %d ms after %d ms waited, %d ms off at worst' % (io.now_ms, waited, worst))\n"
            "            print(pygame.display.get_caption()[0])\n"
            "        passes += 1\n"
            "        if passes == 10:\n"
            "            print('still at %d ms' % io.now_ms)\n"
            "            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))\n"
            "print(app.game.text())\n"
        )
    )
    watched = run([str(script)], {"SPIT_REPLAY": str(replay), "SPIT_WATCH": "1", "SPIT_SPEED": "4", "SPIT_SEED": "3"})
    assert watched.returncode == 0, watched.stderr
    lines = watched.stdout.strip().splitlines()
    over = [line for line in lines if line.startswith("over at")][0]
    words = over.split()
    assert words[2] == "2000" and words[5] == "500"  # 2 s of replay at 4 times its speed
    assert int(words[8]) < 5 * 4  # never a scan ahead of or behind its pace
    assert "the replay is over, Esc quits" in lines[lines.index(over) + 1]
    assert "still at 2000 ms" in lines  # the clock stood while the last frame stayed
    fast = run(["code.py"], {"SPIT_REPLAY": str(replay), "SPIT_SEED": "3"})
    assert lines[-1] == fast.stdout.strip().splitlines()[-1] and lines[-1].startswith("spit play")


def test_library_chatter_is_kept_out_of_the_terminal_and_nothing_else():
    # What libasound writes to stderr (from C) and Blinka prints while they
    # start; after that the terminal is as it was.
    script = (
        "import os, sys\n"
        "from desktop.window import Quiet\n"
        "with Quiet():\n"
        "    print('chatter')\n"
        "    os.write(2, b'ALSA lib cannot find card\\n')\n"
        "print('after')\n"
        "os.write(2, b'error after\\n')\n"
    )
    out = run(["-c", script], {"PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == "after\n" and out.stderr == "error after\n"


def test_a_recording_made_with_a_save_file_replays_the_same_game(tmp_path):
    # With SPIT_SAVE set, the recorded session started from the saved
    # settings (here: Speed) while its replay started from the defaults. The
    # recording now carries the saved data it started from (its nvm line).
    save = tmp_path / "nvm.bin"
    chose = tmp_path / "choose.txt"
    chose.write_text("300 p0.pile0\n600 end\n")  # the menu's first line: Spit -> Speed, saved
    assert run(["code.py"], {"SPIT_REPLAY": str(chose), "SPIT_SAVE": str(save)}).returncode == 0
    script = typed_session(
        tmp_path / "session.py", {300: "x", 900: "a", 910: "h", 1500: "a", 1600: "s", 1700: "h", 1800: "j"}, 2500
    )
    record = tmp_path / "keys.txt"
    live = run([str(script)], {"SPIT_RECORD": str(record), "SPIT_SAVE": str(save), "SPIT_SEED": "4"})
    assert live.returncode == 0, live.stderr
    played = live.stdout.strip().splitlines()[-1]
    assert played.startswith("speed ")  # the saved choice
    assert any(line.startswith("nvm ") for line in record.read_text().splitlines())
    again = run(["code.py"], {"SPIT_REPLAY": str(record), "SPIT_SEED": "4"})
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().splitlines()[-1] == played
    refused = run(["code.py"], {"SPIT_REPLAY": str(record), "SPIT_SAVE": str(save)})
    assert refused.returncode == 1 and "leave SPIT_SAVE out" in refused.stdout


def test_every_tap_typed_in_the_window_counts(tmp_path):
    # Taps the window reads in one batch (typed while a pass was drawing, or
    # a key's auto-repeat) are each a press: none may fall inside the
    # scanner's debounce or the Controls' bounce lockout and be lost (3 of 60
    # quick menu taps were).
    script = window_session(
        tmp_path / "taps.py",
        "code = pygame.key.key_code('s')\n"  # player 0's stock 1: down the menu
        "for burst in (7, 5, 9):\n"
        "    for _ in range(burst):\n"
        "        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code))\n"
        "        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code))\n"
        "    for _ in range(150):\n"
        "        io.pump()\n"
        "        app.step(io.ticks_ms())\n"
        "        io.refresh()\n"
        "io.finish()\n"
        "print(app.controls.presses, app.scene.item, len(app.scene.items()))\n",
    )
    out = run([str(script)], {"SPIT_RECORD": str(tmp_path / "taps.txt"), "SPIT_SAVE": str(tmp_path / "none.bin")})
    assert out.returncode == 0, out.stderr
    presses, item, items = map(int, out.stdout.split()[-3:])
    assert presses == 21 and item == 21 % items, out.stdout
    from desktop.keys import TAP_SPACING_MS
    from hardware.controls import Controls

    assert TAP_SPACING_MS >= Controls.LOCKOUT_MS + 2 * 5  # the lockout, and two scans' debounce either side


def test_a_corrupt_default_save_is_moved_aside_in_one_line_and_a_new_one_started(tmp_path):
    home = tmp_path / "home"
    (home / ".spit").mkdir(parents=True)
    (home / ".spit" / "nvm.bin").write_bytes(b"not a save of the game\n" * 9)
    script = window_session(tmp_path / "s.py", "io.finish()\n")
    env = {"HOME": str(home)}
    out = run([str(script)], env)
    assert out.returncode == 0, out.stderr
    said = [t for t in out.stdout.splitlines() if "moved to" in t]
    assert len(said) == 1 and "nvm.bin.corrupt-1" in said[0] and "Traceback" not in out.stdout + out.stderr
    assert (home / ".spit" / "nvm.bin.corrupt-1").read_bytes() == b"not a save of the game\n" * 9
    assert run([str(script)], env).returncode == 0  # and the new one is the game's
    assert not (home / ".spit" / "nvm.bin.corrupt-2").exists()


def test_a_window_opens_with_the_seats_side_by_side_and_the_menu_still_turns_them(tmp_path):
    # A monitor stands in front of both players: player 1's half upright, their
    # stock 1 at the left, on a Pico profile whose board faces them.
    from hardware.app import FACING

    script = window_session(tmp_path / "s.py", "print('style', app.style)\nio.finish()\n")
    for seats, facing in ((None, False), ("facing", True), ("board", True)):
        env = {"SPIT_SAVE": str(tmp_path / ("%s.bin" % seats)), "SPIT_PROFILE": "pico-st7789-240"}
        if seats:
            env["SPIT_SEATS"] = seats
        out = run([str(script)], env)
        assert out.returncode == 0, out.stderr
        style = int([t for t in out.stdout.splitlines() if t.startswith("style ")][0].split()[1])
        assert bool(style & FACING) == facing, (seats, out.stdout)
    bad = run([str(script)], {"SPIT_SEATS": "upside"})
    assert bad.returncode != 0 and "SPIT_SEATS is side_by_side, facing or board" in bad.stdout + bad.stderr
