# The menu scene: what its lines say and what its keys do, and the settings
# and tally it keeps (read back at start-up: load; game over counts a match
# won here too: count_win). Loaded while the menu shows; a
# match forgets it (hardware.forget), so the match has its heap. It asks the
# App for a match through what press and step return (hardware/modes.py).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from engine.games import TITLES
from engine.spit import SCORING

from . import forget, storage
from .feedback import MENU as MENU_SOUND
from .keymaps import NEXT, PILE_0, PREV, STOCK_0
from .modes import DEMO, FACING, FOUR_COLOURS, LINKED, OPTIONS, PLAYERS, RESUME, START, STAY

# What a line of the menu is.
_RESUME = const(0)
_GAME = const(1)
_PLAYERS = const(2)
_SEATS = const(3)
_DECK = const(4)
_TALLY = const(5)
_SOUND = const(6)
_LIGHTS = const(7)
_OPTION = const(10)  # + the index of the game's option


def load(app):
    # What survives power loss, at start-up: the settings, the tally and a
    # match saved between rounds (offered on the first line).
    store = app.store
    chosen = False  # settings a player chose were read
    if store is not None:
        settings = store.load(storage.SETTINGS)
        if settings is not None and len(settings) >= 4 and settings[0] < 2 and not settings[1] & ~15:
            chosen = True
            app.kind = settings[0]
            app.rules_of[0] = settings[1]
            app.players = settings[2] if settings[2] < _choices(app) else 0
            app.rules_of[1] = settings[3] & 3
            app.style = settings[4] & 3 if len(settings) >= 5 else 0  # older records: none
            if len(settings) >= 6:
                app.sound = min(settings[5] & 3, 2)
                app.lights = 0 if settings[5] & 4 else 1
        saved = store.load(storage.TALLY)
        if saved is not None and len(saved) in (20, 2 * TALLIES):  # (before linked play: 10 counts)
            for i in range(len(saved) // 2):
                app.tally[i] = saved[2 * i] | saved[2 * i + 1] << 8
        payload = store.load(storage.MATCH)
        if payload is not None:
            from engine import record

            try:
                app.saved = record.decode(payload)
            except ValueError as e:
                print("saved match ignored: %s" % e)
            forget("engine.record")  # loaded again at the next round's save
    if not chosen and app.open_link is not None:
        # A handheld set up for linked play (SPIT_LINK) offers it first, its
        # seats as the Players line gives them; what a player chose is kept.
        app.players = LINKED
        app.style &= ~FACING
    app.apply_style()
    app.feedback.set(app.sound, app.lights == 1)


def _choices(app):
    # How many of PLAYERS the menu offers: linked play only where a link is.
    return len(PLAYERS) if app.open_link is not None else LINKED


class Menu:
    def __init__(self, app):
        self.app = app
        lines = self.items()
        self.item = lines.index(app.menu_line) if app.menu_line in lines else 0  # the chosen line (of items())
        self.top = 0  # the first line shown
        self.clearing = False  # the tally line asks for a second press
        self._go = STAY  # what a press asked for in this pass
        self._drawn = -1  # controls.presses when the lines were last drawn
        self._left = 0  # rows of them still to draw (a row a pass: draw)
        self._page = None  # the lines those rows are drawn from
        self.row = 0  # the chosen line's row on the screen (lines)

    def step(self, now_ms):
        # One pass: the keys, then what they asked for (a match), else the
        # lines again if a key changed them.
        app = self.app
        self._go = STAY
        app.buttons.poll(None, self)
        if self._go:
            return self._next()
        if app.controls.presses != self._drawn:
            self.draw()
        elif self._left:  # (the same lines: made again each pass, they would be garbage a pass)
            self._left = app.screen.show_text(self._page, False, self.row)
        return STAY

    def due(self, now_ms):
        # 0: the lines are to be drawn again; None: only a key changes them.
        return 0 if self.app.controls.presses != self._drawn or self._left else None

    def draw(self):
        # The chosen line and its ">" at once, the other lines that changed
        # a pass each after it (Screen.show_text): a page turned is then the
        # chosen line in 40 ms and the page in a quarter second, and a key
        # pressed meanwhile is read between two lines, not after the page.
        self._drawn = self.app.controls.presses
        self._page = self.lines()  # (its lines fit the screen: lines)
        self._left = self.app.screen.show_text(self._page, False, self.row)

    def _next(self):
        # "go" on the saved match's line resumes it; anywhere else, a new match.
        # Back in the menu (from the lobby, from game over), the cursor is on the same line.
        self.app.menu_line = self.items()[self.item]
        return RESUME if self.app.resumable() and self.item == 0 else START

    def items(self):
        # What each line of the menu that can be chosen is: resume (when a
        # match is saved), the game, the players, the game's options, the seats
        # and (on colour screens) the deck.
        app = self.app
        out = [_RESUME] if app.resumable() else []
        out += [_GAME, _PLAYERS] + [_OPTION + i for i in range(len(OPTIONS[app.kind]))] + [_SEATS]
        if app.profile["colour"]:
            out.append(_DECK)
        out.append(_SOUND)
        if app.feedback.pixels is not None:
            out.append(_LIGHTS)
        return out + [_TALLY]

    def item_text(self, item):
        app = self.app
        if item == _RESUME:
            g = app.saved
            assert g is not None  # the item is there only with a saved match
            if g.rules & SCORING:  # the points say how far it went
                return "Resume %s %d:%d" % (TITLES[g.kind], g.scores[0], g.scores[1])
            return fit(
                ("Resume %s round %d" % (TITLES[g.kind], g.round), "Resume %s R%d" % (TITLES[g.kind], g.round)),
                app.screen.cols - 1,
            )
        if item == _GAME:
            return "Game: " + TITLES[app.kind]
        if item == _PLAYERS:
            return "Players: " + PLAYERS[app.players]
        if item == _SEATS:
            return "Seats: " + ("facing" if app.style & FACING else "side by side")
        if item == _DECK:
            return "Deck: " + ("4 colours" if app.style & FOUR_COLOURS else "2 colours")
        if item == _SOUND:
            return "Sound: " + ("off", "low", "high")[app.sound]
        if item == _LIGHTS:
            return "Lights: " + ("on" if app.lights else "off")
        if item == _TALLY:
            return "Clear tally? again" if self.clearing else self._tally_item()
        label, names, flag = OPTIONS[app.kind][item - _OPTION]
        return "%s: %s" % (label, names[1 if app.rules & flag else 0])

    def _tally_item(self):
        # "Tally bottom 3 : 2 top", else "Won bottom 3:2 top", else the shorter
        # forms (a menu line has the screen's columns less the chosen line's ">").
        app = self.app
        if app.players == DEMO:
            return fit(("Tally none in a demo", "No tally in a demo"), app.screen.cols - 1)
        forms = tally_forms(app)
        return fit(("Tally " + forms[0], "Won " + forms[1]) + forms[1:], app.screen.cols - 1)

    def lines(self):
        app = self.app
        options = [(">" if i == self.item else " ") + self.item_text(item) for i, item in enumerate(self.items())]
        rows = app.screen.rows
        room = rows - 2 if rows < 10 else rows - 3  # a small OLED: only the lines around the chosen one
        # The list turns a page only when the chosen line would leave it: every
        # line of a turned page is drawn anew (a row a pass, draw), a move
        # within the page only the ">".
        top = max(0, min(self.top, len(options) - room))
        if self.item < top:
            top = max(0, self.item - room + 1)
        elif self.item >= top + room:
            top = min(self.item, len(options) - room)
        self.top = top
        options = options[top : top + room]
        # How to use it, in the words of its buttons (counted from 1, as on the table).
        if app.profile.get("menu_key_words"):  # keys with names of their own (a Cardputer's letters)
            hint = list(app.profile["menu_key_words"])
        elif app.profile["cursor"]:  # the PyBadge (see press)
            hint = ["up/down move, A go", "left/right or B change"]
        else:
            hint = ["move: stock 1 / 2", "pile 1 change, 2 go"]
        head = [] if rows < 10 else ["SPIT & SPEED"]  # (no room on a small OLED)
        self.row = len(head) + self.item - top  # the chosen line's
        return head + options + [""] * (room - len(options)) + hint

    def press(self, player, action):
        # A key: move, change the chosen line, or go (START or RESUME).
        app = self.app
        if app.profile["cursor"]:
            # A PyBadge's menu as its buttons say: the D-pad's Up and Down
            # move, Left and Right change; B (and Select) change, A (and
            # Start) go. In a match the same keys are piles and the cursor.
            if player == 0:
                action = PREV if action == PILE_0 else NEXT if action == PILE_0 + 1 else PILE_0
            else:
                action = PILE_0 + 1 if action == PILE_0 + 1 or action == NEXT else PILE_0
        choices = self.items()
        if self.item >= len(choices):
            self.item = 0  # (the lines changed under the cursor: a saved match gone, say)
        item = choices[self.item]
        if action != PILE_0 or (item != _SOUND and item != _LIGHTS):  # (those sound once set, below)
            app.feedback.event(MENU_SOUND, player, app.controls.now)
        clearing = self.clearing
        self.clearing = False
        if action == PREV or action == STOCK_0:
            self.item = (self.item - 1) % len(choices)
        elif action == NEXT or action == STOCK_0 + 1:
            self.item = (self.item + 1) % len(choices)
        elif action == PILE_0 + 1:
            self._go = START
            return self._next()
        elif action != PILE_0 or item == _RESUME:
            return STAY
        elif item == _GAME:
            app.kind ^= 1
        elif item == _PLAYERS:
            # The seats that fit who plays (still changeable on their line):
            # two people face each other across the device; one person plays
            # the computer from one side, every card upright for them.
            app.players = (app.players + 1) % _choices(app)
            two = 0 if app.profile.get("two_people_sit") == "side_by_side" else FACING  # (as the App starts)
            app.style = app.style & ~FACING | (0 if app.players else two)
            self.item = min(self.item, len(self.items()) - 1)  # (the resume line comes and goes with linked play)
            app.apply_style()
        elif item == _SEATS or item == _DECK:
            app.style ^= FACING if item == _SEATS else FOUR_COLOURS
            app.apply_style()
        elif item == _SOUND or item == _LIGHTS:
            if item == _SOUND:
                app.sound = (app.sound + 1) % 3
            else:
                app.lights ^= 1
            app.feedback.set(app.sound, app.lights == 1)
            # The key's tick after the change: at the new volume, and no tick
            # begun at the old one is cut short (a click).
            app.feedback.event(MENU_SOUND, player, app.controls.now)
        elif item == _TALLY:
            self.clearing = not clearing  # the second press clears
            if clearing:
                clear_tally(app)
            return STAY
        else:
            app.rules_of[app.kind] ^= OPTIONS[app.kind][item - _OPTION][2]
        if action == PILE_0:
            self.save_settings()
        return STAY

    def save_settings(self):
        app = self.app
        if app.store is not None:
            # game (0 Spit, 1 Speed), Spit's rules, players/difficulty, Speed's rules, seats and
            # deck, sound volume and lights off
            app.store.save(
                storage.SETTINGS,
                bytes(
                    (
                        app.kind,
                        app.rules_of[0],
                        app.players,
                        app.rules_of[1],
                        app.style,
                        app.sound | (0 if app.lights else 4),
                    )
                ),
            )


# -- the tally of matches won (the menu's last line, and game over's) --


TALLIES = 14  # two people's wins, each computer level's (the person's, the computer's), linked (ours, theirs)


def count_win(app, winner):
    # A finished match in the tally: two people, the person (player 0)
    # against the computer at its level, or linked (this device's player
    # first); the computer against itself is not.
    if app.players == DEMO:
        return
    if app.players == LINKED:
        winner = 0 if winner == app.seat else 1
    i = 2 * app.players + winner  # (two people's first, then each level's)
    app.tally[i] = min(app.tally[i] + 1, 0xFFFF)
    save_tally(app)


def clear_tally(app):
    app.tally = [0] * TALLIES
    save_tally(app)


def save_tally(app):
    if app.store is not None:
        app.store.save(storage.TALLY, bytes(b for n in app.tally for b in (n & 255, n >> 8)))


def tally_forms(app):
    # The tally for the players chosen now (not a demo), longest form first:
    # "bottom 3 : 2 top", "bottom 3:2 top", "3:2"; "you 5 : 7 Hard", "you
    # 5:7 Hard", "you 5:7 CPU", "5:7". Who won how many matters more than
    # the spaces or a label: a line takes the longest that fits (fit).
    a = app.tally[2 * app.players]
    b = app.tally[2 * app.players + 1]
    if not app.players:
        return ("bottom %d : %d top" % (a, b), "bottom %d:%d top" % (a, b), "%d:%d" % (a, b))
    if app.players == LINKED:
        return ("you %d : %d rival" % (a, b), "you %d:%d rival" % (a, b), "%d:%d" % (a, b))
    level = PLAYERS[app.players][3:]
    return (
        "you %d : %d %s" % (a, b, level),
        "you %d:%d %s" % (a, b, level),
        "you %d:%d CPU" % (a, b),
        "%d:%d" % (a, b),
    )


def fit(forms, room):
    # The first form of at most room characters, else the last: nothing is
    # cut off on the screen.
    for text in forms:
        if len(text) <= room:
            break
    return text
