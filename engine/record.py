# A dealt Spit round as 66 bytes, for saving a match between rounds.
#
# Between rounds the whole match is: the rule flags, the round number, the
# scores, the PRNG state (it shuffles every later deal) and the cards as they
# were dealt (each player's cards in deal order; the layout follows from the
# deal, SP-2, SP-13, D-6, D-7). Payload, little-endian:
#
#   0  rules        1 byte
#   1  round        2 bytes
#   3  scores       2 x 2 bytes
#   7  PRNG state   3 x 2 bytes
#  13  n0           1 byte: how many of the cards are player 0's
#  14  cards        52 bytes: player 0's in deal order, then player 1's
#
# Pure and small; the storage with versions, checksums and two slots is in
# hardware/storage.py. Only a READY position as dealt can be written.

from .spit import READY, Game

PAYLOAD = 66


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


def encode(game, out):
    # Write the payload of a freshly dealt round into out (66 bytes).
    if game.phase != READY or game.called or game.counts[12] or game.counts[13]:
        raise ValueError("only a freshly dealt round (ready, nobody has called spit) can be saved")
    out[0] = game.rules
    _put16(out, 1, game.round)
    _put16(out, 3, game.scores[0])
    _put16(out, 5, game.scores[1])
    _put16(out, 7, game.rng.s1)
    _put16(out, 9, game.rng.s2)
    _put16(out, 11, game.rng.s3)
    n0 = deal_order(game, 0, out, 14)
    out[13] = n0 - 14
    if deal_order(game, 1, out, n0) != 14 + 52:
        raise ValueError("the cards are not all on the table")
    again = decode(out)
    if again.text() != game.text():
        raise ValueError("the position is not as it was dealt")


def decode(payload):
    # The Game a payload describes; ValueError when it is not a valid one.
    if len(payload) < PAYLOAD:
        raise ValueError("a saved round is %d bytes, got %d" % (PAYLOAD, len(payload)))
    g = Game(0, payload[0])  # ValueError for unknown rule flags
    n0 = payload[13]
    seen = bytearray(52)
    for i in range(52):
        card = payload[14 + i]
        if card >= 52 or seen[card]:
            raise ValueError("saved cards are not a deck")
        seen[card] = 1
        g._deck[i] = card
    if not 0 < n0 < 52:
        raise ValueError("saved card split %d is impossible" % n0)
    for i in range(14):
        g.counts[i] = 0
    g._lay_out(0, 0, n0)
    g._lay_out(1, n0, 52 - n0)
    g.round = _get16(payload, 1)
    g.scores[0] = _get16(payload, 3)
    g.scores[1] = _get16(payload, 5)
    s1, s2, s3 = _get16(payload, 7), _get16(payload, 9), _get16(payload, 11)
    if not (0 < s1 < 32363 and 0 < s2 < 31727 and 0 < s3 < 31657) or g.round < 1:
        raise ValueError("saved PRNG state or round out of range")
    g.rng.s1, g.rng.s2, g.rng.s3 = s1, s2, s3
    g.phase = READY
    g.called = 0
    if not (g.counts[10] or g.counts[11]):
        raise ValueError("a saved round needs spit cards to start")
    return g
