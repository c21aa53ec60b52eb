"""The cost of sound and lights on the VM: microseconds per loop pass and heap kept.

    mpvm.mjs --drive DRIVE --steps vm_step feedback_bench.py /drive pico|pybadge

Prints "idle US", "playing US" (per Feedback.update call, no tune / a tune and
a light running), "event US" (starting a tune and a light) and "heap BYTES"
(the feedback module and its outputs, made as the board makes them).
"""

import gc
import sys
import time

sys.path.insert(1, sys.argv[1])
sys.path.insert(2, sys.argv[1] + "/lib")
import board  # noqa: E402

board.use(sys.argv[2])
_state = []


def _per_call(f, n):
    t0 = time.ticks_us()
    for i in range(n):
        f(i)
    return time.ticks_diff(time.ticks_us(), t0) / n


def vm_step():
    gc.collect()
    if not _state:  # the board's IO without sound and lights
        from hardware import profiles
        from hardware.board_setup import open_board

        profile = profiles.get("pybadge" if sys.argv[2] == "pybadge" else "pico-st7789-240")
        quiet = dict(profile)
        quiet.pop("sound", None)
        quiet.pop("pixels", None)
        _state.append(profile)
        _state.append(open_board(quiet))
        return True
    if len(_state) == 2:  # then its sound and lights, as the board makes them
        _state.append(gc.mem_alloc())
        import board as b

        from hardware.board_setup import _feedback

        _state.append(_feedback(b, _state[0]))
        return True
    f = _state[3]
    print("heap %d" % (gc.mem_alloc() - _state[2]))
    f.set(1, True)
    print("idle %.1f" % _per_call(lambda i: f.update(i), 5000))

    def playing(i):
        if i % 50 == 0:
            f.event(6, 0, i)
        f.update(i)

    print("playing %.1f" % _per_call(playing, 5000))
    print("event %.1f" % _per_call(lambda i: f.event(1, i & 1, i), 2000))
    return False
