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

from locked import lock_refuses_allocation, run_locked

from engine.cards import Rng

if len(sys.argv) > 3 and sys.argv[3] == "speed":
    from engine.speed import GAME_OVER, Game

    RULE_SETS = 4
else:
    from engine.spit import GAME_OVER, Game

    RULE_SETS = 16


def step(state):
    # One move, chosen by the driver's own PRNG among both players' legal moves.
    g = state[0]  # (one name at a time: unpacking four builds a tuple)
    pick = state[1]
    b0 = state[2]
    b1 = state[3]
    if g.phase == GAME_OVER:
        return False
    n0 = g.moves(0, b0)
    n1 = g.moves(1, b1)
    i = pick.below(n0 + n1)
    if i < n0:
        g.play(0, b0[i])
    else:
        g.play(1, b1[i - n0])
    state[4] += 1
    return True


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
        state = [g, pick, bytearray(64), bytearray(64), 0]
        gc.collect()
        if run_locked(step, state):
            print("ok %d %d %d %d" % (seed, rules, state[4], g.round))
        else:
            print("alloc %d %d %d %s" % (seed, rules, state[4], g.text()))


main()
