# hardware/clock_sync.py on the VM with the heap locked: a ping, the offset
# and a timestamp converted allocate nothing (tests/test_clock_sync.py).
from locked import lock_refuses_allocation, run_locked

from hardware.clock_sync import ClockSync

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


print("refuses", lock_refuses_allocation())
print("allocated nothing", run_locked(step, state))
print("offset2", sync.offset2(0x1FFF0000 + 600 * 250), "ppm", sync.ppm, "known", sync.drift_known)
