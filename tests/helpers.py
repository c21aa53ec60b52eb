"""Build Spit positions for tests through the notation, the way a bug report would."""
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


def legal(g, player):
    buf = bytearray(64)
    return list(buf[: g.moves(player, buf)])


def held(g, player):
    """All cards a player holds: stock cards plus spit cards."""
    return g.cards_held(player)
