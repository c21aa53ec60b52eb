# The computer at the table, for the App (hardware/app.py): for each player it
# plays, when it acts (engine/bot.py: its reaction times and choices) and the
# presses that make its move (hardware/plan.py), pushed into Controls like a
# person's. Loaded only when the computer plays (hardware/menu.py, play): a
# match of two people keeps none of it in its heap.
#
# Its presses come one at a time when their time comes, PRESS_MS apart,
# stamped with that time, into the same batch as the scanner's events: first
# press wins, whoever pressed. The keys of its side make no move
# (Controls.muted).

from engine.spit import PLAY

from .ticks import ticks_add, ticks_diff
from .plan import keys_for_move

PRESS_MS = 45  # between the presses of one move (past the debounce lockout)


class Computer:
    def __init__(self, bots, controls, key_of):
        self.bots = bots  # an engine.bot.Bot for each player it plays, else None
        self.controls = controls
        self._key_of = key_of  # keymaps.key_numbers: a player's action's key
        self._due = [None, None]  # when each acts next (decides, or presses)
        self._moves = bytearray(64)  # room for its legal moves
        self._keys = (bytearray(16), bytearray(16))  # the planned presses
        self._left = bytearray(2)  # how many of them are still to press

    def plays(self):
        # Bit p for each player the computer plays.
        return (1 if self.bots[0] else 0) | (2 if self.bots[1] else 0)

    def step(self, g, now_ms):
        # Every pass of a match: decide, or press the next key, when due.
        for p in range(2):
            bot = self.bots[p]
            if bot is None:
                continue
            due = self._due[p]
            if self._left[p]:
                if ticks_diff(now_ms, due) >= 0:
                    self._press(g, p, due)
                continue
            # (every pass asks: in PLAY can_move answers in half the time moves() lists them)
            if not (g.can_move(p) if g.phase == PLAY else g.moves(p, self._moves)):
                self._due[p] = None
                continue
            if due is None:
                self._due[p] = ticks_add(now_ms, bot.reaction_ms())
                continue
            if ticks_diff(now_ms, due) < 0:
                continue
            self._due[p] = None
            if bot.hesitates():
                continue
            self._left[p] = keys_for_move(g, self.controls, p, bot.choose(g), self._keys[p])
            self._press(g, p, now_ms)

    def _press(self, g, p, when):
        keys = self._keys[p]
        left = self._left[p]
        key = self._key_of[p * 16 + keys[0]]
        for j in range(1, left):
            keys[j - 1] = keys[j]
        self._left[p] = left - 1
        self._due[p] = ticks_add(when, PRESS_MS) if left > 1 else None
        self.controls.push(g, key, when)

    def next_due(self, g, now_ms):
        # ms until it acts (0: at the next step), or None: only a press can
        # give it something to do.
        due = None
        for p in range(2):
            if self.bots[p] is None:
                continue
            if self._due[p] is None:
                if g.moves(p, self._moves):
                    return 0  # it decides at the next step
            else:
                d = ticks_diff(self._due[p], now_ms)
                due = d if due is None or d < due else due
        return due

    def paused(self, ms):
        # Its reaction times (and its presses on the way) stood still for ms.
        for p in range(2):
            if self._due[p] is not None:
                self._due[p] = ticks_add(self._due[p], ms)
