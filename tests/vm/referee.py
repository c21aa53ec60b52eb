# hardware/referee.py on the VM with the heap locked: adding presses and
# releasing them in order allocate nothing (tests/test_referee.py).
from locked import lock_refuses_allocation, run_locked

from hardware.referee import Referee

ref = Referee()
count = [0]


def take(player, action, t):
    count[0] += 1


state = [0]


def step(state):
    i = state[0]
    now = 0x1FFF0000 + i * 5
    ref.add(i % 2, i % 7, now - (i * 3) % 11)
    ref.add(1 - i % 2, 1, now - 2)
    ref.release(now, take, now)
    state[0] = i + 1
    return i < 199


print("refuses", lock_refuses_allocation())
print("allocated nothing", run_locked(step, state))
ref.release(0x1FFF0000 + 200 * 5 + 100, take, 0x1FFF0000 + 200 * 5 + 100)
print("released", count[0])
