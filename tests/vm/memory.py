"""Heap kept by the imported engine plus one Game, in bytes (gc.mem_alloc).

    mpvm.mjs --steps vm_step memory.py [spit|speed]

In steps (this VM's gc.collect() frees only what no call from its host still
running can reach): the first measures the heap before, the second imports the
engine and makes a Game, the third collects and prints what is kept.
"""

import gc
import sys

_steps = []


def vm_step():
    gc.collect()
    if not _steps:
        _steps.append(gc.mem_alloc())
        return True
    if len(_steps) == 1:
        if len(sys.argv) > 1 and sys.argv[1] == "speed":
            from engine.speed import Game
        else:
            from engine.spit import Game
        _steps.append(Game(1))
        return True
    print("engine_and_game %d" % (gc.mem_alloc() - _steps[0]))
    return False
