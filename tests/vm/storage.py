"""Saving a dealt round and loading it back, on MicroPython (engine/record.py, hardware/storage.py).

Prints "ok N" after N Spit and N Speed rounds saved to alternate slots of a
bytearray nvm and read back identical, or raises.
"""

from engine import record, speed
from engine.spit import Game
from hardware.storage import MATCH, SETTINGS, SIZE_NEEDED, Store

nvm = bytearray(b"\xff" * SIZE_NEEDED)
store = Store(nvm)
payload = bytearray(record.PAYLOAD)
n = 0
for seed in range(20):
    g = Game(seed, seed % 16)
    record.encode(g, payload)
    store.save(MATCH, payload)
    store.save(SETTINGS, bytes((0, seed % 16, 0, 0)))
    again = record.decode(Store(nvm).load(MATCH))
    assert again.text() == g.text(), seed
    assert Store(nvm).load(SETTINGS)[1] == seed % 16
    s = speed.Game(seed, seed % 4)
    record.encode(s, payload)
    store.save(MATCH, payload)
    assert record.decode(Store(nvm).load(MATCH)).text() == s.text(), seed
    n += 1
print("ok %d" % n)
