"""The engine benchmark's measuring part, run unchanged by CPython and the MicroPython VM.

    bench_core.py GAMES [spit|speed]

Prints "name value" lines that tools/bench_engine.py gathers into one table:
  full_moves_per_s  both players' legal moves generated, then one random one applied
  games_per_s       whole random games (deal to GAME_OVER)
  floor_per_s       passes of a loop that only reads and writes each byte of a 52-byte bytearray
"""

import sys

from engine.cards import Rng

if len(sys.argv) > 2 and sys.argv[2] == "speed":
    from engine.speed import GAME_OVER, Game

    RULE_SETS = 4
else:
    from engine.spit import GAME_OVER, Game

    RULE_SETS = 16

try:
    from time import ticks_diff, ticks_us

    def now_us():
        return ticks_us()

    def since_us(t0):
        return ticks_diff(ticks_us(), t0)

except ImportError:  # CPython
    from time import perf_counter

    def now_us():
        return perf_counter()

    def since_us(t0):
        return int((perf_counter() - t0) * 1000000)


def play_games(count, seed):
    b0 = bytearray(64)
    b1 = bytearray(64)
    pick = Rng(seed)
    moves = 0
    for s in range(seed, seed + count):
        g = Game(s, s % RULE_SETS)
        while g.phase != GAME_OVER:
            n0 = g.moves(0, b0)
            n1 = g.moves(1, b1)
            i = pick.below(n0 + n1)
            if i < n0:
                g.play(0, b0[i])
            else:
                g.play(1, b1[i - n0])
            moves += 1
    return moves


def floor(passes):
    deck = bytearray(52)
    for _ in range(passes):
        for i in range(52):
            deck[i] = deck[i] + 1 & 255


def main():
    games = int(sys.argv[1])
    t0 = now_us()
    moves = play_games(games, 1)
    us = since_us(t0)
    print("full_moves_per_s %d" % (moves * 1000000 // us))
    print("games_per_s %d" % (games * 1000000 // us))
    print("moves_per_game %d" % (moves // games))
    passes = moves // 4 + 1
    t0 = now_us()
    floor(passes)
    us = since_us(t0)
    print("floor_per_s %d" % (passes * 1000000 // us))


main()
