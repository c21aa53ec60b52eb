# The card sprite sheets: which tile is what, their sizes and their colours.
#
# Shared by tools/make_sprites.py, which draws the sheets, and hardware/
# screen.py, which shows them through displayio.TileGrid. A sheet is an
# indexed BMP beside this file. Six sheets a size: cards, ranks, suits, rows,
# marks and glyphs. The cards, ranks, suits and rows, which a card played
# redraws, are read into RAM, two bits a pixel (see PAPER, INKED and the row
# tiles); the marks and glyphs are loaded with displayio.OnDiskBitmap (they
# stay on flash: the board keeps only their palettes in RAM). And the
# firmware's font as one sheet of tiles, which a Text (hardware/text.py) is
# drawn with: font(), read while the texts are built at start-up (code.py
# forgets this module then: a match keeps none of its code).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


# A card on the table is three layers, so a card played redraws only its rank
# and suit, not the whole card: the paper (cards sheet: a face, a back, an
# empty slot, nothing), the rank (ranks sheet: engine.cards' rank, card % 13)
# and a big suit (suits sheet: the suit, card // 13), both in the suit's ink.
TILE_FACE = const(0)
TILE_BACK = const(1)
TILE_EMPTY = const(2)
TILE_BLANK = const(3)
CARD_TILES = const(4)
RANK_BLANK = const(13)
RANK_TILES = const(14)
SUIT_BLANK = const(4)
SUIT_TILES = const(5)

# The cards sheet (the paper) has four values: PAPER_TABLE, PAPER_FILL (the
# paper, or a back's colour), PAPER_EDGE and PAPER_MARK (an empty slot's dots,
# a back's pattern). A face, an empty slot and nothing are seen through
# FACE_INKS, a back (a pile's; or linked Speed's other hand, a face's paper
# seen through these inks: the back's colour, no pattern) through
# BACK_INKS: entries of PALETTE below. In RAM a pixel composes in half the
# time of one read from flash, and a card put in an empty place redraws its
# whole paper.
PAPER_TABLE = const(0)
PAPER_FILL = const(1)
PAPER_EDGE = const(2)
PAPER_MARK = const(3)
PAPER_VALUES = const(4)

# The ranks and suits sheets are "inked": three values, 0 (around the shape),
# INKED_PAPER and INKED_INK. The board shows 0 as the paper (opaque: a rank or
# suit lies on a face's plain paper, and displayio then composes only it
# where it changes; a card with none hides them). The board reads them into
# a 2-bit displayio.Bitmap in RAM (under a kilobyte a size), where a pixel
# composes in half the time of one read from flash, and gives each card's two
# grids the palette of its suit: the ink is the suit's colour.
INKED_PAPER = const(1)
INKED_INK = const(2)
INKED_VALUES = const(3)

# Row sheet tiles (a card wide): 0..4 back edges under a stock, a refused
# card's bar, and (on the small screen, where they take the depth row's
# place: row_marks) the markers. Read into RAM, two bits a pixel, with the
# colours its file lists (at most four).
ROW_DEPTH = const(0)
ROW_CHOSEN_UP = const(5)
ROW_CHOSEN_DOWN = const(6)
ROW_CURSOR_UP = const(7)
ROW_CURSOR_DOWN = const(8)
ROW_REFUSED = const(9)  # a red bar beside a card whose move was refused
ROW_TILES = const(10)

# Marks sheet tiles: the marker that points at a chosen card or the cursor,
# one small grid a stock, so a cursor step redraws two arrows, not a row.
MARK_BLANK = const(0)
MARK_CHOSEN_UP = const(1)
MARK_CHOSEN_DOWN = const(2)
MARK_CURSOR_UP = const(3)
MARK_CURSOR_DOWN = const(4)
MARK_REFUSED = const(5)  # a red cross at a card whose move was refused
MARK_TILES = const(6)

# Glyph sheet tiles.
GLYPH_DIGIT = const(0)
GLYPH_BLANK = const(10)
GLYPH_STAR = const(11)
GLYPH_CROSS = const(12)
GLYPH_SPIT_CARDS = const(13)
GLYPH_SIDE_PILE = const(14)
GLYPH_ARROW_UP = const(15)
GLYPH_ARROW_DOWN = const(16)
GLYPH_TILES = const(17)

# Palette entries of the other sheets (and the inked sheets' colours: entry 0,
# INK_PAPER and INK_SUIT + suit). Entry 0 is the table.
BLANK_INK = const(0)
INK_PAPER = const(1)
INK_EDGE = const(2)
INK_SUIT = const(3)  # + suit: clubs, diamonds, hearts, spades
INK_BACK = const(7)
INK_BACK_PATTERN = const(8)
INK_DIM = const(9)
INK_CHOSEN = const(10)
INK_CURSOR = const(11)
INK_FLASH = const(12)
INK_DIGIT = const(13)
# (Laid out by hand: a row a group of entries, as INK_* above number them.)
# fmt: off
PALETTE = (
    0x000000, 0xF4F4EC, 0x808080,
    0x101010, 0xD01010, 0xD01010, 0x101010,
    0x2050B0, 0x90B0F0, 0x707070, 0xFFD000, 0x3070FF, 0xFF2020, 0xC8C8C8, 0x000000, 0x000000,
)
FACE_INKS = (BLANK_INK, INK_PAPER, INK_EDGE, INK_DIM)
BACK_INKS = (BLANK_INK, INK_BACK, INK_EDGE, INK_BACK_PATTERN)
# A monochrome panel: the same entries, lit or dark (ink dark on lit paper).
MONO_PALETTE = (
    0x000000, 0xFFFFFF, 0xFFFFFF,
    0x000000, 0x000000, 0x000000, 0x000000,
    0xFFFFFF, 0x000000, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0x000000, 0x000000,
)
# fmt: on
# The suits' colours: a two-colour deck, and a four-colour one (spades black,
# hearts red, diamonds blue, clubs green) for players who tell red from black
# badly. The shapes differ too, on every screen.
TWO_COLOURS = (0x101010, 0xD01010, 0xD01010, 0x101010)
FOUR_COLOURS = (0x108020, 0x1040E0, 0xD01010, 0x101010)

# Sizes: a card (card_w x card_h) sits in a tile card_tile_w wide (the gap to
# the next stock included); its rank (rank_w square, drawn `scale` times, 0:
# the tiny OLED glyphs) at rank_xy and its big suit (suit_w square) at
# suit_xy; a marker is mark_w x mark_h (row_marks: none, the markers are
# drawn in the depth row); a row tile is card_tile_w x row_h, back edges
# edge_pitch apart (0: dots); glyphs are glyph_w x glyph_h, digits drawn
# glyph_scale times. Every tile has an even number of pixels: Blinka's desktop
# display cannot refresh an odd one.
SIZES = {
    "large": {
        "card_w": 36,
        "card_h": 50,
        "card_tile_w": 42,
        "rank_w": 14,
        "rank_xy": (3, 3),
        "suit_w": 22,
        "suit_xy": (7, 25),
        "scale": 2,
        "mark_w": 10,
        "mark_h": 6,
        "row_h": 8,
        "edge_pitch": 2,
        "arrow": 5,
        "glyph_w": 8,
        "glyph_h": 10,
        "glyph_scale": 2,
        "mono": False,
        "row_marks": False,
    },
    "medium": {
        "card_w": 20,
        "card_h": 28,
        "card_tile_w": 24,
        "rank_w": 8,
        "rank_xy": (2, 2),
        "suit_w": 14,
        "suit_xy": (3, 12),
        "scale": 1,
        "mark_w": 8,
        "mark_h": 4,
        "row_h": 7,
        "edge_pitch": 2,
        "arrow": 4,
        "glyph_w": 4,
        "glyph_h": 6,
        "glyph_scale": 1,
        "mono": False,
        "row_marks": False,
    },
    "small": {
        "card_w": 12,
        "card_h": 16,
        "card_tile_w": 14,
        "rank_w": 8,
        "rank_xy": (3, 1),
        "suit_w": 6,
        "suit_xy": (4, 9),
        "scale": 0,
        "mark_w": 6,
        "mark_h": 2,
        "row_h": 3,
        "edge_pitch": 0,
        "arrow": 2,
        "glyph_w": 4,
        "glyph_h": 6,
        "glyph_scale": 1,
        "mono": True,
        "row_marks": True,
    },
}
PARTS = ("cards", "ranks", "suits", "rows", "marks", "glyphs")


def file_name(size, part):
    # "sprites-large-cards.bmp": part is one of PARTS.
    return "sprites-%s-%s.bmp" % (size, part)


# The firmware's font (terminalio.FONT). Its tiles are its glyphs; Blinka's
# (the desktop) has a bitmap a glyph, which font() copies into one sheet once.
_FIRST = const(0x20)  # printable ASCII, 0x20 to 0x7E (as hardware/text.py reads lines)
_COUNT = const(0x7F - 0x20)
_font = None


def font():
    """(sheet, palette, tiles, w, h): the font's glyphs as w x h tiles of one
    bitmap, white on black, and the tile of each printable character."""
    global _font
    if _font is None:
        import displayio
        import terminalio

        f = terminalio.FONT
        w, h = f.get_bounding_box()[:2]
        sheet = f.bitmap
        tiles = bytearray(_COUNT)
        if isinstance(sheet, displayio.Bitmap):
            # The firmware's tiles are its font's characters sorted: when " "
            # is the first and "~" the 95th, every printable one is there, in
            # order (a glyph asked for costs some 30 us on a Pico, all 95 of
            # them 3 ms of start-up). Else each is asked for.
            get = f.get_glyph
            ends = get(_FIRST).tile_index == 0 and get(0x7E).tile_index == _COUNT - 1  # type: ignore[attr-defined]
            for i in range(_COUNT):
                tiles[i] = i if ends else get(_FIRST + i).tile_index  # type: ignore[attr-defined]  # a field of the firmware's Glyph the stubs leave out
        else:  # Blinka: `bitmap` is a class, each glyph has a bitmap of its own
            sheet = displayio.Bitmap(w * _COUNT, h, 2)
            for i in range(_COUNT):
                glyph = f.get_glyph(_FIRST + i).bitmap
                for y in range(h):
                    for x in range(w):
                        sheet[i * w + x, y] = glyph[x, y]
                tiles[i] = i
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        _font = (sheet, palette, tiles, w, h)
    return _font
