"""Full games with the heap locked from the first deal to GAME_OVER.

    heaplock.py FIRST_SEED COUNT [spit|speed]

After Game() is built and the move buffers exist, micropython.heap_lock() is
held while the driver calls moves() and play() for both players until the game
is over, re-deals between rounds included: any allocation raises MemoryError.
Prints one line per game, "ok SEED RULES MOVES ROUNDS", or "alloc SEED RULES
MOVES POSITION" for the move that allocated, and "heap_lock works" first,
proving that the lock really refuses an allocation.
"""
import gc
import sys

import micropython

from engine.cards import Rng
if len(sys.argv) > 3 and sys.argv[3] == "speed":
    from engine.speed import GAME_OVER, Game

    RULE_SETS = 4
else:
    from engine.spit import GAME_OVER, Game

    RULE_SETS = 16


def lock_refuses_allocation():
    micropython.heap_lock()
    try:
        bytearray(8)
        refused = False
    except MemoryError:
        refused = True
    micropython.heap_unlock()
    return refused


def locked_game(g, pick, b0, b1, counter):
    # Runs under the lock: no new names, no containers, no formatting.
    micropython.heap_lock()
    try:
        while g.phase != GAME_OVER:
            n0 = g.moves(0, b0)
            n1 = g.moves(1, b1)
            i = pick.below(n0 + n1)
            if i < n0:
                g.play(0, b0[i])
            else:
                g.play(1, b1[i - n0])
            counter[0] += 1
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return ok


def main():
    if not lock_refuses_allocation():
        print("heap_lock does not refuse allocation")
        return
    print("heap_lock works")
    first = int(sys.argv[1])
    count = int(sys.argv[2])
    for seed in range(first, first + count):
        rules = seed % RULE_SETS
        g = Game(seed, rules)
        pick = Rng(seed + 7)
        b0 = bytearray(64)
        b1 = bytearray(64)
        counter = [0]
        gc.collect()
        if locked_game(g, pick, b0, b1, counter):
            print("ok %d %d %d %d" % (seed, rules, counter[0], g.round))
        else:
            print("alloc %d %d %d %s" % (seed, rules, counter[0], g.text()))


main()
