# The follower's side of linked play (hardware/linked.py): loaded on the
# device that does not referee, as hardware/order.py is on the one that does.
#
# Its player's presses go to the referee, in order, each stamped with its
# keypad's time and with what it was made on (the snapshots taken up, the
# events applied); a tick says how far they have gone. The referee's events
# come back numbered and are applied; the referee's hash after each is looked
# at a pass later, and a position that differs is asked for as a snapshot.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .link import get32, put32
from .modes import AWAITING, EV_PAUSE, MATCH, PLAYING
from .protocol import (
    ASK,
    ASK_SIZE,
    ASK_TAKEN,
    ASK_WHY,
    EVENT,
    EVENT_ACTION,
    EVENT_NUMBER,
    EVENT_PLAYER,
    EVENT_TIME,
    HASH,
    HASH_NUMBER,
    HASH_VALUE,
    MORE,
    PING,
    PONG,
    PONG_SIZE,
    PRESS,
    PRESS_ACTION,
    PRESS_SEEN,
    PRESS_SIZE,
    PRESS_TAKEN,
    PRESS_TIME,
    SNAP,
    SNAP_COUNT,
    SNAP_SEAT,
    TICK,
    TICK_NEXT,
    TICK_SIZE,
    TICK_TIME,
    WANT,
)
from .ticks import ticks_diff

TICK_MS = 10  # between ticks (a frame of 14 bytes: a tenth of the line, a little of the referee's time)
_PENDING = const(32)  # presses waiting for room in the link's window (LOST_MS of a quick player's)


class Follower:
    def __init__(self, linked, now):
        self.linked = linked  # the session: its link, its app, its counts
        self.check = -1  # the referee's hash after the last event, looked at a pass later (-1: none)
        self.ask_due = -1  # a snapshot to ask for (why) when the window has room (-1: none)
        self.due = False  # the referee asked for a tick (WANT)
        self._tick_at = now  # when it last said how far its presses have gone
        self._pending = bytearray(_PENDING * PRESS_SIZE)  # presses waiting for room, as their frames
        self.pending_n = 0
        self._buf = bytearray(16)

    def step(self, now, last):
        # A pass with the link up: presses waiting, a snapshot to ask for,
        # and outside a match a tick (every key event stamped up to the last
        # pass's start was read in it: in a match keys_read sends it sooner).
        if self.pending_n:
            self.flush()
        if self.ask_due >= 0:
            self.ask(self.ask_due, now)
        if self.linked.app.mode != MATCH and (self.due or ticks_diff(now, self._tick_at) >= TICK_MS):
            self.tick(now, last)

    def keys_read(self, now):
        if self.due or ticks_diff(now, self._tick_at) >= TICK_MS:
            self.tick(now, now)

    def tick(self, now, upto):
        # How far our presses have gone (upto), and the number of our next
        # reliable frame: no press before it is still to come. (Not while a
        # press waits for room: it is not sent yet.)
        if self.pending_n:
            return
        self._tick_at = now
        self.due = False
        buf = self._buf
        put32(buf, TICK_TIME, upto)
        buf[TICK_NEXT] = self.linked.link.next_seq()
        self.linked.link.send(TICK, buf, TICK_SIZE, now)

    def drop(self):
        # The presses waiting, let go (the session starts again, or ends): how many.
        n = self.pending_n
        self.pending_n = 0
        return n

    def press(self, action, t):
        # A press (or the pause chord) for the referee, with what it was made
        # on, written twice at once (a lost copy costs no resend's wait); with
        # no room in the window it waits, in order, for the next passes.
        n = self.pending_n
        linked = self.linked
        if n >= _PENDING:
            linked.refused += 1
            return
        q = self._pending
        i = n * PRESS_SIZE
        q[i + PRESS_ACTION] = action
        put32(q, i + PRESS_TIME, t)
        q[i + PRESS_TAKEN] = linked.snapshots & 255
        q[i + PRESS_SEEN] = linked.count & 255
        q[i + PRESS_SEEN + 1] = linked.count >> 8
        self.pending_n = n + 1
        self.flush()

    def flush(self):
        q = self._pending
        buf = self._buf
        link = self.linked.link
        sent = 0
        while sent < self.pending_n:
            at = sent * PRESS_SIZE
            for k in range(PRESS_SIZE):
                buf[k] = q[at + k]
            if not link.send(PRESS, buf, PRESS_SIZE, self.linked.now, True):
                break
            sent += 1
        if sent:
            at = sent * PRESS_SIZE
            for i in range((self.pending_n - sent) * PRESS_SIZE):
                q[i] = q[at + i]
            self.pending_n -= sent

    def frame(self, kind, p, n, now):
        # The referee's frames this phase takes (hardware/linked.py's table).
        linked = self.linked
        if kind == PING:
            buf = self._buf
            for i in range(4):
                buf[i] = p[i]
            put32(buf, 4, now)  # t2
            put32(buf, 8, linked.ticks_ms())  # t3
            linked.link.send(PONG, buf, PONG_SIZE, now)
        elif kind == EVENT:
            if not self.checked(now):
                return
            count = p[EVENT_NUMBER] | p[EVENT_NUMBER + 1] << 8
            if count != (linked.count + 1) & 0xFFFF:
                self.diverged(now)  # (the link delivers each once, in order: this cannot be)
                return
            linked.count = count
            action = p[EVENT_ACTION]
            if action >= EV_PAUSE:
                linked.asked = False
            linked.apply(p[EVENT_PLAYER], action, get32(p, EVENT_TIME), now)
        elif kind == HASH:
            # Looked at in the next pass (this one draws the event first).
            if (p[HASH_NUMBER] | p[HASH_NUMBER + 1] << 8) == linked.count:
                self.check = p[HASH_VALUE] | p[HASH_VALUE + 1] << 8 | p[HASH_VALUE + 2] << 16
        elif kind == WANT:
            self.due = True  # (a press of the referee's player waits for our tick)
        elif kind == SNAP:
            linked.seat = p[SNAP_SEAT]
            linked.count = p[SNAP_COUNT] | p[SNAP_COUNT + 1] << 8
            if linked.snapshot_part().first(p, n):
                self.taken(now)
        elif kind == MORE:
            if linked.snap is not None and linked.snap.more(p, n):
                self.taken(now)

    def taken(self, now):
        # The referee's whole line: the match goes on from it.
        linked = self.linked
        snap = linked.snap
        try:
            game = snap.game()
        except (ValueError, IndexError, KeyError, TypeError):  # (no position: a buggy or hostile sender's)
            linked.snapshots = snap.number  # (ours to ask again for: the next is not "on its way")
            linked.drop_snapshot()
            self.diverged(now)
            return
        linked.to(PLAYING, now)
        linked.asked = False
        self.ask_due = -1
        self.check = -1  # (the position is the referee's)
        linked.snapshots = snap.number  # (the referee's count: a restarted follower's too)
        linked.drop_hello()
        snap.take_up(game, snap.how, now)
        linked.drop_snapshot()

    def checked(self, now):
        # The position after the last event against the referee's hash (in
        # the pass after the event's, once it is drawn: the hash is 2 ms on a
        # Pico). False: they differ, and a snapshot is asked for.
        h = self.check
        if h < 0:
            return True
        self.check = -1
        linked = self.linked
        if linked.hash_of(linked.app.game) == h:
            return True
        self.diverged(now)
        return False

    def diverged(self, now):
        # Our position is not the referee's: its snapshot, and no event until it comes.
        self.linked.divergences += 1
        self.linked.to(AWAITING, now)
        self.ask(1, now)

    def ask(self, why, now):
        # The referee's position, please (why: 1 the positions differ, 0 the
        # link came back), with how many we have taken up: one sent since
        # need not be sent again. With no room in the window: at a later pass.
        buf = self._buf
        buf[ASK_WHY] = why
        buf[ASK_TAKEN] = self.linked.snapshots & 255
        self.ask_due = -1 if self.linked.link.send(ASK, buf, ASK_SIZE, now) else why
