"""The game on the real CircuitPython firmware: CircuitPython 10's own Pico build
in an emulated RP2040 (tools/picoemu.py), with the drive make flash writes,
buttons pressed on the profile's GPIOs and the ST7789's picture read back.

The firmware and the bootrom are not in the repository (see tools/picoemu.py):
where they are absent these tests are skipped, saying so."""

import os
import sys

import pytest
from test_code_py import ROOT, run

sys.path.insert(0, os.path.join(ROOT, "tools"))
import picoemu  # noqa: E402

try:
    picoemu.firmware()
    ABSENT = None
except picoemu.Missing as e:
    ABSENT = str(e)

pytestmark = pytest.mark.skipif(ABSENT is not None, reason=ABSENT or "")


def rgb565(image):
    # The picture as the panel's 16-bit colours (the desktop draws 24-bit ones).
    raw = image.convert("RGB").tobytes()
    return [(raw[i] >> 3, raw[i + 1] >> 2, raw[i + 2] >> 3) for i in range(0, len(raw), 3)]


def desktop(tmp_path, profile, replay, seed, start=None):
    # The same replay headless on the desktop: its final position and last frame.
    from PIL import Image

    shot = tmp_path / "desktop.png"
    env = {"SPIT_PROFILE": profile, "SPIT_REPLAY": str(replay), "SPIT_SEED": str(seed), "SPIT_SHOT": str(shot)}
    if start:
        env["SPIT_START"] = start
    out = run(["code.py"], env)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1], Image.open(shot)


def lit(image):
    # Which pixels an SSD1306 lights for a picture: luma 128 and up, as the
    # firmware's displayio turns colours into its one bit.
    raw = image.convert("RGB").tobytes()
    return [(raw[i] * 19 + raw[i + 1] * 182 + raw[i + 2] * 54) // 255 >= 128 for i in range(0, len(raw), 3)]


def same_as_desktop(tmp_path, profile, keys, seed, frame_ms, start=None, bundle=None):
    """keys (a replay's lines, its end among them) on the desktop and on the
    firmware, the picture saved frame_ms after the firmware's loop began:
    the same position, no emulated part refused a command, and the same
    picture pixel for pixel (the OLED's: the same pixels lit). Returns
    (position, the firmware's Run, its picture). bundle: a folder the
    firmware's drive is copied from instead of what make flash writes."""
    replay = tmp_path / "r.txt"
    replay.write_text(keys)
    want, frame = desktop(tmp_path, profile, replay, seed, start=start)
    settings, files = {"SPIT_SEED": seed}, {}
    if start:
        settings["SPIT_START"] = "/start.txt"
        files["start.txt"] = start + "\n"
    got = picoemu.emulate(
        profile, str(replay), settings, files, frames=(frame_ms,), work=str(tmp_path / "emu"), bundle=bundle
    )
    assert got.probe("position") == want, got.text()
    assert got.errors == []
    picture = picoemu.picture(got.frames[-1][1], picoemu.profiles.get(profile))
    picture.save(str(tmp_path / "firmware.png"))
    same = lit if picoemu.profiles.get(profile)["display"] == "ssd1306" else rgb565
    assert same(picture) == same(frame)
    return want, got, picture


MATCH_KEYS = (
    "300 p0.pile1\n1200 p0.stock0\n1300 p1.stock0\n2000 p0.stock1\n2100 p1.stock2\n"
    "2600 p0.stock3\n2700 p1.pile0\n3100 p1.stock4\n3600 end\n"
)


def test_a_match_started_from_the_menu_plays_on_the_firmware_as_on_the_desktop(tmp_path):
    # Boot, the menu, "go", both call spit (D-4), a few presses of both
    # players: the position the engine reaches on the desktop, and the very
    # same picture, pixel for pixel (fonts and sprites are the same).
    want, got, _ = same_as_desktop(tmp_path, "pico-st7789-240", MATCH_KEYS, 5, 3500)
    assert want.startswith("spit ")
    # The figures the probe reads are there: heap at the top and kept, start-up.
    top, ready, drawn = got.probe("top").split(), got.probe("ready").split(), got.probe("drawn").split()
    assert int(top[1]) > int(ready[2]) > 0 and int(drawn[0]) > int(top[0])
    assert [first for _, first, _ in got.press_to_pixels()].count(None) < len(got.press_to_pixels())


def test_an_oled_match_from_the_menu_plays_on_the_firmware_as_on_the_desktop(tmp_path):
    # The SSD1306 on the emulated Pico's I2C (GP26/GP27, 0x3C, 400
    # kHz). The same replay as the ST7789's: the firmware's position is the
    # desktop's, its glass the desktop's picture pixel for pixel, and the
    # OLED was sent no command it does not know.
    want, got, _ = same_as_desktop(tmp_path, "pico-ssd1306", MATCH_KEYS, 5, 3500)
    assert want.startswith("spit ")
    assert [first for _, first, _ in got.press_to_pixels()].count(None) < len(got.press_to_pixels())


@pytest.mark.parametrize(
    "scene,keys",
    [
        ("pause", "500 p0.pile0 down\n500 p0.pile1 down\n1700 p0.pile0 up\n1700 p0.pile1 up\n"),
        ("over", "500 p0.stock0\n"),  # the bottom player's last card: the winning play, then game over
    ],
)
def test_the_oled_pause_and_game_over_on_the_firmware_as_on_the_desktop(tmp_path, scene, keys):
    # The scenes on the SSD1306, their first page (seats facing:
    # each player's copy of the words, a page at a time), as the desktop draws them.
    from helpers import position

    start = position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", spit1="3D").text()
    _, _, picture = same_as_desktop(tmp_path, "pico-ssd1306", keys + "3000 end\n", 3, 2900, start=start)
    assert any(lit(picture))


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pico-ssd1306"])
def test_a_project_bundle_boots_to_the_menu_and_plays_on_the_firmware(tmp_path, profile):
    # make bundle's zip, its "CircuitPython 10.x" folder unzipped as a maker
    # does: the menu, a match started and played, as on the desktop.
    import zipfile

    import bundle

    folder, prefix = tmp_path / "unzipped", "spit-%s/CircuitPython 10.x/" % profile
    with zipfile.ZipFile(bundle.build(profile, str(tmp_path / "dist"))) as z:
        for name in z.namelist():
            if name.startswith(prefix):
                (folder / name[len(prefix) :]).parent.mkdir(parents=True, exist_ok=True)
                (folder / name[len(prefix) :]).write_bytes(z.read(name))
    want, got, _ = same_as_desktop(tmp_path, profile, MATCH_KEYS, 5, 3500, bundle=str(folder))
    assert want.startswith("spit ") and got.errors == []


def test_a_stock_played_out_shows_the_table_on_the_firmware_as_on_the_desktop(tmp_path):
    # SP-6's empty place: player 0 plays stock 0's only card (8D fits both
    # piles: chosen, then pile 0), and the firmware draws the table where it
    # was (its paper, rank and suit grids hidden), the very picture the
    # desktop draws, pixel for pixel.
    start = (
        "spit play - 1 0:0 1.1.1 8D/9h,2C/2D/2H/2S 3c 6H/9s,10S/5H/5S/4C 3d AC,5C,6C,8C,10C,JC,QC,KC,"
        "AD,4D,5D,6D,7D,9D,10D,JD,QD,KD,AH,3H,4H,7H,8H,10H,JH,QH,KH,AS,3S,4S,6S,7S,8S,JS,QS,KS,7C 9C"
    )
    want, _, _ = same_as_desktop(
        tmp_path, "pico-st7789-240", "600 p0.stock0\n900 p0.pile0\n1500 end\n", 3, 1400, start=start
    )
    assert want.split()[6].startswith("-/"), want  # stock 0 is empty


def test_a_missing_library_is_a_message_on_the_firmware(tmp_path):
    # The OLED profile's drive without its display driver: the board says what
    # to do, no traceback (the Pico has no screen before the driver is loaded).
    got = picoemu.emulate(
        "pico-ssd1306",
        until_ms=100,
        probe=False,
        without=("lib/adafruit_displayio_ssd1306",),
        work=str(tmp_path / "emu"),
        mark="Spit cannot start",
    )
    text = got.text()
    assert "Spit cannot start: Library adafruit_displayio_ssd1306 is missing from CIRCUITPY/lib" in text, text
    assert "Traceback" not in text


@pytest.mark.parametrize(
    "pull_ups,says",
    [
        (False, "The OLED's I2C bus does not answer on SDA GP26, SCL GP27"),
        (True, "No OLED answers at I2C address 0x3C on SDA GP26, SCL GP27"),
    ],
)
def test_oled_wiring_faults_are_messages_on_the_firmware(tmp_path, pull_ups, says):
    # The firmware's busio.I2C raises when SDA or SCL has no pull-up, and
    # I2CDisplayBus when nothing answers at the address (no OLED on the
    # lines): each is a message saying what to check, no traceback.
    got = picoemu.emulate(
        "pico-ssd1306",
        until_ms=100,
        probe=False,
        pull_ups=pull_ups,
        oled=False,
        work=str(tmp_path / "emu"),
        mark="Spit cannot start",
    )
    text = got.text()
    assert says in text, text
    assert "Traceback" not in text


def test_an_oled_at_another_address_is_a_message_on_the_firmware(tmp_path):
    # The emulated SSD1306 answers only at its own address, as a
    # real one does: a profile that names another gets the message.
    text = open(os.path.join(ROOT, "hardware", "profiles.py")).read()
    assert '"address": 0x3C' in text
    got = picoemu.emulate(
        "pico-ssd1306",
        until_ms=100,
        probe=False,
        source=True,
        work=str(tmp_path / "emu"),
        files={"hardware/profiles.py": text.replace('"address": 0x3C', '"address": 0x3D')},
        mark="Spit cannot start",
    )
    said = got.text()
    assert "No OLED answers at I2C address 0x3D on SDA GP26, SCL GP27" in said and "Traceback" not in said, said


def test_a_setup_fault_after_the_display_opened_is_on_the_firmware_screen(tmp_path):
    # The card pictures are missing from the drive: the ST7789 is open, so the
    # message is drawn there at once, the very picture the desktop draws of it.
    import displayio
    from PIL import Image

    from desktop.window import pygame_display_class
    from hardware.message import group as message

    got = picoemu.emulate(
        "pico-st7789-240",
        until_ms=900,
        frames=(900,),
        probe=False,
        mark="Spit cannot start",
        without=("hardware/sprites-large-cards.bmp",),
        work=str(tmp_path / "emu"),
    )
    said = [line for _, line in got.console if line.startswith("Spit cannot start: ")][-1]
    assert "card pictures sprites-large-cards.bmp are missing" in said
    picture = picoemu.picture(got.frames[-1][1], picoemu.profiles.get("pico-st7789-240"))
    picture.save(str(tmp_path / "firmware.png"))
    displayio.release_displays()
    display = pygame_display_class()(width=240, height=240, auto_refresh=False)
    display.root_group = message(said[len("Spit cannot start: ") :], 240, 240)
    display.refresh()
    import pygame

    desk = Image.frombytes("RGB", (240, 240), pygame.image.tobytes(display._pygame_screen, "RGB"))
    assert rgb565(picture) == rgb565(desk)


def test_the_heap_is_one_area_from_the_start_and_never_grows(tmp_path):
    # CircuitPython 10.2.1 grows its heap in areas and can free an area that
    # still holds a live object (docs/firmware.md). make flash writes
    # CIRCUITPY_HEAP_START_SIZE for a Pico: the heap is one area from the
    # start (its size the setting's, but for the area's tables), and the
    # menu and a match with presses never add one.
    from flash import HEAP_START

    keys = "200 p0.pile1\n" + "".join(
        "%d p0.stock%d\n%d p0.pile0\n" % (2000 + 700 * k, k % 5, 2300 + 700 * k) for k in range(8)
    )
    replay = tmp_path / "keys.txt"
    replay.write_text(keys + "8000 end\n")
    got = picoemu.emulate(
        "pico-st7789-240", str(replay), {"SPIT_SEED": "3", "SPIT_PROBE_MS": 7800}, work=str(tmp_path / "emu")
    )
    top = int(got.probe("top").split()[2])
    end = int(got.probe("end").split()[3])
    assert HEAP_START["pico-st7789-240"] * 96 // 100 <= top < HEAP_START["pico-st7789-240"], top
    assert end <= top, (top, end)
