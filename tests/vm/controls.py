"""Key events to moves with the heap locked: hardware/controls.py allocates nothing.

    controls.py SEED COUNT

For each profile, a Game and Controls get COUNT random key events (random keys,
presses and releases, gaps of 0..29 ms, crossing the ticks_ms wrap at 2**29)
while micropython.heap_lock() is held. Prints "ok PROFILE ATTEMPTS APPLIED" or
"alloc PROFILE EVENT_INDEX".
"""

import gc
import sys

from locked import run_locked

from engine.cards import Rng
from engine.spit import Game
from hardware.controls import Controls
from hardware.keymaps import HANDHELD_14, PYBADGE


def step(state):
    # One key event into Controls; every eighth, the batch is applied.
    g = state[0]  # (one name at a time: unpacking five builds a tuple)
    c = state[1]
    keys = state[2]
    pressed = state[3]
    times = state[4]
    i = state[5]
    if i == len(keys):
        c.apply(g)
        return False
    c.feed(g, keys[i], pressed[i], times[i])
    if i % 8 == 7:
        c.apply(g)
    state[5] = i + 1
    return True


def main():
    seed = int(sys.argv[1])
    count = int(sys.argv[2])
    for name, keymap, cursor in (("handheld14", HANDHELD_14, False), ("pybadge", PYBADGE, True)):
        rng = Rng(seed)
        g = Game(seed)
        c = Controls(keymap, cursor)
        keys = bytearray(count)
        pressed = bytearray(count)
        times = [0] * count
        t = (1 << 29) - 2000
        for i in range(count):
            keys[i] = rng.below(len(keymap))
            pressed[i] = rng.below(2)  # as many releases as presses: a hand holds few keys at once
            t = (t + rng.below(30)) & ((1 << 29) - 1)
            times[i] = t
        state = [g, c, keys, pressed, times, 0]
        gc.collect()
        if run_locked(step, state):
            print("ok %s %d %d" % (name, c.attempts, c.applied))
        else:
            print("alloc %s %d" % (name, state[5]))


main()
