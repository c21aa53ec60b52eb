# The lobby of linked play: looking for the other handheld on the cable
# (hardware/linked.py finds it, agrees the game and starts the match); what
# stops them playing together, said on both screens; pile 2 goes back to the
# menu. Loaded while it shows.

from .keymaps import PILE_0
from .modes import LEAVE, STAY


class Lobby:
    def __init__(self, app, problem=""):
        self.app = app
        self.problem = problem  # the link could not be opened: why
        self._go = STAY
        self._shown = None  # the words on the screen
        self.draw()

    def step(self, now_ms):
        self._go = STAY
        self.app.buttons.poll(None, self.press)
        if self._go:
            return self._go
        self.draw()
        return STAY

    def due(self, now_ms):
        return 0  # (the link is read every pass)

    def press(self, player, action):
        if action == PILE_0 + 1:
            self._go = LEAVE
        return self._go

    def draw(self):
        lines = self.lines()
        if lines != self._shown:
            self._shown = lines
            self.app.show_lines(lines)

    def lines(self):
        linked = self.app.linked
        problem = self.problem
        noise = 0
        if linked is not None:
            problem = problem or linked.problem
            noise = linked.noise()
        what = "resume" if linked is not None and linked.resume is not None else "new match"
        lines = ["LINKED PLAY: " + what, "waiting for the", "other handheld"]
        if problem:
            lines = ["LINKED PLAY", "cannot play:", problem]
        if noise:
            lines.append("noise: %d bad frames" % noise)
        return lines + ["pile 2: back"]
