"""What a hardware.text.Text shows, read back from its cells (for tests and
the board VM's driver): its lines joined by newlines, the cursor's ">" over
the first cell of its row. Desktop-only: the board never reads its screen
back, so make flash leaves this file off the drive."""

from hardware.sprites import font

_FIRST = 0x20  # the font's printable characters, as hardware/text.py has them
_COUNT = 0x7F - 0x20


def shown(text):
    """The characters text's cells show, a row a line ("?" for a cell that
    holds no character's tile)."""
    tiles, h = font()[2], font()[4]
    chars = {}
    for i in range(_COUNT):
        chars[tiles[i]] = chr(_FIRST + i)
    grid = text.grid
    cols = text.cols
    rows = ["".join(chars.get(grid[r * cols + c], "?") for c in range(cols)) for r in range(text.lines)]
    cursor = text.cursor
    if cursor is not None and not cursor.hidden:
        r = cursor.y // h
        rows[r] = chars[cursor[0]] + rows[r][1:]
    return "\n".join(rows)
