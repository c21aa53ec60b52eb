"""Stand-in for CircuitPython's terminalio: FONT, 6 x 12 glyphs for ASCII 0x20..0x7E.

The board's font is one bitmap in flash whose tiles are the glyphs; here every
glyph is a 4 x 8 block. The pixels a person sees are checked on the desktop
and on the emulated Pico's real firmware.
"""

import displayio
import fontio

_W = 6
_H = 12
_COUNT = 0x7F - 0x20


def _font_bitmap():
    bitmap = displayio.Bitmap(_W * _COUNT, _H, 2)
    for g in range(1, _COUNT):  # the space stays blank
        for y in range(2, 10):
            for x in range(1, 5):
                bitmap[g * _W + x, y] = 1
    return bitmap


FONT = fontio.BuiltinFont(_font_bitmap(), _W, _H)
