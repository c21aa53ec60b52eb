# The games the engine plays, in one place: each game's number, its names,
# the module that plays it, and what every game offers the rest of the
# program (the contract below). The menu, start-up and the saved match pick a
# game here; nothing else names a game module by hand.
#
# A game's number is its Game.kind: the index into NAMES (the notation's
# first word, the command lines') and TITLES (the screen's).
#
# The contract: every game module has a class Game with
#   Game(seed, rules=0)      a match dealt from seed under rule flags (ValueError
#                            for unknown flags)
#   Game.from_text(line)     the position a notation line describes (ValueError)
# and each Game keeps
#   kind, call, stocks       its number; the move any key makes in READY and
#                            STALEMATE; the stocks (Speed: hand slots) a player has
#   rules, rng, round, phase, called, winner, scores
#                            the rule flags, the deal's generator, the round (from 1),
#                            the phase (READY, PLAY, STALEMATE, GAME_OVER and the
#                            game's own), who has called, the winner (-1: none yet),
#                            the points
#   counts, cards            the piles' sizes and cards (the screen reads them)
#   top(pile)                a pile's top card, or NO_CARD
#   pile_top(k)              the top card of the middle's pile k (0 or 1), or NO_CARD
#   fits_on(player, move, top)  whether the card a play move plays goes on top
#                            (a pile as it was: a race lost, not a misread card)
#   moves(player, buf) -> n  the player's legal moves written into buf
#   can_move(player)         any legal move at all (cheaper than moves)
#   check(player, move)      0 (OK) when move is legal now, else why not (a code)
#   play(player, move)       check, then make it: the same code
#   text()                   the whole position as one line of the notation
# Moves are small ints; the codes below 0x100 mean the same in both games where
# they share a meaning (engine/spit.py, engine/speed.py list them). CONTRACT
# names these for the tests that hold both games to it (tests/test_games.py).

SPIT = 0
SPEED = 1
NAMES = ("spit", "speed")
TITLES = ("Spit", "Speed")
CONTRACT = (
    "kind",
    "call",
    "stocks",
    "rules",
    "rng",
    "round",
    "phase",
    "called",
    "winner",
    "scores",
    "counts",
    "cards",
    "top",
    "pile_top",
    "fits_on",
    "moves",
    "can_move",
    "check",
    "play",
    "text",
    "from_text",
)


def module(kind):
    # The module that plays game kind, loaded on first use (a Spit match
    # never loads Speed's code).
    if kind == SPEED:
        from . import speed

        return speed
    if kind == SPIT:
        from . import spit

        return spit
    raise ValueError("game %d is unknown" % kind)


def kind_of(name):
    # A game's number from its name in the notation ("spit", "speed").
    for kind in range(len(NAMES)):
        if NAMES[kind] == name:
            return kind
    raise ValueError("a position starts with %s, not %r" % (" or ".join(NAMES), name))


def new(kind, seed, rules=0):
    # A new match of game kind.
    return module(kind).Game(seed, rules)


def from_text(line):
    # The position a line of the notation describes, in its game.
    return module(kind_of(line.split(" ", 1)[0])).Game.from_text(line)
