# Button presses to Spit moves: debounce, first press wins, one card a press.
#
# Pure logic with no hardware import: hardware/buttons.py feeds it the events
# of the board's keypad, tests feed it traces, and it runs on the MicroPython
# VM with the heap locked. Nothing here allocates per event.
#
# - Debounce acts on the first edge (no added latency, which matters in a speed
#   game) and then ignores the same key's presses until LOCKOUT_MS have passed
#   since its last press or release: contact bounce (on pressing or letting go)
#   and chatter can never make a second move. A press also needs a release first.
# - First press wins (SP-7, SP-11, D-5): the presses of one batch (every event
#   read from the queue in one go) are applied in the order of their keypad
#   timestamps, compared wrap-safe (ticks_ms wraps at 2**29). Presses with equal
#   timestamps (one scan, or two scans within one ms) from both players are a
#   tie: the player who goes first alternates from tie to tie, never decided
#   by key number. Each move is checked against the game as it is when it is
#   applied, so a later press that no longer fits is refused (``result`` says
#   why; the screen flashes it).
# - A player's half-made move (a chosen stock, or an empty slot chosen for
#   SP-6) is theirs alone, is cancelled by choosing it again, and is dropped as
#   soon as it can no longer be completed.
# - After a queue overflow (buttons.py resets the scanner), presses reported
#   within RESYNC_MS of the reset are keys already held: they are marked held
#   and make no move, so nothing lost is replayed and nothing is doubled.
#
# Controls on the two-handed handheld (five stock keys, two pile keys each),
# the same every time, whatever else the card could do:
#   stock key on a card that fits exactly one spit pile: played there at once.
#   on a card that fits both (or none, but could fill an empty slot): chosen;
#     then a pile key plays it there, or the empty slot's key moves it (SP-6).
#   on an empty slot a card could fill: that slot is chosen (SP-6); then a
#     stock key moves its card there.
#   the same key again: cancel. A pile key with nothing chosen: refused when
#     it is let go, unless the other pile key joins it first (so is a pile key
#     calling spit again in READY or STALEMATE: the chord's first key).
# Both pile keys of a player held are the pause chord (the App pauses after a
#   second): a pile key pressed while the other is held makes no move and no
#   refusal.
# On four-key boards (cursor): PREV/NEXT move the cursor over the stocks; a
#   pile key plays the card under the cursor on that pile. On an empty slot a
#   pile key chooses that slot for SP-6; then the cursor on a stock and a pile
#   key move its top card there (the same slot again: cancel).
# Speed uses the same keys: the hand slots are the stocks, and the call in READY
#   and STALEMATE is its TURN (set ``call``); it has no SP-6, slap or choice.
# Everywhere: any key calls spit in READY and STALEMATE; the pile keys slap
#   that pile (SLAP) or choose it (CHOOSE, V-2). A press within SPIT_GRACE_MS of
#   the slap that dealt a new round is a late slap, not a spit call.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from engine.spit import CHOOSE, FILL_BASE, PLAY, READY, SLAP, SLAP_0, SPIT, STALEMATE, TAKE_0

from .keymaps import NEXT, PILE_0, PREV, UNUSED
from .ticks import ticks_diff

NONE = const(255)  # no stock chosen, no slot chosen
_CLAMP = const(1 << 20)  # sort keys stay small ints even across a long pause
NOTHING_CHOSEN = const(100)  # a pile key with no stock chosen (not an engine code)
TAKEN = const(101)  # a race lost: the card fitted the pile the other player changed just before (not an engine code)
_E_PHASE = const(2)  # the engines' code for a move the phase does not take now (their word: wait)
_E_EMPTY = const(3)  # the engines' code for an empty stock (Spit) or hand slot (Speed)


class Controls:
    LOCKOUT_MS = 40  # a second press of a key sooner than this is bounce
    RESYNC_MS = 30  # presses this soon after a scanner reset are held keys
    SPIT_GRACE_MS = 250  # presses this soon after a round is dealt are late slaps, not spit
    TAKEN_MS = 600  # a card that fitted a pile the other player changed this soon before lost a race

    def __init__(self, keymap, cursor=False, batch=32):
        self.keymap = keymap
        self.cursor_mode = cursor
        n = len(keymap)
        self._held = bytearray(n)
        self.down = 0  # how many keys are held
        self._piles = bytearray(2)  # each player's pile keys held: bit k for pile k (3: the pause chord)
        self._pick = bytearray((NONE, NONE))  # a pile key pressed with nothing chosen: refused when let go
        self._edge_at = [0] * n  # time of the key's last accepted press or any release
        self._ever = bytearray(n)  # the key has an edge time to compare with
        self._key = bytearray(batch)
        self._time = [0] * batch
        self._order = bytearray(batch)
        self._sort = [0] * batch
        self._count = 0
        self._resync = False
        self._resync_at = 0
        self.now = 0  # timestamp of the press being applied
        self._dealt = False  # a move of ours dealt a new round at _dealt_at
        self._dealt_at = 0
        self.tie_first = 0  # who goes first in the next tie (D-5)
        self.chosen = bytearray((NONE, NONE))  # the stock each player has chosen
        self.cursor = bytearray(2)
        self.slot = bytearray((NONE, NONE))  # cursor boards: empty slot chosen for SP-6
        self.result = bytearray(2)  # each player's last move: 0 or why it was refused (or TAKEN)
        self.refusals = bytearray(2)  # each player's refusals so far, mod 256 (the screen flashes a new one)
        self.refused = bytearray((NONE, NONE))  # where: the stock (0..4) or PILE_0 + pile, or NONE
        self._pile_by = bytearray((NONE, NONE))  # who last played onto each pile, and when
        self._pile_at = [0, 0]
        self._pile_was = bytearray(2)  # each pile's top card before that play
        self.played = bytearray((NONE, NONE))  # the stock each player last played from, and when
        self.played_at = [0, 0]
        self.attempts = 0  # moves tried so far (the App sounds a change)
        self.applied = 0  # moves the game accepted
        self.presses = 0  # presses handled (the screen redraws when it changes)
        self.last = 0  # the player of the last move tried
        self.call = SPIT  # the move any key makes in READY/STALEMATE (Speed: its TURN)
        # Bit p: player p's keys make no move in a match (the computer plays
        # that side: its presses come through push()). They are still held
        # and let go, so the pause chord works from either side.
        self.muted = 0
        # Linked play (hardware/linked.py): every press of this device's
        # buttons goes to relay.press(player, action, time) instead, in a
        # match and its scenes alike; the order of both devices' presses comes
        # back through push(), and a pile key let go through let_go(): the
        # pile keys held (the pause chord makes no move) are then the order's,
        # so that both devices judge a press alike.
        self.relay = None

    # -- events in --

    def feed(self, game, key, pressed, timestamp, scene=None):
        # One keypad event. Presses are buffered; apply() plays them in order.
        if key >= len(self.keymap) or self.keymap[key] == UNUSED:
            return
        m = self.keymap[key]
        p = m >> 4
        pile = (m & 15) - PILE_0
        if not pressed:
            if self._held[key]:
                self._held[key] = 0
                self.down -= 1
                if 0 <= pile < 2 and self.relay is None:
                    self._piles[p] &= ~(1 << pile)
            self._ever[key] = 1
            self._edge_at[key] = timestamp
            if self.relay is not None:
                if 0 <= pile < 2:
                    self.relay.let_go(p, m & 15, timestamp)  # (into the order, where the press is)
            elif scene is None:
                self.let_go(game, p, m & 15, timestamp)
            elif self._pick[p] == m & 15:
                self._pick[p] = NONE
            return
        if self._held[key]:
            return  # no release in between: not a new press
        self._held[key] = 1
        self.down += 1
        if 0 <= pile < 2 and self.relay is None:  # (relayed: as the order says, _press and let_go)
            self._piles[p] |= 1 << pile
        if self._resync:
            if ticks_diff(timestamp, self._resync_at) <= self.RESYNC_MS:
                return  # held through the reset: already acted on, or lost
            self._resync = False
        if self._ever[key] and ticks_diff(timestamp, self._edge_at[key]) < self.LOCKOUT_MS:
            return  # bounce or chatter, on pressing or on letting go
        self._ever[key] = 1
        self._edge_at[key] = timestamp
        if self.relay is not None:
            self.relay.press(p, m & 15, timestamp)
            return
        if scene is None and self.muted >> p & 1:
            return  # the computer's side: its keys make no move
        self.push(game, key, timestamp, scene)

    def let_go(self, game, player, action, timestamp):
        # A pile key let go: refused if it was pressed with nothing chosen
        # (NOTHING_CHOSEN), or as a call the game refused (already called),
        # and no other press of that player came since.
        if self.relay is not None:
            self._piles[player] &= ~(1 << (action - PILE_0))
        if self._pick[player] != action:
            return
        self._pick[player] = NONE
        if game is None:
            return
        ph = game.phase
        if ph == PLAY:
            self.presses += 1
            self.now = timestamp
            self._refuse(player, NOTHING_CHOSEN, action)
        elif ph == READY or ph == STALEMATE:
            why = game.check(player, self.call)
            if why:
                self.presses += 1
                self.now = timestamp
                self._refuse(player, why, NONE)

    def push(self, game, key, timestamp, scene=None):
        # A press to order and apply with the rest of the batch, as it is: the
        # computer's (App), or one feed() let through.
        if self._count == len(self._key):
            self.apply(game, scene)
        i = self._count
        self._key[i] = key
        self._time[i] = timestamp
        self._count = i + 1

    def settle(self):
        # A position taken up from elsewhere (linked play's snapshot, on both
        # devices alike): no half-made move, and nothing the moves before it
        # left waiting (a pick refused when its key is let go, a pile just
        # changed that makes a play a race lost, a round just dealt that
        # makes a press a late slap): their times may be another clock's
        # (a new referee's), and the other device never had them.
        self.chosen[0] = self.chosen[1] = self.slot[0] = self.slot[1] = NONE
        self._pick[0] = self._pick[1] = NONE
        self._pile_by[0] = self._pile_by[1] = NONE
        self.played[0] = self.played[1] = NONE
        self._dealt = False
        self._piles[0] = self._piles[1] = 0  # (relayed: a pile key's press before it may be one device's only)

    def held(self, key):
        # True while key is down; down_at(key) is when it went down.
        return self._held[key] == 1

    def down_at(self, key):
        return self._edge_at[key]

    def resync(self, now):
        # The scanner was reset at ticks_ms() == now (after a queue overflow and
        # apply()): every key counts as released until the scanner reports it again.
        for k in range(len(self._held)):
            self._held[k] = 0
        self.down = 0
        if self.relay is None:  # (relayed, the pile keys held are the order's, the same on both devices)
            self._piles[0] = self._piles[1] = 0
            self._pick[0] = self._pick[1] = NONE
        self._resync = True
        self._resync_at = now

    # -- ordering: first press wins --

    def apply(self, game, scene=None):
        # Play the buffered presses in timestamp order, ties as D-5 says. With a
        # scene (a menu), each press goes to scene.press(player, action)
        # instead (the scene itself, not a bound method made each pass).
        n = self._count
        if not n:
            return
        order = self._order
        if n == 1:
            order[0] = 0  # one press (the usual pass): nothing to order
        else:
            self._order_presses(n)
        self._count = 0
        for i in range(n):
            e = order[i]
            k = self.keymap[self._key[e]]
            self.now = self._time[e]
            if scene is not None:
                self.presses += 1
                scene.press(k >> 4, k & 15)
            else:
                self._press(game, k >> 4, k & 15)

    def _order_presses(self, n):
        # order[:n]: the buffered presses by time; a tie between the players
        # goes as D-5 says.
        order = self._order
        sort = self._sort
        t0 = self._time[0]
        for i in range(n):
            d = ticks_diff(self._time[i], t0)
            if d > _CLAMP:
                d = _CLAMP
            elif d < -_CLAMP:
                d = -_CLAMP
            # Within one stamp a player's cursor and stock keys come before pile keys.
            a = self.keymap[self._key[i]] & 15
            sort[i] = d * 2 + (1 if PILE_0 <= a < PREV else 0)
            order[i] = i
            j = i
            while j > 0 and sort[order[j - 1]] > sort[i]:  # stable insertion sort
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        start = 0
        while start < n:
            end = start + 1
            t = self._time[order[start]]
            players = 1 << (self.keymap[self._key[order[start]]] >> 4)
            while end < n and self._time[order[end]] == t:
                players |= 1 << (self.keymap[self._key[order[end]]] >> 4)
                end += 1
            if players == 3:
                self._put_first(start, end, self.tie_first)
                self.tie_first ^= 1
            start = end

    def _put_first(self, start, end, player):
        # Stable: player's presses of order[start:end] first, then the other's.
        order = self._order
        for i in range(start + 1, end):
            e = order[i]
            if self.keymap[self._key[e]] >> 4 != player:
                continue
            j = i
            while j > start and self.keymap[self._key[order[j - 1]]] >> 4 != player:
                order[j] = order[j - 1]
                j -= 1
            order[j] = e

    # -- presses to moves --

    def _press(self, game, player, action):
        self.presses += 1
        self._pick[player] = NONE  # a new press of theirs: a pick refusal waiting for its key is dropped
        if self.relay is not None and PILE_0 <= action < PREV:
            self._piles[player] |= 1 << (action - PILE_0)  # (the order's: both devices alike)
        ph = game.phase
        if ph == READY:
            if not self._dealt or ticks_diff(self.now, self._dealt_at) >= self.SPIT_GRACE_MS:
                self._dealt = False
                self._call(game, player, action)
        elif ph == STALEMATE:
            self._call(game, player, action)
        elif ph == PLAY:
            if self.cursor_mode:
                self._press_cursor(game, player, action)
            else:
                self._press_keys(game, player, action)
        elif PILE_0 <= action < PREV:
            if ph == SLAP:
                self._try(game, player, SLAP_0 + action - PILE_0)
            elif ph == CHOOSE:
                self._try(game, player, TAKE_0 + action - PILE_0)

    def _call(self, game, player, action):
        # Any key calls spit (Speed: turns). A pile key the game would refuse
        # (already called) may be the pause chord's first: refused when let
        # go, unless the other pile key joins it (as a lone pile key in PLAY).
        if PILE_0 <= action < PREV and game.check(player, self.call):
            self._pick[player] = NONE if self._piles[player] == 3 else action
            return
        self._try(game, player, self.call)

    def _press_keys(self, game, player, action):
        chosen = self.chosen[player]
        slot = self.slot[player]
        if action < PILE_0:
            s = action
            if s >= game.stocks:
                return
            if chosen == s or slot == s:
                self.chosen[player] = self.slot[player] = NONE  # cancel
                return
            if slot != NONE:
                self.slot[player] = NONE
                self._try(game, player, FILL_BASE + s * 5 + slot)  # SP-6: this card into the chosen slot
                return
            if chosen != NONE and game.check(player, FILL_BASE + chosen * 5 + s) == 0:
                self.chosen[player] = NONE
                self._try(game, player, FILL_BASE + chosen * 5 + s)  # SP-6 into the empty slot s
                return
            fits0 = game.check(player, s * 2) == 0
            fits1 = game.check(player, s * 2 + 1) == 0
            self.chosen[player] = NONE
            if fits0 != fits1:
                self._try(game, player, s * 2 + (0 if fits0 else 1))  # one pile: at once, always
            elif fits0 or self.can_fill_from(game, player, s):
                self.chosen[player] = s
            elif self._slot_can_be_filled(game, player, s):
                self.slot[player] = s  # an empty slot: the next card pressed goes there
            else:  # empty, or fits nowhere: a race lost if it fitted a pile the other just changed
                why = game.check(player, s * 2)
                if why > _E_EMPTY and (
                    self._lost_race(game, player, s * 2) or self._lost_race(game, player, s * 2 + 1)
                ):
                    why = TAKEN
                self._refuse(player, why, s)
        elif action < PREV:
            if chosen == NONE:
                self.slot[player] = NONE
                # Refused when let go, unless the other pile key joins it:
                # both held are the pause chord, which refuses nothing.
                self._pick[player] = NONE if self._piles[player] == 3 else action
                return
            self.chosen[player] = NONE
            self._try(game, player, chosen * 2 + action - PILE_0)

    def _press_cursor(self, game, player, action):
        ns = game.stocks
        if action == PREV or action == NEXT:
            self.cursor[player] = (self.cursor[player] + (ns - 1 if action == PREV else 1)) % ns
            return
        if action >= PREV or action < PILE_0 or self._piles[player] == 3:
            return  # (both pile keys held: the pause chord, no move)
        c = self.cursor[player]
        slot = self.slot[player]
        if slot != NONE:
            self.slot[player] = NONE
            if c != slot:
                self._try(game, player, FILL_BASE + c * 5 + slot)  # SP-6
            return
        if self._slot_can_be_filled(game, player, c):
            self.slot[player] = c  # an empty slot: choose it for SP-6
        else:
            self._try(game, player, c * 2 + action - PILE_0)

    def can_fill_from(self, game, player, s):
        for e in range(game.stocks):
            if e != s and game.check(player, FILL_BASE + s * 5 + e) == 0:
                return True
        return False

    def _slot_can_be_filled(self, game, player, e):
        for s in range(game.stocks):
            if s != e and game.check(player, FILL_BASE + s * 5 + e) == 0:
                return True
        return False

    def _lost_race(self, game, player, move):
        # The play's card fitted its pile as it was before the other player
        # changed it, at most TAKEN_MS before this press: a race lost (SP-7).
        k = move & 1
        return (
            self._pile_by[k] == 1 - player
            and ticks_diff(self.now, self._pile_at[k]) < self.TAKEN_MS
            and game.fits_on(player, move, self._pile_was[k])
        )

    def _try(self, game, player, move):
        self.attempts += 1
        self.last = player
        before = game.round
        was = game.pile_top(move & 1) if move < FILL_BASE else 0
        r = game.play(player, move)
        self.result[player] = r
        if r:
            self.refusals[player] = (self.refusals[player] + 1) & 255
        # Where it was refused: the card played (a stock, or the one moved
        # into an empty slot); none for a call or a slap.
        if move < FILL_BASE:
            self.refused[player] = move >> 1
        elif move < SPIT and move != self.call:  # (Speed's call, TURN, comes after its plays)
            self.refused[player] = (move - FILL_BASE) // 5
        else:
            self.refused[player] = NONE
        if r == 0:
            self.applied += 1
            if move < FILL_BASE:  # a play: who changed that pile, when, what lay there, from which stock
                self._pile_by[move & 1] = player
                self._pile_at[move & 1] = self.now
                self._pile_was[move & 1] = was
                self.played[player] = move >> 1
                self.played_at[player] = self.now
            if game.round != before:
                self._dealt = True
                self._dealt_at = self.now
            self._tidy(game)
        elif move < FILL_BASE and r > _E_EMPTY and self._lost_race(game, player, move):
            self.result[player] = TAKEN

    def not_now(self, player):
        # A press refused on the screen: linked play waits for the other
        # handheld (the referee's position on its way), and plays none now.
        self._refuse(player, _E_PHASE, NONE)
        self.presses += 1

    def _refuse(self, player, reason, place):
        self.attempts += 1
        self.last = player
        self.result[player] = reason
        self.refusals[player] = (self.refusals[player] + 1) & 255
        self.refused[player] = place

    def _tidy(self, game):
        # Drop every half-made move that can no longer be completed.
        chosen = self.chosen
        slot = self.slot
        if chosen[0] & chosen[1] & slot[0] & slot[1] == NONE:
            return  # nothing half-made (NONE is all ones)
        playing = game.phase == PLAY
        for p in range(2):
            s = self.chosen[p]
            if s != NONE and not (
                playing
                and (game.check(p, s * 2) == 0 or game.check(p, s * 2 + 1) == 0 or self.can_fill_from(game, p, s))
            ):
                self.chosen[p] = NONE
            e = self.slot[p]
            if e != NONE and not (playing and self._slot_can_be_filled(game, p, e)):
                self.slot[p] = NONE
