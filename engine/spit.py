# Spit (Speed, Slam) for two players, as a lean real-time rules engine.
#
# Rule ids (SP-n, V-n, D-n) refer to ``docs/rules.md``. The engine has no turns
# and no clock: either player may move whenever a move is legal for them, and
# moves are applied in the order they are given (the input layer orders presses,
# first press wins). Cards are ints (see ``engine.cards``); every pile lives in
# one preallocated bytearray with a byte count per pile; moves are small ints.
# ``moves()`` and ``play()`` allocate nothing, and neither does the re-deal
# between rounds. Documentation is in comments, not docstrings: on the board a
# docstring is kept in RAM.
#
# Move codes (``move_text``/``parse_move`` in ``engine.spit_text`` give the text):
#
# ====================  ==========  ========================================
# code                  text        meaning
# ====================  ==========  ========================================
# ``2*s + k``  (0..9)   ``s2>p1``   play the top of stock s on spit pile k
# ``10 + 5*a + b``      ``s3>s0``   SP-6: move the top of stock a to empty slot b
# ``SPIT`` (35)         ``spit``    call "spit" (READY, STALEMATE)
# ``SLAP_0 + k``        ``slap1``   slap spit pile k (SLAP)
# ``TAKE_0 + k``        ``take0``   choose spit pile k (CHOOSE, V-2)
# ====================  ==========  ========================================
#
# ``play()`` returns ``OK`` (0) or a reason code; ``engine.spit_text.REASONS``
# names every code (the board needs only zero or not).
# A rejected move changes nothing.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .cards import NO_CARD, Rng, fits

# Phases.
READY = const(0)  # a round is dealt; both must call spit (SP-3, D-4)
PLAY = const(1)
STALEMATE = const(2)  # nobody can move; both must call spit again (SP-8, D-4)
SLAP = const(3)  # the round is over; the first slap decides (SP-11, D-5)
CHOOSE = const(4)  # V-2: ``chooser`` picks a spit pile
GAME_OVER = const(5)

# Rule flags for Game(seed, rules).
SCORING = const(1)  # SP-15: rounds scored to 100, lowest total wins
FOUR_STOCKS = const(2)  # V-1
NO_SLAP = const(4)  # V-2
ALT_COLOURS = const(8)  # V-3
_ALL_RULES = const(15)

# Move codes.
FILL_BASE = const(10)
SPIT = const(35)
SLAP_0 = const(36)
TAKE_0 = const(38)
_MOVE_COUNT = const(40)

# Results of play(): 0 is OK; engine.spit_text.REASONS names every code.
OK = const(0)
_E_NOT_A_MOVE = const(1)
_E_PHASE = const(2)
_E_EMPTY_STOCK = const(3)
_E_EMPTY_PILE = const(4)
_E_RANK = const(5)
_E_COLOUR = const(6)
_E_SLOT_TAKEN = const(7)
_E_NO_REVEAL = const(8)
_E_CALLED = const(9)
_E_NO_SPIT_CARDS = const(10)
_E_NOT_CHOOSER = const(11)

_WIN_SCORE = const(100)  # SP-15
NOBODY = const(255)  # in ``took``: the player took no spit pile

# Pile numbers: stock s of player p is pile p*5+s (0..9), player p's spit cards
# are pile SPIT_CARDS+p, spit pile k is pile SPIT_PILES+k. counts[n] is the size
# of pile n and top(n) its top card. In the one card buffer a stock has 5 slots
# (it never holds more than the 5 cards dealt to it: SP-6 only fills an empty
# slot); spit cards and spit piles have room for the whole deck.
SPIT_CARDS = const(10)
SPIT_PILES = const(12)
_STOCKS = const(5)
_SLOT = const(5)
_SPIT_BASE = const(50)
_PILE_BASE = const(154)
_CAP = const(52)
_BUF = const(258)


class Game:
    # One game of Spit: a round at a time until ``winner`` is decided.
    call = SPIT  # what any key does in READY and STALEMATE
    kind = 0  # which game (Speed's is 1)

    def __init__(self, seed, rules=0):
        if rules & ~_ALL_RULES:
            raise ValueError("unknown rule flags: %d" % rules)
        self.rules = rules
        self.stocks = 4 if rules & FOUR_STOCKS else _STOCKS
        self.rng = Rng(seed)
        self.cards = bytearray(_BUF)
        self.counts = bytearray(14)
        self.deck = bytearray(_CAP)
        self.scores = [0, 0]
        self.round = 0
        self.phase = READY
        self.called = 0  # bit p: player p has called spit in this READY/STALEMATE
        self.chooser = -1
        self.winner = -1
        # What the last finished round left, for the screen; not part of the position.
        self.took = bytearray((NOBODY, NOBODY))
        self.round_points = bytearray(2)
        self._fresh_deal()

    # -- reading the position (cheap; for the screen, the bot and tests) --

    def top(self, pile):
        # The top card of pile number pile (see the layout above), NO_CARD when empty.
        k = self.counts[pile]
        if not k:
            return NO_CARD
        return self.cards[(pile * _SLOT if pile < SPIT_CARDS else _SPIT_BASE + (pile - SPIT_CARDS) * _CAP) + k - 1]

    def pile_top(self, k):
        # The top card of spit pile k (0 or 1), NO_CARD when empty.
        return self.top(SPIT_PILES + k)

    def fits_on(self, player, move, top):
        # True when the card the play move would play (a stock's top) goes on
        # top: a pile as it was a moment ago (the input layer tells a race
        # lost, SP-7, from a card that never fitted).
        card = self.top(player * 5 + (move >> 1))
        return card != NO_CARD and top != NO_CARD and fits(card, top, self.rules & ALT_COLOURS)

    def stock_cards(self, player):
        n = self.counts
        b = player * 5
        return n[b] + n[b + 1] + n[b + 2] + n[b + 3] + n[b + 4]

    def cards_held(self, player):
        # Stock plus spit cards: the round's points under SP-15 (D-9).
        return self.stock_cards(player) + self.counts[SPIT_CARDS + player]

    # -- moves --

    def moves(self, player, buf):
        # Write player's legal move codes into buf (40 bytes is plenty); return the count.
        ph = self.phase
        if ph == PLAY:
            return self._play_moves(player, buf)
        if ph == READY or ph == STALEMATE:
            if self.counts[SPIT_CARDS + player] and not self.called & (1 << player):
                buf[0] = SPIT
                return 1
            return 0
        if ph == SLAP or (ph == CHOOSE and player == self.chooser):
            first = SLAP_0 if ph == SLAP else TAKE_0
            buf[0] = first
            buf[1] = first + 1
            return 2
        return 0

    def can_move(self, player):
        # True when player has a card move in PLAY (a play or a revealing SP-6
        # move): what moves() lists, asked after every move, so in few steps (a
        # step is microseconds on a board). The ranks that fit either pile are
        # worked out once as bit masks, one for red cards and one for black
        # (V-3 lets only the other colour on); then a stock top is one test.
        c = self.cards
        n = self.counts
        alt = self.rules & ALT_COLOURS
        red = black = 0  # bit r: a red (black) card of rank r fits a pile
        for k in range(2):
            size = n[SPIT_PILES + k]
            if size:
                top = c[_PILE_BASE + k * _CAP + size - 1]
                r = top % 13
                bits = 1 << (r + 1) % 13 | 1 << (r + 12) % 13
                if not alt:
                    red |= bits
                    black |= bits
                elif (top // 13 + 1) & 2:
                    black |= bits  # a red top takes black cards
                else:
                    red |= bits
        b = player * 5
        empty = deep = False
        for s in range(self.stocks):
            k = n[b + s]
            if not k:
                empty = True
                continue
            if k > 1:
                deep = True
            card = c[(b + s) * _SLOT + k - 1]
            if (red if (card // 13 + 1) & 2 else black) >> card % 13 & 1:
                return True
        return empty and deep  # SP-6: a card to move into an empty slot, revealing one

    def _play_moves(self, player, buf):
        c = self.cards
        n = self.counts
        alt = self.rules & ALT_COLOURS
        ns = self.stocks
        top0 = top1 = NO_CARD
        if n[SPIT_PILES]:
            top0 = c[_PILE_BASE + n[SPIT_PILES] - 1]
        if n[SPIT_PILES + 1]:
            top1 = c[_PILE_BASE + _CAP + n[SPIT_PILES + 1] - 1]
        count = 0
        empty = 0  # bit mask of empty slots
        deep = 0  # bit mask of stocks with a face-down card to reveal
        b = player * 5
        for s in range(ns):
            k = n[b + s]
            if k == 0:
                empty |= 1 << s
                continue
            if k > 1:
                deep |= 1 << s
            card = c[(b + s) * _SLOT + k - 1]
            r = card % 13
            red = (card // 13 + 1) & 2  # diamonds (1) and hearts (2) are red
            for pile in range(2):
                top = top0 if pile == 0 else top1
                if top == NO_CARD:
                    continue
                d = r - top % 13
                if d != 1 and d != -1 and d != 12 and d != -12:
                    continue
                if alt and red == (top // 13 + 1) & 2:
                    continue
                buf[count] = s * 2 + pile
                count += 1
        if empty and deep:
            for a in range(ns):
                if deep & (1 << a):
                    for e in range(ns):
                        if empty & (1 << e):
                            buf[count] = FILL_BASE + a * 5 + e
                            count += 1
        return count

    def check(self, player, move):
        # The reason code play() would give, without playing.
        if player != 0 and player != 1 or move < 0 or move >= _MOVE_COUNT:
            return _E_NOT_A_MOVE
        ph = self.phase
        n = self.counts
        if move < SPIT:
            ns = self.stocks
            if move < FILL_BASE:
                s = move >> 1
                if s >= ns:
                    return _E_NOT_A_MOVE
                if ph != PLAY:
                    return _E_PHASE
                i = player * 5 + s
                if not n[i]:
                    return _E_EMPTY_STOCK
                pile = move & 1
                if not n[SPIT_PILES + pile]:
                    return _E_EMPTY_PILE
                # fits() written out: a press checks two or three moves, and
                # a call is a noticeable part of one on a board.
                c = self.cards
                card = c[i * _SLOT + n[i] - 1]
                top = c[_PILE_BASE + pile * _CAP + n[SPIT_PILES + pile] - 1]
                d = card % 13 - top % 13
                if d != 1 and d != -1 and d != 12 and d != -12:
                    return _E_RANK
                if self.rules & ALT_COLOURS and (card // 13 + 1) & 2 == (top // 13 + 1) & 2:
                    return _E_COLOUR
                return OK
            a = (move - FILL_BASE) // 5
            e = (move - FILL_BASE) % 5
            if a >= ns or e >= ns or a == e:
                return _E_NOT_A_MOVE
            if ph != PLAY:
                return _E_PHASE
            if n[player * 5 + e]:
                return _E_SLOT_TAKEN
            k = n[player * 5 + a]
            if not k:
                return _E_EMPTY_STOCK
            if k == 1:
                return _E_NO_REVEAL  # D-3
            return OK
        if move == SPIT:
            if ph != READY and ph != STALEMATE:
                return _E_PHASE
            if not n[SPIT_CARDS + player]:
                return _E_NO_SPIT_CARDS
            if self.called & (1 << player):
                return _E_CALLED
            return OK
        if move < TAKE_0:
            return OK if ph == SLAP else _E_PHASE
        if ph != CHOOSE:
            return _E_PHASE
        return OK if player == self.chooser else _E_NOT_CHOOSER

    def play(self, player, move):
        # Apply one move for player (0 or 1); return OK or the reason it was refused.
        why = self.check(player, move)
        if why:
            return why
        c = self.cards
        n = self.counts
        if move < FILL_BASE:
            i = player * 5 + (move >> 1)
            k = SPIT_PILES + (move & 1)
            n[i] -= 1
            c[_PILE_BASE + (move & 1) * _CAP + n[k]] = c[i * _SLOT + n[i]]
            n[k] += 1
            self._after_card_move(player)
        elif move < SPIT:
            a = player * 5 + (move - FILL_BASE) // 5
            e = player * 5 + (move - FILL_BASE) % 5
            n[a] -= 1
            c[e * _SLOT] = c[a * _SLOT + n[a]]
            n[e] = 1
            self._after_card_move(player)
        elif move == SPIT:
            self.called |= 1 << player
            if self.called | self._no_spit_mask() == 3:
                self._turn_spit_cards()
        else:
            # SP-11, D-5: the first slap (or the V-2 choice) decides both piles.
            pile = (move - SLAP_0) & 1
            self._take(pile if player == 0 else 1 - pile, 1 - pile if player == 0 else pile)
        return OK

    # -- the flow of a round --

    def _no_spit_mask(self):
        n = self.counts
        return (0 if n[SPIT_CARDS] else 1) | (0 if n[SPIT_CARDS + 1] else 2)

    def _turn_spit_cards(self):
        # SP-3, SP-8, SP-9, D-2: each player with spit cards turns one onto their own pile.
        c = self.cards
        n = self.counts
        for p in range(2):
            k = n[SPIT_CARDS + p]
            if k:
                k -= 1
                n[SPIT_CARDS + p] = k
                c[_PILE_BASE + p * _CAP + n[SPIT_PILES + p]] = c[_SPIT_BASE + p * _CAP + k]
                n[SPIT_PILES + p] += 1
        self.called = 0
        self.phase = PLAY
        self._after_card_move(-1)

    def _after_card_move(self, player):
        if player >= 0 and self.stock_cards(player) == 0:
            self._end_round(player)  # SP-10a
        elif self.can_move(0) or self.can_move(1):
            self.phase = PLAY
        elif self._no_spit_mask() != 3:
            self.phase = STALEMATE  # SP-8
            self.called = 0
        else:
            self._end_round(-1)  # SP-10b

    def _end_round(self, emptier):
        # The round is over; emptier emptied their stock first, or -1 after SP-10b.
        n = self.counts
        scores = self.scores
        for p in range(2):
            self.round_points[p] = self.cards_held(p)
        if self.rules & SCORING:
            scores[0] += self.round_points[0]
            scores[1] += self.round_points[1]
            if (scores[0] >= _WIN_SCORE or scores[1] >= _WIN_SCORE) and scores[0] != scores[1]:
                self.winner = 0 if scores[0] < scores[1] else 1  # D-9: at once
                self.phase = GAME_OVER
                return
        fewer = -1
        if emptier < 0:
            d = self.stock_cards(0) - self.stock_cards(1)
            fewer = 0 if d < 0 else 1 if d > 0 else -1
        if not n[SPIT_PILES] or not n[SPIT_PILES + 1]:
            # One spit pile (SP-13, SP-14, D-8): no slap.
            pile = 0 if n[SPIT_PILES] else 1
            owner = pile  # D-2: the pile belongs to the player who spat on it
            if emptier >= 0:
                nothing = emptier
            else:
                nothing = fewer if fewer >= 0 else 1 - owner
            if nothing == 0:
                self._take(NOBODY, pile)
            else:
                self._take(pile, NOBODY)
            return
        if self.rules & NO_SLAP:
            chooser = emptier if emptier >= 0 else fewer  # V-2, D-10
            if chooser >= 0:
                self.chooser = chooser
                self.phase = CHOOSE
                return
        self.phase = SLAP

    def _take(self, pile0, pile1):
        # Player 0 takes spit pile pile0 and player 1 pile1 (NOBODY: nothing); next round.
        self.took[0] = pile0
        self.took[1] = pile1
        self.chooser = -1
        for p in range(2):
            pile = pile0 if p == 0 else pile1
            if self.cards_held(p) == 0 and pile == NOBODY:
                # D-13: rid of every card. D-9: a scored game deals afresh instead.
                if self.rules & SCORING:
                    self._fresh_deal()
                else:
                    self.winner = p
                    self.phase = GAME_OVER
                return
        for p in range(2):
            pile = pile0 if p == 0 else pile1
            k = self._gather(p, pile)
            self.rng.shuffle(self.deck, 0, k)
            self.lay_out(p, 0, k)
        self.round += 1
        self.phase = READY
        self.called = 0

    def _gather(self, player, pile):
        # SP-12: pile taken + stock cards + spit cards into _deck; return the count.
        c = self.cards
        n = self.counts
        d = self.deck
        k = 0
        if pile != NOBODY:
            base = _PILE_BASE + pile * _CAP
            for j in range(n[SPIT_PILES + pile]):
                d[k] = c[base + j]
                k += 1
            n[SPIT_PILES + pile] = 0
        for s in range(_STOCKS):
            i = player * 5 + s
            for j in range(n[i]):
                d[k] = c[i * _SLOT + j]
                k += 1
            n[i] = 0
        base = _SPIT_BASE + player * _CAP
        for j in range(n[SPIT_CARDS + player]):
            d[k] = c[base + j]
            k += 1
        n[SPIT_CARDS + player] = 0
        return k

    def lay_out(self, player, start, k):
        # SP-2, SP-13, D-6, D-7: deal deck[start:start+k] row by row, the rest as spit cards.
        c = self.cards
        n = self.counts
        d = self.deck
        ns = self.stocks
        full = ns * (ns + 1) // 2
        in_layout = k if k <= full else full
        b = player * 5
        for s in range(_STOCKS):
            n[b + s] = 0
        i = 0
        row = 0
        while i < in_layout:
            s = row
            while s < ns and i < in_layout:
                c[(b + s) * _SLOT + n[b + s]] = d[start + i]
                n[b + s] += 1
                i += 1
                s += 1
            row += 1
        base = _SPIT_BASE + player * _CAP
        j = 0
        while i < k:
            c[base + j] = d[start + i]
            i += 1
            j += 1
        n[SPIT_CARDS + player] = j

    def _fresh_deal(self):
        # SP-2: shuffle the whole deck and deal 26 cards each.
        d = self.deck
        for i in range(_CAP):
            d[i] = i
        n = self.counts
        for i in range(14):
            n[i] = 0
        self.rng.shuffle(d, 0, _CAP)
        self.lay_out(0, 0, 26)
        self.lay_out(1, 26, 26)
        self.round += 1
        self.phase = READY
        self.called = 0

    # -- notation --

    def text(self):
        # The whole position as one line (see engine/spit_text.py).
        from .spit_text import position_text

        return position_text(self)

    @classmethod
    def from_text(cls, text):
        # Build a game from ``text()``'s line; ValueError says what is wrong.
        from .spit_text import parse_position

        return parse_position(cls, text)
