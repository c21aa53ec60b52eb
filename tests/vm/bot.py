"""The computer opponent on MicroPython: whole bot-vs-bot games with the heap locked.

    bot.py COUNT

For Spit and for Speed, COUNT games of the Expert bot against the Medium one;
micropython.heap_lock() is held around every decision and move, so any
allocation raises. Prints "ok GAME DECISIONS US_PER_DECISION" per game kind.
"""

import gc
import sys
import time

from locked import run_locked

from engine import speed, spit
from engine.bot import Bot


def step(state):
    # One decision of the player to act, and its move.
    g = state[0]
    bots = state[1]
    p = state[2]
    if g.phase == 5:  # GAME_OVER
        return False
    m = bots[p].choose(g)
    if m >= 0:
        g.play(p, m)
    state[2] = p ^ 1
    state[3] += 1
    return True


def main():
    count = int(sys.argv[1])
    for name, make, is_speed in (("spit", spit.Game, False), ("speed", speed.Game, True)):
        decisions = 0
        us = 0
        for seed in range(count):
            state = [make(seed), [Bot(0, 3, seed, is_speed), Bot(1, 1, seed + 1, is_speed)], 0, 0]
            gc.collect()
            t0 = time.ticks_us()
            if not run_locked(step, state):
                print("alloc %s %d" % (name, seed))
                return
            us += time.ticks_diff(time.ticks_us(), t0)
            decisions += state[3]
        print("ok %s %d %d" % (name, decisions, us // decisions))


main()
