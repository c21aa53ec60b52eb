"""The screen tests' tools: scenes on the table, frames saved as PNGs (to
SPIT_SNAPSHOTS when set, to look at), and checks of what a person sees, on the
pixels. Every TileGrid's pixels on the screen must be its sheet tiles, turned
as its flips say; each tile must be the one the game calls for (the card on
top of each stock and pile, the depth of each stock, each count's digits);
nothing may overlap or leave the screen; a monochrome screen is black and
white only. The fixture rig (conftest.py) gives a profile, its display and a
Screen."""

import os

import displayio
import pygame
from helpers import position

from desktop.text_shown import shown
from engine.cards import NO_CARD
from engine.spit import CHOOSE, PLAY, READY, SLAP, SPIT, STALEMATE, Game
from hardware import sprites
from hardware.sprites import font
from hardware.text import Text

HARDWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware")


STUCK1 = "5C/5D/5H/5S/4C"


def settle(screen, g, controls, now):
    """Screen.show_game at now, called again while it asks for the next pass
    (cards first: a frame that changes a card leaves the counts, the back
    edges and the words to the next call): what a board shows a pass or two
    later. Returns what the last call returned (when to draw again)."""
    due = screen.show_game(g, controls, now)
    calls = 1
    while due == now:
        calls += 1
        assert calls <= 3, "show_game kept asking for the next pass"
        due = screen.show_game(g, controls, now)
    return due


def play_scene(controls):
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    controls.chosen[0] = 1
    controls.result[1] = 5  # player 1's last move was refused: flash
    controls.refusals[1] += 1
    return g


def deep_scene(controls):
    # Stocks of 1 to 5 cards, counts of two digits.
    return position(
        "ac/2c,3C/4c,5c,6C/7c,8c,9c,10C/jc,qc,kc,ad,2D",
        "3d/4d,5D/6d,7d,8D/9d,10d,jd,QD/kd,ah,2h,3h,4H",
        pile0="5H",
        pile1="8H",
        spit0="6h,7h,9h,10h,jh,qh,kh,as,2s,3s,4s,5s",
        spit1="6s,7s",
    )


def stalemate_scene(controls):
    g = position("8D/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    g.play(0, 0)
    g.play(0, SPIT)
    return g


def slap_scene(controls):
    return position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")


def choose_scene(controls):
    return position(
        "8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="choose:0", rules="N"
    )


def result_scene(controls):
    g = position(
        "8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap", rules="S", scores="20:31"
    )
    g.play(1, 37)  # player 1 slaps pile 1: a new round is dealt
    return g


SCENES = {
    "ready": (lambda c: Game(5), READY, "SPIT!"),
    "play": (play_scene, PLAY, "R"),
    "deep": (deep_scene, PLAY, "R"),
    "stalemate": (stalemate_scene, STALEMATE, "SPIT!"),
    "slap": (slap_scene, SLAP, "SLAP!"),
    "choose": (choose_scene, CHOOSE, "bottom"),  # table words: player 0 sits at the bottom
    "result": (result_scene, READY, "SPIT!"),
}


def snapshot(display, name, tmp_path):
    folder = os.environ.get("SPIT_SNAPSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".png")
    display.refresh()
    pygame.image.save(display._pygame_screen, path)
    return pygame.image.load(path)


def rgb565(c):
    # What the panel shows of a colour: 5, 6 and 5 bits.
    r, g, b = c[0], c[1], c[2]
    return (r >> 3, g >> 2, b >> 3)


class InRam:
    # A sheet read into RAM (a displayio.Bitmap), read like a PIL image.
    def __init__(self, bitmap):
        self.bitmap = bitmap
        self.width = bitmap.width

    def getpixel(self, xy):
        return self.bitmap[xy]


class InFile:
    # A sheet's 4-bit BMP file read as palette indices (PIL reads a black and
    # white palette as grey levels), like a PIL image.
    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        assert data[:2] == b"BM" and data[28] == 4
        self.width = int.from_bytes(data[18:22], "little")
        self.height = int.from_bytes(data[22:26], "little")
        self.size = (self.width, self.height)
        self._data = data
        self._at = int.from_bytes(data[10:14], "little")
        self._stride = ((self.width + 1) // 2 + 3) // 4 * 4  # rows bottom up, padded to 4 bytes

    def getpixel(self, xy):
        x, y = xy
        byte = self._data[self._at + (self.height - 1 - y) * self._stride + x // 2]
        return byte & 15 if x % 2 else byte >> 4


def sheet_image(screen, sheet):
    # The sheet's pixels: the BMP file an OnDiskBitmap reads, or the RAM
    # Bitmap itself (the inked sheets; checked against their files below).
    if isinstance(sheet, displayio.Bitmap):
        return InRam(sheet)
    part = {
        id(getattr(screen, name + "_sheet", None)): name
        for name in ("cards", "ranks", "suits", "rows", "marks", "glyph")
    }[id(sheet)]
    return InFile(os.path.join(HARDWARE, sprites.file_name(screen.size, part.replace("glyph", "glyphs"))))


def row_drawn(screen, p, s):
    """The rows sheet's tile (sprites.ROW_*) that player p's stock s shows
    beside it: the depth grid's tile, or, where that grid holds the row a
    line of pixels a tile (the bigger screens), the tile whose lines its
    column shows, pixel for pixel."""
    grid = screen.depth[p]
    if grid.height == 1:
        return grid[s]
    image = sheet_image(screen, grid.bitmap)
    w, h = grid.tile_width, grid.height
    across = image.width // w

    def line(x0, y):
        return [image.getpixel((x0 + x, y)) for x in range(w)]

    column = [line((grid[s, r] % across) * w, grid[s, r] // across) for r in range(h)]
    matches = [
        t
        for t in range(sprites.ROW_TILES)
        if column == [line((t % across) * w, (t // across) * h + r) for r in range(h)]
    ]
    assert matches, "stock %d of player %d shows no row tile" % (s, p)
    return matches[0]


def expected_screen(screen, width, height):
    """The table as its TileGrids should draw it, layer over layer: the sheets'
    pixels through their palettes as they are now, turned by the flips,
    transparent entries showing what is below; the status text's cells are
    the font's glyphs, at its scale."""
    canvas = [[rgb565((0, 0, 0))] * width for _ in range(height)]
    texts = {
        id(t.group): t
        for t in (screen.status, screen.status_top, screen.status_low, screen.big, screen.big_top)
        + (tuple(screen.keys[0]) if screen.keys else ())
        if t is not None
    }
    for item in screen.table:
        if not isinstance(item, displayio.TileGrid):
            if not item.hidden:  # the middle's words (twice, the top ones turned, with facing seats), a legend
                draw_turnable_text(canvas, texts[id(item)], width, height)
            continue
        if item.hidden:
            continue
        image = sheet_image(screen, item.bitmap)
        palette = item.pixel_shader
        w, h = item.tile_width, item.tile_height
        cols = image.width // w
        for row in range(item.height):
            for col in range(item.width):
                tile = item[col, row]
                sx = item.width - 1 - col if item.flip_x else col
                sy = item.height - 1 - row if item.flip_y else row
                for y in range(h):
                    for x in range(w):
                        tx = w - 1 - x if item.flip_x else x
                        ty = h - 1 - y if item.flip_y else y
                        index = image.getpixel(((tile % cols) * w + tx, (tile // cols) * h + ty))
                        if palette.is_transparent(index):
                            continue
                        X, Y = item.x + sx * w + x, item.y + sy * h + y
                        if 0 <= X < width and 0 <= Y < height and canvas[Y][X] is not None:
                            canvas[Y][X] = rgb565(rgb(palette[index]))
    return canvas


def draw_text(canvas, text, width, height):
    # A Text's characters (its cells and its cursor) as the font's glyphs
    # (hardware/text.py), scaled.
    assert text.group is not None
    sheet, palette, tiles, w, h = font()
    s = text.group.scale
    for row, line in enumerate(shown(text).split("\n")):
        for col, ch in enumerate(line):
            tile = tiles[ord(ch) - 0x20]
            for y in range(h * s):
                for x in range(w * s):
                    X, Y = text.group.x + (col * w) * s + x, text.group.y + (row * h) * s + y
                    if 0 <= X < width and 0 <= Y < height:
                        canvas[Y][X] = rgb565(rgb(palette[sheet[tile * w + x // s, y // s]]))


def rgb(c):
    return ((c >> 16) & 255, (c >> 8) & 255, c & 255) if isinstance(c, int) else c


def check_pixels(screen, image, width, height):
    """Every pixel of the table is what the sheets and the font say."""
    want = expected_screen(screen, width, height)
    for y in range(height):
        for x in range(width):
            if want[y][x] is not None:
                got = rgb565(tuple(image.get_at((x, y)))[:3])
                assert got == want[y][x], "pixel (%d, %d): %r, the sheets say %r" % (x, y, got, want[y][x])


def grids(screen):
    named = [("piles%d" % k, screen.piles[k]) for k in range(2)] + [
        ("pile_info%d" % k, screen.pile_info[k]) for k in range(2)
    ]
    for p in range(2):
        named += [("stocks%d.%d" % (p, s), screen.stocks[p][s]) for s in range(5)]
        named += [("depth%d" % p, screen.depth[p]), ("info%d" % p, screen.info[p])]
        if screen.marks:
            named += [("marks%d.%d" % (p, s), screen.marks[p][s]) for s in range(5)]
    return named


def box(item):
    # Where a TileGrid, or a Text (its grid in a group of its scale), is drawn.
    if isinstance(item, Text):
        g, group = item.grid, item.group
        s = group.scale
        return group.x, group.y, group.x + g.width * g.tile_width * s, group.y + g.height * g.tile_height * s
    return item.x, item.y, item.x + item.width * item.tile_width, item.y + item.height * item.tile_height


def inside(a, b):
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def check_layout(screen, width, height):
    # Nothing overlaps or leaves the screen, but a card's rank and suit, which
    # lie on their card.
    items = [g for _, g in grids(screen)] + [screen.status]
    boxes = [box(i) for i in items]
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        assert 0 <= x1 and 0 <= y1 and x2 <= width and y2 <= height, "off the screen: %r" % (boxes[i],)
        for j in range(i):
            a = boxes[j]
            assert x2 <= a[0] or a[2] <= x1 or y2 <= a[1] or a[3] <= y1, "overlap: %r %r" % (a, boxes[i])
    z = sprites.SIZES[screen.size]
    for p in range(2):
        for s in range(5):
            card = box(screen.stocks[p][s])
            assert (card[2] - card[0], card[3] - card[1]) == (z["card_w"], z["card_h"])
            assert inside(box(screen.ranks[p][s]), card) and inside(box(screen.suits[p][s]), card), (p, s)
    for k in range(2):
        x, y = screen.piles[k].x, screen.piles[k].y
        card = (x, y, x + z["card_w"], y + z["card_h"])
        assert inside(box(screen.pile_ranks[k]), card) and inside(box(screen.pile_suits[k]), card)


def digits(grid, at):
    # The count shown by two digit tiles from at ('' when blank).
    text = ""
    for i in (at, at + 1):
        t = grid[i]
        if sprites.GLYPH_DIGIT <= t < sprites.GLYPH_DIGIT + 10:
            text += str(t - sprites.GLYPH_DIGIT)
    return text


def reference_card(screen, card, face_down, stock=False):
    """A card as a person should see it, composed here from the sheets: the
    paper, and for a face-up card its rank and big suit at their places (the
    table's colour, entry 0, is never drawn over the paper). An empty stock
    is the table; an empty pile, the empty slot's outline."""
    z = sprites.SIZES[screen.size]
    if stock and card == NO_CARD:
        return [[rgb565((0, 0, 0))] * z["card_w"] for _ in range(z["card_h"])]
    paper = sprites.TILE_EMPTY if card == NO_CARD else sprites.TILE_BACK if face_down else sprites.TILE_FACE
    inks = screen.back_inks if paper == sprites.TILE_BACK else screen.face_inks
    layers = [(screen.cards_sheet, inks, z["card_tile_w"], z["card_h"], paper, (0, 0), False)]
    if card != NO_CARD and not face_down:
        ink = screen.inks[card // 13]  # the suit's ink, whichever grid shows it
        layers.append((screen.ranks_sheet, ink, z["rank_w"], z["rank_w"], card % 13, z["rank_xy"], True))
        layers.append((screen.suits_sheet, ink, z["suit_w"], z["suit_w"], card // 13, z["suit_xy"], True))
    out = [[None] * z["card_w"] for _ in range(z["card_h"])]
    for sheet, palette, w, h, tile, (ox, oy), clear_0 in layers:
        image = sheet_image(screen, sheet)
        cols = image.width // w
        for y in range(h):
            for x in range(min(w, z["card_w"])):
                index = image.getpixel(((tile % cols) * w + x, (tile // cols) * h + y))
                if not (clear_0 and index == 0):
                    out[oy + y][ox + x] = rgb565(rgb(palette[index]))
    return out


def check_card_seen(screen, image, left, top, card, face_down, turned, stock=False):
    want = reference_card(screen, card, face_down, stock)
    h, w = len(want), len(want[0])
    for y in range(h):
        for x in range(w):
            wx, wy = (w - 1 - x, h - 1 - y) if turned else (x, y)
            got = rgb565(tuple(image.get_at((left + x, top + y)))[:3])
            assert got == want[wy][wx], "card %r at (%d, %d): pixel (%d, %d)" % (card, left, top, x, y)


def paper_tile(screen, grid):
    """The cards sheet's tile (sprites.TILE_*) a pile's paper grid shows: its
    strips are that tile's, in order (the gap's after them stays as the grid
    began: screen_build); a pile never drawn shows the grid's default, the
    blank tile's first strip (as blank as the others) all along."""
    per = screen.strips
    strips = [grid[c] for c in range(per - 1)]
    if strips == [sprites.TILE_BLANK * per] * (per - 1):
        return sprites.TILE_BLANK
    tile = strips[0] // per
    assert strips == [tile * per + c for c in range(per - 1)], tile
    return tile


def check_card(screen, paper, rank, suit, card, face_down=False):
    # The layers show this card: its paper, and its rank and suit over it in
    # the suit's ink. A stock's paper (a grid a stock) shows only a face, and
    # is hidden where no card is.
    stock = paper in [grid for row in screen.stocks for grid in row]
    if stock:
        z = sprites.SIZES[screen.size]
        w = paper.tile_width  # the face, from where the sheet's face tile starts, without its gap
        assert w * paper.width == z["card_w"] and paper.pixel_shader is screen.face_inks
        assert [paper[c] for c in range(paper.width)] == [
            sprites.TILE_FACE * z["card_tile_w"] // w + c for c in range(paper.width)
        ]
        assert paper.hidden == (card is None or card == NO_CARD)
    if card is None or card == NO_CARD:
        assert stock or paper_tile(screen, paper) == (sprites.TILE_BLANK if card is None else sprites.TILE_EMPTY)
        assert rank.hidden and suit.hidden
        assert paper.pixel_shader is screen.face_inks
    elif face_down:
        assert paper_tile(screen, paper) == sprites.TILE_BACK and rank.hidden and suit.hidden
        assert paper.pixel_shader is screen.back_inks
    else:
        assert paper.pixel_shader is screen.face_inks and not rank.hidden and not suit.hidden
        assert stock or paper_tile(screen, paper) == sprites.TILE_FACE
        assert (rank[0], suit[0]) == (card % 13, card // 13)
        assert rank.pixel_shader is screen.inks[card // 13] and suit.pixel_shader is screen.inks[card // 13]


def check_table(profile, screen, image, g, speed=False):
    # Each tile is the one the game calls for...
    for p in range(2):
        for s in range(5):
            if speed:
                card, hidden = g.hand(p, s), 0
            elif s < g.stocks:
                card, hidden = g.top(p * 5 + s), max(g.counts[p * 5 + s] - 1, 0)
            else:
                card, hidden = None, 0
            check_card(screen, screen.stocks[p][s], screen.ranks[p][s], screen.suits[p][s], card)
            if screen.marks:
                assert row_drawn(screen, p, s) == sprites.ROW_DEPTH + hidden
        counts = (g.counts[0 + p], g.counts[2 + p]) if speed else (g.counts[10 + p],)
        assert digits(screen.info[p], 1) == str(counts[0])
        if speed:
            assert digits(screen.info[p], screen.side_at + 1) == str(counts[1])
    first = 4 if speed else 12
    for k in range(2):
        top = g.top(first + k)
        check_card(screen, screen.piles[k], screen.pile_ranks[k], screen.pile_suits[k], top, speed and g.phase == READY)
        assert digits(screen.pile_info[k], 1) == (str(g.counts[first + k]) if g.counts[first + k] else "0")
    # ...and the screen is what those tiles draw, each where it belongs, and
    # every card looks as the sheets compose it.
    check_pixels(screen, image, profile["width"], profile["height"])
    for p in range(2):
        for s in range(g.stocks):
            card = g.hand(p, s) if speed else g.top(p * 5 + s)
            paper = screen.stocks[p][s]
            check_card_seen(screen, image, paper.x, paper.y, card, False, paper.flip_x, stock=True)
    for k in range(2):
        top = g.top(first + k)
        check_card_seen(screen, image, screen.piles[k].x, screen.piles[k].y, top, speed and g.phase == READY, False)
    check_layout(screen, profile["width"], profile["height"])
    if not profile["colour"]:
        every = {tuple(image.get_at((x, y)))[:3] for x in range(image.get_width()) for y in range(image.get_height())}
        assert every <= {(0, 0, 0), (255, 255, 255)}


def lit(image, label):
    x1, y1, x2, y2 = box(label)
    return sum(
        1
        for y in range(int(y1), int(y2))
        for x in range(int(x1), int(x2))
        if tuple(image.get_at((x, y)))[:3] != (0, 0, 0)
    )


def mark_pixels(image, grid):
    # Lit pixels in a player's refused-mark cell (tile 7 of the 4x2 info grid).
    assert not grid.flip_x and not grid.flip_y
    tw, th = grid.tile_width, grid.tile_height
    x0, y0 = grid.x + 3 * tw, grid.y + th
    return sum(
        1 for y in range(y0, y0 + th) for x in range(x0, x0 + tw) if tuple(image.get_at((x, y)))[:3] != (0, 0, 0)
    )


def press(controls, g, profile, player, action, t):
    # One key of the profile pressed and let go at t (ms), through Controls.
    k = profile["keymap"].index(player * 16 + action)
    controls.feed(g, k, True, t)
    controls.apply(g)
    controls.feed(g, k, False, t + 1)


def draw_turnable_text(canvas, text, width, height):
    # draw_text for a Text that may be turned round (flipped both ways).
    sheet, palette, _, w, h = font()
    s = text.group.scale
    flip = text.grid.flip_x
    for row in range(text.lines):
        for col in range(text.cols):
            tile = text.grid[col, row]
            c = text.cols - 1 - col if flip else col
            r = text.lines - 1 - row if flip else row
            for y in range(h * s):
                for x in range(w * s):
                    fx = w * s - 1 - x if flip else x
                    fy = h * s - 1 - y if flip else y
                    X, Y = text.group.x + (c * w) * s + x, text.group.y + (r * h) * s + y
                    if 0 <= X < width and 0 <= Y < height:
                        canvas[Y][X] = rgb565(rgb(palette[sheet[tile * w + fx // s, fy // s]]))


def tiles(screen, group):
    # Every TileGrid under group, in order, as what it shows: its place,
    # flips, hidden flags, which suit's ink and every tile index.
    out = []
    for layer in group:
        if isinstance(layer, displayio.Group):
            # (where a hidden group lies is not seen: Screen leaves the big words where they were)
            out.append(("group", None, None, True) if layer.hidden else ("group", layer.x, layer.y, False))
            out.extend(tiles(screen, layer))
        else:
            if layer.hidden and layer.bitmap in (screen.ranks_sheet, screen.suits_sheet):
                out.append((layer.x, layer.y, True))  # no card face here: what it last showed is not seen
                continue
            n = layer.width * layer.height
            ink = next((i for i, p in enumerate(screen.inks) if p is layer.pixel_shader), None)
            out.append(
                (layer.x, layer.y, layer.hidden, layer.flip_x, layer.flip_y, ink, tuple(layer[i] for i in range(n)))
            )
    return out
