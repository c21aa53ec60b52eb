# The computer opponent for Spit and Speed, small enough for the board.
#
# Bot.choose(game) picks the move a good player would make now, from what a
# player can see (never a face-down card); it allocates nothing and is
# deterministic for its seed. How fast it acts is separate: LEVELS give each
# difficulty a reaction time range and a chance to hesitate (miss a play), so
# it plays like a person. The board presses its buttons for it (through the
# same first-press-wins path as a human, with its own timestamp).
#
# Preferences, in points: call spit/turn at once; slap (or take) the smaller
# pile; a play that turns up a hidden card; refilling an empty slot when that
# reveals a card; a play that leaves a card the opponent cannot use and one
# it can follow itself, and that covers a card the opponent wanted.

from .cards import NO_CARD, Rng
from .speed import PILE, TURN
from .spit import FILL_BASE, SLAP_0, SPIT, SPIT_PILES

# (fastest, slowest reaction in ms, % of chances it misses)
LEVELS = ((2000, 4000, 25), (1200, 2000, 12), (800, 1200, 5), (500, 750, 0))
LEVEL_NAMES = ("Easy", "Medium", "Hard", "Expert")
RANDOM = -1  # picks any legal move, with Medium's timing and misses


def _near(a, b):
    d = a % 13 - b % 13
    return d == 1 or d == -1 or d == 12 or d == -12


class Bot:
    def __init__(self, player, level, seed, speed=False):
        self.player = player
        self.level = level
        self.speed = speed
        self.rng = Rng(seed)
        self._buf = bytearray(64)

    def reaction_ms(self):
        fast, slow, _ = LEVELS[self.level if self.level >= 0 else 1]
        return fast + self.rng.below(slow - fast + 1)

    def hesitates(self):
        return self.rng.below(100) < LEVELS[self.level if self.level >= 0 else 1][2]

    def choose(self, game):
        # The best legal move for this player now, or -1 when there is none.
        buf = self._buf
        n = game.moves(self.player, buf)
        if not n:
            return -1
        if self.level == RANDOM:
            return buf[self.rng.below(n)]
        best = buf[0]
        best_score = -1000
        for i in range(n):
            m = buf[i]
            s = self._speed_score(game, m) if self.speed else self._spit_score(game, m)
            if s > best_score:
                best = m
                best_score = s
        return best

    def _others(self, game, card, skip, player):
        # How many of player's visible cards (stock tops, or Speed's hand) fit card.
        k = 0
        for s in range(5 if self.speed else game.stocks):
            if s == skip:
                continue
            if self.speed:
                t = game.hand(player, s)
            else:
                t = game.top(player * 5 + s)
            if t != NO_CARD and _near(t, card):
                k += 1
        return k

    def _play_score(self, game, card, pile_top, skip):
        me = self.player
        them = 1 - me
        return (
            10
            + 5 * self._others(game, card, skip, me)  # a card it can follow itself
            - 8 * self._others(game, card, -1, them)  # a card the opponent could use
            + 4 * self._others(game, pile_top, -1, them)  # covers what the opponent wanted
        )

    def _spit_score(self, game, m):
        if m == SPIT:
            return 1000
        if m >= SLAP_0:
            return 500 - game.counts[SPIT_PILES + (m - SLAP_0) % 2]  # the smaller pile
        p = self.player
        if m < FILL_BASE:
            s = m >> 1
            score = self._play_score(game, game.top(p * 5 + s), game.top(SPIT_PILES + (m & 1)), s)
            if game.counts[p * 5 + s] > 1:
                score += 30  # turns up a hidden card
            return score
        return 25  # SP-6 into an empty slot: it reveals a card (D-3)

    def _speed_score(self, game, m):
        if m == TURN:
            return 1000  # turn at once
        h = m >> 1
        return self._play_score(game, game.hand(self.player, h), game.top(PILE + (m & 1)), h)
