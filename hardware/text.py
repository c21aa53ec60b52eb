# Text on the screen as tiles of terminalio's font.
#
# A Text is a TileGrid of cols x lines character cells over the font's glyphs:
# showing new lines writes the tile index of each cell that changed, so
# nothing is rendered in Python, the display redraws only those cells, and no
# library is needed (so the message a maker must see when a library is
# missing can use it too). The firmware's font is one bitmap in flash whose
# tiles are its glyphs; Blinka's (the desktop) has a bitmap a glyph, which
# font() copies into one sheet once.

import displayio
import terminalio

_FIRST = 0x20  # printable ASCII, 0x20 to 0x7E
_COUNT = 0x7F - 0x20
_UNKNOWN = 0x3F - 0x20  # "?" stands for a character the font lacks

_font = None


def font():
    """(sheet, palette, tiles, w, h): the font's glyphs as w x h tiles of one
    bitmap, white on black, and the tile of each printable character."""
    global _font
    if _font is None:
        f = terminalio.FONT
        w, h = f.get_bounding_box()[:2]
        sheet = f.bitmap
        tiles = bytearray(_COUNT)
        if isinstance(sheet, displayio.Bitmap):
            for i in range(_COUNT):
                tiles[i] = f.get_glyph(_FIRST + i).tile_index  # type: ignore[attr-defined]  # a field of the firmware's Glyph the stubs leave out
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


class Text:
    """lines x cols characters with their top left at (x, y) in group, each
    scale times the font's size."""

    def __init__(self, group, x, y, cols, lines, scale=1):
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
        group.append(self.group)

    def show(self, lines):
        # Each line cut or padded to the width; only the cells that change
        # are written, and a row whose line is the one it shows is not looked
        # at (a cell looked at costs about 0.1 ms on a Pico: a menu press
        # changes two rows of ten).
        grid = self.grid
        tiles = self._tiles
        cols = self.cols
        shown = self._shown
        for r in range(self.lines):
            line = lines[r] if r < len(lines) else ""
            if line == shown[r]:
                continue
            shown[r] = line
            n = len(line)
            for c in range(cols):
                t = tiles[0]
                if c < n:
                    k = ord(line[c]) - _FIRST
                    t = tiles[k if 0 <= k < _COUNT else _UNKNOWN]
                i = r * cols + c
                if grid[i] != t:
                    grid[i] = t

    @property
    def text(self):
        # What the cells show, lines joined by newlines (for tests and tools).
        chars = {}
        for i in range(_COUNT):
            chars[self._tiles[i]] = chr(_FIRST + i)
        grid = self.grid
        return "\n".join(
            "".join(chars.get(grid[r * self.cols + c], "?") for c in range(self.cols)) for r in range(self.lines)
        )


def message(text, width, height):
    """A group showing text (a maker's message) wrapped to the screen, at
    twice the font's size where it fits in a width of 20 characters."""
    w, h = font()[3:]
    scale = 2 if width >= 40 * w else 1
    cols = width // (w * scale)
    rows = height // (h * scale)
    lines = []  # type: list[str]
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= cols:
            lines[-1] += " " + word
        else:
            while len(word) > cols:
                lines.append(word[:cols])
                word = word[cols:]
            lines.append(word)
    group = displayio.Group()
    Text(group, 0, 0, cols, rows, scale).show(lines[:rows])
    return group
