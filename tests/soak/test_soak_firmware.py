"""The soak's runs on the real firmware in the emulated Pico (tools/picoemu.py;
skipped where the firmware and bootrom are absent, saying so):

- the 320x240 panel, whose picture displayio turns a quarter: a match from
  the menu, the same position and the same picture as on the desktop;
- a whole two-player Speed match from key events (tools/make_replay.py):
  the position the engine reaches, and the last picture, as on the desktop;
- a whole computer-against-computer Speed match (demo), on the ST7789 and
  on the OLED: the same final position as the desktop's, although the
  firmware's loop passes are slower and fewer (the computer keeps to its
  own clock);
- the wrong pins in a profile that make test tries on the VM: the firmware's
  own words in the message;
- when the firmware's keypad scans (make test checks the stand-ins' times,
  tests/test_stand_ins.py): events 37 ms apart stamped 35 to 38 ms apart.
"""

import os

import pytest
from test_board_vm import WRONG_PINS
from test_code_py import ROOT, run
from test_firmware import ABSENT, MATCH_KEYS, desktop, picoemu, same_as_desktop
from test_stand_ins import PRESS_EVERY_MS, STAND_INS, gaps

pytestmark = pytest.mark.skipif(ABSENT is not None, reason=ABSENT or "")


def test_the_320_panel_plays_and_shows_as_the_desktop(tmp_path):
    assert same_as_desktop(tmp_path, "pico-st7789-320", MATCH_KEYS, 5, 3500)[0].startswith("spit ")


def test_a_whole_speed_match_on_the_firmware(tmp_path):
    replay = tmp_path / "speed.txt"
    made = run(["tools/make_replay.py", str(replay), "--game", "speed", "--seed", "41", "--gap", "300"])
    assert made.returncode == 0, made.stderr
    expected = made.stdout.strip().splitlines()[-1]
    assert expected.startswith("speed over:")
    end = int(replay.read_text().strip().splitlines()[-1].split()[0]) + 2000
    keys = replay.read_text() + "%d end\n" % end
    assert same_as_desktop(tmp_path, "pico-st7789-240", keys, 41, end - 100)[0] == expected


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pico-ssd1306"])
def test_a_computer_match_on_the_firmware(tmp_path, profile):
    # Menu: Game -> Speed, down to Players, five changes to "demo", start.
    # (The OLED: its SSD1306 on the emulated I2C, which must have
    # been sent no command it does not know.)
    taps = ["p0.pile0", "p0.stock1"] + ["p0.pile0"] * 5 + ["p0.pile1"]
    replay = tmp_path / "demo.txt"
    replay.write_text("".join("%d %s\n" % (500 + 300 * i, t) for i, t in enumerate(taps)) + "60000 end\n")
    want, _ = desktop(tmp_path, profile, replay, 8)
    assert want.startswith("speed over:")
    got = picoemu.emulate(profile, str(replay), {"SPIT_SEED": 8}, work=str(tmp_path / "emu"))
    assert got.probe("position") == want, got.text()
    assert got.errors == []


@pytest.mark.parametrize("profile,edit,says", WRONG_PINS)
def test_wrong_pins_are_messages_on_the_firmware(tmp_path, profile, edit, says):
    # The VM's busio and keypad refuse these pins with the firmware's words
    # (test_board_vm.py); here the firmware itself does.
    text = open(os.path.join(ROOT, "hardware", "profiles.py")).read().replace(edit[0], edit[1])
    got = picoemu.emulate(
        profile,
        until_ms=100,
        probe=False,
        files={"hardware/profiles.py": text},
        source=True,
        work=str(tmp_path / "emu"),
        mark="Spit cannot start",
    )
    said = got.text()
    assert says in said and "Traceback" not in said, said


def test_the_firmware_scans_every_tick_of_1024_a_second(tmp_path):
    # keypad's interval of 0.001 s (the board's, hardware/buttons.py) is
    # int(1.024) = 1 tick of 1/1024 s: events 37 ms apart are 37 or 38 scans
    # apart, 36 to 38 ms (more now and then, when a scan comes a tick late:
    # the firmware's tick interrupt is set 977 us after the last one ran); a
    # scanner of 2 ticks would give 35 to 38, of 5 ticks 34 or 39.
    replay = tmp_path / "taps.txt"
    replay.write_text(
        "".join("%d p0.stock0 %s\n" % (100 + i * PRESS_EVERY_MS, "up" if i % 2 else "down") for i in range(20))
        + "900 end\n"
    )
    run = picoemu.emulate(
        replay=str(replay),
        code_py=os.path.join(STAND_INS, "scan_check.py"),
        mark="scan check ready",
        work=str(tmp_path / "emu"),
    )
    stamps = [int(line.split()[1]) for line in run.text().splitlines() if line.startswith("stamp ")]
    assert len(stamps) == 20 and sum(1 for g in gaps(stamps) if 36 <= g <= 38) >= 18, gaps(stamps)
