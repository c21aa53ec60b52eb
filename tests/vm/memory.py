"""Heap used by the imported engine plus one Game, in bytes (gc.mem_alloc).

    memory.py [spit|speed]
"""
import gc
import sys

gc.collect()
before = gc.mem_alloc()
if len(sys.argv) > 1 and sys.argv[1] == "speed":
    from engine.speed import Game  # noqa: E402
else:
    from engine.spit import Game  # noqa: E402

g = Game(1)
gc.collect()
print("engine_and_game %d" % (gc.mem_alloc() - before))
