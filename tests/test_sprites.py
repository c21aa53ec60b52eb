"""The sprite sheets the board loads: what the tool draws, what the board
keeps in RAM, and a message when one is missing or damaged."""

import os

import displayio
import pytest
from screens import (
    HARDWARE,
    InFile,
)

from desktop.window import pygame_display_class
from hardware import profiles, sprites
from hardware.profiles import SetupError
from hardware.screen import Screen


def test_a_missing_or_damaged_sheet_is_a_message(tmp_path):
    profile = profiles.get("pybadge")
    displayio.release_displays()
    display = pygame_display_class()(width=160, height=128, auto_refresh=False)
    with pytest.raises(SetupError, match="sprites-medium-cards.bmp are missing or damaged.*make flash"):
        Screen(display, profile, folder=str(tmp_path))
    for part in sprites.PARTS:
        name = sprites.file_name("medium", part)
        with open(os.path.join(HARDWARE, name), "rb") as f:
            data = f.read()
        (tmp_path / name).write_bytes(data)
    glyphs = tmp_path / sprites.file_name("medium", "glyphs")  # a sheet left on flash
    good = glyphs.read_bytes()
    glyphs.write_bytes(b"XX" + good[2:])  # not a BMP
    with pytest.raises(SetupError, match="sprites-medium-glyphs.bmp are missing or damaged"):
        Screen(display, profile, folder=str(tmp_path))
    glyphs.write_bytes(good[:18] + (7).to_bytes(4, "little") + good[22:])  # a BMP of the wrong size
    with pytest.raises(SetupError, match="sprites-medium-glyphs.bmp are damaged"):
        Screen(display, profile, folder=str(tmp_path))
    glyphs.write_bytes(good)
    rows = tmp_path / sprites.file_name("medium", "rows")  # read into RAM with its colours
    good = rows.read_bytes()
    rows.write_bytes(good[:46] + (5).to_bytes(4, "little") + good[50:])  # more colours than two bits hold
    with pytest.raises(SetupError, match="sprites-medium-rows.bmp are missing or damaged .5 colours"):
        Screen(display, profile, folder=str(tmp_path))
    rows.write_bytes(good)
    ranks = tmp_path / sprites.file_name("medium", "ranks")  # an inked sheet, read into RAM
    whole = ranks.read_bytes()
    for bad in (whole[:300], whole[:18] + (7).to_bytes(4, "little") + whole[22:], b"XX" + whole[2:]):
        ranks.write_bytes(bad)  # cut short, the wrong size, not a BMP
        with pytest.raises(SetupError, match="sprites-medium-ranks.bmp are missing or damaged.*make flash"):
            Screen(display, profile, folder=str(tmp_path))
    ranks.write_bytes(whole)
    Screen(display, profile, folder=str(tmp_path))  # whole again


@pytest.mark.parametrize("name", ["pico-st7789-240", "pybadge", "pico-ssd1306"])
def test_the_sheets_in_ram_are_their_files(name):
    # bitmaptools.readinto's rows, nibbles and row order: every pixel of the
    # RAM sheets (the paper, the inked ranks and suits) is the file's.
    displayio.release_displays()
    profile = profiles.get(name)
    screen = Screen(
        pygame_display_class()(width=profile["width"], height=profile["height"], auto_refresh=False), profile
    )
    values = {
        "cards": {sprites.PAPER_TABLE, sprites.PAPER_FILL, sprites.PAPER_EDGE, sprites.PAPER_MARK},
        "ranks": {0, sprites.INKED_PAPER, sprites.INKED_INK},
        "rows": {0, 1, 2} if screen.colour else {0, 1},
    }  # the table, back edges, the refused bar
    values["suits"] = values["ranks"]
    for part in ("cards", "ranks", "suits", "rows"):
        sheet = getattr(screen, part + "_sheet")
        image = InFile(os.path.join(HARDWARE, sprites.file_name(screen.size, part)))
        assert (sheet.width, sheet.height) == image.size
        pixels = [image.getpixel((x, y)) for y in range(sheet.height) for x in range(sheet.width)]
        assert [sheet[x, y] for y in range(sheet.height) for x in range(sheet.width)] == pixels
        assert set(pixels) == values[part]
    # The rows' colours are the file's.
    with open(os.path.join(HARDWARE, sprites.file_name(screen.size, "rows")), "rb") as f:
        data = f.read()
    listed = [int.from_bytes(data[54 + 4 * i : 57 + 4 * i], "little") for i in range(len(values["rows"]))]
    assert [screen.rows_inks[i] for i in range(len(screen.rows_inks))] == listed


def test_the_committed_sheets_are_what_the_tool_draws():
    import subprocess
    import sys

    tool = os.path.join(os.path.dirname(HARDWARE), "tools", "make_sprites.py")
    out = subprocess.run([sys.executable, tool, "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
