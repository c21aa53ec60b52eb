# The words of a full-screen scene (the pause, game over) on the Screen, for
# the App: words longer than the screen, given the time, are shown a page at
# a time, each for PAGE_MS (turn). Loaded while such a scene shows and
# forgotten when a match is drawn (App.close_pages), so the match keeps its
# heap.

from .ticks import ticks_diff

PAGE_MS = 2500  # a page of a scene longer than the screen stays this long


class Pages:
    def __init__(self, screen):
        self.screen = screen
        self._pages = None  # type: list | None  # the pages of lines, when more than one
        self._page = 0  # the one shown, since _at
        self._at = 0
        self._twice = False

    def show(self, lines, twice=False, now_ms=None):
        # twice: the lines for both players, their blank ones left out. Where
        # they do not fit: given the time, pages of them without their blank
        # lines (as few as fit, the lines shared out evenly), else the first.
        screen = self.screen
        room = screen.rows // 2 if twice else screen.rows
        self._pages = None
        if twice or len(lines) > room:
            lines = [line for line in lines if line]
        n = len(lines)
        if n > room and now_ms is not None:
            per = -(-n // -(-n // room))
            self._pages = [lines[i : i + per] for i in range(0, n, per)]
            self._page = 0
            self._at = now_ms
            self._twice = twice
            lines = self._pages[0]
        screen.show_text(lines[:room], twice)

    def due(self, now_ms):
        # ms until the next page (0: due now), or None: one page.
        if self._pages is None:
            return None
        return max(0, PAGE_MS - ticks_diff(now_ms, self._at))

    def turn(self, now_ms):
        # The next page, when its time has come.
        if self._pages is not None and ticks_diff(now_ms, self._at) >= PAGE_MS:
            self._page = (self._page + 1) % len(self._pages)
            self._at = now_ms
            self.screen.show_text(self._pages[self._page], self._twice)
