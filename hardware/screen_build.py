# Building the Screen (hardware/screen.py): its sprite sheets, the table's
# grids laid out for the screen's size, and the texts. Used by Screen() at
# start-up only: code.py forgets this module then (hardware.forget), so its
# code is not kept in the heap while the game runs.

import displayio

from . import sprites as S
from .profiles import SetupError
from .seats import place
from .text import Text


def _load(folder, size, part, tiles, tile_w, tile_h):
    # An OnDiskBitmap of a sheet, checked: a missing or damaged sheet is a
    # message for the maker, not a traceback.
    name = S.file_name(size, part)
    try:
        sheet = displayio.OnDiskBitmap(folder + "/" + name)
    except (OSError, ValueError) as e:
        raise SetupError("card pictures %s are missing or damaged (%s). Install them with: make flash" % (name, e))
    if not _tiled(sheet.width, sheet.height, tile_w, tile_h, tiles):
        raise SetupError(
            "card pictures %s are damaged (%dx%d). Install them with: make flash" % (name, sheet.width, sheet.height)
        )
    return sheet


def _tiled(w, h, tile_w, tile_h, tiles):
    # A sheet w x h holds at least `tiles` whole tiles of tile_w x tile_h.
    return w and h and not w % tile_w and not h % tile_h and (w // tile_w) * (h // tile_h) >= tiles


def _read(folder, size, part, tiles, tile_w, tile_h, values, coloured=False):
    # A sheet of a few values (sprites.PAPER, sprites.INKED, the rows) read
    # into RAM: the BMP's 4-bit pixels into a 2-bit displayio.Bitmap, by the
    # firmware's bitmaptools (one call; no Python loop over the pixels),
    # checked as _load checks (at most 16,384 pixels: 4 KB). Returns (sheet,
    # palette): coloured, a Palette of the colours the file lists, else None
    # (the board gives the sheet its own).
    import bitmaptools

    name = S.file_name(size, part)
    try:
        with open(folder + "/" + name, "rb") as f:
            head = f.read(54)
            if len(head) < 54 or head[0:2] != b"BM" or head[28] != 4 or head[30] != 0:
                raise ValueError("not a 4-bit BMP")
            w = int.from_bytes(head[18:22], "little")
            h = int.from_bytes(head[22:26], "little")
            if w * h > 16384 or not _tiled(w, h, tile_w, tile_h, tiles):
                raise ValueError("%dx%d" % (w, h))
            palette = None
            if coloured:
                count = int.from_bytes(head[46:50], "little") or 16  # (0: as many as the bits allow)
                if count > values:
                    raise ValueError("%d colours" % count)
                f.seek(14 + int.from_bytes(head[14:18], "little"))  # after the info header
                table = f.read(4 * count)
                if len(table) < 4 * count:
                    raise ValueError("its colours cut short")
                palette = displayio.Palette(count)
                for i in range(count):  # blue, green, red, 0
                    palette[i] = table[4 * i + 2] << 16 | table[4 * i + 1] << 8 | table[4 * i]
            sheet = displayio.Bitmap(w, h, values)
            f.seek(int.from_bytes(head[10:14], "little"))
            bitmaptools.readinto(sheet, f, 4, 4, True, False, True)  # rows padded to 4 bytes, bottom up
    except (OSError, ValueError, EOFError) as e:
        raise SetupError("card pictures %s are missing or damaged (%s). Install them with: make flash" % (name, e))
    return sheet, palette


def _palette(screen, entries):
    # A Palette of these entries of the screen's colours (sprites.PALETTE, or
    # MONO_PALETTE on a monochrome panel).
    colours = S.PALETTE if screen.colour else S.MONO_PALETTE
    palette = displayio.Palette(len(entries))
    for i in range(len(entries)):
        palette[i] = colours[entries[i]]
    return palette


def build(screen, display, profile, folder=None):
    # Screen.__init__: the sheets, the table's grids, the texts.
    w = profile["width"]
    h = profile["height"]
    screen.width = w
    screen.colour = profile["colour"]
    screen.size = profile["sprites"]
    z = S.SIZES[screen.size]
    if folder is None:
        folder = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    screen.cards_sheet = _read(
        folder, screen.size, "cards", S.CARD_TILES, z["card_tile_w"], z["card_h"], S.PAPER_VALUES
    )[0]
    screen.face_inks = _palette(screen, S.FACE_INKS)  # the paper's (sprites.PAPER)
    screen.back_inks = _palette(screen, S.BACK_INKS)
    screen.ranks_sheet = _read(folder, screen.size, "ranks", S.RANK_TILES, z["rank_w"], z["rank_w"], S.INKED_VALUES)[0]
    screen.suits_sheet = _read(folder, screen.size, "suits", S.SUIT_TILES, z["suit_w"], z["suit_w"], S.INKED_VALUES)[0]
    # A palette a suit for the inked sheets: paper, paper, the suit's ink
    # (set_style sets the ink of a colour screen's four-colour deck). Entry 0
    # is the paper, not clear: a rank or suit lies on a face's plain paper
    # (tests/test_screen.py holds every size to it), so it looks the same,
    # and displayio, which stops at a layer that covers all of an area,
    # redraws a rank or suit that changed without going over the paper below.
    screen.inks = [_palette(screen, (S.INK_PAPER, S.INK_PAPER, S.INK_SUIT + suit)) for suit in range(4)]
    screen.rows_sheet, screen.rows_inks = _read(
        folder, screen.size, "rows", S.ROW_TILES, z["card_tile_w"], z["row_h"], 4, True
    )
    if not z["row_marks"]:  # (the small screen shows markers in the depth row)
        screen.marks_sheet = _load(folder, screen.size, "marks", S.MARK_TILES, z["mark_w"], z["mark_h"])
    screen.glyph_sheet = _load(folder, screen.size, "glyphs", S.GLYPH_TILES, z["glyph_w"], z["glyph_h"])
    screen.text_scale = 2 if w >= 240 else 1
    screen.cols = w // (6 * screen.text_scale)
    screen.rows = h // (12 * screen.text_scale)
    screen.root = displayio.Group()
    screen.table = displayio.Group()
    screen.scene = displayio.Group()
    screen.root.append(screen.table)
    screen.root.append(screen.scene)
    _build_table(screen, w, h, z, profile.get("first_round_keys"))
    screen.text = Text(screen.scene, 0, 0, screen.cols, screen.rows, screen.text_scale, True)
    # Two people facing each other (twice): the top half turned round for
    # the top player, the same words upright below for the bottom one.
    screen.text_top = _turned(Text(screen.scene, 0, 0, screen.cols, screen.rows // 2, screen.text_scale))
    screen.scene.hidden = True
    display.root_group = screen.root


def _grid(screen, sheet, width, height, tile_w, tile_h, x, y, blank, ink=None):
    shader = ink if ink is not None else sheet.pixel_shader
    grid = displayio.TileGrid(
        sheet,
        pixel_shader=shader,
        width=width,
        height=height,
        tile_width=tile_w,
        tile_height=tile_h,
        default_tile=blank,
        x=x,
        y=y,
    )
    screen.table.append(grid)
    return grid


def _build_table(screen, w, h, z, keys):
    cw, ch, tw, rh = z["card_w"], z["card_h"], z["card_tile_w"], z["row_h"]
    screen.layout = z
    gw, gh = z["glyph_w"], z["glyph_h"]
    row_w = 5 * tw - (tw - cw)  # five cards and four gaps
    if screen.size == "small":
        # 128 x 64: stocks on the left, the depth dots double as markers;
        # the counts and the status on the right.
        x0 = tw - cw  # room for the gap that comes first when turned round
        depth_y = (61, 0)  # player 0's below their cards, player 1's above
        card_y = (45, 3)
        marks_y = None
        band_y = 24
        pile_x = (6, 34)
        pile_info = [(pile_x[0] + tw, band_y + (ch - gh) // 2), (pile_x[1] + tw, band_y + (ch - gh) // 2)]
        info_xy = ((w - 4 * gw, card_y[0] + ch - 2 * gh), (w - 4 * gw, card_y[1]))
        status = (72, band_y - 4, 9)
        info_rows = 2
    else:
        x0 = (w - row_w) // 2
        below = screen.size == "large"  # room for the pile sizes under the piles
        band_h = ch + (gh if below else 0)
        total = 2 * (2 * rh + ch) + band_h
        gap = min(4, (h - total) // 4)
        top = (h - total - 2 * gap) // 2
        card_y = (top + 2 * rh + ch + gap + band_h + gap + rh, top + rh)
        depth_y = (card_y[0] + ch, top)
        marks_y = (card_y[0] - rh, card_y[1] + ch)
        band_y = marks_y[1] + rh + gap
        info_w = 4 * gw
        edge = 2 if screen.size == "medium" else 4
        info_rows = 3
        info_xy = ((edge, band_y + band_h - info_rows * gh), (w - edge - info_w, band_y))
        pile_x = (edge + info_w + edge, w - 2 * edge - info_w - tw)
        if below:
            pile_info = [(x + (cw - 3 * gw) // 2, band_y + ch) for x in pile_x]
            left = pile_x[0] + tw
            right = pile_x[1]
        else:
            pile_info = [(pile_x[0] + tw, band_y + (ch - gh) // 2), (pile_x[1] - 3 * gw, band_y + (ch - gh) // 2)]
            left = pile_info[0][0] + 3 * gw
            right = pile_info[1][0]
        # (a pixel nearer the left pile where the big words cover the lines:
        # the turned copy, a pixel further left, still keeps off its grid)
        status = (left + (1 if below else 2), band_y + (ch - 24) // 2, (right - left - 4) // 6)
    screen.side_at = 4 * (info_rows - 1)  # the info tile where Speed's side-pile count starts
    screen.row_x = x0
    screen.gap = tw - cw
    screen.card_y = card_y
    # (each player's rows, for seats.seat, which puts either player at the bottom)
    screen.depth_y = depth_y
    screen.info_xy = info_xy
    screen.marks_y = None if marks_y is None else tuple(y + (rh - z["mark_h"]) // 2 for y in marks_y)
    # The paper of a place (a card and the gap after it: the cards sheet's
    # tile) is drawn as strips the gap's width (sprites.SIZES: it divides
    # the card's), the last strip its gap: a card put in or taken from a
    # pile redraws the card, not the gap beside it (Screen._paper). A
    # stock's paper is a grid of its own, a face and no gap (_face): an
    # empty stock hides it, and the table shows, which displayio draws with
    # no layer to compose (Screen._stock). Its tiles are the widest that
    # divide the sheet, the card and where the face starts: three on the
    # large and small sizes (up to four, the firmware keeps them inside the
    # grid object), five on the medium.
    face_w = _gcd(_gcd(screen.cards_sheet.width, cw), S.TILE_FACE * tw)
    strip = tw - cw
    per = tw // strip
    screen.strips = per
    screen.depth = []
    screen.marks = []
    screen.info = []
    # The back edges under each stock: where they are lines (not the small
    # screen's dots and markers), a line of pixels a tile (the rows sheet's
    # own tiles, read a line at a time), so one card more or less redraws
    # one line of the row, not the whole row (Screen._row).
    screen.row_lines = rh if z["edge_pitch"] else 0
    screen.pitch = z["edge_pitch"]
    for p in range(2):
        if screen.row_lines:
            depth = _grid(screen, screen.rows_sheet, 5, rh, tw, 1, x0, depth_y[p], S.ROW_DEPTH, screen.rows_inks)
        else:
            depth = _grid(screen, screen.rows_sheet, 5, 1, tw, rh, x0, depth_y[p], S.ROW_DEPTH, screen.rows_inks)
        screen.depth.append(depth)
        if marks_y is not None:
            screen.marks.append(
                [
                    _grid(
                        screen,
                        screen.marks_sheet,
                        1,
                        1,
                        z["mark_w"],
                        z["mark_h"],
                        0,
                        marks_y[p] + (rh - z["mark_h"]) // 2,
                        S.MARK_BLANK,
                    )
                    for s in range(5)
                ]
            )
        # The count of cards to play, then Speed's side pile: on the
        # bigger screens with a blank row between them (a refused move's
        # cross at its end), so the two never read as one number; the
        # OLED has no room for it (its status text is beside them).
        screen.info.append(
            _grid(screen, screen.glyph_sheet, 4, info_rows, gw, gh, info_xy[p][0], info_xy[p][1], S.GLYPH_BLANK)
        )
    screen.pile_info = [
        _grid(screen, screen.glyph_sheet, 3, 1, gw, gh, pile_info[k][0], pile_info[k][1], S.GLYPH_BLANK)
        for k in range(2)
    ]
    screen.status = Text(screen.table, status[0], status[1], status[2], 2)
    # The middle twice (see text_top): k lines each, the top ones turned.
    k = 2 if screen.size == "large" else 1
    screen.status_k = k
    screen.status_top = _turned(Text(screen.table, status[0], status[1] + 12 - 12 * k, status[2], k))
    screen.status_low = Text(screen.table, status[0], status[1] + 12, status[2], k)
    screen.status_low.group.hidden = True
    # On the bigger panels, what a player needs mid-race (a refusal's reason,
    # SLAP!) is drawn at twice the font's size over a copy of the middle's
    # two lines, in the same 24 px: one line upright (over status_low, the
    # bottom player's, where it is built: Screen moves it over status for
    # SLAP! or status_top for the top player's word) and one turned (over
    # status_top). Its cells are opaque, so displayio stops at them: showing
    # it composes its own area once and leaves the lines below as they are.
    # (Shown again somewhere else, the firmware may compose the place it
    # was built or last shown too: CircuitPython's TileGrid.c keeps a
    # hidden grid's area at every other refresh. Built where a linked
    # handheld's own word goes, it never moves there.)
    # Its ink is centred between the piles' cards as far as it can be while
    # each big copy covers its copy of the lines (which it must hide whole)
    # and keeps off the piles' grids.
    screen.big = screen.big_top = None
    if k == 2:
        cols = (status[2] + 1) // 2
        big_w = 12 * cols
        x = pile_x[0] + cw + (pile_x[1] - pile_x[0] - cw - big_w + 2) // 2
        room = (pile_x[0] + tw, pile_x[1] - big_w)
        screen.big = Text(screen.table, _cover(x, big_w, screen.status, room), status[1] + 12, cols, 1, 2)
        screen.big.group.hidden = True
        screen.big_top = _turned(Text(screen.table, 0, status[1] - 12, cols, 1, 2))
        screen.big_top.group.x = _cover(x - 2, big_w, screen.status_top, room)
    # A keyboard's legend (the profile's "first_round_keys": each player's
    # two lines, which keys play their stocks and piles), beside each
    # player's cards in the margin left of the rows; shown in the first round
    # (Screen.show_game, placed by seats.seat). None where the buttons need none.
    screen.keys = None
    if keys:
        cols = max(len(line) for each in keys for line in each.split("\n"))
        if 6 * cols + 2 > x0 or ch < 24:
            raise ValueError("no room for the keys' legend")  # (a layout error: the tests build every profile)
        texts = (Text(screen.table, 0, 0, cols, 2), Text(screen.table, 0, 0, cols, 2))
        for text in texts:
            text.group.hidden = True
        screen.keys = (texts, keys)
    # The cards last, on top of the table's other layers (which none of them
    # overlaps): for each area it composes, displayio walks a group's layers
    # from the top down to the first that covers the area (a card's rank or
    # suit covers its own, its paper the rest), so layers above the cards
    # are looked at again and again (about 0.4 ms of a card put into an
    # empty stock, on the emulated Pico).
    screen.stocks = [[_face(screen, x0 + s * tw, card_y[p], face_w) for s in range(5)] for p in range(2)]
    screen.piles = [
        _grid(screen, screen.cards_sheet, per, 1, strip, ch, pile_x[k], band_y, S.TILE_BLANK * per, screen.face_inks)
        for k in range(2)
    ]
    # Each card's rank and big suit: a grid of one tile each, laid over the
    # paper (placed by set_style).
    screen.ranks = [
        [_overlay(screen, screen.ranks_sheet, z["rank_w"], S.RANK_BLANK) for s in range(5)] for p in range(2)
    ]
    screen.suits = [
        [_overlay(screen, screen.suits_sheet, z["suit_w"], S.SUIT_BLANK) for s in range(5)] for p in range(2)
    ]
    screen.pile_ranks = [_overlay(screen, screen.ranks_sheet, z["rank_w"], S.RANK_BLANK) for k in range(2)]
    screen.pile_suits = [_overlay(screen, screen.suits_sheet, z["suit_w"], S.SUIT_BLANK) for k in range(2)]
    for k in range(2):
        place(screen, screen.pile_ranks[k], pile_x[k], band_y, z["rank_xy"], False)
        place(screen, screen.pile_suits[k], pile_x[k], band_y, z["suit_xy"], False)
    screen.set_style(False, False)


def _face(screen, x, y, w):
    # A stock's paper: a face's card (the cards sheet's TILE_FACE without its
    # gap) in tiles w wide (_build_table), hidden until a card is there
    # (placed by set_style).
    z = screen.layout
    first = S.TILE_FACE * z["card_tile_w"] // w
    tiles = z["card_w"] // w
    grid = _grid(screen, screen.cards_sheet, tiles, 1, w, z["card_h"], x, y, first, screen.face_inks)
    for c in range(1, tiles):
        grid[c] = first + c
    grid.hidden = True
    return grid


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _overlay(screen, sheet, size, blank):
    # A card's rank or suit: one tile of an inked sheet, in a suit's ink;
    # hidden where no card face is (Screen._show_card).
    grid = _grid(screen, sheet, 1, 1, size, size, 0, 0, blank, screen.inks[0])
    grid.hidden = True
    return grid


def _cover(x, w, text, room):
    # The x nearest x where w pixels cover text's width, within room (the
    # lowest and highest x).
    lo = max(room[0], text.group.x + text.cols * 6 - w)
    hi = min(room[1], text.group.x)
    if lo > hi:
        raise ValueError("no room for the big words")  # (a layout error: the tests build every profile)
    return max(lo, min(x, hi))


def _turned(text):
    # A Text turned round (a half turn: flipped both ways), hidden until shown.
    # The font's glyphs keep their blank column on the right (all but "%"),
    # which turning puts on the left of each cell: the copy moves a font
    # pixel to the left, so its ink lies where the upright copy's lies, and
    # its first letter (at the right) does not touch the screen's (or the
    # pile's) edge.
    text.grid.flip_x = True
    text.grid.flip_y = True
    text.group.x -= text.group.scale
    text.group.hidden = True
    return text
