# A dealt round of Spit or Speed in 68 bytes, for saving a match between rounds.
#
# Between rounds the whole match is: the game, the rule flags, the round
# number, the scores, the PRNG state (it shuffles every later deal) and the
# cards as they were dealt (the layout follows from the deal). Payload,
# little-endian:
#
#   0  game         1 byte: the game's number (engine/games.py: 0 Spit, 1 Speed)
#   1  rules        1 byte
#   2  round        2 bytes
#   4  scores       2 x 2 bytes
#   8  PRNG state   3 x 2 bytes
#  14  extra        2 bytes: Spit, how many of the cards are player 0's;
#                   Speed, the target score
#  16  cards        52 bytes. Spit: player 0's in deal order (row by row over
#                   the stocks, then the spit cards; SP-2, SP-13, D-6, D-7), then
#                   player 1's. Speed: the shuffled deck its deal lays out (side
#                   piles, middle cards, hands and stocks; SD-2, D-14).
#
# Pure and small; the storage with versions, checksums and two slots is in
# hardware/storage.py. Only a READY position as dealt can be written.

from .spit import READY, Game

PAYLOAD = 68
_CARDS = 16


def _put16(buf, i, v):
    buf[i] = v & 255
    buf[i + 1] = (v >> 8) & 255


def _get16(buf, i):
    return buf[i] | buf[i + 1] << 8


def deal_order(game, player, out, k):
    # Append player's cards to out from index k in the order they were dealt
    # (row by row over the stocks, then the spit cards); return the new k.
    c = game.cards
    n = game.counts
    b = player * 5
    row = 0
    while True:
        laid = False
        for s in range(row, game.stocks):
            if n[b + s] > row:
                out[k] = c[(b + s) * 5 + row]
                k += 1
                laid = True
        if not laid:
            break
        row += 1
    for j in range(n[10 + player]):
        out[k] = c[50 + player * 52 + j]
        k += 1
    return k


def _speed_deck(game, out, k):
    # The deck order speed.Game.lay_out deals from, read back off the table.
    from .games import SPEED, module  # (Speed's rounds only: a Spit save opens no more files)

    speed = module(SPEED)

    c = game.cards
    n = game.counts
    for pile in (speed.SIDE, speed.SIDE + 1, speed.PILE, speed.PILE + 1):
        for j in range(n[pile]):
            out[k] = c[speed.BASE + pile * speed.CAP + j]
            k += 1
    for p in range(2):
        for h in range(5):
            out[k] = game.hand(p, h)
            k += 1
        for j in range(n[speed.STOCK + p]):
            out[k] = c[speed.BASE + (speed.STOCK + p) * speed.CAP + j]
            k += 1
    return k


def encode(game, out):
    # Write the payload of a freshly dealt round into out (68 bytes).
    is_speed = game.kind == 1  # (engine.games.SPEED)
    n = game.counts
    piles_empty = (n[4] == 1 and n[5] == 1) if is_speed else not (n[12] or n[13])  # the play or spit piles
    if game.phase != READY or game.called or not piles_empty:
        raise ValueError("only a freshly dealt round (ready, nobody has called spit) can be saved")
    out[0] = game.kind
    out[1] = game.rules
    _put16(out, 2, game.round)
    _put16(out, 4, game.scores[0])
    _put16(out, 6, game.scores[1])
    _put16(out, 8, game.rng.s1)
    _put16(out, 10, game.rng.s2)
    _put16(out, 12, game.rng.s3)
    if is_speed:
        _put16(out, 14, game.target)
    k, n0 = _table_order(game, out)
    if not is_speed:
        _put16(out, 14, n0 - _CARDS)
    if k != _CARDS + 52:
        raise ValueError("the cards are not all on the table")
    # Dealt again from the payload, the table must read back the same.
    again = decode(out)
    check = bytearray(len(out))
    if again.counts != game.counts or _table_order(again, check)[0] != k or check[_CARDS:k] != out[_CARDS:k]:
        raise ValueError("the position is not as it was dealt")


def _table_order(game, out):
    # The table's cards in deal order into out from _CARDS: (the end, and for
    # Spit where player 1's cards begin).
    if game.kind == 1:  # (Speed)
        return _speed_deck(game, out, _CARDS), 0
    n0 = deal_order(game, 0, out, _CARDS)
    return deal_order(game, 1, out, n0), n0


def decode(payload):
    # The game a payload describes; ValueError when it is not a valid one.
    if len(payload) < PAYLOAD:
        raise ValueError("a saved round is %d bytes, got %d" % (PAYLOAD, len(payload)))
    kind = payload[0]
    from .games import SPEED, SPIT, module

    if kind == SPEED:
        fast = module(SPEED).Game(0, payload[1], _get16(payload, 14))  # ValueError for bad rules or target
        _read_deck(payload, fast.deck)
        fast.lay_out()
        return _read_state(payload, fast)
    if kind != SPIT:
        raise ValueError("saved game kind %d is unknown" % kind)
    g = Game(0, payload[1])
    _read_deck(payload, g.deck)
    n0 = _get16(payload, 14)
    if not 0 < n0 < 52:
        raise ValueError("saved card split %d is impossible" % n0)
    for i in range(14):
        g.counts[i] = 0
    g.lay_out(0, 0, n0)
    g.lay_out(1, n0, 52 - n0)
    if not (g.counts[10] or g.counts[11]):
        raise ValueError("a saved round needs spit cards to start")
    return _read_state(payload, g)


def _read_deck(payload, deck):
    seen = bytearray(52)
    for i in range(52):
        card = payload[_CARDS + i]
        if card >= 52 or seen[card]:
            raise ValueError("saved cards are not a deck")
        seen[card] = 1
        deck[i] = card


def _read_state(payload, g):
    # The round, scores and generator every kind of game saves alike.
    g.round = _get16(payload, 2)
    g.scores[0] = _get16(payload, 4)
    g.scores[1] = _get16(payload, 6)
    s1, s2, s3 = _get16(payload, 8), _get16(payload, 10), _get16(payload, 12)
    if not (0 < s1 < 32363 and 0 < s2 < 31727 and 0 < s3 < 31657) or g.round < 1:
        raise ValueError("saved PRNG state or round out of range")
    g.rng.s1, g.rng.s2, g.rng.s3 = s1, s2, s3
    g.phase = READY
    g.called = 0
    return g
