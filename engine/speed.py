# Speed, the related game of the Swedish seed, on Spit's cards and PRNG.
#
# Rule ids (SD-n, D-n) refer to docs/rules.md. Same shape as engine.spit:
# Game(seed, rules), phase, moves(player, buf), play(player, move), winner,
# text()/from_text(); no turns, no clock, no allocation in moves() or play().
#
# Each player has five hand slots (face up: D-11, a shared screen cannot hide
# them) refilled at once from their own draw stock, a side pile on their side
# feeds the play pile beside it (D-14). Move codes:
#   2*h + k  (0..9)  play the card in hand slot h on play pile k   ("h2>p1")
#   TURN     (10)    turn: the middle cards (READY, D-14) or the side piles
#                    at a stalemate (STALEMATE, SD-6, D-15)          ("turn")
# play() returns OK (0) or a reason code (engine.speed_text.REASONS).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .cards import NO_CARD, Rng, fits

READY = const(0)
PLAY = const(1)
STALEMATE = const(2)
GAME_OVER = const(5)

SCORING = const(1)  # SD-8, D-12, D-18: rounds scored to a target
SHORT_SIDES = const(2)  # SD-2b: side piles of 5, 20 cards each
_ALL_RULES = const(3)
TARGET = const(50)  # D-18's default target score

TURN = const(10)
_MOVE_COUNT = const(11)
OK = const(0)
_E_NOT_A_MOVE = const(1)
_E_PHASE = const(2)
_E_EMPTY_SLOT = const(3)
_E_RANK = const(4)
_E_TURNED = const(5)
_E_NOTHING_TO_TURN = const(6)

# Piles: stock p is pile p, side pile p is pile 2+p, play pile k is pile 4+k.
STOCK = const(0)
SIDE = const(2)
PILE = const(4)
_HAND = const(0)  # 2 x 5 hand slots at the start of the buffer
CAP = const(52)
BASE = const(10)  # pile n's cards start at cards[BASE + n * CAP]
_BUF = const(322)


class Game:
    call = TURN  # what any key does in READY and STALEMATE
    kind = 1  # which game (Spit's is 0)
    stocks = 5  # hand slots, on the buttons where Spit has its stocks

    def __init__(self, seed, rules=0, target=TARGET):
        if rules & ~_ALL_RULES:
            raise ValueError("unknown rule flags: %d" % rules)
        if not 0 < target < 10000:
            raise ValueError("target score out of range: %d" % target)
        self.rules = rules
        self.target = target
        self.rng = Rng(seed)
        self.cards = bytearray(_BUF)
        self.counts = bytearray(6)
        self.deck = bytearray(CAP)
        self.scores = [0, 0]
        self.round = 0
        self.phase = READY
        self.called = 0
        self.winner = -1
        self.last = -1  # who made the last play of the round (D-17)
        self.idle = 1  # 1: no play since the round began or the last reshuffle (D-17)
        self._deal()

    # -- reading the position --

    def hand(self, player, slot):
        return self.cards[_HAND + player * 5 + slot]

    def top(self, pile):
        k = self.counts[pile]
        return self.cards[BASE + pile * CAP + k - 1] if k else NO_CARD

    def pile_top(self, k):
        # The top card of play pile k (0 or 1), NO_CARD when empty.
        return self.top(PILE + k)

    def fits_on(self, player, move, top):
        # True when the hand card the play move would play goes on top: a
        # pile as it was a moment ago (see engine.spit).
        card = self.hand(player, move >> 1)
        return card != NO_CARD and top != NO_CARD and fits(card, top, False)

    def cards_left(self, player):
        # Hand and stock: what D-12 and D-17 count.
        c = self.cards
        n = self.counts[STOCK + player]
        for s in range(5):
            if c[_HAND + player * 5 + s] != NO_CARD:
                n += 1
        return n

    def can_move(self, player):
        # True when a hand card of player fits a play pile: asked after every
        # play, so in few steps (see engine/spit.py's): the ranks that fit
        # either pile as one bit mask, then a hand card is one test.
        c = self.cards
        n = self.counts
        fit = 0  # bit r: a card of rank r fits a play pile
        for k in range(2):
            size = n[PILE + k]
            if size:
                r = c[BASE + (PILE + k) * CAP + size - 1] % 13
                fit |= 1 << (r + 1) % 13 | 1 << (r + 12) % 13
        for h in range(5):
            card = c[_HAND + player * 5 + h]
            if card != NO_CARD and fit >> card % 13 & 1:
                return True
        return False

    # -- moves --

    def moves(self, player, buf):
        ph = self.phase
        if ph == PLAY:
            return self._plays(player, buf)
        if (ph == READY or ph == STALEMATE) and not self.called & (1 << player) and self._must_turn(player):
            buf[0] = TURN
            return 1
        return 0

    def _must_turn(self, player):
        # READY: both turn a middle card; STALEMATE: only a player whose side pile has cards.
        return self.phase == READY or self.counts[SIDE + player] > 0

    def _plays(self, player, buf):
        c = self.cards
        n = self.counts
        top0 = c[BASE + PILE * CAP + n[PILE] - 1] if n[PILE] else NO_CARD
        top1 = c[BASE + (PILE + 1) * CAP + n[PILE + 1] - 1] if n[PILE + 1] else NO_CARD
        count = 0
        for h in range(5):
            card = c[_HAND + player * 5 + h]
            if card == NO_CARD:
                continue
            for k in range(2):
                top = top0 if k == 0 else top1
                if top == NO_CARD:
                    continue
                d = card % 13 - top % 13
                if d == 1 or d == -1 or d == 12 or d == -12:
                    buf[count] = h * 2 + k
                    count += 1
        return count

    def check(self, player, move):
        if player != 0 and player != 1 or move < 0 or move >= _MOVE_COUNT:
            return _E_NOT_A_MOVE
        ph = self.phase
        if move == TURN:
            if ph != READY and ph != STALEMATE:
                return _E_PHASE
            if self.called & (1 << player):
                return _E_TURNED
            if not self._must_turn(player):
                return _E_NOTHING_TO_TURN
            return OK
        if ph != PLAY:
            return _E_PHASE
        card = self.cards[_HAND + player * 5 + (move >> 1)]
        if card == NO_CARD:
            return _E_EMPTY_SLOT
        top = self.top(PILE + (move & 1))
        if top == NO_CARD or not fits(card, top, False):
            return _E_RANK
        return OK

    def play(self, player, move):
        why = self.check(player, move)
        if why:
            return why
        if move == TURN:
            self.called |= 1 << player
            want = 0
            for p in range(2):
                if self._must_turn(p):
                    want |= 1 << p
            if self.called & want == want:
                self._turn()
            return OK
        c = self.cards
        n = self.counts
        slot = _HAND + player * 5 + (move >> 1)
        pile = PILE + (move & 1)
        c[BASE + pile * CAP + n[pile]] = c[slot]
        n[pile] += 1
        stock = STOCK + player
        if n[stock]:  # SD-5, D-11: draw back up to five at once
            n[stock] -= 1
            c[slot] = c[BASE + stock * CAP + n[stock]]
        else:
            c[slot] = NO_CARD
        self.last = player
        self.idle = 0
        if not n[stock] and self.cards_left(player) == 0:
            self._round_won(player)  # SD-8
        else:
            self._settle()
        return OK

    # -- the flow --

    def _turn(self):
        # READY (D-14): the middle cards are turned (they lie face down on the
        # play piles). STALEMATE (SD-6, D-15): each side pile with cards turns
        # its top card onto the play pile beside it; as soon as both side piles
        # are empty the play piles are reshuffled into new ones (D-16).
        c = self.cards
        n = self.counts
        self.called = 0
        if self.phase == STALEMATE:
            for p in range(2):
                side = SIDE + p
                if n[side]:
                    n[side] -= 1
                    c[BASE + (PILE + p) * CAP + n[PILE + p]] = c[BASE + side * CAP + n[side]]
                    n[PILE + p] += 1
            if not n[SIDE] and not n[SIDE + 1]:
                if self.idle and not (self.can_move(0) or self.can_move(1)):
                    self._dead_end()
                    return
                self._reshuffle()
        self.phase = PLAY
        self._settle()

    def _settle(self):
        # Both side piles are never empty here: the turn that empties them
        # reshuffles at once (D-16) or ends the round (D-17), and a play
        # leaves the side piles as they are.
        if self.can_move(0) or self.can_move(1):
            self.phase = PLAY
        else:
            self.phase = STALEMATE
            self.called = 0

    def _dead_end(self):
        # D-17: the side piles ran out with no play since the round began or
        # the last reshuffle, and nobody can play: every middle card has been
        # a top while nobody could use it, so it would go round for ever.
        # Fewer cards left wins; equal counts, who played last; nobody played
        # this round: it is dealt again.
        left0 = self.cards_left(0)
        left1 = self.cards_left(1)
        if left0 != left1:
            self._round_won(0 if left0 < left1 else 1)
        elif self.last >= 0:
            self._round_won(self.last)
        else:
            self._deal()

    def _reshuffle(self):
        # SD-7, D-16: the play piles but their top cards, shuffled, dealt
        # alternately into new side piles starting with side pile 0.
        c = self.cards
        n = self.counts
        d = self.deck
        k = 0
        for p in range(2):
            pile = PILE + p
            base = BASE + pile * CAP
            top = c[base + n[pile] - 1]
            for j in range(n[pile] - 1):
                d[k] = c[base + j]
                k += 1
            c[base] = top
            n[pile] = 1
        self.rng.shuffle(d, 0, k)
        self.idle = 1
        for j in range(k):
            side = SIDE + (j & 1)
            c[BASE + side * CAP + n[side]] = d[j]
            n[side] += 1

    def _round_won(self, player):
        if self.rules & SCORING:
            self.scores[player] += self.cards_left(1 - player)  # D-12, D-18
            if self.scores[player] < self.target:
                self._deal()
                return
        self.winner = player
        self.phase = GAME_OVER

    def _deal(self):
        d = self.deck
        for i in range(CAP):
            d[i] = i
        self.rng.shuffle(d, 0, CAP)
        self.lay_out()
        self.round += 1

    def lay_out(self):
        # SD-2, SD-2b, SD-3, D-14, from the shuffled deck: side piles, two middle
        # cards face down on the play piles, then each player's cards: five to
        # the hand, the rest their stock.
        c = self.cards
        n = self.counts
        d = self.deck
        side = 5 if self.rules & SHORT_SIDES else 10
        each = (CAP - 2 - 2 * side) // 2
        k = 0
        for pile in range(6):
            n[pile] = 0
        for p in range(2):
            for j in range(side):
                c[BASE + (SIDE + p) * CAP + j] = d[k]
                k += 1
            n[SIDE + p] = side
        for p in range(2):
            c[BASE + (PILE + p) * CAP] = d[k]
            n[PILE + p] = 1
            k += 1
        for p in range(2):
            for h in range(5):
                c[_HAND + p * 5 + h] = d[k]
                k += 1
            for j in range(each - 5):
                c[BASE + (STOCK + p) * CAP + j] = d[k]
                k += 1
            n[STOCK + p] = each - 5
        self.phase = READY
        self.called = 0
        self.last = -1
        self.idle = 1  # D-17: the start of a round counts like a reshuffle

    # -- notation --

    def text(self):
        from .speed_text import position_text

        return position_text(self)

    @classmethod
    def from_text(cls, text):
        from .speed_text import parse_position

        return parse_position(cls, text)
