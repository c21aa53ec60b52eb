# A maker's message on the screen: what start-up cannot get past (a library
# or a picture missing, a wiring fault), the words wrapped to the screen as
# tiles of the firmware's font (hardware/text.py) and drawn at once. Loaded
# only when there is one to show, so a match keeps none of its code.

import displayio

from .sprites import font
from .text import Text


def show_message(display, message):
    # The message on the display, drawn at once (auto_refresh is off).
    display.root_group = group(message, display.width, display.height)
    display.refresh()


def group(text, width, height):
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
    root = displayio.Group()
    Text(root, 0, 0, cols, rows, scale).show(lines[:rows])
    return root
