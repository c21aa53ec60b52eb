"""Random full games, for CPython and the MicroPython VM alike.

    playout.py FIRST_SEED COUNT

Each game is Game(seed, rules = seed % RULE_SETS), driven by legal moves that the
engine's own PRNG picks (so both interpreters make the same choices). One line
per game: seed, moves, rounds, winner, a checksum of every position passed
through, and the final position in notation. Run by tests/test_vm.py on both.
"""

import sys

from engine.cards import Rng

if len(sys.argv) > 3 and sys.argv[3] == "speed":
    from engine.speed import GAME_OVER, Game

    RULE_SETS = 4
else:
    from engine.spit import GAME_OVER, Game

    RULE_SETS = 16


PRIME = 1000000007


def state_sum(g, acc):
    # A running checksum of the whole position: the piles and counts read as one
    # big number (base 256) modulo a prime, chained with the phase and the call.
    # int.from_bytes does the reading in C on both interpreters.
    acc = (acc * 256 + int.from_bytes(g.counts, "little")) % PRIME
    acc = (acc * 256 + int.from_bytes(g.cards, "little")) % PRIME
    return (acc * 256 + g.phase * 7 + g.called) % PRIME


def play_game(seed, check_every):
    g = Game(seed, seed % RULE_SETS)
    pick = Rng(seed + 1000)
    b0 = bytearray(64)
    b1 = bytearray(64)
    moves = 0
    acc = 0
    while g.phase != GAME_OVER:
        n0 = g.moves(0, b0)
        n1 = g.moves(1, b1)
        i = pick.below(n0 + n1)
        if i < n0:
            r = g.play(0, b0[i])
        else:
            r = g.play(1, b1[i - n0])
        if r:
            raise AssertionError("legal move refused: %d" % r)
        moves += 1
        if moves % check_every == 0:
            acc = state_sum(g, acc)
    return g, moves, acc


def main():
    first = int(sys.argv[1])
    count = int(sys.argv[2])
    for seed in range(first, first + count):
        g, moves, acc = play_game(seed, 1)
        print("%d %d %d %d %d %s" % (seed, moves, g.round, g.winner, acc, g.text()))


main()
