# hardware/text.py written with adafruit_display_text's bitmap_label, for
# tools/bench_text.py only (never shipped): the same Text (cols x lines
# characters, shown a list of lines at a time; turned round by the flips of
# its `grid`) as one bitmap_label.Label a line, padded to its width so each
# label keeps its bitmap. The firmware runs it in place of the tiles, to
# compare the two on the emulated Pico (docs/text.md). hardware/message.py
# (a start-up failure's words) uses the tiles' Text: the comparison never
# meets one.

import displayio
import terminalio
from adafruit_display_text import bitmap_label


def font():
    """(None, None, None, w, h): the font's cell size (as hardware/sprites.py's font() gives it)."""
    w, h = terminalio.FONT.get_bounding_box()[:2]
    return None, None, None, w, h


class _Flips:
    # What the screen sets on a Text's grid to turn it round: here every
    # label upside down, and the lines in the other order.
    def __init__(self, text):
        self._text = text
        self._x = False
        self._y = False

    @property
    def flip_x(self):
        return self._x

    @flip_x.setter
    def flip_x(self, value):
        self._x = value
        self._text.turn(self._x and self._y)

    @property
    def flip_y(self):
        return self._y

    @flip_y.setter
    def flip_y(self, value):
        self._y = value
        self._text.turn(self._x and self._y)


class Text:
    # (cursor: the chosen line's ">" is drawn in its label, with the line.)
    def __init__(self, group, x, y, cols, lines, scale=1, cursor=False):
        w, h = font()[3:]
        self.cols = cols
        self.lines = lines
        self._h = h
        self._shown = [""] * lines
        self.grid = _Flips(self)
        self.group = displayio.Group(scale=scale, x=x, y=y)
        self._labels = []
        blank = " " * cols
        for r in range(lines):
            label = bitmap_label.Label(
                terminalio.FONT, text=blank, color=0xFFFFFF, background_color=0x000000, background_tight=False
            )
            label.anchor_point = (0, 0)
            label.anchored_position = (0, r * h)
            self.group.append(label)
            self._labels.append(label)
        group.append(self.group)

    def turn(self, turned):
        direction = "UPD" if turned else "LTR"
        for r, label in enumerate(self._labels):
            label.label_direction = direction
            label.anchored_position = (0, (self.lines - 1 - r if turned else r) * self._h)

    def forget(self):
        # The lines let go while the table is up (each label keeps its own text).
        for r in range(self.lines):
            self._shown[r] = "\n"

    def show(self, lines, chosen=-1, first=False):
        # Every changed line at once (a row a pass, first, is for the tiles).
        for r in range(self.lines):
            line = lines[r] if r < len(lines) else ""
            if line != self._shown[r]:
                self._shown[r] = line
                self._labels[r].text = (line + " " * self.cols)[: self.cols]
        return 0
