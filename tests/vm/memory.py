"""Heap used by the imported engine plus one Game, in bytes (gc.mem_alloc)."""
import gc

gc.collect()
before = gc.mem_alloc()
from engine.spit import Game  # noqa: E402

g = Game(1)
gc.collect()
print("engine_and_game %d" % (gc.mem_alloc() - before))
