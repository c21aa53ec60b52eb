# The referee's side of linked play (hardware/linked.py): the order of both
# players' presses. Loaded when this device becomes the referee (it deals,
# or its follower when the referee restarted mid-match); a follower's match
# keeps neither this nor its parts: the queue (hardware/referee.py) and the
# other device's clock (hardware/clock_sync.py).
#
# Both players' presses come to the queue stamped with their keypads' times
# (the follower's converted to ours by the clock sync, from pings); each is
# let go once nothing earlier can still come, applied here and sent to the
# follower as an event, numbered, with the position's hash after it (the
# follower asks for a snapshot when its own differs). A press of the
# follower's made on a position we have since replaced by a snapshot is
# stale, and refused. A snapshot is sent for a start, the link back, a
# device restarted, or when asked: never while one is on its way, and at
# most once a round trip.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from . import forget
from .clock_sync import ClockSync
from .link import get32, put32
from .modes import EV_FOLLOW, EV_PAUSE, LOST, MATCH, OVER, PLAYING
from .protocol import (
    ASK,
    ASK_SIZE,
    ASK_TAKEN,
    ASK_WHY,
    EVENT,
    EVENT_ACTION,
    EVENT_NUMBER,
    EVENT_PLAYER,
    EVENT_SIZE,
    EVENT_TIME,
    HASH,
    HASH_NUMBER,
    HASH_SIZE,
    HASH_VALUE,
    PING,
    PONG,
    PRESS,
    PRESS_ACTION,
    PRESS_SEEN,
    PRESS_TAKEN,
    PRESS_TIME,
    SNAP_ON,
    SNAP_PAUSED,
    TICK,
    TICK_NEXT,
    TICK_TIME,
    WANT,
)
from .referee import HOLD_MAX_MS, SYNC_MS, Referee
from .ticks import ticks_add, ticks_diff

forget("hardware.protocol")  # (its numbers are ours now)

_PING_MS = const(250)  # between the referee's pings in a match (they keep the link heard, too)
_FAR_MS = const(1500)  # the follower's word of its presses lying further than this from now is not taken up


class Order:
    def __init__(self, linked, now):
        self.linked = linked  # the session: its link, its app, its seat, its counts
        self.sync = ClockSync()  # the follower's clock
        self.queue = Referee()  # the presses waiting for their turn
        self.queue.remote = 1 - linked.seat  # (its presses go once ours are read past them)
        self.stale = 0  # the follower's presses made on a position since replaced, refused
        self._scene = linked.count  # the order's number of the last event that changed the scene
        self._now = now
        self._ping_at = ticks_add(now, -_PING_MS)  # (a ping at once)
        self._upto = now  # the follower's presses are all here up to this time
        self._hash_due = False  # a press applied, its position's hash not yet sent
        self.asked = False  # a tick asked for (WANT), none come since
        self._lost_at = ticks_add(now, -HOLD_MAX_MS)  # a tick last heard while a frame of its was to come
        self._resync_due = False  # a snapshot asked for, sent once the last has had its round trip
        self._snap_at = now  # the time of the last snapshot sent
        self._buf = bytearray(16)
        self._take = self._released  # (bound once: a bound method made each pass would allocate)

    def restart(self, now):
        # The follower started again: its clock is another (pinged anew at once).
        self.sync.restart()
        self._ping_at = ticks_add(now, -_PING_MS)
        self.asked = False

    def step(self, now, read):
        # One pass (after the link was read; read: when this device's keys
        # were last read): the snapshot's next frames, a ping, a resync due,
        # and outside a match the presses due (in a match keys_read lets
        # them go, once this pass's keys are in).
        self._now = now
        linked = self.linked
        if self._hash_due:
            self._send_hash()
        if linked.snap is not None:
            self.pump(now)
        if ticks_diff(now, self._ping_at) >= _PING_MS:
            self._ping_at = now
            put32(self._buf, 0, now)
            linked.link.send(PING, self._buf, 4, now)
        if linked.phase == LOST:
            return
        if self._resync_due and linked.snap is None and ticks_diff(now, self._snap_at) >= self.sync.round_trip():
            self._resync_due = False
            self.resync(now)
        if linked.snap is None and linked.app.mode == OVER:
            self.stale += self.queue.clear()  # (presses after the end: a result is left on each device's own key)
        elif linked.snap is None and linked.app.mode != MATCH:
            self.release(now, read)

    def add(self, action, t):
        # A press (or event) of this device's player at t, into the queue.
        # It goes once the follower's word is past it: a tick is asked for
        # at once (WANT: the follower sends one the next time it has read
        # its keys), not waited for (one comes every TICK_MS), unless the
        # word is past it already or one asked for is on its way. False: the
        # queue is full (counted: dropped()).
        if ticks_diff(self._upto, t) < SYNC_MS and not self.asked:
            self.asked = True
            self.linked.link.send(WANT, self._buf, 0, self._now)  # (unreliable: lost, the next tick does)
        return self.queue.add(self.linked.seat, action, t)

    def release(self, now, read):
        # The presses due, one at a time while the window has room for what
        # each may send (a match's press: its event; a scene's key: its
        # event and the scene's answer); the rest wait in the queue. None
        # while a snapshot is on its way: no event overtakes it.
        self._now = now
        linked = self.linked
        link = linked.link
        queue = self.queue
        # (The follower heard saying a frame of its is still to come: a
        # press of ours waits for it, however long, not HOLD_MAX_MS: that
        # frame may be an earlier press, lost on the way and sent again.)
        held = 0 <= ticks_diff(now, self._lost_at) < HOLD_MAX_MS  # (< 0: days ago)
        while linked.snap is None and link.room() >= (1 if linked.app.mode == MATCH else 2):
            if not queue.release(now, self._take, self._upto, read, 1, held):
                return

    def _released(self, player, action, t):
        # A press (or event) whose hold is over: applied here and sent, with
        # the position's hash after it. An event (the pause, a scene's
        # answer) changes no position: it is sent first (leaving may close
        # the link) and carries no hash. A scene's answer to a press (leave,
        # go on) is the next event, of the player whose key it was.
        # Each goes on the cable before it is applied here (the follower's
        # copy is on its way while this device applies and draws it); the
        # position's hash after a press follows in the next pass, once it is
        # drawn (_send_hash).
        linked = self.linked
        now = self._now
        if action >= EV_PAUSE:
            linked.asked = False
            sent = self._send_event(player, action, t)
            self._scene = linked.count
            linked.apply(player, action, t, now)
        else:
            sent = self._send_event(player, action, t)
            go = linked.apply(player, action, t, now)
            self._hash_due = True
            if go:
                sent = self._send_event(player, EV_FOLLOW + go, t) and sent
                self._scene = linked.count
                linked.apply(player, EV_FOLLOW + go, t, now)
        if not sent:  # (release leaves room: this cannot be, but if it were, nothing is lost without a word)
            linked.refused += 1
            self.resync(now)

    def _send_event(self, player, action, t):
        # False: the window is full.
        linked = self.linked
        linked.count = n = (linked.count + 1) & 0xFFFF
        buf = self._buf
        buf[EVENT_NUMBER] = n & 255
        buf[EVENT_NUMBER + 1] = n >> 8
        buf[EVENT_PLAYER] = player
        buf[EVENT_ACTION] = action
        put32(buf, EVENT_TIME, t)
        return linked.link.send(EVENT, buf, EVENT_SIZE, self._now, True)  # (twice at once: no resend's wait)

    def _send_hash(self):
        # The position's hash after the last press applied, with its number.
        # Unreliable (it takes no place in the window): a lost one skips a
        # look, and the next press's hash looks again.
        self._hash_due = False
        linked = self.linked
        if linked.snap is not None or linked.phase != PLAYING:
            return  # (a snapshot on its way says the position)
        h = linked.hash_of(linked.app.game)
        buf = self._buf
        buf[HASH_NUMBER] = linked.count & 255
        buf[HASH_NUMBER + 1] = linked.count >> 8
        buf[HASH_VALUE] = h & 255
        buf[HASH_VALUE + 1] = (h >> 8) & 255
        buf[HASH_VALUE + 2] = h >> 16
        linked.link.send(HASH, buf, HASH_SIZE, self._now)

    def send_snapshot(self, how, now):
        # Our position, for the follower to take up (SNAP_START: the
        # countdown; SNAP_PAUSED: both in the pause, from ours as it is;
        # SNAP_ON: play on). One on its way is replaced (numbered anew).
        linked = self.linked
        if linked.app.game is None:
            return
        snap = linked.snapshot_part()
        self._snap_at = now
        self._resync_due = False
        self.stale += self.queue.clear()  # (made on the position replaced: never keys of the scene it brings)
        self._scene = linked.count
        linked.snapshots += 1
        snap.send(how, now)
        if how == SNAP_PAUSED and linked.app.mode != OVER:
            snap.take_up(None, how, now)  # (a match over stays on its result: the follower takes it up)
        self.pump(now)

    def sent_since(self, t):
        # A snapshot has been sent since time t.
        return ticks_diff(self._snap_at, t) >= 0

    def resync(self, now):
        # Our position for the follower, in the scene we are in: play on in
        # a match, else the pause (both pause scenes start again).
        self.send_snapshot(SNAP_ON if self.linked.app.mode == MATCH else SNAP_PAUSED, now)

    def pump(self, now):
        # The snapshot's next frames; once all are on their way, its part is let go.
        if self.linked.snap.pump(now):
            self.linked.drop_snapshot()

    # -- the follower's frames --

    def frame(self, kind, p, n, now):
        linked = self.linked
        if kind == PONG:
            self.sync.ping(get32(p, 0), get32(p, 4), get32(p, 8), linked.ticks_ms())
        elif kind == PRESS:
            if linked.playing():
                before = (self._scene - (p[PRESS_SEEN] | p[PRESS_SEEN + 1] << 8)) & 0xFFFF
                if linked.phase == LOST or p[PRESS_TAKEN] != linked.snapshots & 255 or 0 < before < 0x8000:
                    # (made on a position since replaced, before the scene shown
                    # now (a match's key is no key of the pause), or while we
                    # thought the link lost)
                    self.stale += 1
                    return
                t = self.sync.to_ours(get32(p, PRESS_TIME), now)  # (before a ping, after a restart: now)
                self._heard_upto(t, now)  # (its presses come in order: none earlier is still on its way)
                self.queue.add(1 - linked.seat, p[PRESS_ACTION], t)  # (a full queue counts it: dropped())
        elif kind == TICK:
            self.asked = False
            if linked.link.has_before(p[TICK_NEXT]):  # (no press of its is lost on the way)
                self._heard_upto(self.sync.to_ours(get32(p, TICK_TIME), now), now)
            else:
                self._lost_at = now
        elif kind == ASK:
            if linked.phase == PLAYING:
                if n and p[ASK_WHY] == 1:
                    linked.divergences += 1
                if n < ASK_SIZE or p[ASK_TAKEN] == linked.snapshots & 255:  # (else one is on its way)
                    self._resync_due = True  # (sent in a pass, once the last has had its round trip)

    def _heard_upto(self, t, now):
        # The follower's presses up to t (our clock) are all here. (Before a
        # ping says how its clock lies, its times mean nothing here; a word
        # that lies far from now, ahead or behind, is never taken up; one
        # behind the last is, once that is old.)
        if not self.sync.known():
            return
        if -_FAR_MS < ticks_diff(t, now) < 100:
            since = ticks_diff(now, self._upto)
            if ticks_diff(t, self._upto) > 0 or not -100 < since <= _FAR_MS:  # (< -100: days ago)
                self._upto = t
