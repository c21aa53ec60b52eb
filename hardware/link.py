# Frames between two linked handhelds over a UART: each frame is
#
#   0xA5 0x5A  kind  seq  ack  n  session  payload (n bytes, n <= MAX_PAYLOAD)  crc_hi crc_lo
#
# (hardware/protocol.py's FRAME_* say where each lies)
# with a CRC-16 (CCITT, 0x1021, from 0xFFFF) over kind..payload. The session
# is the number both devices agree on once they have heard each other (new
# at every reset): a frame of another session (in flight from before a
# restart, or another pair's) is not taken, nor its acknowledgement, and is
# counted (stale); a hello carries 0 and is taken in any session. A
# frame whose payload the protocol would not send (fits) is refused whole
# and counted (bad), the link's state untouched. Kinds below
# UNRELIABLE are delivered once each and in order: every such frame carries a
# sequence number, every frame carries the last one received in order (ack),
# and the oldest frame not yet acknowledged is sent again _RESEND_MS after
# (and the ones after it: go-back-N, WINDOW at most on the way), each resend
# that brings no acknowledgement waiting twice as long, up to _RESEND_MAX_MS
# (the other device may be busy for a while: taking up a snapshot and drawing
# a new table takes a Pico a third of a second, and resends every 25 ms
# would overflow its UART's buffer meanwhile). Kinds from
# UNRELIABLE up (pings) are delivered when they arrive whole, or never. A
# byte stream that is not frames (noise, another baud rate, another program)
# is skipped to the next 0xA5 0x5A and counted (bad); nothing raises.
#
# Nothing is allocated after start-up: bytes come in through
# uart.readinto(buffer) (timeout=0: None when nothing came), frames go out
# from preallocated buffers, and a frame received is handed to a callback as
# (kind, buffer, n), the payload at buffer[0:n] until the callback returns.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from array import array

from .protocol import (
    ACK,
    FRAME_ACK,
    FRAME_HEAD,
    FRAME_KIND,
    FRAME_MAGIC0,
    FRAME_MAGIC1,
    FRAME_SEQ,
    FRAME_SESSION,
    FRAME_SIZE,
    HELLO,
    MAX_PAYLOAD,
    UNRELIABLE,
)
from .ticks import ticks_diff

WINDOW = const(8)  # reliable frames on their way at most
_RESEND_MS = const(25)  # the oldest frame unacknowledged this long is sent again (a round trip is 10 to 20 ms)
_RESEND_MAX_MS = const(200)  # the longest wait between resends
_FRAME = MAX_PAYLOAD + FRAME_HEAD + 2  # (a frame, whole)


def _crc_table():
    # The CRC of each nibble n (n << 12, four bits shifted out): the CRC goes
    # a nibble at a time, 16 entries of table where a byte at a time takes
    # 256 (512 bytes of the heap).
    table = array("H", [0] * 16)
    for n in range(16):
        c = n << 12
        for _ in range(4):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else c << 1
        table[n] = c
    return table


_CRC = _crc_table()


def crc16(buf, start, end):
    # CRC-16/CCITT-FALSE of buf[start:end].
    c = 0xFFFF
    t = _CRC
    for i in range(start, end):
        c ^= buf[i] << 8
        c = ((c << 4) & 0xFFFF) ^ t[c >> 12]
        c = ((c << 4) & 0xFFFF) ^ t[c >> 12]
    return c


def put32(buf, i, v):
    # A 32-bit number (a ticks_ms time) into buf[i:i + 4], little-endian, as frames carry it.
    buf[i] = v & 255
    buf[i + 1] = (v >> 8) & 255
    buf[i + 2] = (v >> 16) & 255
    buf[i + 3] = (v >> 24) & 255


def get32(buf, i):
    # The number put32 wrote at buf[i].
    return buf[i] | buf[i + 1] << 8 | buf[i + 2] << 16 | buf[i + 3] << 24


class Link:
    def __init__(self, uart, on_frame, fits=None):
        self.uart = uart  # busio.UART (timeout=0), or a stand-in with write and readinto
        self.on_frame = on_frame  # on_frame(kind, payload buffer, n)
        self.fits = fits  # fits(kind, payload, n): False for a payload the protocol would not send (None: all fit)
        self.session = 0  # the session's number (0: none yet, only hellos)
        self.stale = 0  # whole frames of another session, not taken
        self.bad = 0  # frames (or bytes that were not frames) thrown away
        self.good = 0  # whole frames received (a change: the other side is there)
        self.resent = 0  # reliable frames sent again
        self._rx = bytearray(64)  # the UART's bytes, as read
        self._at = 0  # rx[_at:_n]: read, not yet looked at (after a frame delivered)
        self._n = 0
        self._frame = bytearray(_FRAME)  # the frame being received
        self._got = 0  # its bytes so far
        # Until the first whole frame, a frame's worth of bytes thrown away
        # is a frame's tail (the UART opened mid-frame; a 0xA5 in it is no
        # frame's start), not noise, and is skipped uncounted.
        self._tail = _FRAME
        self._payload = bytearray(MAX_PAYLOAD)  # a received frame's payload, for on_frame
        self._tx = bytearray(_FRAME)  # a frame being written
        self._views = [
            memoryview(self._tx)[: FRAME_HEAD + 2 + n] for n in range(MAX_PAYLOAD + 1)
        ]  # (a slice a pass would allocate)
        # The reliable frames on their way: WINDOW slots of kind, n, payload.
        self._out = bytearray(WINDOW * (MAX_PAYLOAD + 2))
        self._out_seq = 0  # the sequence number of the oldest unacknowledged frame
        self._out_n = 0  # frames in the window
        self._sent_at = 0  # when the oldest was last sent
        self._since = 0  # when the window last began to fill, or an acknowledgement last came
        self._wait = _RESEND_MS  # how long after that it is sent again
        self._in_seq = 255  # the last sequence number received in order
        self._ack_due = False  # something arrived that the other side should hear of
        self.delivered = False  # a reliable frame went on in this poll (the rest is read at the next)

    def waiting(self):
        # Reliable frames not yet acknowledged.
        return self._out_n

    def room(self):
        # Reliable frames send() takes now.
        return WINDOW - self._out_n

    def unheard(self, now):
        # How long reliable frames have been on their way without an
        # acknowledgement (0: none on its way): the other side is not
        # hearing us, if this grows long, whatever we hear of it.
        return ticks_diff(now, self._since) if self._out_n else 0

    def next_seq(self):
        # The number the next reliable frame sent will carry: every one
        # before it is written already.
        return (self._out_seq + self._out_n) & 255

    def has_before(self, seq):
        # Every reliable frame the other side numbered before seq has been
        # delivered here (none is lost on its way, or waiting for a resend).
        return (self._in_seq + 1) & 255 == seq

    def reset(self, session):
        # The other side started again (a new device, or a restart): a new
        # session, both counting frames from the first again, and nothing on
        # its way is sent.
        self.session = session
        self._out_seq = 0
        self._out_n = 0
        self._in_seq = 255
        self._ack_due = False
        self._wait = _RESEND_MS

    def send(self, kind, payload, n, now, twice=False):
        """Queue a reliable frame (kind < UNRELIABLE) of payload[0:n], or send
        an unreliable one at once. False when the window is full (the caller
        tries again at a later pass). twice: written twice at once, for a
        frame that must not wait for a resend (a press racing the other
        player's: the other side keeps the first copy that arrives)."""
        if kind >= UNRELIABLE:
            self._write(kind, 0, payload, 0, n)
            return True
        if self._out_n >= WINDOW:
            return False
        slot = ((self._out_seq + self._out_n) % WINDOW) * (MAX_PAYLOAD + 2)
        out = self._out
        out[slot] = kind
        out[slot + 1] = n
        for i in range(n):
            out[slot + 2 + i] = payload[i]
        seq = (self._out_seq + self._out_n) & 255
        self._out_n += 1
        if self._out_n == 1:
            self._sent_at = now
            self._since = now
        self._write(kind, seq, out, slot + 2, n)
        if twice:
            self.uart.write(self._views[n])  # (the same bytes: its CRC once)
        return True

    def _write(self, kind, seq, src, start, n):
        f = self._tx
        f[0] = FRAME_MAGIC0
        f[1] = FRAME_MAGIC1
        f[FRAME_KIND] = kind
        f[FRAME_SEQ] = seq
        f[FRAME_ACK] = self._in_seq
        f[FRAME_SIZE] = n
        f[FRAME_SESSION] = 0 if kind == HELLO else self.session
        for i in range(n):
            f[FRAME_HEAD + i] = src[start + i]
        c = crc16(f, FRAME_KIND, FRAME_HEAD + n)
        f[FRAME_HEAD + n] = c >> 8
        f[FRAME_HEAD + 1 + n] = c & 255
        self._ack_due = False
        self.uart.write(self._views[n])

    def poll(self, now):
        """Read what the UART has, deliver whole frames, acknowledge, and send
        the oldest unacknowledged frame again when it is due."""
        # A frame in order delivered (an event to draw, say) ends the
        # reading: the rest, what was read after it included, waits for the
        # next pass. Reading on would take the second copy of a frame
        # written twice (16 bytes: 2 ms on a Pico) before the first is drawn.
        self.delivered = False
        if self._at < self._n:
            self._bytes(self._at, self._n, now)
        rx = self._rx
        uart = self.uart
        while not self.delivered:
            n = uart.readinto(rx)
            if not n:
                break
            self._bytes(0, n, now)
        if self._out_n and ticks_diff(now, self._sent_at) >= self._wait:
            self._resend(now)
        if self._ack_due:
            self._write(ACK, 0, self._tx, 0, 0)

    def _resend(self, now):
        self._sent_at = now
        self._wait = min(2 * self._wait, _RESEND_MAX_MS)  # (no word since the last: it may be busy)
        for k in range(self._out_n):
            seq = (self._out_seq + k) & 255
            slot = (seq % WINDOW) * (MAX_PAYLOAD + 2)
            self._write(self._out[slot], seq, self._out, slot + 2, self._out[slot + 1])
            self.resent += 1

    def _bytes(self, start, n, now):
        # The bytes read, rx[start:n]: a whole frame at a frame's start is
        # looked at where it lies; the rest go a byte at a time into the
        # frame being received, looked at once its header and payload are
        # in. One delivered in order stops it: the rest is kept for the
        # next poll. (No call a byte: a call is 36 us on a Pico, and a
        # byte through the byte loop about 80 us.)
        rx = self._rx
        f = self._frame
        got = self._got
        tail = self._tail
        self._at = self._n = 0
        i = start
        while i < n:
            b = rx[i]
            if got == 0 and b == FRAME_MAGIC0 and i + FRAME_HEAD + 2 <= n and rx[i + 1] == FRAME_MAGIC1:
                size = rx[i + FRAME_SIZE]
                end = i + FRAME_HEAD + 2 + size
                if (
                    size <= MAX_PAYLOAD
                    and end <= n
                    and crc16(rx, i + FRAME_KIND, end - 2) == (rx[end - 2] << 8 | rx[end - 1])
                ):
                    p = self._payload
                    for k in range(size):
                        p[k] = rx[i + FRAME_HEAD + k]
                    self._frame_in(
                        rx[i + FRAME_KIND], rx[i + FRAME_SEQ], rx[i + FRAME_ACK], size, rx[i + FRAME_SESSION], now
                    )
                    tail = 0
                    i = end
                    if self.delivered:
                        self._at = i
                        self._n = n
                        break
                    continue
            i += 1
            if got >= 2:
                f[got] = b
                got += 1
                if got >= FRAME_SIZE + 1 and (got >= FRAME_HEAD + 2 + f[FRAME_SIZE] or f[FRAME_SIZE] > MAX_PAYLOAD):
                    self._got = got
                    self._tail = tail
                    self._parse(now)
                    got = self._got
                    tail = self._tail
                    if self.delivered:
                        self._at = i
                        self._n = n
                        break
            elif got == 0:
                if b == FRAME_MAGIC0:
                    f[0] = b
                    got = 1
                elif tail:
                    tail -= 1
                else:
                    self.bad += 1
            elif b == FRAME_MAGIC1:
                f[1] = b
                got = 2
            elif b != FRAME_MAGIC0:
                got = 0
                if tail:
                    tail -= 1
                else:
                    self.bad += 1
        self._got = got
        self._tail = tail

    def _parse(self, now):
        # The frame in _frame[:_got], once whole, delivered; a frame that is
        # not one (too long, a bad CRC: a byte lost or changed) is slipped
        # past its first byte, and what was read after that is looked at
        # again: the next frame's start may be in it (a frame one byte short
        # took the next frame's first bytes to make up its length).
        f = self._frame
        while self._got >= FRAME_SIZE + 1:
            got = self._got
            n = f[FRAME_SIZE]
            if n > MAX_PAYLOAD:
                self._slip()
                continue
            size = FRAME_HEAD + 2 + n
            if got < size:
                return
            if crc16(f, FRAME_KIND, FRAME_HEAD + n) != (f[FRAME_HEAD + n] << 8 | f[FRAME_HEAD + 1 + n]):
                self._slip()
                continue
            kind = f[FRAME_KIND]
            seq = f[FRAME_SEQ]
            ack = f[FRAME_ACK]
            session = f[FRAME_SESSION]
            p = self._payload
            for i in range(n):
                p[i] = f[FRAME_HEAD + i]
            for i in range(size, got):  # (bytes read past it, after a slip: the next frame's)
                f[i - size] = f[i]
            self._got = got - size
            self._frame_in(kind, seq, ack, n, session, now)

    def _slip(self):
        # Not a frame: from the next 0xA5 0x5A (or a last 0xA5) in what was read.
        f = self._frame
        got = self._got
        k = 1
        while k < got and not (f[k] == FRAME_MAGIC0 and (k + 1 == got or f[k + 1] == FRAME_MAGIC1)):
            k += 1
        if self._tail:
            self._tail = self._tail - k if self._tail > k else 0
        else:
            self.bad += 1
        for i in range(k, got):
            f[i - k] = f[i]
        self._got = got - k

    def _frame_in(self, kind, seq, ack, n, session, now):
        self._tail = 0
        if session != self.session and not (session == 0 and kind == HELLO):
            self.stale += 1  # (of another session: neither it nor its acknowledgement is ours)
            return
        if kind != ACK and self.fits is not None and not self.fits(kind, self._payload, n):
            self.bad += 1  # (a payload the protocol never sends: a buggy or hostile sender's)
            return
        self.good += 1
        if session == self.session:  # (a hello's, from before the session, acknowledges nothing)
            self._acked(ack, now)
        if kind >= UNRELIABLE:
            if kind != ACK:
                self.on_frame(kind, self._payload, n)
            return
        self._ack_due = True
        if seq != (self._in_seq + 1) & 255:
            return  # a frame again (already delivered), or after a lost one: the resend brings it in order
        self._in_seq = seq
        self.delivered = True
        self.on_frame(kind, self._payload, n)

    def _acked(self, ack, now):
        # The other side has everything up to sequence number ack.
        done = (ack - self._out_seq + 1) & 255
        if 0 < done <= self._out_n:
            self._out_seq = (self._out_seq + done) & 255
            self._out_n -= done
            self._sent_at = now
            self._since = now
            self._wait = _RESEND_MS
