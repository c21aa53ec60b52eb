# The computer as one side's player (hardware/sides.py decides who plays):
# when it acts (engine/bot.py: its reaction times and choices) and the
# presses that make its move (hardware/plan.py), pushed into Controls like a
# person's. Loaded only when the computer plays: a match of two people keeps
# none of it in its heap.
#
# Its presses come one at a time when their time comes, PRESS_MS apart,
# stamped with that time, into the same batch as the scanner's events: first
# press wins, whoever pressed. The keys of its side make no move
# (Controls.muted).

from engine.spit import PLAY

from .plan import keys_for_move
from .ticks import ticks_add, ticks_diff

PRESS_MS = 45  # between the presses of one move (past the debounce lockout)


class Computer:
    def __init__(self, bot, player, controls, key_of):
        self.bot = bot  # an engine.bot.Bot
        self.player = player
        self.controls = controls
        self._key_of = key_of  # keymaps.key_numbers: a player's action's key
        self._due = None  # when it acts next (decides, or presses)
        self._moves = bytearray(64)  # room for its legal moves
        self._keys = bytearray(16)  # the planned presses
        self._left = 0  # how many of them are still to press

    def step(self, g, now_ms):
        # Every pass of a match: decide, or press the next key, when due.
        p = self.player
        due = self._due
        if self._left:
            if ticks_diff(now_ms, due) >= 0:
                self._press(g, due)
            return
        # (every pass asks: in PLAY can_move answers in half the time moves() lists them)
        if not (g.can_move(p) if g.phase == PLAY else g.moves(p, self._moves)):
            self._due = None
            return
        if due is None:
            self._due = ticks_add(now_ms, self.bot.reaction_ms())
            return
        if ticks_diff(now_ms, due) < 0:
            return
        self._due = None
        if self.bot.hesitates():
            return
        self._left = keys_for_move(g, self.controls, p, self.bot.choose(g), self._keys)
        self._press(g, now_ms)

    def _press(self, g, when):
        keys = self._keys
        left = self._left
        key = self._key_of[self.player * 16 + keys[0]]
        for j in range(1, left):
            keys[j - 1] = keys[j]
        self._left = left - 1
        self._due = ticks_add(when, PRESS_MS) if left > 1 else None
        self.controls.push(g, key, when)

    def next_due(self, g, now_ms):
        # ms until it acts (0: at the next step), or None: only a press can
        # give it something to do.
        if self._due is None:
            return 0 if g.moves(self.player, self._moves) else None
        return ticks_diff(self._due, now_ms)

    def paused(self, ms):
        # Its reaction time (and its presses on the way) stood still for ms.
        if self._due is not None:
            self._due = ticks_add(self._due, ms)
