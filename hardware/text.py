# Text on the screen as tiles of terminalio's font.
#
# A Text is a TileGrid of cols x lines character cells over the font's
# glyphs (font() in hardware/sprites.py): showing new lines writes the tile
# index of each cell that changed, so nothing is rendered in Python, the
# display redraws only those cells, and no library is needed (so the message
# a maker must see when a library is missing can use it too).

import displayio

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


_FIRST = const(0x20)  # printable ASCII, 0x20 to 0x7E (the font's tiles: hardware/sprites.py)
_COUNT = const(0x7F - 0x20)
_UNKNOWN = 0x3F - 0x20  # "?" stands for a character the font lacks
_NOT_KNOWN = "\n"  # a row's line when its cells are not known (no line holds a newline)


class Text:
    """lines x cols characters with their top left at (x, y) in group, each
    scale times the font's size. cursor: a list's chosen line is marked by a
    ">" in its first cell (show's chosen)."""

    # A class default: only a Text with a cursor has one of its own, and the
    # others keep a slot less each (an instance's names grow 6, 8, 10...).
    cursor = None  # type: displayio.TileGrid | None

    def __init__(self, group, x, y, cols, lines, scale=1, cursor=False):
        from .sprites import font  # (start-up's: code.py forgets sprites)

        sheet, palette, tiles, w, h = font()
        self._tiles = tiles
        self.cols = cols
        self.lines = lines
        self.grid = displayio.TileGrid(
            sheet, pixel_shader=palette, width=cols, height=lines, tile_width=w, tile_height=h, default_tile=tiles[0]
        )
        self._shown = [""] * lines  # each row's line as last shown (the grid starts blank)
        self.group = displayio.Group(scale=scale, x=x, y=y)
        self.group.append(self.grid)
        # The ">" is a grid of its own over the first column: moving it
        # redraws its two cells, where a ">" in the lines' grid would redraw
        # every row between them (displayio redraws a grid's changed cells
        # as one rectangle).
        if cursor:
            self.cursor = displayio.TileGrid(
                sheet,
                pixel_shader=palette,
                width=1,
                height=1,
                tile_width=w,
                tile_height=h,
                default_tile=tiles[ord(">") - _FIRST],
            )
            self.cursor.hidden = True
            self.group.append(self.cursor)
        group.append(self.group)

    def show(self, lines, chosen=-1, first=False):
        # Each line cut or padded to the width; only the cells that change
        # are written, and a row whose line is the one it shows is not looked
        # at (a cell looked at costs about 0.08 ms on a Pico; a menu press
        # within a page moves only the cursor). chosen: the row whose line starts with
        # the cursor, ">" (-1: none). first: write only the first row that
        # changed, the chosen one first, then from the top (a row of
        # twice-size text is some 30 ms of composing on a Pico's panel; the
        # rest at the next calls). Returns how many changed rows are left.
        cursor = self.cursor
        if cursor is not None:
            if cursor.hidden != (chosen < 0):  # (showing a grid redraws it all, even one shown)
                cursor.hidden = chosen < 0
            if chosen >= 0:
                cursor.y = chosen * cursor.tile_height
        shown = self._shown
        start = chosen if first and chosen < self.lines else -1
        written = False
        left = 0
        for i in range(-1, self.lines):  # (-1: the chosen row, when it goes first)
            r = i if i >= 0 else start
            if r < 0 or i >= 0 and r == start:
                continue
            line = lines[r] if r < len(lines) else ""
            if r == chosen:
                line = " " + line[1:]  # (the cell under the cursor is blank)
            if line == shown[r]:
                continue
            if first and written:
                left += 1
                continue
            self._write(r, line, shown[r])
            shown[r] = line
            written = True
        return left

    def forget(self):
        # The lines shown let go while the grid is hidden (the table is up):
        # each row is looked at again, cell by cell, when the text next shows.
        shown = self._shown
        for r in range(self.lines):
            shown[r] = _NOT_KNOWN

    def _write(self, row, line, was):
        # The cells of a row that differ from line, where was is the line the
        # row shows (_NOT_KNOWN: every cell is looked at; else only as far as
        # the longer of the two, the cells past both being blank). The
        # characters are read as the line's bytes: on a board each character
        # taken out of a str is looked up among every name the firmware has
        # interned (py/qstr.c, one by one through the pools the game's
        # modules filled), about 0.08 ms a cell on a Pico; the bytes cost one
        # small allocation a changed row. A line with a character past ASCII
        # (not in the font: shown as "?") is read a character at a time.
        grid = self.grid
        tiles = self._tiles
        cols = self.cols
        n = len(line)
        codes = line.encode()
        if len(codes) != n:
            codes = None
        end = cols if was == _NOT_KNOWN else max(n, len(was))
        i = row * cols
        for c in range(min(end, cols)):
            t = tiles[0]
            if c < n:
                k = (codes[c] if codes is not None else ord(line[c])) - _FIRST
                t = tiles[k if 0 <= k < _COUNT else _UNKNOWN]
            if grid[i + c] != t:
                grid[i + c] = t
