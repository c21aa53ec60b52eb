# hardware/clock_sync.py on the VM with the heap locked: a ping, the offset
# and a timestamp converted allocate nothing (tests/test_clock_sync.py).
from locked import lock_refuses_allocation, run_locked

from hardware.clock_sync import ClockSync
from hardware.ticks import ticks_diff

sync = ClockSync()
state = [0, sync, 0]


def step(state):
    i = state[0]
    s = state[1]
    t1 = 0x1FFF0000 + i * 250
    t2 = (t1 + 123456 + 5 + i % 3) & 0x1FFFFFFF
    s.ping(t1, t2, t2 + 1, t1 + 11 + i % 5)
    state[2] = s.to_ours(t2, t1 + 20)
    state[0] = i + 1
    return i < 600


# Two clocks 2**28 - 3 ms apart (each half of a ping's offset wraps its own
# way): a time of theirs in ours stays within 2 ms, allocating nothing.
far = [0, ClockSync(), 0]


def step_far(state):
    i = state[0]
    s = state[1]
    t1 = (0x1FFF0000 + i * 250) & 0x1FFFFFFF
    t2 = (t1 + (1 << 28) - 3 + 5) & 0x1FFFFFFF
    s.ping(t1, t2, t2 + 1, (t1 + 11) & 0x1FFFFFFF)
    e = ticks_diff(s.to_ours((t2 + 1) & 0x1FFFFFFF, (t1 + 6) & 0x1FFFFFFF), (t1 + 6) & 0x1FFFFFFF)
    if e < 0:
        e = -e
    if e > state[2]:
        state[2] = e
    state[0] = i + 1
    return i < 600


print("refuses", lock_refuses_allocation())
print("far allocated nothing", run_locked(step_far, far), "worst", far[2])
print("allocated nothing", run_locked(step, state))
print("offset2", sync.offset2(0x1FFF0000 + 600 * 250), "ppm", sync.ppm, "known", sync.drift_known)
