"""Speed position and move notation: one line of text per position.

Sixteen fields separated by single spaces::

    speed PHASE RULES TARGET ROUND SCORES RNG LAST HAND0 STOCK0 HAND1 STOCK1 SIDE0 SIDE1 PILE0 PILE1

- PHASE: ``ready``, ``play``, ``stalemate`` or ``over``; ``ready:P`` and
  ``stalemate:P`` when player P has turned, ``over:P`` for the winner.
- RULES: ``-`` or the letters ``S`` scoring (SD-8, D-18) and ``5`` side piles
  of five (SD-2b), in that order. TARGET: the score that ends a scored game.
- ROUND, SCORES (``0:0``), RNG (``s1.s2.s3``) as in Spit's notation.
- LAST: who made the last play of the round (D-17), ``-`` for nobody yet;
  followed by ``*`` when no card has been played since the round began or
  the last reshuffle (``1*``, ``-*``): then side piles running out while
  nobody can play end the round (D-17). A round starts ``-*``.
- HANDp: player p's five hand slots separated by ``/``, face up (D-11), ``-``
  for an empty slot. STOCKp: player p's draw stock, face down, top last.
- SIDEp: the side pile on player p's side (face down). PILEk: play pile k, face
  up, top last; before the start (ready) its one card lies face down.

Cards and piles are written as in ``engine.notation``. Moves: ``h2>p1`` (hand
slot 2 onto play pile 1) and ``turn``. Everything counts from 0.

The deal of ``Game(7)``::

    speed ready - 50 1 0:0 13834.7387.18503 -* 4C/AC/3H/AS/2C ks,6h,qh,8d,3s,kc,6d,7h,ah,6s 2H/4D/5H/8C/9C 3c,6c,5c,js,9h,qs,9d,qc,9s,7d jd,10h,kh,2d,10s,5s,8s,ad,10d,jc 5d,jh,10c,7s,2s,4s,qd,8h,3d,4h 7c kd
"""

from . import speed as _s
from .cards import NO_CARD
from .notation import NotationError, card_text, check_deck, expect_faces, parse_card, parse_pile, pile_text

PHASES = {_s.READY: "ready", _s.PLAY: "play", _s.STALEMATE: "stalemate", _s.GAME_OVER: "over"}
OK = 0
E_NOT_A_MOVE = 1
E_PHASE = 2
E_EMPTY_SLOT = 3
E_RANK = 4
E_TURNED = 5
E_NOTHING_TO_TURN = 6
REASONS = (
    "ok",
    "not a move",
    "not in this phase",
    "that hand slot is empty",
    "rank does not fit",
    "already turned",
    "no side pile to turn",
)
_FIELDS = 16
_RULES = (("S", _s.SCORING), ("5", _s.SHORT_SIDES))


def move_text(move):
    if 0 <= move < _s.TURN:
        return "h%d>p%d" % (move >> 1, move & 1)
    if move == _s.TURN:
        return "turn"
    raise NotationError("not a Speed move code: %r" % (move,))


def parse_move(text):
    for code in range(_s.TURN + 1):
        if move_text(code) == text:
            return code
    raise NotationError("not a Speed move: %r (try h2>p1 or turn)" % (text,))


def _rules_text(rules):
    return "".join(letter for letter, flag in _RULES if rules & flag) or "-"


def position_text(g):
    c = g.cards
    n = g.counts
    who = ""
    if g.phase in (_s.READY, _s.STALEMATE):
        who = "".join(str(p) for p in range(2) if g.called & (1 << p))
    elif g.phase == _s.GAME_OVER:
        who = str(g.winner)
    fields = [
        "speed",
        PHASES[g.phase] + (":" + who if who else ""),
        _rules_text(g.rules),
        str(g.target),
        str(g.round),
        "%d:%d" % (g.scores[0], g.scores[1]),
        "%d.%d.%d" % (g.rng.s1, g.rng.s2, g.rng.s3),
        ("-" if g.last < 0 else str(g.last)) + ("*" if g.idle else ""),
    ]
    for p in range(2):
        fields.append("/".join("-" if g.hand(p, h) == NO_CARD else card_text(g.hand(p, h)) for h in range(5)))
        fields.append(pile_text(c, _s.BASE + (_s.STOCK + p) * _s.CAP, n[_s.STOCK + p], 99))
    for p in range(2):
        fields.append(pile_text(c, _s.BASE + (_s.SIDE + p) * _s.CAP, n[_s.SIDE + p], 99))
    face_up = 99 if g.phase == _s.READY else 0
    for k in range(2):
        fields.append(pile_text(c, _s.BASE + (_s.PILE + k) * _s.CAP, n[_s.PILE + k], face_up))
    return " ".join(fields)


def _int(text, what, low, high):
    if not text.isdigit() or str(int(text)) != text or not low <= int(text) <= high:
        raise NotationError("%s must be a whole number from %d to %d, not %r" % (what, low, high, text))
    return int(text)


def parse_position(cls, text):
    if not isinstance(text, str):
        raise NotationError("a position is a str, not %s" % type(text).__name__)
    f = text.split(" ")
    if len(f) != _FIELDS or f[0] != "speed":
        raise NotationError("a Speed position is %d fields separated by single spaces, starting with 'speed'" % _FIELDS)
    name, _, who = f[1].partition(":")
    named = [p for p, t in PHASES.items() if t == name]  # any order: one matches
    if not named:
        raise NotationError("unknown phase %r (ready, play, stalemate or over)" % name)
    phase = named[0]
    if who not in ("", "0", "1"):
        raise NotationError("phase %r: the player after ':' is 0 or 1" % f[1])
    if phase == _s.GAME_OVER and not who:
        raise NotationError("phase over needs the winner, as in over:1")
    if phase == _s.PLAY and who:
        raise NotationError("phase play takes no player")
    rules = 0
    if f[2] != "-":
        for ch in f[2]:
            flag = dict(_RULES).get(ch)
            if flag is None:
                raise NotationError("unknown rule letter %r (S or 5)" % ch)
            rules |= flag
        if _rules_text(rules) != f[2]:
            raise NotationError("rule letters %r must be written once each, in the order S5" % f[2])
    target = _int(f[3], "target", 1, 9999)
    g = cls(0, rules, target)
    g.round = _int(f[4], "round", 1, 1 << 20)
    s0, colon, s1 = f[5].partition(":")
    if not colon:
        raise NotationError("scores are written 12:40, not %r" % f[5])
    g.scores[0] = _int(s0, "score", 0, 1 << 20)
    g.scores[1] = _int(s1, "score", 0, 1 << 20)
    rng = f[6].split(".")
    if len(rng) != 3:
        raise NotationError("the PRNG state is three numbers s1.s2.s3, not %r" % f[6])
    g.rng.s1 = _int(rng[0], "PRNG state s1", 1, 32362)
    g.rng.s2 = _int(rng[1], "PRNG state s2", 1, 31726)
    g.rng.s3 = _int(rng[2], "PRNG state s3", 1, 31656)
    last = f[7][:-1] if f[7].endswith("*") else f[7]
    g.idle = 1 if f[7].endswith("*") else 0
    g.last = -1 if last == "-" else _int(last, "last player", 0, 1)
    c = g.cards
    n = g.counts
    every = []
    for p in range(2):
        slots = f[8 + 2 * p].split("/")
        if len(slots) != 5:
            raise NotationError("player %d's hand is 5 slots separated by '/', got %d" % (p, len(slots)))
        for h, t in enumerate(slots):
            if t == "-":
                c[p * 5 + h] = NO_CARD  # hand slots open the card buffer
                continue
            card, up = parse_card(t)
            if not up:
                raise NotationError("player %d hand slot %d: hand cards are face up (D-11)" % (p, h))
            c[p * 5 + h] = card
            every.append(card)
    play_face_up = phase != _s.READY  # before the start the middle cards lie face down
    piles = (
        (_s.STOCK, 9, "stock 0", False),
        (_s.STOCK + 1, 11, "stock 1", False),
        (_s.SIDE, 12, "side pile 0", False),
        (_s.SIDE + 1, 13, "side pile 1", False),
        (_s.PILE, 14, "play pile 0", play_face_up),
        (_s.PILE + 1, 15, "play pile 1", play_face_up),
    )
    for pile, field, name, face_up in piles:
        cards = parse_pile(f[field], name)
        expect_faces(cards, name, 0 if face_up else len(cards))
        for j, (card, _) in enumerate(cards):
            c[_s.BASE + pile * _s.CAP + j] = card
        n[pile] = len(cards)
        every.extend(card for card, _ in cards)
    check_deck(every)
    g.phase = phase
    g.called = (1 << int(who)) if who and phase in (_s.READY, _s.STALEMATE) else 0
    g.winner = int(who) if phase == _s.GAME_OVER else -1
    _check(g)
    return g


def _check(g):
    n = g.counts
    for p in range(2):
        if n[_s.STOCK + p] and any(g.hand(p, h) == NO_CARD for h in range(5)):
            raise NotationError("player %d has an empty hand slot but cards in stock (D-11 draws at once)" % p)
    if g.phase != _s.GAME_OVER and not (n[_s.PILE] and n[_s.PILE + 1]):
        raise NotationError("both play piles hold a card while a round is on")
    if g.phase == _s.READY and (n[_s.PILE] != 1 or n[_s.PILE + 1] != 1):
        raise NotationError("ready: each play pile is its one middle card")
    if g.phase == _s.GAME_OVER:
        return
    if not (n[_s.SIDE] or n[_s.SIDE + 1]):
        raise NotationError(
            "both side piles are empty while a round is on: D-16 reshuffles at once (or D-17 ends the round)"
        )
    if g.last < 0 and not g.idle:
        raise NotationError("LAST '-' needs '*': nobody has played this round, so nobody has since it began (D-17)")
    if g.phase == _s.READY and (g.last >= 0 or not g.idle):
        raise NotationError("ready: nobody has played since the deal, LAST is '-*' (D-17)")
    stuck = not (g.can_move(0) or g.can_move(1))
    if g.phase == _s.PLAY and stuck:
        raise NotationError("play: nobody can play; that is a stalemate")
    if g.phase == _s.STALEMATE and not stuck:
        raise NotationError("stalemate: needs nobody able to play")
