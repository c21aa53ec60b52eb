# The lobby of linked play: the cable opened, and looking for the other
# handheld on it (hardware/linked.py finds it, agrees the game and starts the
# match); what stops them playing together, said on both screens; pile 2
# goes back to the menu. Loaded while it shows.

from .keymaps import PILE_0
from .modes import LEAVE, LOBBY, STAY


def enter(app, resume, now_ms):
    # Linked play chosen in the menu: the cable opened (once), and the lobby,
    # to start a new match or resume the one saved (resume).
    problem = ""
    if app.leaving is not None:  # (the last session, still waiting to be heard leaving, lets the UART go now)
        app.leaving.drain(now_ms, True)
        app.leaving = None
    if app.linked is None:
        from .linked import Linked

        try:
            uart = app.open_link()
        except (ValueError, RuntimeError, OSError) as e:  # (pins in use, no such UART)
            uart = None
            problem = "no link: %s" % e
        if uart is not None:
            app.linked = Linked(app, uart, app.ticks_ms, app.nonce if app.nonce is not None else _draw(now_ms))
    if app.linked is not None:
        app.linked.resume = resume
    app.close_pages()
    app.mode = LOBBY
    app.scene = Lobby(app, problem, now_ms)


def _draw(now_ms):
    # A linked session's number (hardware/linked.py: the higher referees):
    # the chip's random bits, and the moment linked play was chosen (two
    # emulated chips draw the same bits).
    try:
        from os import urandom

        r = urandom(2)
        return (r[0] | r[1] << 8) ^ (now_ms & 0xFFFF)
    except (ImportError, NotImplementedError):
        return now_ms & 0xFFFF


class Lobby:
    def __init__(self, app, problem, now_ms):
        self.app = app
        self.problem = problem  # the link could not be opened: why
        self._go = STAY
        self._shown = None  # what the words on the screen say: (problem, noise), or None: nothing yet
        self.draw(now_ms)

    def step(self, now_ms):
        self._go = STAY
        self.app.buttons.poll(None, self)
        if self._go:
            return self._go
        self.draw(now_ms)
        return STAY

    def due(self, now_ms):
        return 0  # (the link is read every pass)

    def press(self, player, action):
        # Pile 2 goes back to the menu; any other key goes on into the
        # other's match, when one is offered.
        linked = self.app.linked
        if action == PILE_0 + 1:
            self._go = LEAVE
        elif linked is not None and linked.offer >= 0:
            linked.joining = linked.offer
            linked.offer = -1
        elif linked is not None and linked.confirmed == 0:
            linked.confirmed = 1  # (the handheld found is the one this player means)
        return self._go

    def draw(self, now_ms):
        # The words again when what they say changed (asked every pass: the
        # link's news come any time), a page at a time where they do not fit.
        linked = self.app.linked
        problem = self.problem
        noise = 0
        offer = -1
        found = -1
        if linked is not None:
            problem = problem or linked.problem
            noise = linked.noise()
            offer = linked.offer
            found = linked.confirmed
        shown = self._shown
        if shown is None or shown != (problem, noise, offer, found):
            self._shown = (problem, noise, offer, found)
            self.app.show_lines(self.lines(problem, noise, offer), False, now_ms)
        else:
            self.app.pages.turn(now_ms)

    def lines(self, problem, noise, offer=-1):
        # (every line within the screen's columns: the problem's words wrapped)
        linked = self.app.linked
        what = "resume" if linked is not None and linked.resume is not None else "a new match"
        lines = ["LINKED PLAY", what + ":", "waiting for the", "other handheld"]
        if offer >= 0:
            from engine.games import TITLES

            lines = ["LINKED PLAY", "the other has", TITLES[offer & 1] + " going", "any key: join"]
        elif linked is not None and linked.confirmed >= 0 and not problem:
            # By radio: this handheld's name and the one found, to be
            # checked against the other screen before a key plays it.
            found = name_of(linked.peer)
            lines = ["LINKED PLAY", "this one: " + name_of(linked.nonce), "found: " + found]
            lines.append("any key: play " + found if linked.confirmed == 0 else "waiting for " + found)
        elif problem:
            lines = ["LINKED PLAY", "cannot play:"] + _wrap(problem, self.app.screen.cols)
        if noise:
            lines.append(("radio noise: %d" if linked.pair else "cable noise: %d") % noise)
        return lines + [self.app.profile.get("pile_2_words", ("pile 2: leave match", "pile 2: back"))[1]]


def _wrap(text, cols):
    # text's words in lines of at most cols (a longer word cut).
    lines = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > cols:
            lines.append(line)
            line = ""
        line = (line + " " + word if line else word)[:cols]
    return lines + [line] if line else lines


def name_of(nonce):
    # A handheld's name in a session, from its number: two syllables any of
    # the players' languages reads alike (6,400 names), on both screens.
    n = nonce % 6400
    c = "BDFGHKLMNPRSTVWZ"
    v = "AEIOU"
    return c[n % 16] + v[n // 16 % 5] + c[n // 80 % 16] + v[n // 1280]
