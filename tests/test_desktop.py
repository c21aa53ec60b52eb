"""The desktop window as a new player meets it."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import displayio  # noqa: E402
import pytest  # noqa: E402
from test_code_py import ROOT, run
from test_window import WALL_CLOCK, window_session_body  # noqa: E402

from desktop.io import DesktopIO  # noqa: E402
from desktop.keys import KEYBOARD, key_legend
from hardware import profiles  # noqa: E402
from hardware.profiles import SetupError


@pytest.mark.parametrize("name", sorted(profiles.PROFILES))
def test_the_window_title_says_whose_keys_are_which(tmp_path, name):
    # The window did not say which keyboard keys are whose.
    profile = profiles.get(name)
    legend = key_legend(profile)
    bottom, top = legend.split("; ")
    assert bottom.startswith("bottom: ") and top.startswith("top: ")
    layout = KEYBOARD["cursor" if profile["cursor"] else "handheld14"]
    for (player, _), letter in layout.items():
        assert (" %s " % letter) in " %s " % (bottom, top)[player].replace(",", " "), (letter, legend)
    # A linked window plays one player: its title lists only the keys that
    # work there (the other player's did nothing).
    (mine,) = key_legend(profile, linked=True).split("; ")
    assert mine == "you: " + bottom[len("bottom: ") :]
    replay = tmp_path / "r.txt"
    replay.write_text("100 end\n")
    cases = [({}, " - " + legend), ({"SPIT_LINK": "7799"}, " - linked by cable, port 7799 - " + mine)]
    if profile.get("espnow_radio"):  # a radio window names its player's keys too, and the radio
        cases.append(({"SPIT_LINK": "espnow", "SPIT_RADIO_PORT": "7799"}, " - linked by radio - " + mine))
    for env, want in cases:
        displayio.release_displays()
        io = DesktopIO(profile, dict(env, SPIT_REPLAY=str(replay)))
        try:
            assert io.caption.endswith(want)
        finally:
            io.close()


def test_the_pybadge_window_says_which_keys_are_its_named_buttons():
    # The menu says "A go", "B change": the title says which key is A (i),
    # not the keyboard's a, which is Left.
    legend = key_legend(profiles.get("pybadge"))
    assert legend == ("bottom: Left a Right d move, Up w Down s piles; top: Select j Start l move, B k A i piles"), (
        legend
    )


def test_a_save_file_that_is_not_the_games_is_refused_and_left_as_it_is(tmp_path):
    # SPIT_SAVE naming a copy of the README turned its 39 KB
    # into a 4 KB save, and naming the replay being played destroyed it. A
    # file that is not empty and not this game's save is refused in one line.
    readme = tmp_path / "README.md"
    readme.write_bytes(open(os.path.join(ROOT, "README.md"), "rb").read())
    replay = tmp_path / "r.txt"
    replay.write_text("300 p0.stock1\n600 p0.pile0\n900 p0.pile1\n1500 end\n")  # an option changed, then go
    for victim in (readme, replay):
        before = victim.read_bytes()
        out = run(["code.py"], {"SPIT_REPLAY": str(replay), "SPIT_SAVE": str(victim)})
        assert out.returncode == 1
        lines = out.stdout.strip().splitlines()
        assert len(lines) == 1 and str(victim) in lines[0] and "not this game's save" in lines[0], out.stdout
        assert "Traceback" not in out.stdout + out.stderr
        assert victim.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "r.txt"]
    # An empty file, and the game's own save, are used.
    save = tmp_path / "nvm.bin"
    save.write_bytes(b"")
    for _ in range(2):
        out = run(["code.py"], {"SPIT_REPLAY": str(replay), "SPIT_SAVE": str(save)})
        assert out.returncode == 0, out.stdout + out.stderr
        assert len(save.read_bytes()) == 4096


def test_a_bad_setting_is_one_line_before_the_replay_runs(tmp_path):
    # The whole replay ran, then a 10-line traceback (SPIT_SHOT, SPIT_SOUND_LOG),
    # or a traceback at once (SPIT_SPEED): every setting is checked at start-up.
    replay = tmp_path / "r.txt"
    replay.write_text("300 p0.stock1\n900 end\n")
    listing = tmp_path / "listing.txt"
    listing.write_text("x")
    for name, value, says in (
        ("SPIT_SHOT", tmp_path, "is a folder"),
        ("SPIT_SHOT", tmp_path / "no" / "shot.png", "does not exist"),
        ("SPIT_FRAMES", listing, "is a file"),
        ("SPIT_FRAMES", listing / "frames", "the folder cannot be made"),
        ("SPIT_SOUND_LOG", tmp_path, "is a folder"),
        ("SPIT_SOUND_LOG", tmp_path / "no" / "sounds.txt", "does not exist"),
        ("SPIT_SPEED", "abc", "SPIT_SPEED is a number from 0 to 1000"),
        ("SPIT_SPEED", "-1", "SPIT_SPEED is a number from 0 to 1000"),
        ("SPIT_SCALE", "0", "SPIT_SCALE is a whole number from 1 to 16"),
        ("SPIT_LOOP_MS", "fast", "SPIT_LOOP_MS is a whole number"),
        ("SPIT_SEED", "x1", "SPIT_SEED must be a whole number"),
    ):
        out = run(["code.py"], {"SPIT_REPLAY": str(replay), name: str(value)})
        assert out.returncode == 1
        lines = out.stdout.strip().splitlines()
        assert len(lines) == 1 and str(value) in lines[0] and says in lines[0], out.stdout
        assert "Traceback" not in out.stdout + out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["listing.txt", "r.txt"]


# Each picture the window draws costs 12 ms of the wall clock's (a big window
# scaled and flipped), more than a 5 ms pass.
SLOW_DRAWING = (
    "draw = io.display.refresh\n"
    "drawn = [0]\n"
    "def slow_refresh(*a, **k):\n"
    "    wall.now += 0.012\n"
    "    drawn[0] += 1\n"
    "    return draw(*a, **k)\n"
    "io.display.refresh = slow_refresh\n"
)


def test_the_window_keeps_to_the_wall_clock_when_drawing_is_slow(tmp_path):
    # While recording, keys pressed 10 s apart were 7.5 s
    # apart in the game, and SPIT_WATCH with SPIT_SPEED=4 took as long as speed
    # 1: a pass waited for its picture. Now a pass behind the wall clock skips
    # its picture (at least ten are drawn a second) and the passes catch up,
    # on their grid, so the recording still replays the same.
    script = tmp_path / "record.py"
    script.write_text(
        WALL_CLOCK
        + window_session_body(
            SLOW_DRAWING + "start = None\n"
            "worst = 0\n"
            "while io.running and io.now_ms < 10000:\n"
            "    io.pump()\n"
            "    start = wall.now - io.now_ms / 1000.0 if start is None else start\n"
            "    worst = max(worst, (wall.now - start) * 1000.0 - io.now_ms)\n"
            "    if io.now_ms in (3000, 3100, 8000):\n"
            "        code = pygame.key.key_code('x' if io.now_ms < 8000 else 'z')\n"
            "        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code))\n"
            "        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code))\n"
            "    app.step(io.ticks_ms())\n"
            "    io.refresh()\n"
            "io.finish()\n"
            "print('behind %d ms at worst, %d pictures in %.1f s' % (worst, drawn[0], wall.now - start))\n"
        )
    )
    record = tmp_path / "keys.txt"
    out = run([str(script)], {"SPIT_RECORD": str(record), "SPIT_SEED": "4"})
    assert out.returncode == 0, out.stderr
    words = out.stdout.strip().splitlines()[-1].split()
    behind, pictures, seconds = int(words[1]), int(words[5]), float(words[8])
    assert behind <= 20 and abs(seconds - 10.0) < 0.05, out.stdout  # game time is wall time, to a few passes
    assert pictures >= 10 * 10 - 5, out.stdout  # still at least ten pictures a second
    times = [int(line.split()[0]) for line in record.read_text().splitlines() if line[0].isdigit()]
    assert times[0] % 5 == 0 and times[-1] == 10000  # on the 5 ms grid of passes, ending where the session did
    down = [int(line.split()[0]) for line in record.read_text().splitlines() if line.endswith(" down")]
    assert down[-1] - down[0] == 5000, down  # the keys 5 s apart on the wall clock are 5 s apart in the game


def test_a_watched_replay_keeps_its_speed_when_drawing_is_slow(tmp_path):
    replay = tmp_path / "r.txt"
    replay.write_text("300 p0.pile1\n900 p0.stock0\n1000 p1.stock0\n1500 p0.pile0\n4000 end\n")
    script = tmp_path / "watch.py"
    script.write_text(
        WALL_CLOCK
        + window_session_body(
            SLOW_DRAWING + "start = wall.now\n"
            "while io.running and not io.held:\n"
            "    io.pump()\n"
            "    app.step(io.ticks_ms())\n"
            "    io.refresh()\n"
            "print('over at %d ms after %d ms' % (io.now_ms, round((wall.now - start) * 1000)))\n"
            "print(app.game.text())\n"
        )
    )
    watched = run([str(script)], {"SPIT_REPLAY": str(replay), "SPIT_WATCH": "1", "SPIT_SPEED": "4", "SPIT_SEED": "3"})
    assert watched.returncode == 0, watched.stderr
    lines = watched.stdout.strip().splitlines()
    words = lines[-2].split()
    assert words[2] == "4000" and 1000 <= int(words[5]) <= 1050, lines  # 4 s of replay in 1 s, not 4
    fast = run(["code.py"], {"SPIT_REPLAY": str(replay), "SPIT_SEED": "3"})
    assert lines[-1] == fast.stdout.strip().splitlines()[-1]


class FakePygame:
    # pygame.display as far as window_scale asks it: a monitor of a given size.
    error = RuntimeError

    def __init__(self, size):
        self.display = self
        self._size = size

    def init(self):
        pass

    def get_desktop_sizes(self):
        return [self._size]


def test_the_window_scale_fits_the_monitor():
    from desktop.window import window_scale

    board = profiles.get("pico-st7789-240")
    assert window_scale(board, {}, FakePygame((1920, 1080))) == 3  # 720 pixels
    assert window_scale(board, {}, FakePygame((1024, 600))) == 2  # 720 would not fit
    assert window_scale(profiles.get("pico-ssd1306"), {}, FakePygame((1920, 1080))) == 6
    assert window_scale(board, {"SPIT_SCALE": "5"}, FakePygame((800, 600))) == 5  # chosen
    with pytest.raises(SetupError, match="SPIT_SCALE"):
        window_scale(board, {"SPIT_SCALE": "big"}, FakePygame((800, 600)))
