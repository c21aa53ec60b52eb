"""Frames between two linked handhelds (hardware/link.py) over the
link model (desktop/link_model.py): reliable frames arrive once each and in
order through loss, corruption, bursts, noise and a pulled cable; nothing
raises on bytes that are not frames; a frame allocates nothing on the VM."""

import random

import pytest
from test_vm import run_vm

from desktop.link_model import Link as Cable
from desktop.link_model import Uart
from engine.cards import Rng
from hardware.link import WINDOW, Link, crc16
from hardware.protocol import ACK, UNRELIABLE
from hardware.protocol import MAX_PAYLOAD as PAYLOAD

F4 = 7 + 4 + 2  # a frame of 4 bytes' payload: its header, the payload, the CRC


def pair(cable):
    clock = [0]
    got = ([], [])
    ends = tuple(
        Link(Uart(cable, side, clock), lambda kind, p, n, side=side: got[side].append((kind, bytes(p[:n]))))
        for side in (0, 1)
    )
    return clock, ends, got


def run(clock, ends, until_us, step_us=5000):
    while clock[0] < until_us:
        clock[0] += step_us
        for end in ends:
            end.poll(clock[0] // 1000)


def exchange(cable, frames=200, seed=1, until_us=120 * 10**6):
    # Both sides send frames reliable frames (a pass every 5 ms, one frame a
    # pass while the window has room), then run until all are acknowledged.
    clock, ends, got = pair(cable)
    rnd = Rng(seed)
    sent = ([], [])
    while clock[0] < until_us and (len(sent[0]) < frames or any(e.waiting() for e in ends)):
        clock[0] += 5000
        for side, end in enumerate(ends):
            if len(sent[side]) < frames:
                n = rnd.below(PAYLOAD + 1)
                payload = bytes(rnd.below(256) for _ in range(n))
                if end.send(len(sent[side]) % UNRELIABLE, payload, n, clock[0] // 1000):
                    sent[side].append((len(sent[side]) % UNRELIABLE, payload))
            end.poll(clock[0] // 1000)
    run(clock, ends, clock[0] + 500000)
    return sent, got, ends


def test_a_clean_cable_delivers_every_frame_once_in_order():
    sent, got, ends = exchange(Cable(1, delay_us=2000, jitter_us=1000))
    assert got[1] == sent[0] and got[0] == sent[1]
    assert ends[0].bad == 0 and ends[1].bad == 0 and ends[0].resent == 0


@pytest.mark.parametrize("seed", range(6))
def test_loss_corruption_and_bursts_lose_or_double_nothing(seed):
    cable = Cable(seed, delay_us=5000, jitter_us=3000, loss=10000, corrupt=5000, burst_every=3000, burst_bytes=30)
    sent, got, ends = exchange(cable, seed=seed)
    assert got[1] == sent[0] and got[0] == sent[1]  # every frame, once, in order
    assert ends[0].resent + ends[1].resent > 0 and ends[0].bad + ends[1].bad > 0  # (the faults happened)


def test_a_pulled_cable_then_back_loses_or_doubles_nothing():
    cable = Cable(3, delay_us=5000, jitter_us=3000)
    cable.pull(300000, 3300000)  # 3 s out, while frames are sent
    sent, got, ends = exchange(cable, frames=300)
    assert got[1] == sent[0] and got[0] == sent[1]


def test_noise_and_strangers_never_raise_and_are_counted():
    cable = Cable(4, delay_us=1000, jitter_us=0)
    clock, ends, got = pair(cable)
    rnd = Rng(9)
    noise = bytes(rnd.below(256) for _ in range(5000)) + b"\xa5\x5a\x01\x00\xff\x30" + bytes(48)  # a frame too long
    cable.send(0, noise, 0)
    run(clock, ends, 2000000)
    assert ends[1].bad > 100 and got[1] == []  # (noise that forms a whole frame with a right CRC: 1 in 65,536)
    assert ends[0].send(1, b"hi", 2, clock[0] // 1000)
    run(clock, ends, clock[0] + 500000)
    assert got[1] == [(1, b"hi")]  # the link works after it


def test_unreliable_frames_and_the_window():
    cable = Cable(5, delay_us=1000, jitter_us=0)
    clock, ends, got = pair(cable)
    assert ends[0].send(UNRELIABLE + 1, b"\x01\x02", 2, 0)  # a ping: sent at once, not kept
    assert ends[0].waiting() == 0
    for _ in range(WINDOW):
        assert ends[0].send(2, b"x", 1, 0)
    assert not ends[0].send(2, b"y", 1, 0)  # the window is full until acknowledged
    run(clock, ends, 200000)
    assert got[1][0] == (UNRELIABLE + 1, b"\x01\x02") and len(got[1]) == 1 + WINDOW
    assert ends[0].waiting() == 0 and all(kind != ACK for kind, _ in got[1])


def test_the_crc_is_ccitt():
    assert crc16(b"123456789", 0, 9) == 0x29B1  # CRC-16/CCITT-FALSE's check value
    # A nibble at a time (a 32-byte table) as the definition's bit at a time,
    # on every length a frame has and bytes of every value.
    rng = random.Random(36)
    for n in range(PAYLOAD + 8):
        for _ in range(40):
            data = bytes(rng.randrange(256) for _ in range(n + 2))
            c = 0xFFFF
            for b in data[1 : n + 1]:
                c ^= b << 8
                for _ in range(8):
                    c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
            assert crc16(data, 1, n + 1) == c


def test_frames_allocate_nothing_on_the_vm():
    out = run_vm("frames.py", pkgs=("engine", "hardware"))
    assert "allocated nothing True" in out and "delivered 200" in out, out


def test_a_frame_sent_twice_is_delivered_once():
    cable = Cable(6, delay_us=1000, jitter_us=0)
    clock, ends, got = pair(cable)
    assert ends[0].send(3, b"press", 5, 0, twice=True)
    run(clock, ends, 100000)
    assert got[1] == [(3, b"press")] and ends[0].waiting() == 0


class _Bytes:
    # A UART that reads what it is given, in one go (or chunk bytes a read).
    def __init__(self, data, chunk=64):
        self.data = bytearray(data)
        self.sent = bytearray()
        self.chunk = chunk

    def write(self, buf):
        self.sent += buf
        return len(buf)

    def readinto(self, buf):
        n = min(len(buf), len(self.data), self.chunk)
        buf[:n] = self.data[:n]
        del self.data[:n]
        return n or None


def test_a_frame_a_byte_short_does_not_take_the_next_one_with_it():
    # A frame with a byte lost makes up its length with the next frame's
    # first bytes; its CRC fails, and the next frame, from its start within
    # what was read, still arrives (a frame missing a byte cost two before).
    # (A whole frame first: until one came, a bad one may be a tail, not counted.)
    sender = Link(_Bytes(b""), lambda *a: None)
    for i in range(4):
        sender.send(UNRELIABLE + 1, bytes((i, i, i, i)), 4, 0)
    first = bytes(sender.uart.sent[:F4])
    one = bytes(sender.uart.sent[F4 : 2 * F4])
    two = bytes(sender.uart.sent[2 * F4 : 3 * F4])
    three = bytes(sender.uart.sent[3 * F4 : 4 * F4])
    got = []
    receiver = Link(_Bytes(first + one[:7] + one[8:] + two + three), lambda kind, p, n: got.append(bytes(p[:n])))
    receiver.poll(0)
    assert got == [bytes((0, 0, 0, 0)), bytes((2, 2, 2, 2)), bytes((3, 3, 3, 3))] and receiver.bad >= 1


def test_a_frames_tail_before_the_first_frame_is_not_noise_but_bytes_after_it_are():
    # A UART opened (or a device restarted) while the other side writes
    # reads the rest of a frame first: skipped, not counted as noise (a
    # restarted device showed "cable noise: 12" for a tick's tail). Once a
    # frame's start has been seen, bytes that are not frames count.
    sender = Link(_Bytes(b""), lambda *a: None)
    for i in range(2):
        sender.send(UNRELIABLE + 1, bytes((i, i, i, i)), 4, 0)
    one, two = bytes(sender.uart.sent[:F4]), bytes(sender.uart.sent[F4 : 2 * F4])
    got = []
    receiver = Link(_Bytes(one[1:] + two + b"\x01\x02\x03"), lambda kind, p, n: got.append(bytes(p[:n])))
    receiver.poll(0)
    assert got == [bytes((1, 1, 1, 1))] and receiver.bad == 3


def test_the_other_side_knows_when_every_earlier_reliable_frame_is_here():
    # What the follower's ticks rest on (hardware/linked.py): its next
    # number, and the referee's word that every frame before it arrived.
    cable = Cable(3, delay_us=1000, jitter_us=0)
    clock, ends, got = pair(cable)
    assert ends[1].next_seq() == 0 and ends[0].has_before(0)
    ends[1].send(1, b"ab", 2, 0)
    assert ends[1].next_seq() == 1 and not ends[0].has_before(1)  # (on its way)
    run(clock, ends, 20000)
    assert ends[0].has_before(1) and got[0] == [(1, b"ab")]


def test_a_poll_stops_reading_once_a_frame_in_order_is_delivered():
    # An event to draw is drawn before the rest is read: its second copy,
    # arriving meanwhile on the board, waits for the next pass (reading it
    # first put off the follower's draw by a frame's time), as does a frame
    # after it. The second copy's bytes are the first's (its CRC once).
    sender = Link(_Bytes(b""), lambda *a: None)
    sender.send(1, b"abcd", 4, 0, twice=True)
    sender.send(2, b"efgh", 4, 0)
    sent = bytes(sender.uart.sent)
    assert sent[:F4] == sent[F4 : 2 * F4]
    got = []
    receiver = Link(_Bytes(sent, chunk=8), lambda kind, p, n: got.append((kind, bytes(p[:n]))))
    receiver.poll(0)
    assert got == [(1, b"abcd")] and len(receiver.uart.data) == len(sent) - 16  # (two reads of 8)
    receiver.poll(1)
    assert got == [(1, b"abcd"), (2, b"efgh")] and receiver.bad == 0


def test_what_one_read_brought_after_a_frame_in_order_waits_for_the_next_poll():
    # On the board both copies of an event are often in the UART's buffer
    # at once, so one read brings them: the first is delivered (and drawn)
    # before the second copy's bytes are looked at (2 ms on a Pico), and a
    # frame after them waits too. Nothing read is lost: the next poll goes
    # on from there before reading again.
    sender = Link(_Bytes(b""), lambda *a: None)
    sender.send(1, b"abcd", 4, 0, twice=True)
    sender.send(2, b"efgh", 4, 0)
    sent = bytes(sender.uart.sent)
    got = []
    receiver = Link(_Bytes(sent + sent[:5]), lambda kind, p, n: got.append((kind, bytes(p[:n]))))
    receiver.poll(0)
    assert got == [(1, b"abcd")] and receiver.uart.data == bytearray()  # (all of it read, the rest kept)
    receiver.poll(1)
    assert got == [(1, b"abcd"), (2, b"efgh")]  # (the copy skipped, the next frame delivered: it stops there)
    receiver.uart.data += sent[5:F4]  # (the rest of a frame the first read began: its copy again)
    receiver.poll(2)
    assert got == [(1, b"abcd"), (2, b"efgh")] and receiver.bad == 0 and receiver.uart.data == bytearray()
