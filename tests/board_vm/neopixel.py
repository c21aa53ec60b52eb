"""Stand-in for the neopixel library: a strip of pixels set and shown."""

import outputs


class NeoPixel:
    def __init__(self, pin, n, *, brightness=1.0, auto_write=True, pixel_order=None):
        if pin is None:
            raise ValueError("no pin")
        import board

        board.claim(pin)
        self._pixels = [(0, 0, 0)] * n
        self.brightness = brightness
        self.shown = 0

    def __len__(self):
        return len(self._pixels)

    def __setitem__(self, i, colour):
        self._pixels[i] = colour

    def __getitem__(self, i):
        return self._pixels[i]

    def fill(self, colour):
        for i in range(len(self._pixels)):
            self._pixels[i] = colour

    def show(self):
        self.shown += 1
        lit = 0
        for i in range(len(self._pixels)):
            r, g, b = self._pixels[i]
            lit = (lit * 3 + r + g * 5 + b * 7) & 0xFFFFF
        outputs.heard(lit)
