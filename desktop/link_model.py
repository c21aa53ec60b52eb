# A cable between two handhelds in simulated time, for the linked-play tests
# and the bench (the board never loads it). Each direction is a
# UART's first-in-first-out stream of bytes: a byte takes the baud rate's byte
# time on the wire (10 bits: start, 8 data, stop), and reaches the other side
# after a one-way delay with jitter (what the two programs' polling adds),
# never before the byte sent ahead of it. Bytes are lost or corrupted (one
# bit flipped) uniformly, or in bursts (a two-state Gilbert-Elliott channel:
# good, and bad for a while); the cable can be pulled for a span of time, and
# every byte on the wire then is lost (one way only: a wire of the two broken,
# a loose pin). A side's receive buffer holds RX_BYTES as the firmware's
# does (busio.UART's ring buffer, then the RP2040's FIFO): what arrives while
# it is full is lost, and counted. Each device has its own clock
# (Clock): an offset and a drift from the true time, wrapping as ticks_ms does.
#
# Seeded with engine.cards.Rng, integer arithmetic only: the same seed gives
# the same run on CPython and on the MicroPython VM. Times are the true time
# in microseconds (t_us), from 0.

from engine.cards import Rng
from hardware.ticks import ticks_add, ticks_diff

_PPM = 1000000  # rates in parts per million
# The bytes a side holds unread: hardware/cable.py asks busio.UART for a ring
# buffer of 512; the RP2040's UART keeps 32 more in its FIFO when that is full
# (ports/raspberrypi/common-hal/busio/UART.c copies from the FIFO only while
# the ring has room), and a byte arriving with both full is lost (an overrun).
RX_BYTES = 512 + 32


class Clock:
    """A device's ticks_ms at true time t_us: offset_ms at t_us 0, running
    ppm parts per million fast (negative: slow), wrapping at 2**29."""

    def __init__(self, offset_ms=0, ppm=0):
        self.offset_ms = offset_ms
        self.ppm = ppm

    def ticks_ms(self, t_us):
        return ticks_add(self.offset_ms, (t_us + t_us * self.ppm // _PPM) // 1000)


def two_clocks(seed):
    """Two devices' clocks as a test or the bench meets them: the first started
    near the wrap (as a board starts), the second anywhere, each within 50 ppm."""
    r = Rng(seed)
    return Clock(0x1FFF0000 + r.below(100000), r.below(101) - 50), Clock(r.below(1 << 20) << 8, r.below(101) - 50)


def true_offset2(a, b, t_us):
    """Clock b's ticks minus clock a's at true time t_us, in half milliseconds
    (as hardware/clock_sync.py keeps offsets)."""
    return 2 * ticks_diff(b.ticks_ms(t_us), a.ticks_ms(t_us))


class Link:
    """The cable: send() puts bytes on the wire from side 0 or 1, receive()
    takes what has reached a side by a given time.

    delay_us, jitter_us: each byte's one-way delay is delay_us plus a uniform
    draw in [-jitter_us, jitter_us] (never below the wire's own byte time).
    loss, corrupt: parts per million of bytes lost, or arriving with one bit
    flipped, in the good state. burst_every, burst_bytes: the bad state begins
    on average once in burst_every bytes and lasts burst_bytes bytes on
    average; in it every byte is lost (0: no bursts)."""

    def __init__(
        self,
        seed,
        baud=115200,
        delay_us=5000,
        jitter_us=3000,
        loss=0,
        corrupt=0,
        burst_every=0,
        burst_bytes=0,
    ):
        if baud <= 0 or delay_us < 0 or jitter_us < 0 or jitter_us > delay_us:
            raise ValueError("a link needs a positive baud rate and a delay at least its jitter")
        for rate in (loss, corrupt):
            if not 0 <= rate <= _PPM:
                raise ValueError("loss and corruption are parts per million, 0 to 1000000")
        if burst_every < 0 or burst_bytes < 0 or (burst_every > 0) != (burst_bytes > 0):
            raise ValueError("bursts need both how often (burst_every) and how long (burst_bytes)")
        self.rng = Rng(seed)
        self.baud = baud
        self.delay_us = delay_us
        self.jitter_us = jitter_us
        self.loss = loss
        self.corrupt = corrupt
        self.burst_every = burst_every
        self.burst_bytes = burst_bytes
        self._bad = [False, False]  # each direction's channel state (from side 0, from side 1)
        self._wire_free = [0, 0]  # when each direction's wire can start its next byte
        self._last = [0, 0]  # when each direction's last byte arrives (FIFO: none sooner)
        self._queue = ([], [])  # bytes on their way to side 0, to side 1: (arrival t_us, byte)
        self._held = ([], [])  # bytes arrived at side 0, at side 1, not read yet (at most rx_bytes)
        self.rx_bytes = RX_BYTES
        self._pulled = []  # (start, end, direction: the sending side, or None both) when the cable is out
        self.sent = [0, 0]  # bytes each side put on the wire
        self.lost = [0, 0]  # of them, lost (the cable pulled, the channel, a burst)
        self.corrupted = [0, 0]  # of them, arriving with a bit flipped
        self.overrun = [0, 0]  # of them, lost for the receiving side's buffer full (by the sending side)

    def byte_us(self):
        # A byte's time on the wire: 10 bits at the baud rate.
        return 10 * 1000000 // self.baud

    def pull(self, start_us, end_us, side=None):
        # The cable is out from start_us to end_us: nothing sent then arrives
        # (side: only what that side sends is lost; it still hears the other).
        if end_us < start_us:
            raise ValueError("a pulled span ends after it starts")
        if side not in (None, 0, 1):
            raise ValueError("a pull is of side 0's wire, side 1's, or both (None)")
        self._pulled.append((start_us, end_us, side))

    def connected(self, t_us, side=None):
        # Whether what side sends at t_us can arrive (side None: both ways).
        for start, end, one in self._pulled:
            if start <= t_us < end and (one is None or side is None or one == side):
                return False
        return True

    def _draw(self, per_million):
        # True with that chance (parts per million), from the seeded generator.
        if per_million <= 0:
            return False
        if per_million >= _PPM:
            return True
        return (self.rng.below(1000) * 1000 + self.rng.below(1000)) < per_million

    def send(self, side, data, t_us):
        """Side 0 or 1 writes data (bytes) to its UART at t_us; returns when
        the last of it has left the wire."""
        d = side
        to = self._queue[1 - side]
        byte_us = self.byte_us()
        t = max(t_us, self._wire_free[d])
        for b in data:
            t += byte_us  # (the byte is on the wire until t)
            self.sent[d] += 1
            if self.burst_every:
                if self._bad[d]:
                    self._bad[d] = not self._draw(_PPM // self.burst_bytes)
                else:
                    self._bad[d] = self._draw(_PPM // self.burst_every)
            if not self.connected(t, d) or self._bad[d] or self._draw(self.loss):
                self.lost[d] += 1
                continue
            if self._draw(self.corrupt):
                b ^= 1 << self.rng.below(8)
                self.corrupted[d] += 1
            jitter = self.rng.below(2 * self.jitter_us + 1) - self.jitter_us if self.jitter_us else 0
            arrive = max(t + self.delay_us + jitter, t, self._last[d])
            self._last[d] = arrive
            to.append((arrive, b))
        self._wire_free[d] = t
        return t

    def receive(self, side, t_us, buf):
        """What has reached side by t_us, in the order sent, into buf
        (a bytearray); returns how many bytes (at most len(buf); the rest stay
        for the next call), as a UART's readinto does with timeout=0."""
        held = self._land(side, t_us)
        n = min(len(buf), len(held))
        for i in range(n):
            buf[i] = held[i]
        del held[:n]
        return n

    def _land(self, side, t_us):
        # The bytes that reached side by t_us, into its buffer, in the order
        # they came; those that found it full are lost. (Nothing is read in
        # between: the buffer only fills until now.)
        q = self._queue[side]
        held = self._held[side]
        k = 0
        while k < len(q) and q[k][0] <= t_us:
            if len(held) < self.rx_bytes:
                held.append(q[k][1])
            else:
                self.overrun[1 - side] += 1
                self.lost[1 - side] += 1
            k += 1
        del q[:k]
        return held

    def opened(self, side, t_us):
        # A UART opened at side at t_us (a device started, or restarted): its
        # buffer starts empty; what arrived before, with no UART open or the
        # last one's unread, is gone.
        del self._held[side][:]
        q = self._queue[side]
        k = 0
        while k < len(q) and q[k][0] <= t_us:
            k += 1
        del q[:k]

    def waiting(self, side, t_us):
        # Bytes arrived at side by t_us and not read yet (a UART's in_waiting).
        return len(self._land(side, t_us))

    def next_arrival(self, side):
        # When the next byte on its way reaches side, or None: nothing on its way.
        q = self._queue[side]
        return q[0][0] if q else None


def frame_bytes(kind, seq, ack, session, payload):
    """A frame as hardware/link.py writes one (its header, the payload, the
    CRC): what a test or a stranger puts on the wire by hand."""
    from hardware import protocol as P
    from hardware.link import crc16

    f = bytearray(P.FRAME_HEAD)
    f[0], f[1] = P.FRAME_MAGIC0, P.FRAME_MAGIC1
    f[P.FRAME_KIND], f[P.FRAME_SEQ], f[P.FRAME_ACK] = kind, seq, ack
    f[P.FRAME_SIZE], f[P.FRAME_SESSION] = len(payload), session
    f += bytes(payload)
    c = crc16(f, P.FRAME_KIND, len(f))
    return bytes(f + bytes((c >> 8, c & 255)))


class Uart:
    """busio.UART (timeout=0) at one end of the cable: side 0 or 1, at the
    true time clock[0] (us), for hardware/link.py in the tests and the bench."""

    def __init__(self, cable, side, clock):
        self.cable = cable
        self.side = side
        self.clock = clock
        cable.opened(side, clock[0])

    def write(self, buf):
        self.cable.send(self.side, bytes(buf), self.clock[0])
        return len(buf)

    def readinto(self, buf):
        n = self.cable.receive(self.side, self.clock[0], buf)
        return n or None


def ping(cable, a, b, t_us, answer_us=300):
    """A ping from side 0 (clock a) at t_us, answered by side 1 (clock b)
    answer_us after it arrives (a pass of its loop): the four timestamps in
    their devices' ticks and the true time the answer arrives, or None when
    either way was lost."""
    buf = bytearray(8)
    cable.send(0, b"\x01", t_us)
    t2 = cable.next_arrival(1)
    if t2 is None:
        return None
    cable.receive(1, t2, buf)
    t3 = t2 + answer_us
    cable.send(1, b"\x02", t3)
    t4 = cable.next_arrival(0)
    if t4 is None:
        return None
    cable.receive(0, t4, buf)
    return (a.ticks_ms(t_us), b.ticks_ms(t2), b.ticks_ms(t3), a.ticks_ms(t4)), t4
