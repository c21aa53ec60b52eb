"""Draw the card sprite sheets the board loads: hardware/sprites-*.bmp.

    python tools/make_sprites.py [--check]

Everything is drawn here from small pixel patterns (no fonts, no images), so
the sheets come out the same on every machine; change the art here and run it
again. --check exits 1 when a committed sheet differs from what this draws.

Three sizes, each six indexed BMP files (4 bits a pixel; the monochrome
OLED's palette is black and white only) whose tile sizes hardware/sprites.py
names:

- cards: the paper of a card (a face, a back, an empty slot, nothing) in
  four values (hardware/sprites.py: PAPER), a back's seen through its own
  inks; each tile is a card plus the gap to the next, so five stocks are one
  5 x 1 TileGrid.
- ranks and suits: the 13 ranks and the four big suits in one ink on paper
  (hardware/sprites.py: INKED), laid over a face: a card played redraws only
  these, in its suit's colour (a palette the board gives each card).
- rows: a card wide, short: the depth of a stock as 0..4 stacked back edges,
  a refused card's bar (and, on the small screen, the markers in their
  place); at most four colours, read into RAM.
- marks: the marker at a chosen card or the cursor, pointing up or down.
- glyphs: digits, a star (spit called), an X (refused move), the spit-cards
  and side-pile icons, and arrows (whose pile is whose).

Colours are palette entries (hardware/sprites.py): each suit has its own ink,
so the four-colour deck is four palette writes, not more art. Suits also
differ by shape on every screen. The rows, marks and glyphs list only the
colours they use, renumbered: the board keeps each listed colour in RAM.
"""

import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(ROOT)

from hardware import sprites as S  # noqa: E402

# 3 x 5 digits
DIGITS = [
    "###|#.#|#.#|#.#|###",
    ".#.|##.|.#.|.#.|###",
    "###|..#|###|#..|###",
    "###|..#|###|..#|###",
    "#.#|#.#|###|..#|..#",
    "###|#..|###|..#|###",
    "###|#..|###|#.#|###",
    "###|..#|.#.|.#.|.#.",
    "###|#.#|###|#.#|###",
    "###|#.#|###|..#|###",
]
# 5 x 7 ranks, A 2 .. 10 J Q K ("10" is squeezed into 7 columns)
RANKS = [
    ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "####.|....#|....#|.###.|....#|....#|####.",
    "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "#####|#....|####.|....#|....#|#...#|.###.",
    ".###.|#....|#....|####.|#...#|#...#|.###.",
    "#####|....#|...#.|..#..|.#...|.#...|.#...",
    ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    ".###.|#...#|#...#|.####|....#|....#|.###.",
    ".#..##.|##.#..#|.#.#..#|.#.#..#|.#.#..#|.#.#..#|###.##.",
    "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
]
# 7 x 7 suits: clubs, diamonds, hearts, spades (the engine's order)
SUITS = [
    "..###..|..###..|##.#.##|#######|##.#.##|...#...|..###..",
    "...#...|..###..|.#####.|#######|.#####.|..###..|...#...",
    ".##.##.|#######|#######|#######|.#####.|..###..|...#...",
    "...#...|..###..|.#####.|#######|#######|...#...|..###..",
]
# 5 x 5 suits for the small cards
SMALL_SUITS = [
    ".###.|#####|#####|..#..|.###.",
    "..#..|.###.|#####|.###.|..#..",
    "##.##|#####|#####|.###.|..#..",
    "..#..|.###.|#####|..#..|.###.",
]
STAR = ".#.|###|.#."
CROSS = "#.#|.#.|#.#"


def pattern(text):
    return text.split("|")


class Sheet:
    # A sheet of tiles of one size, palette indices per pixel.
    def __init__(self, tile_w, tile_h, count, cols):
        self.tw = tile_w
        self.th = tile_h
        self.cols = cols
        self.rows = (count + cols - 1) // cols
        self.w = tile_w * cols
        self.h = tile_h * self.rows
        self.px = bytearray(self.w * self.h)  # S.BLANK_INK is 0

    def origin(self, tile):
        return (tile % self.cols) * self.tw, (tile // self.cols) * self.th

    def dot(self, tile, x, y, ink):
        ox, oy = self.origin(tile)
        if 0 <= x < self.tw and 0 <= y < self.th:
            self.px[(oy + y) * self.w + ox + x] = ink

    def rect(self, tile, x, y, w, h, ink):
        for j in range(h):
            for i in range(w):
                self.dot(tile, x + i, y + j, ink)

    def stamp(self, tile, text, x, y, ink, scale=1):
        for j, row in enumerate(pattern(text)):
            for i, c in enumerate(row):
                if c == "#":
                    self.rect(tile, x + i * scale, y + j * scale, scale, scale, ink)


def card_outline(sheet, t, w, h, fill, edge):
    # A card with its corners cut by one pixel.
    sheet.rect(t, 0, 0, w, h, edge)
    sheet.rect(t, 1, 1, w - 2, h - 2, fill)
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        sheet.dot(t, x, y, S.BLANK_INK)


def draw_cards(size):
    # The paper: a face (rank and suit come from their own sheets), a back, an
    # empty slot and nothing.
    w, h, tw = size["card_w"], size["card_h"], size["card_tile_w"]
    sheet = Sheet(tw, h, S.CARD_TILES, S.CARD_TILES)
    # Four values (hardware/sprites.py: PAPER): a back is the face's fill and
    # edge seen through other inks, with its pattern in the mark's value.
    mono = size["mono"]
    card_outline(sheet, S.TILE_FACE, w, h, S.PAPER_FILL, S.PAPER_EDGE)
    back = S.TILE_BACK
    card_outline(sheet, back, w, h, S.PAPER_FILL, S.PAPER_EDGE)
    for y in range(2, h - 2):
        for x in range(2, w - 2):
            if (x + y) % 4 == 0 or (mono and (x + y) % 2 == 0):
                sheet.dot(back, x, y, S.PAPER_MARK)
    empty = S.TILE_EMPTY  # a dotted outline
    ink = S.PAPER_MARK
    for x in range(0, w, 2):
        sheet.dot(empty, x, 0, ink)
        sheet.dot(empty, x, h - 1, ink)
    for y in range(0, h, 2):
        sheet.dot(empty, 0, y, ink)
        sheet.dot(empty, w - 1, y, ink)
    return sheet  # S.TILE_BLANK stays blank


def draw_ranks(size):
    # Tile rank: the rank in ink on paper, left aligned.
    rw, k = size["rank_w"], max(size["scale"], 1)
    sheet = Sheet(rw, rw, S.RANK_TILES, S.RANK_TILES)
    for rank in range(13):
        sheet.rect(rank, 0, 0, rw, rw, S.INKED_PAPER)
        sheet.stamp(rank, RANKS[rank], 0, 0, S.INKED_INK, k)
    return sheet  # S.RANK_BLANK stays clear


def draw_suits(size):
    sw = size["suit_w"]
    sheet = Sheet(sw, sw, S.SUIT_TILES, S.SUIT_TILES)
    for suit in range(4):
        sheet.rect(suit, 0, 0, sw, sw, S.INKED_PAPER)
        if sw < 7:
            sheet.stamp(suit, SMALL_SUITS[suit], 0, 0, S.INKED_INK)
        else:
            sheet.stamp(suit, SUITS[suit], 0, 0, S.INKED_INK, sw // 7)
    return sheet  # S.SUIT_BLANK stays clear


def draw_rows(size):
    w, tw, th = size["card_w"], size["card_tile_w"], size["row_h"]
    sheet = Sheet(tw, th, S.ROW_TILES, 5)
    pitch = size["edge_pitch"]
    for depth in range(1, 5):  # stacked back edges (or dots), one per hidden card
        t = S.ROW_DEPTH + depth
        for k in range(depth):
            if pitch == 0:
                sheet.rect(t, 1 + 3 * k, th - 2, 2, 2, S.INK_BACK)
            else:
                sheet.rect(t, 1, th - 1 - k * pitch, w - 2, 1, S.INK_BACK)
    if size["row_marks"]:  # (elsewhere the marks sheet has them: the rows keep to three colours)
        arrows(sheet, (S.ROW_CHOSEN_UP, S.ROW_CHOSEN_DOWN, S.ROW_CURSOR_UP, S.ROW_CURSOR_DOWN), w, th, size)
    n = max(1, th // 3)  # a red bar the card's width, in the row's middle
    sheet.rect(S.ROW_REFUSED, 1, (th - n) // 2, w - 2, n, S.INK_FLASH)
    return sheet


def refused(sheet, t, w, h):
    # A red cross as tall as the marker's place, centred: the refused card.
    n = h if h % 2 else h - 1
    x0, y0 = (w - n) // 2, (h - n) // 2
    for j in range(n):
        sheet.dot(t, x0 + j, y0 + j, S.INK_FLASH)
        sheet.dot(t, x0 + n - 1 - j, y0 + j, S.INK_FLASH)


def arrows(sheet, tiles, w, h, size):
    # Markers pointing up or down (at the card), yellow when chosen, blue for
    # the cursor (hollow on the monochrome screen), centred in w x h.
    n = min(size["arrow"], h)
    half = (w - 1) // 2
    for t, up, ink in zip(tiles, (True, False, True, False), (S.INK_CHOSEN, S.INK_CHOSEN, S.INK_CURSOR, S.INK_CURSOR)):
        hollow = size["mono"] and ink == S.INK_CURSOR
        for j in range(n):
            row = j if up else n - 1 - j  # the point towards the card
            y = (h - n) // 2 + row
            for x in range(half - j, half + j + 1):
                edge = x in (half - j, half + j) or j == n - 1
                if not hollow or edge:
                    sheet.dot(t, x, y, ink)


def draw_marks(size):
    w, h = size["mark_w"], size["mark_h"]
    sheet = Sheet(w, h, S.MARK_TILES, S.MARK_TILES)
    arrows(sheet, (S.MARK_CHOSEN_UP, S.MARK_CHOSEN_DOWN, S.MARK_CURSOR_UP, S.MARK_CURSOR_DOWN), w, h, size)
    refused(sheet, S.MARK_REFUSED, w, h)
    return sheet


def draw_glyphs(size):
    gw, gh, k = size["glyph_w"], size["glyph_h"], size["glyph_scale"]
    sheet = Sheet(gw, gh, S.GLYPH_TILES, S.GLYPH_TILES)
    x0 = (gw - 3 * k) // 2
    y0 = (gh - 5 * k) // 2
    for d in range(10):
        sheet.stamp(S.GLYPH_DIGIT + d, DIGITS[d], x0, y0, S.INK_DIGIT, k)
    sheet.stamp(S.GLYPH_STAR, STAR, x0, y0 + k, S.INK_CHOSEN, k)
    sheet.stamp(S.GLYPH_CROSS, CROSS, x0, y0 + k, S.INK_FLASH, k)
    for t, ink in ((S.GLYPH_SPIT_CARDS, S.INK_BACK), (S.GLYPH_SIDE_PILE, S.INK_DIM)):
        if t == S.GLYPH_SIDE_PILE and size["mono"]:
            # One ink on the monochrome screen: a box with a hole there reads
            # as a 0 before the count ("010" for 10), so the side pile is a
            # chequered box, as a face-down card is.
            for y in range(5):
                for x in range(3):
                    if (x + y) % 2 == 0:
                        sheet.rect(t, x0 + x * k, y0 + y * k, k, k, ink)
            continue
        sheet.rect(t, x0, y0, 3 * k, 5 * k, ink)
        if t == S.GLYPH_SIDE_PILE:
            sheet.rect(t, x0 + k, y0 + k, k, 3 * k, S.BLANK_INK)
    for t, up in ((S.GLYPH_ARROW_UP, True), (S.GLYPH_ARROW_DOWN, False)):
        if gw >= 8:
            # The bigger screens: a triangle as wide as the glyph allows
            # (7 x 8 pixels: the 3 x 3 one read as a dot at arm's length).
            for j in range(4):
                row = j if up else 3 - j
                width = 1 + 2 * j
                sheet.rect(t, (gw - width) // 2, (gh - 8) // 2 + 2 * row, width, 2, S.INK_DIGIT)
            continue
        for j in range(3):
            row = j if up else 2 - j
            sheet.rect(t, x0 + (1 - min(j, 1)) * k, y0 + (row + 1) * k, (1 + 2 * min(j, 1)) * k, k, S.INK_DIGIT)
    return sheet


def bmp(sheet, palette, bits):
    # An uncompressed indexed BMP, rows bottom up, each padded to 4 bytes.
    per_byte = 8 // bits
    row_bytes = (sheet.w + per_byte - 1) // per_byte
    stride = (row_bytes + 3) // 4 * 4
    pixels = bytearray()
    for y in range(sheet.h - 1, -1, -1):
        row = bytearray(stride)
        for x in range(sheet.w):
            v = sheet.px[y * sheet.w + x]
            row[x // per_byte] |= v << (8 - bits * (1 + x % per_byte))
        pixels += row
    colours = b"".join(struct.pack("<BBBB", c & 255, (c >> 8) & 255, c >> 16, 0) for c in palette)
    offset = 14 + 40 + len(colours)
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack(
        "<IiiHHIIiiII", 40, sheet.w, sheet.h, 1, bits, 0, len(pixels), 2835, 2835, len(palette), len(palette)
    )
    data = header + info + colours + pixels
    # displayio's OnDiskBitmap reads the first 138 bytes at once: a tiny sheet
    # is padded after its pixels.
    return data + bytes(max(0, 138 - len(data)))


def compact(sheet, palette):
    # The colours a sheet uses, in the order of their entries, its pixels
    # renumbered to them (entry 0, the table, stays 0): an OnDiskBitmap keeps a
    # palette entry in RAM for each colour its file lists (about 15 bytes).
    colours = []
    number = {}
    for v in sorted(set(sheet.px)):
        if palette[v] not in colours:
            colours.append(palette[v])
        number[v] = colours.index(palette[v])
    sheet.px = bytearray(number[v] for v in sheet.px)
    return colours


def sheets():
    """{file name: BMP bytes} for every size."""
    out = {}
    for name, size in S.SIZES.items():
        palette = S.MONO_PALETTE if size["mono"] else S.PALETTE
        # The inked sheets' own palette: the table, the paper and a dark ink
        # (the board colours the ink by suit); the cards sheet's: a face's
        # inks (the board gives a back its own).
        inked = (palette[0], palette[S.INK_PAPER], palette[S.INK_SUIT])
        paper = tuple(palette[i] for i in S.FACE_INKS)
        for part, draw in (
            ("cards", draw_cards),
            ("ranks", draw_ranks),
            ("suits", draw_suits),
            ("rows", draw_rows),
            ("marks", draw_marks),
            ("glyphs", draw_glyphs),
        ):
            sheet = draw(size)
            own = paper if part == "cards" else inked if part in ("ranks", "suits") else compact(sheet, palette)
            out[S.file_name(name, part)] = bmp(sheet, own, 4)
    return out


def main(argv):
    check = "--check" in argv
    folder = os.path.join(ROOT, "hardware")
    stale = []
    for name, data in sheets().items():
        path = os.path.join(folder, name)
        if check:
            try:
                with open(path, "rb") as f:
                    if f.read() != data:
                        stale.append(name)
            except OSError:
                stale.append(name)
            continue
        with open(path, "wb") as f:
            f.write(data)
        print("wrote hardware/%s (%d bytes)" % (name, len(data)))
    if stale:
        print("out of date (run tools/make_sprites.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
