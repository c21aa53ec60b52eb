"""Spit position and move notation: one line of text per position.

A position is twelve fields separated by single spaces::

    spit PHASE RULES ROUND SCORES RNG STOCKS0 SPIT0 STOCKS1 SPIT1 PILE0 PILE1

- ``spit``: which game the line describes.
- PHASE: ``ready``, ``play``, ``stalemate``, ``slap``, ``choose`` or ``over``,
  with ``:P`` for the player it concerns: in ready and stalemate the player who
  has called spit (none yet: no suffix), in choose the chooser (V-2), in over
  the winner (``over:1``).
- RULES: ``-`` or the letters of the rule flags in this order: ``S`` scoring
  (SP-15), ``4`` four stocks (V-1), ``N`` no slap (V-2), ``C`` alternating
  colours (V-3).
- ROUND: the round number, from 1. SCORES: ``0:0`` (SP-15 totals).
- RNG: the three PRNG state numbers ``s1.s2.s3``; they shuffle the next deal.
- STOCKSp: player p's stocks from slot 0 on, separated by ``/``; each is a pile
  (see ``engine.notation``: bottom card first, ``-`` when empty), its top card
  face up and the rest face down. SPITp: player p's spit cards, all face down,
  the next one to be turned last. PILEk: spit pile k, face up, top last.

The deal of ``Game(7)`` (round 1, both must call spit)::

    spit ready - 1 0:0 13834.7387.18503 JD/10h,5S/kh,8s,JC/2d,ad,5d,10C/10s,10d,jh,7s,2S 4s,qd,8h,3d,4h,7c,kd,4c,ac,3h,as 2C/ks,3S/6h,kc,AH/qh,6d,6s,4D/8d,7h,2h,5h,8C 9c,3c,6c,5c,js,9h,qs,9d,qc,9s,7d - -

A move is ``s2>p1`` (stock 2 onto spit pile 1), ``s3>s0`` (SP-6: stock 3's
top card into empty slot 0), ``spit``, ``slap0``/``slap1`` or
``take0``/``take1`` (V-2). Stocks, players and piles count from 0.
"""

from . import spit as _s
from .notation import (
    NotationError,
    check_deck,
    expect_faces,
    parse_pile,
    pile_text,
)

PHASE_NAMES = ("ready", "play", "stalemate", "slap", "choose", "over")

# Reason codes returned by Game.play() (the engine keeps them as private constants).
OK = 0
E_NOT_A_MOVE = 1
E_PHASE = 2
E_EMPTY_STOCK = 3
E_EMPTY_PILE = 4
E_RANK = 5
E_COLOUR = 6
E_SLOT_TAKEN = 7
E_NO_REVEAL = 8
E_CALLED = 9
E_NO_SPIT_CARDS = 10
E_NOT_CHOOSER = 11
REASONS = (
    "ok",
    "not a move",
    "not in this phase",
    "that stock is empty",
    "that spit pile is empty",
    "rank does not fit",
    "colour does not alternate",
    "that slot is not empty",
    "moving that card reveals nothing",
    "already called spit",
    "no spit cards",
    "the other player chooses",
)
MOVE_COUNT = 40

_RULE_LETTERS = (("S", _s.SCORING), ("4", _s.FOUR_STOCKS), ("N", _s.NO_SLAP), ("C", _s.ALT_COLOURS))
_FIELDS = 12
_RNG_MODULI = (32363, 31727, 31657)


def rules_text(rules):
    t = "".join(letter for letter, flag in _RULE_LETTERS if rules & flag)
    return t or "-"


def parse_rules(text):
    if text == "-":
        return 0
    rules = 0
    for ch in text:
        for letter, flag in _RULE_LETTERS:
            if ch == letter:
                rules |= flag
                break
        else:
            raise NotationError("unknown rule letter %r (use S, 4, N, C or -)" % ch)
    if rules_text(rules) != text:
        raise NotationError("rule letters %r must be written once each, in the order S4NC" % text)
    return rules


def play_move(stock, pile):
    """The code of playing the top card of stock onto spit pile."""
    return stock * 2 + pile


def fill_move(src, dst):
    """The code of SP-6: the top card of stock src into the empty slot dst."""
    return _s.FILL_BASE + src * 5 + dst


def move_text(move):
    """The text of a move code: ``s2>p1``, ``s3>s0``, ``spit``, ``slap0``, ``take1``."""
    if 0 <= move < _s.FILL_BASE:
        return "s%d>p%d" % (move >> 1, move & 1)
    if _s.FILL_BASE <= move < _s.SPIT:
        a, b = divmod(move - _s.FILL_BASE, 5)
        if a != b:
            return "s%d>s%d" % (a, b)
    if move == _s.SPIT:
        return "spit"
    if move in (_s.SLAP_0, _s.SLAP_0 + 1):
        return "slap%d" % (move - _s.SLAP_0)
    if move in (_s.TAKE_0, _s.TAKE_0 + 1):
        return "take%d" % (move - _s.TAKE_0)
    raise NotationError("not a move code: %r" % (move,))


def parse_move(text):
    """The move code of ``s2>p1``, ``s3>s0``, ``spit``, ``slap0``/``slap1``, ``take0``/``take1``."""
    for code in range(MOVE_COUNT):
        try:
            if move_text(code) == text:
                return code
        except NotationError:
            pass
    raise NotationError("not a move: %r (try s2>p1, s3>s0, spit, slap0, take1)" % (text,))


def _phase_text(g):
    name = PHASE_NAMES[g.phase]
    if g.phase in (_s.READY, _s.STALEMATE):
        who = "".join(str(p) for p in range(2) if g.called & (1 << p))
    elif g.phase == _s.CHOOSE:
        who = str(g.chooser)
    elif g.phase == _s.GAME_OVER:
        who = str(g.winner)
    else:
        who = ""
    return name + ":" + who if who else name


def position_text(g):
    c = g.cards
    fields = [
        "spit",
        _phase_text(g),
        rules_text(g.rules),
        str(g.round),
        "%d:%d" % (g.scores[0], g.scores[1]),
        "%d.%d.%d" % (g.rng.s1, g.rng.s2, g.rng.s3),
    ]
    for p in range(2):
        stocks = []
        for s in range(g.stocks):
            k = g.counts[p * 5 + s]
            stocks.append(pile_text(c, (p * 5 + s) * 5, k, k - 1))
        fields.append("/".join(stocks))
        fields.append(pile_text(c, 50 + p * 52, g.counts[_s.SPIT_CARDS + p], 99))
    for k in range(2):
        fields.append(pile_text(c, 154 + k * 52, g.counts[_s.SPIT_PILES + k], 0))
    return " ".join(fields)


def _parse_int(text, what, low, high):
    try:
        v = int(text)
    except ValueError:
        v = None
    if v is None or str(v) != text or not low <= v <= high:
        raise NotationError("%s must be a whole number from %d to %d, not %r" % (what, low, high, text))
    return v


def _parse_phase(text):
    name, _, who = text.partition(":")
    if name not in PHASE_NAMES:
        raise NotationError("unknown phase %r (one of %s)" % (name, ", ".join(PHASE_NAMES)))
    phase = PHASE_NAMES.index(name)
    if who and who not in ("0", "1"):
        raise NotationError("phase %r: the player after ':' is 0 or 1" % text)
    if phase in (_s.CHOOSE, _s.GAME_OVER) and not who:
        raise NotationError("phase %r needs the player it concerns, as in %s:0" % (text, name))
    if phase in (_s.PLAY, _s.SLAP) and who:
        raise NotationError("phase %s takes no player" % name)
    return phase, int(who) if who else -1


def parse_position(cls, text):
    if not isinstance(text, str):
        raise NotationError("a position is a str, not %s" % type(text).__name__)
    fields = text.split(" ")
    if len(fields) != _FIELDS or fields[0] != "spit":
        raise NotationError(
            "a Spit position is %d fields separated by single spaces, starting with 'spit'; got %d"
            % (_FIELDS, len(fields))
        )
    phase, who = _parse_phase(fields[1])
    rules = parse_rules(fields[2])
    rnd = _parse_int(fields[3], "round", 1, 1 << 20)
    s0, colon, s1 = fields[4].partition(":")
    if not colon:
        raise NotationError("scores are written 12:40, not %r" % fields[4])
    scores = [_parse_int(s0, "score", 0, 1 << 20), _parse_int(s1, "score", 0, 1 << 20)]
    rng = fields[5].split(".")
    if len(rng) != 3:
        raise NotationError("the PRNG state is three numbers s1.s2.s3, not %r" % fields[5])
    rng = [_parse_int(v, "PRNG state s%d" % (i + 1), 1, m - 1) for i, (v, m) in enumerate(zip(rng, _RNG_MODULI))]

    g = cls(0, rules)
    nstocks = g.stocks
    c = g.cards
    n = g.counts
    for i in range(len(n)):
        n[i] = 0
    every = []  # type: list[int]
    for p in range(2):
        stocks = fields[6 + 2 * p].split("/")
        if len(stocks) != nstocks:
            raise NotationError("player %d needs %d stocks separated by '/', got %d" % (p, nstocks, len(stocks)))
        for s, stock_text in enumerate(stocks):
            what = "player %d stock %d" % (p, s)
            cards = parse_pile(stock_text, what)
            if len(cards) > 5:
                raise NotationError("%s: at most 5 cards, got %d" % (what, len(cards)))
            expect_faces(cards, what, len(cards) - 1)
            for j, (card, _) in enumerate(cards):
                c[(p * 5 + s) * 5 + j] = card
            n[p * 5 + s] = len(cards)
            every.extend(card for card, _ in cards)
        what = "player %d spit cards" % p
        cards = parse_pile(fields[7 + 2 * p], what)
        expect_faces(cards, what, len(cards))
        for j, (card, _) in enumerate(cards):
            c[50 + p * 52 + j] = card
        n[10 + p] = len(cards)
        every.extend(card for card, _ in cards)
    for k in range(2):
        what = "spit pile %d" % k
        cards = parse_pile(fields[10 + k], what)
        expect_faces(cards, what, 0)
        for j, (card, _) in enumerate(cards):
            c[154 + k * 52 + j] = card
        n[12 + k] = len(cards)
        every.extend(card for card, _ in cards)
    check_deck(every)

    g.phase = phase
    g.round = rnd
    g.scores[0], g.scores[1] = scores
    g.rng.s1, g.rng.s2, g.rng.s3 = rng
    g.called = (1 << who) if who >= 0 and phase in (_s.READY, _s.STALEMATE) else 0
    g.chooser = who if phase == _s.CHOOSE else -1
    g.winner = who if phase == _s.GAME_OVER else -1
    _check_phase(g)
    return g


def _check_phase(g):
    """Refuse positions the game can never be in while in that phase."""
    phase = g.phase
    name = PHASE_NAMES[phase]
    piles = g.counts[_s.SPIT_PILES], g.counts[_s.SPIT_PILES + 1]
    spit_cards = g.counts[_s.SPIT_CARDS], g.counts[_s.SPIT_CARDS + 1]
    if phase == _s.READY and (piles[0] or piles[1]):
        raise NotationError("ready: the spit piles are empty before a round starts")
    if phase in (_s.READY, _s.STALEMATE):
        if not (spit_cards[0] or spit_cards[1]):
            raise NotationError("%s: somebody must have spit cards to turn" % name)
        for p in range(2):
            if g.called & (1 << p) and not spit_cards[p]:
                raise NotationError("%s:%d: player %d has no spit cards to call with" % (name, p, p))
    if phase in (_s.PLAY, _s.STALEMATE):
        if not (piles[0] or piles[1]):
            raise NotationError("%s: a round in play has a card on a spit pile" % name)
        for p in range(2):
            if not g.stock_cards(p):
                raise NotationError("%s: player %d has no stock cards, so the round is over" % (name, p))
        stuck = not (g.can_move(0) or g.can_move(1))
        if phase == _s.PLAY and stuck:
            raise NotationError("play: nobody can move; that is a stalemate")
        if phase == _s.STALEMATE and not stuck:
            raise NotationError("stalemate: a player can still move")
    if phase in (_s.SLAP, _s.CHOOSE) and not (piles[0] and piles[1]):
        raise NotationError("%s: both spit piles hold cards when a round is decided by them" % name)
