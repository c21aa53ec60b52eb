"""Build Spit positions for tests through the notation, the way a bug report would."""

from desktop.text_shown import shown
from engine.notation import card_text, parse_card
from engine.spit import Game


def _cards(text):
    if text.strip() in ("", "-"):
        return []
    return [parse_card(t.upper())[0] for t in text.replace(",", " ").split()]


def _pile(cards, up_from):
    if not cards:
        return "-"
    return ",".join(card_text(c, i >= up_from) for i, c in enumerate(cards))


def position(
    stocks0,
    stocks1,
    pile0="",
    pile1="",
    spit0="",
    spit1="",
    phase="play",
    rules="-",
    rnd=1,
    scores="0:0",
    filler=0,
):
    """A Game in the given position; stocks are '/'-separated, cards bottom first.

    Card case does not matter here: stock tops are made face up, the rest face
    down. Every card not named goes face up at the bottom of spit pile
    ``filler`` (below its named cards), where it changes nothing in play.
    """
    named = []
    stocks = []
    for text in (stocks0, stocks1):
        piles = [_cards(s) for s in text.split("/")]
        stocks.append(piles)
        for p in piles:
            named += p
    spits = [_cards(spit0), _cards(spit1)]
    piles = [_cards(pile0), _cards(pile1)]
    named += spits[0] + spits[1] + piles[0] + piles[1]
    rest = [c for c in range(52) if c not in named]
    if rest:
        if filler is None:
            raise ValueError("cards left over: %s" % " ".join(card_text(c) for c in rest))
        piles[filler] = rest + piles[filler]
    fields = ["spit", phase, rules, str(rnd), scores, "1.1.1"]
    for p in range(2):
        fields.append("/".join(_pile(s, len(s) - 1) for s in stocks[p]))
        fields.append(_pile(spits[p], len(spits[p])))
    fields += [_pile(piles[0], 0), _pile(piles[1], 0)]
    return Game.from_text(" ".join(fields))


# Whole matches played from replay files of key taps (tools/make_replay.py):
# (profile, game, seed, rules), every profile and both games.
WHOLE_MATCHES = [
    ("pico-st7789-240", "spit", 3, "-"),
    ("pybadge", "spit", 11, "S"),
    ("pico-ssd1306", "spit", 4, "4NC"),
    ("pico-st7789-320", "speed", 2, "-"),
    ("pybadge", "speed", 5, "5"),
    ("cardputer", "spit", 7, "S"),
]


def legal(g, player):
    buf = bytearray(64)
    return list(buf[: g.moves(player, buf)])


def speed_position(
    hand0,
    hand1,
    pile0="",
    pile1="",
    stock0="",
    stock1="",
    side0="",
    side1="",
    phase="play",
    rules="-",
    target=50,
    rnd=1,
    scores="0:0",
    last="-*",
    filler="side0",
):
    """A Speed game in the given position. Hands are 5 '/'-separated slots
    (``-`` empty); the other piles list cards bottom first in any case. Every
    card not named goes to the bottom of pile ``filler`` (stock0/1, side0/1, pile0/1)."""
    from engine.speed import Game as Speed

    hands = [[t.strip() for t in h.split("/")] for h in (hand0, hand1)]
    named = [parse_card(t.upper())[0] for h in hands for t in h if t != "-"]
    piles = [_cards(x) for x in (stock0, stock1, side0, side1, pile0, pile1)]
    for x in piles:
        named += x
    rest = [c for c in range(52) if c not in named]
    where = {"stock0": 0, "stock1": 1, "side0": 2, "side1": 3, "pile0": 4, "pile1": 5}[filler]
    piles[where] = rest + piles[where]
    up = phase.split(":")[0] != "ready"
    fields = ["speed", phase, rules, str(target), str(rnd), scores, "1.1.1", last]
    for p in range(2):
        fields.append("/".join(t.upper() if t != "-" else "-" for t in hands[p]))
        fields.append(_pile(piles[p], 99))
    fields += [
        _pile(piles[2], 99),
        _pile(piles[3], 99),
        _pile(piles[4], 0 if up else 99),
        _pile(piles[5], 0 if up else 99),
    ]
    return Speed.from_text(" ".join(fields))


def some_move(g, player, k):
    """(player, move): the k-th legal move (mod their count) of player, or of
    the other player when player has none. Works for Spit and Speed."""
    buf = bytearray(64)
    n = g.moves(player, buf)
    if not n:
        player = 1 - player
        n = g.moves(player, buf)
    assert n, "a game that is not over has a legal move for someone"
    return player, buf[k % n]


def play_to_the_end(g, seed, limit=200000):
    """Play legal moves of both players (a fixed walk from seed) until the game
    is won; every one must be accepted. Returns the number of moves."""
    b0 = bytearray(64)
    b1 = bytearray(64)
    moves = 0
    while g.winner < 0:
        n0 = g.moves(0, b0)
        n1 = g.moves(1, b1)
        assert n0 + n1, "a game that is not over has a legal move for someone"
        i = (seed + moves * 7919) % (n0 + n1)
        result = g.play(0, b0[i]) if i < n0 else g.play(1, b1[i - n0])
        assert result == 0
        moves += 1
        assert moves < limit
    return moves


def middle(screen, player=-1):
    """The middle's words a player sees, a line each: player 0's or 1's own
    copy (seats facing), or -1 the one upright copy. Where the bigger
    panels show a mid-race word large over the copy (Screen.big), that word
    (upright and side by side, it lies in the refused player's half)."""
    if player < 0:
        text, big = screen.status, screen.big
    else:
        text, big = (screen.status_low, screen.big) if player == 0 else (screen.status_top, screen.big_top)
    if big is not None and not big.group.hidden and (player < 0 or big.group.y == text.group.y):
        return [shown(big).strip()]
    return [line.strip() for line in shown(text).split("\n")]
