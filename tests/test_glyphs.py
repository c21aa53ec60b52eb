"""The count glyphs as a player reads them: an icon is never mistaken for a
digit (on the OLED, Speed's side pile of 10 read "010")."""

import os

import pytest

from hardware import sprites

HARDWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware")


def glyph_colours(size):
    """Each glyph tile as the colours of its pixels (the file's palette
    applied: what the screen shows)."""
    with open(os.path.join(HARDWARE, sprites.file_name(size, "glyphs")), "rb") as f:
        data = f.read()
    assert data[:2] == b"BM" and data[28] == 4
    width = int.from_bytes(data[18:22], "little")
    height = int.from_bytes(data[22:26], "little")
    at = int.from_bytes(data[10:14], "little")
    palette = [tuple(data[54 + 4 * i : 57 + 4 * i]) for i in range((at - 54) // 4)]
    stride = ((width + 1) // 2 + 3) // 4 * 4

    def colour(x, y):
        byte = data[at + (height - 1 - y) * stride + x // 2]
        return palette[byte & 15 if x % 2 else byte >> 4]

    z = sprites.SIZES[size]
    w, h = z["glyph_w"], z["glyph_h"]
    across = width // w
    return [
        tuple(colour((t % across) * w + x, (t // across) * h + y) for y in range(h) for x in range(w))
        for t in range(sprites.GLYPH_TILES)
    ]


@pytest.mark.parametrize("size", sorted(sprites.SIZES))
def test_no_count_icon_looks_like_a_digit(size):
    tiles = glyph_colours(size)
    digits = tiles[sprites.GLYPH_DIGIT : sprites.GLYPH_DIGIT + 10]
    for icon in (sprites.GLYPH_SPIT_CARDS, sprites.GLYPH_SIDE_PILE):
        assert tiles[icon] not in digits, (size, icon)


def test_the_pile_arrows_are_big_enough_to_see_on_the_bigger_screens():
    # The arrows under the piles (which player spits on
    # each, D-2) were about 4 x 3 pixels on the 240 x 240 panel. Now a
    # triangle of 7 x 8, pointing up or down.
    z = sprites.SIZES["large"]
    tiles = glyph_colours("large")
    paper = tiles[sprites.GLYPH_BLANK][0]
    for t, up in ((sprites.GLYPH_ARROW_UP, True), (sprites.GLYPH_ARROW_DOWN, False)):
        lit = [(i % z["glyph_w"], i // z["glyph_w"]) for i, c in enumerate(tiles[t]) if c != paper]
        xs = [x for x, _ in lit]
        ys = [y for _, y in lit]
        assert max(xs) - min(xs) + 1 >= 7 and max(ys) - min(ys) + 1 >= 8, (t, xs, ys)
        widths = [sum(1 for x, y in lit if y == row) for row in range(min(ys), max(ys) + 1)]
        assert widths == sorted(widths, reverse=not up)  # widest at the bottom pointing up, at the top pointing down
