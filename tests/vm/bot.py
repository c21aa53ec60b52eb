"""The computer opponent on MicroPython: whole bot-vs-bot games with the heap locked.

    bot.py COUNT

For Spit and for Speed, COUNT games of the Expert bot against the Medium one;
micropython.heap_lock() is held around every decision and move, so any
allocation raises. Prints "ok GAME DECISIONS US_PER_DECISION" per game kind.
"""
import gc
import sys
import time

import micropython

from engine import speed, spit
from engine.bot import Bot


def locked(g, bots, counter):
    micropython.heap_lock()
    try:
        p = 0
        while g.phase != 5:
            m = bots[p].choose(g)
            if m >= 0:
                g.play(p, m)
            counter[0] += 1
            p ^= 1
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return ok


def main():
    count = int(sys.argv[1])
    for name, make, is_speed in (("spit", spit.Game, False), ("speed", speed.Game, True)):
        decisions = [0]
        us = 0
        for seed in range(count):
            g = make(seed)
            bots = [Bot(0, 3, seed, is_speed), Bot(1, 1, seed + 1, is_speed)]
            gc.collect()
            t0 = time.ticks_us()
            if not locked(g, bots, decisions):
                print("alloc %s %d" % (name, seed))
                return
            us += time.ticks_diff(time.ticks_us(), t0)
        print("ok %s %d %d" % (name, decisions[0], us // decisions[0]))


main()
