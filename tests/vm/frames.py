# hardware/link.py on the VM with the heap locked: frames written, read,
# checked, delivered and acknowledged between two ends over a loopback of
# fixed rings allocate nothing (tests/test_link.py).
from locked import lock_refuses_allocation, run_locked

from hardware.link import Link


class Loop:
    # One direction of a cable: a fixed ring of bytes, written whole, read at once.
    def __init__(self):
        self.ring = bytearray(1024)
        self.head = 0
        self.tail = 0

    def put(self, buf):
        for b in buf:
            self.ring[self.head] = b
            self.head = (self.head + 1) % 1024

    def take(self, buf):
        n = 0
        while self.tail != self.head and n < len(buf):
            buf[n] = self.ring[self.tail]
            self.tail = (self.tail + 1) % 1024
            n += 1
        return n or None


class Uart:
    def __init__(self, out, into):
        self.out = out
        self.into = into

    def write(self, buf):
        self.out.put(buf)

    def readinto(self, buf):
        return self.into.take(buf)


a_to_b = Loop()
b_to_a = Loop()
counts = [0]


def delivered(kind, payload, n):
    counts[0] += 1


ends = (Link(Uart(a_to_b, b_to_a), delivered), Link(Uart(b_to_a, a_to_b), delivered))
payload = bytearray(b"0123456789abcdef")
state = [0]


def step(state):
    i = state[0]
    now = i * 5
    if i < 100:
        ends[0].send(1, payload, i % 17, now)
        ends[1].send(2, payload, 16 - i % 17, now)
    ends[0].poll(now)
    ends[1].poll(now)
    state[0] = i + 1
    return i < 200


print("refuses", lock_refuses_allocation())
print("allocated nothing", run_locked(step, state))
print("delivered", counts[0])
