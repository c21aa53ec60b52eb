"""Stand-in for CircuitPython's fontio: BuiltinFont and Glyph (see terminalio)."""

try:
    from collections import namedtuple
except ImportError:  # a MicroPython without it
    from ucollections import namedtuple

# On the board a Glyph is a named tuple made anew by every get_glyph() call.
Glyph = namedtuple("Glyph", ("bitmap", "tile_index", "width", "height", "dx", "dy", "shift_x", "shift_y"))


class BuiltinFont:
    def __init__(self, bitmap, width, height, first=0x20, last=0x7E):
        self.bitmap = bitmap
        self._width = width
        self._height = height
        self._first = first
        self._last = last

    def get_bounding_box(self):
        return (self._width, self._height)

    def get_glyph(self, codepoint):
        if not self._first <= codepoint <= self._last:
            return None
        w = self._width
        return Glyph(self.bitmap, codepoint - self._first, w, self._height, 0, 0, w, 0)
