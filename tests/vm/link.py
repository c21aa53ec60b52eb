# The link model (desktop/link_model.py) on a seeded scenario: what each side
# received and when, and the counts; tests/test_link_model.py runs it on the
# MicroPython VM and on CPython and compares the two.
import sys

from desktop.link_model import Clock, Link

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
link = Link(seed, loss=20000, corrupt=5000, burst_every=2000, burst_bytes=8)
link.pull(400000, 600000)
buf = bytearray(64)
digest = 0
got = 0
for i in range(400):
    t = i * 2500
    frame = bytes((i & 255, (i * 7) & 255, 0x55, 0xAA, i % 13))
    link.send(i & 1, frame, t)
    for side in (0, 1):
        n = link.receive(side, t + 1000, buf)
        for j in range(n):
            digest = (digest * 31 + buf[j] + side) % 1000000007
        got += n
clock = Clock(0x1FFF0000, -50)
print(
    "digest",
    digest,
    "got",
    got,
    "sent",
    link.sent[0],
    link.sent[1],
    "lost",
    link.lost[0],
    link.lost[1],
    "corrupted",
    link.corrupted[0],
    link.corrupted[1],
    "clock",
    clock.ticks_ms(1800000000),
)
