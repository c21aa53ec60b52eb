# The simulator's window: Blinka's displayio drawn into pygame
# (blinka-displayio-pygamedisplay 4.0.1), refreshing only displayio's dirty
# areas as a board does, and counting the pixels it pushes; its size.

import os
import time

from .settings import whole


class Quiet:
    """Keeps the chatter of libraries out of the terminal: Python prints and
    what C code writes to stderr (libasound lists every sound card it cannot
    find when SDL opens audio on a machine without one)."""

    def __enter__(self):
        import contextlib
        import io
        import sys

        self._out = contextlib.redirect_stdout(io.StringIO())
        self._out.__enter__()
        sys.stderr.flush()
        self._saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        return self

    def __exit__(self, *exc):
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._out.__exit__(*exc)
        return False


def pygame_display_class(scale=1, own=False):
    with Quiet():  # Blinka's board detection warns that a PC is no board (on import)
        import busdisplay
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay

    class MeasuredDisplay(PyGameDisplay):
        """Refreshes only displayio's dirty areas and counts the pixels pushed.

        The board's pixels are drawn on a surface of its own size (what the
        headless frames save); a window shows them scale times larger. own:
        a surface of its own even at scale 1 (pygame has one window, so two
        displays in one process, two linked boards, would draw on one)."""

        pixels_pushed = 0
        exposed = False  # the window was uncovered: show it again at the next refresh

        def _initialize(self, init_sequence):
            with Quiet():  # (pygame.init opens the audio device too)
                pygame.init()
            if self._caption:
                pygame.display.set_caption(self._caption)
            self._window = pygame.display.set_mode(size=(self.width * scale, self.height * scale), flags=self._flags)
            self._pygame_screen = self._window if scale == 1 and not own else pygame.Surface((self.width, self.height))

        def _get_refresh_areas(self):
            return busdisplay.BusDisplay._get_refresh_areas(self)

        def _refresh_area(self, area):
            self.pixels_pushed += area.width() * area.height()
            return super()._refresh_area(area)

        def _refresh_display(self):
            before = self.pixels_pushed
            busdisplay.BusDisplay._refresh_display(self)
            if self.pixels_pushed != before or self.exposed:  # the window is drawn only when it changed
                self.exposed = False
                if self._pygame_screen is not self._window:
                    pygame.transform.scale(self._pygame_screen, self._window.get_size(), self._window)
                pygame.display.flip()
            self._last_refresh = time.monotonic()
            self._refresh_pending = False

    return MeasuredDisplay


def window_scale(profile, env, pygame):
    """SPIT_SCALE, else the whole number that makes the screen about 720 pixels
    on its longer side and still fits the monitor."""
    chosen = whole(env, "SPIT_SCALE", 1, 16, 0)
    if chosen:
        return chosen
    w, h = profile["width"], profile["height"]
    scale = max(1, round(720 / max(w, h)))
    try:
        pygame.display.init()
        desk_w, desk_h = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        return scale
    while scale > 1 and (w * scale > desk_w * 0.9 or h * scale > desk_h * 0.9):
        scale -= 1
    return scale
