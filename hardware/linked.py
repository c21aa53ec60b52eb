# Linked play (issue 36): each player on their own handheld, the two joined
# by a cable on a UART, the press that really came first still winning. The
# other device's player is a third kind of player beside the buttons and the
# computer (hardware/sides.py): its presses arrive over the cable.
#
# One device is the referee. Every press of both players goes to it, stamped
# with the time its own keypad saw it (the other device's converted to the
# referee's clock: hardware/clock_sync.py, from pings), and the referee
# releases them in the order of those times (hardware/referee.py), each once
# the other device's ticks say it has sent every press up to a later time: a
# press made earlier on the other device, still on its way, goes first. The
# order is a stream of events, each applied on the referee and sent,
# numbered, to the follower, which applies exactly the same events in the
# same order: both engines stay identical, and neither shows a card the order
# gives to the other player. Everything that changes what a
# press means goes in the stream too: the pause, the countdown's end, leaving.
# Each event carries a hash of the position after it; a follower that finds
# another asks for the referee's position as a line of the notation (a
# snapshot), as it does when the cable comes back or a device restarted.
#
# Finding each other (hardware/hello.py): both devices, in the lobby (linked
# play chosen in the menu), send hellos; the higher nonce referees and deals:
# the match starts from its snapshot (hardware/snapshot.py). What only the
# referee needs (the clock sync, the order's queue) and the parts used now and
# then (the hellos, a snapshot) are loaded when needed: a follower's match
# keeps neither the referee's nor their code.
#
# A silent link (LOST_MS without a frame) pauses the match on both devices;
# noise (bad frames) is counted and told. After start-up nothing here
# allocates per move: frames are read into and written from preallocated
# buffers (hardware/link.py), events are small ints.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from engine.spit import GAME_OVER

from . import forget
from .link import Link
from .modes import (
    EV_FOLLOW,
    EV_LET_GO,
    EV_PAUSE,
    MATCH,
    OVER,
    PAUSED,
    PLAYING,
    SEEKING,
    SNAP_ON,
    SNAP_PAUSED,
    SNAP_START,
)
from .ticks import ticks_add, ticks_diff

try:  # (for the type checker only: the board has no typing module)
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from typing import Any  # noqa: F401  (named in type comments)
except ImportError:
    pass

PING_MS = 250  # between the referee's pings in a match (they keep the link heard, too)
LOST_MS = 1500  # no frame for this long: the link is lost (six pings missed)
NOISE = 3  # bad frames before they are told

# Frame kinds (hardware/link.py: below 0x40 reliable, in order).
_EVENT = const(0x01)  # referee to follower: number (2), player, action, time (4)
_PRESS = const(0x02)  # follower to referee: action, its keypad's time (4)
_SNAP = const(0x03)  # referee to follower: a snapshot's first frame (hardware/snapshot.py)
_MORE = const(0x04)  # the snapshot's next bytes
_ASK = const(0x05)  # follower to referee: why (the positions differ, the cable came back), snapshots taken up
_HELLO = const(0x41)  # hardware/hello.py
_PING = const(0x42)  # t1 (4)
_PONG = const(0x43)  # t1, t2, t3 (4 each)
_TICK = const(0x44)  # follower to referee: its presses are all sent up to this time (4), its next reliable number
_HASH = const(0x45)  # referee to follower: the order's number (2), the position's hash after it (3)
TICK_MS = 10  # between the follower's ticks (a frame of 13 bytes: a tenth of the line, a little of the referee's time)


def state_hash(game, controls):
    # 24 bits of the position (every pile's size and top card, the phase,
    # the round, the points, the generator) and the half-made moves: two
    # devices that diverged differ here at once. Small ints only (each step
    # masked: below 2**29), and the piles' loop without a call a step (a
    # call is 36 us on a Pico, and the hash is on the way to each draw).
    h = game.phase * 7 + game.called
    counts = game.counts
    for j in range(len(counts)):
        h = (((h * 31 + counts[j]) & 0xFFFFFF) * 31 + game.top(j)) & 0xFFFFFF
    rng = game.rng
    h = _mix(_mix(_mix(h, game.round), game.scores[0]), game.scores[1])
    h = _mix(_mix(_mix(_mix(h, rng.s1), rng.s2), rng.s3), game.winner + 1)
    for p in range(2):
        h = (((h * 31 + controls.chosen[p]) & 0xFFFFFF) * 31 + controls.slot[p]) & 0xFFFFFF
    return h


def _mix(h, v):
    return (h * 31 + v) & 0xFFFFFF  # (below 2**29: a small int on the board)


def _put32(buf, i, v):
    buf[i] = v & 255
    buf[i + 1] = (v >> 8) & 255
    buf[i + 2] = (v >> 16) & 255
    buf[i + 3] = (v >> 24) & 255


def _get32(buf, i):
    return buf[i] | buf[i + 1] << 8 | buf[i + 2] << 16 | buf[i + 3] << 24


class Linked:
    def __init__(self, app, uart, ticks_ms, nonce):
        self.app = app  # the App: the match, its scenes, and how they are followed
        self.ticks_ms = ticks_ms
        self.link = Link(uart, self._frame)
        self.sync = None  # type: Any  # the referee's: the other device's clock (hardware/clock_sync.py)
        self.referee = None  # type: Any  # the referee's: the order's queue (hardware/referee.py)
        self.hello = None  # type: Any  # finding each other (hardware/hello.py), while it goes on
        self.snap = None  # type: Any  # a snapshot on its way or coming in (hardware/snapshot.py)
        self.nonce = nonce & 0xFFFF or 1  # drawn at start-up: the higher referees
        self.state = SEEKING
        self.resume = None  # the saved linked match offered, or None: a new one
        self.is_referee = False
        self.seat = 0  # the player this device's buttons play
        self.peer = 0  # the other device's nonce (0: none heard)
        self.problem = ""  # why the two cannot play, for the lobby's words
        self.lost = False  # the link went silent in a match
        self.count = 0  # events in the order so far
        self.divergences = 0  # hashes that differed (each mended by a snapshot)
        self.snapshots = 0  # snapshots taken up (the follower) or sent (the referee), alike while all arrive
        self._now = 0
        self._heard = 0  # link.good when last looked at
        self._heard_at = ticks_ms()
        self._ping_at = self._heard_at
        self._asked = False  # a pause or a scene's "go on" is on its way into the order
        self._wait_snap = False  # the follower drops events until a snapshot comes
        self._check = -1  # the follower: the referee's hash after the last event, looked at a pass later (-1: none)
        self._hash_due = False  # the referee: a press applied, its position's hash not yet sent
        self._snap_at = 0  # the referee's time of its last snapshot: older presses are stale
        self._buf = bytearray(16)  # a frame's payload being written
        self._take = None  # the referee's released(), bound once (a bound method made each pass would allocate)
        self._stepping = False
        self._closing = False
        self._upto = self._heard_at  # the referee: the follower's presses are all here up to this time
        self._tick_at = self._heard_at  # the follower: when it last said how far its presses have gone
        self._last = self._heard_at  # the start of the last pass (its keys were read in it)
        self._greeter(self._heard_at)

    # -- what the App asks --

    def playing(self):
        return self.state == PLAYING

    def noise(self):
        # What the link threw away (bad frames, bytes that were not frames)
        # since the session began, once there are NOISE or more (else 0).
        bad = self.link.bad
        return bad if bad >= NOISE else 0

    def close(self):
        # Back to the menu: the UART is let go (opened again for the next
        # linked match), at once or, in the middle of a pass, at its end.
        self._closing = True
        if not self._stepping:
            self._close()

    def _close(self):
        deinit = getattr(self.link.uart, "deinit", None)
        if deinit is not None:
            deinit()
        self.state = 0
        self._drop_hello()
        self._drop_snap()

    # -- a player of the match (hardware/sides.py: step, next_due, paused) --

    def step(self, game, now):
        # One pass, in every scene: frames in, hellos or pings out, the
        # order's presses released, the silence noticed.
        if self._closing:
            return
        self._stepping = True
        self._pass(now)
        self._stepping = False
        if self._closing:
            self._close()

    def _pass(self, now):
        self._now = now
        if self._check >= 0:  # (the last event's pass has drawn it: now the hash)
            self._checked(now)
        if self._hash_due:
            self._send_hash()
        link = self.link
        link.poll(now)
        if link.good != self._heard:
            self._heard = link.good
            self._heard_at = now
            if self.lost and self.state == PLAYING and self.app.mode != OVER:
                # The cable is back: the referee's position, in the pause,
                # for both (the follower asks, in case the referee never
                # found the link silent). (A match over is left by each
                # device's own key: nothing to take up.)
                self.lost = False
                if self.is_referee:
                    self.send_snapshot(SNAP_PAUSED, now)
                else:
                    self._ask(0, now)
        if self._closing:
            return
        if self.state == SEEKING:
            self.hello.step(now)
            return
        if self.snap is not None and self.is_referee:
            self._pump(now)
        if not self.lost and ticks_diff(now, self._heard_at) >= LOST_MS:
            self.lost = True
            self._wait_snap = not self.is_referee  # what comes after the silence, the snapshot says
            self._lost(now)
            if self._closing:
                return
        if self.is_referee:
            if ticks_diff(now, self._ping_at) >= PING_MS:
                self._ping_at = now
                _put32(self._buf, 0, now)
                link.send(_PING, self._buf, 4, now)
            if self.snap is None and not self.lost and self.app.mode != MATCH:
                # (no event overtakes a snapshot on its way; in a match
                # keys_read lets them go, later in this pass)
                self.referee.release(now, self._take, self._upto, self._last)
        elif not self.lost and self.app.mode != MATCH and ticks_diff(now, self._tick_at) >= TICK_MS:
            # Every key event stamped up to the last pass's start was read in
            # that pass (the buttons are read after the link), so any press
            # of them is sent. (In a match keys_read sends it, a pass sooner.)
            self._tick(now, self._last)
        self._last = now

    def keys_read(self, now):
        # This pass's keys are read (App.step, in a match, after the buttons'
        # poll; now: the moment just before it, later than the pass's start):
        # every press of this device stamped before now is in. The
        # referee lets go what that makes due (a press of the other player
        # waits for this, not a pass more); the follower's tick, when one is
        # due, says now, not the last pass's start.
        if self.state != PLAYING or self.lost:
            return
        if self.is_referee:
            if self.snap is None:
                self.referee.release(now, self._take, self._upto, now)
        elif ticks_diff(now, self._tick_at) >= TICK_MS:
            self._tick(now, now)

    def _tick(self, now, upto):
        # How far this device's presses have gone (upto), and the number of
        # its next reliable frame: no press before it is still to come.
        self._tick_at = now
        buf = self._buf
        _put32(buf, 0, upto)
        buf[4] = self.link.next_seq()
        self.link.send(_TICK, buf, 5, now)

    def next_due(self, game, now):
        # The link is polled every pass: a linked match never sleeps.
        return 0

    def paused(self, ms):
        pass  # (the order's times are the keypads': a pause moves nothing)

    # -- the match: the order applied --

    def apply(self, player, action, t, now):
        # One event of the order, applied alike on both devices: a press (t:
        # its time on the referee's clock), the pause, or what a scene asked
        # for. Returns what the scene shown asks for in answer (the referee
        # puts it in the order).
        app = self.app
        if action >= EV_FOLLOW:
            app.follow(action - EV_FOLLOW, now)
            return 0
        if action == EV_PAUSE:
            if app.mode == MATCH:
                app.paused_by = player
                app.pause(now)
            return 0
        if app.mode == MATCH:
            g = app.game
            c = app.controls
            phase = g.phase
            applied = c.applied
            attempts = c.attempts
            if action >= EV_LET_GO:
                c.let_go(g, player, action - EV_LET_GO, t)
            else:
                c.push(g, app.key_of[player * 16 + action], t)
                c.apply(g)
            if c.attempts != attempts:
                app.sound_for(g, phase, c.applied != applied, now)
            if g.phase == GAME_OVER:
                app.game_over(now)
            return 0
        if app.scene is None or action >= EV_LET_GO:
            return 0  # (a key let go means nothing to a scene)
        app.controls.now = now
        return app.scene.press(player, action)

    def hash_of(self, game):
        # The hash of game with this device's half-made moves (a hello's saved match).
        return state_hash(game, self.app.controls)

    def _lost(self, now):
        # The cable went silent: the match stands still, saying why. A match
        # over stays on its result until this device's player leaves it (the
        # other device may have left already).
        app = self.app
        if app.mode == MATCH or app.mode == PAUSED:
            app.pause(now, "cable silent")

    # -- the session: what hardware/hello.py decides --

    def deal(self, now):
        # This device referees the match starting: a new one dealt here (or
        # the saved one), the countdown on both.
        self.seat = 0
        self._be_referee()
        self.state = PLAYING
        self._heard_at = now
        self._ping_at = ticks_add(now, -PING_MS)
        self._drop_hello()
        self._snapshot().deal(self.resume, now)
        self.send_snapshot(SNAP_START, now)

    def rejoined(self, now):
        # The referee restarted mid-match and joins it again: this device,
        # its follower, referees it now, from our position, in the pause
        # (the events the referee applied and we never took are gone with it).
        self._be_referee()
        self.lost = False
        self._wait_snap = False
        self._check = -1
        self._heard_at = now
        self._ping_at = ticks_add(now, -PING_MS)  # (a ping at once: the new device's clock is another)
        self.send_snapshot(SNAP_PAUSED, now)

    def restart_link(self):
        # Another device, or the same restarted: frames start again from the
        # first, and a snapshot on its way or coming in is gone. The referee
        # of a match the cable has already brought back sends its position
        # again, numbered anew (the restarted device's acknowledgement of our
        # resends can come a poll before its hello: the position that went
        # then carried the old numbers, which the new device cannot take).
        self.link.reset()
        self._drop_snap()
        if self.sync is not None:
            self.sync.restart()  # (a restarted device's clock starts again: pinged anew)
            self._ping_at = ticks_add(self._now, -PING_MS)
        if self.state == PLAYING and self.is_referee and not self.lost:
            self.send_snapshot(SNAP_PAUSED, self._now)

    def _be_referee(self):
        self.is_referee = True
        if self.referee is None:
            from .clock_sync import ClockSync
            from .referee import Referee

            self.sync = ClockSync()
            self.referee = Referee()
            self._take = self._released
        self.referee.remote = 1 - self.seat  # (the other device's player: its presses go once ours are read past them)

    def _greeter(self, now):
        if self.hello is None:
            from .hello import Hello

            self.hello = Hello(self, now)
        return self.hello

    def _drop_hello(self):
        if self.hello is not None:
            self.hello = None
            forget("hardware.hello")

    def _snapshot(self):
        if self.snap is None:
            from .snapshot import Snapshot

            self.snap = Snapshot(self)
        return self.snap

    def _drop_snap(self):
        if self.snap is not None:
            self.snap = None
            forget("hardware.snapshot")

    # -- presses: this device's buttons (Controls.relay) --

    def press(self, player, action, t):
        # A press of this device's buttons (its keymap's player 0), stamped
        # by its keypad: into the order as this device's seat.
        if player or self.state != PLAYING:
            return  # (a linked handheld plays one player's buttons; the lobby reads its keys itself)
        if self.app.mode == OVER:
            # Game over: each device leaves it on its own player's key, not
            # the other's (who may still be reading it): no order needed.
            self.app.controls.now = t
            self.app.press(self.seat, action)
            return
        if self.lost or self._wait_snap:
            # No order without the other device: the pause's keys work here
            # alone (leaving for the menu, say).
            if self.app.mode != MATCH:
                self.app.press(self.seat, action)
            return
        if self.is_referee:
            self.referee.add(self.seat, action, t)
            return
        buf = self._buf
        buf[0] = action
        _put32(buf, 1, t)
        self.link.send(_PRESS, buf, 5, self._now, True)  # (twice at once: a lost copy costs no resend's wait)

    def let_go(self, player, action, t):
        # A pile key of this device's buttons let go, in a match: into the
        # order after its press, so that a press of it with nothing chosen is
        # refused on both devices alike (Controls.let_go).
        if self.app.mode == MATCH and not self.lost and not self._wait_snap:
            self.press(player, EV_LET_GO + action, t)

    def ask(self, action, now):
        # An event this device's scene asks for (the pause chord, the
        # countdown's end), once until it is in the order.
        if self._asked or self.state != PLAYING or self.lost:
            return
        self._asked = True
        if self.is_referee:
            self.referee.add(self.seat, action, now)
        elif action == EV_PAUSE:  # (a follower's scenes end when the referee's do)
            buf = self._buf
            buf[0] = action
            _put32(buf, 1, now)
            self.link.send(_PRESS, buf, 5, now)
        else:
            self._asked = False

    # -- the order (the referee) --

    def _released(self, player, action, t):
        # A press (or event) whose hold is over: applied here and sent, with
        # the position's hash after it. An event (the pause, a scene's
        # answer) changes no position: it is sent first (leaving may close
        # the link) and carries no hash.
        # Each goes on the cable before it is applied here (the follower's
        # copy is on its way while this device applies and draws it); the
        # position's hash after a press follows in the next pass, once it is
        # drawn (_send_hash).
        if action >= EV_PAUSE:
            self._asked = False
            sent = self._send_event(player, action, t)
            self.apply(player, action, t, self._now)
        else:
            sent = self._send_event(player, action, t)
            go = self.apply(player, action, t, self._now)
            self._hash_due = True
            if go:  # a scene's answer to it (leave, go on): the next event
                sent = sent and self._send_event(self.seat, EV_FOLLOW + go, t)
                self.apply(self.seat, EV_FOLLOW + go, t, self._now)
        if not sent:
            self._resync(self._now)  # (the window full: the position, with it applied, says it all)

    def _send_event(self, player, action, t):
        # False: the window is full (the caller sends the position instead).
        self.count = n = (self.count + 1) & 0xFFFF
        buf = self._buf
        buf[0] = n & 255
        buf[1] = n >> 8
        buf[2] = player
        buf[3] = action
        _put32(buf, 4, t)
        return self.link.send(_EVENT, buf, 8, self._now, True)  # (twice at once: a lost copy costs no resend's wait)

    def _send_hash(self):
        # The position's hash after the last press applied, with its number.
        # Unreliable (it takes no place in the window): a lost one skips a
        # look, and the next press's hash looks again.
        self._hash_due = False
        if self.snap is not None or self.lost:
            return  # (a snapshot on its way says the position)
        h = state_hash(self.app.game, self.app.controls)
        buf = self._buf
        buf[0] = self.count & 255
        buf[1] = self.count >> 8
        buf[2] = h & 255
        buf[3] = (h >> 8) & 255
        buf[4] = h >> 16
        self.link.send(_HASH, buf, 5, self._now)

    def send_snapshot(self, how, now):
        # The referee's position, for the follower to take up (SNAP_START:
        # the countdown; SNAP_PAUSED: both in the pause, from ours as it is;
        # SNAP_ON: play on).
        if self.app.game is None:
            return
        snap = self._snapshot()
        self._snap_at = now
        self.snapshots += 1
        snap.send(how, now)
        if how == SNAP_PAUSED:
            snap.take_up(None, how, now)
        self._pump(now)

    def _resync(self, now):
        # Our position for the follower, in the scene we are in: play on in
        # a match, else the pause (both pause scenes start again).
        self.send_snapshot(SNAP_ON if self.app.mode == MATCH else SNAP_PAUSED, now)

    def _pump(self, now):
        # The snapshot's next frames; once all are on their way, its part is let go.
        if self.snap.pump(now):
            self._drop_snap()

    # -- frames in --

    def _frame(self, kind, p, n):
        now = self._now
        if kind == _PING:
            if self.state == PLAYING and not self.is_referee:
                t2 = now
                buf = self._buf
                for i in range(4):
                    buf[i] = p[i]
                _put32(buf, 4, t2)
                _put32(buf, 8, self.ticks_ms())
                self.link.send(_PONG, buf, 12, now)
        elif kind == _PONG:
            if self.is_referee:
                self.sync.ping(_get32(p, 0), _get32(p, 4), _get32(p, 8), self.ticks_ms())
        elif kind == _EVENT:
            if self.is_referee or self._wait_snap or self.state != PLAYING or not self._checked(now):
                return
            count = p[0] | p[1] << 8
            if count != (self.count + 1) & 0xFFFF:
                self._diverged(now)  # (the link delivers each once, in order: this cannot be)
                return
            self.count = count
            player = p[2]
            action = p[3]
            if action >= EV_PAUSE:
                self._asked = False
                self.apply(player, action, _get32(p, 4), now)
                return
            self.apply(player, action, _get32(p, 4), now)  # (its scene's answer waits for the referee's)
        elif kind == _HASH:
            # The referee's position after its event of this number: looked
            # at in the next pass (this one draws the event first).
            if (
                not self.is_referee
                and not self._wait_snap
                and self.state == PLAYING
                and (p[0] | p[1] << 8) == self.count
            ):
                self._check = p[2] | p[3] << 8 | p[4] << 16
        elif kind == _PRESS:
            if self.is_referee and self.state == PLAYING and not self.lost:
                t = self.sync.to_ours(_get32(p, 1), now)  # (before a ping, after a restart: now)
                self._heard_upto(t)  # (its presses come in order: none earlier is still on its way)
                if ticks_diff(t, self._snap_at) >= 0:  # (a press from before the last snapshot is stale)
                    self.referee.add(1 - self.seat, p[0], t)
        elif kind == _TICK:
            if self.is_referee and self.link.has_before(p[4]):  # (no press of its is lost on the way)
                self._heard_upto(self.sync.to_ours(_get32(p, 0), now))
            if self.hello is not None and self.state == PLAYING:
                self._drop_hello()  # (a restarted follower ticks once it has our position: it is back)
        elif kind == _SNAP:
            if self.is_referee:
                return
            self.seat = p[1]
            self.count = p[2] | p[3] << 8
            if self._snapshot().first(p, n):
                self._taken(now)
        elif kind == _MORE:
            if not self.is_referee and self.snap is not None and self.snap.more(p, 0, n):
                self._taken(now)
        elif kind == _ASK:
            if self.is_referee and self.state == PLAYING and not self.lost:
                if n and p[0] == 1:
                    self.divergences += 1
                if n < 2 or p[1] == self.snapshots & 255:  # (else one is on its way: sent after its silence)
                    self._resync(now)
        elif kind == _HELLO:
            if self.app.mode == OVER:
                return  # (a match over takes nobody back: its own player's key leaves it)
            hello = self._greeter(now)
            hello.heard(p, n, now)
            if self.state == PLAYING and not hello.rejoin:
                self._drop_hello()  # (in a match, only while the other device is coming back)

    def _heard_upto(self, t):
        # The follower's presses up to t (our clock) are all here. (Before a
        # ping says how its clock lies, its times mean nothing here; a word
        # that lies far from now, ahead or behind, is not taken up.)
        if not self.sync.known():
            return
        ahead = ticks_diff(t, self._now)
        if ticks_diff(t, self._upto) > 0 and -LOST_MS < ahead < 100 or ticks_diff(self._now, self._upto) > LOST_MS:
            self._upto = t

    def _taken(self, now):
        # The follower has the referee's whole line: the match goes on from it.
        snap = self.snap
        line = snap.line()
        self.state = PLAYING
        self.lost = False
        self._wait_snap = False
        self._asked = False
        self._check = -1  # (the position is the referee's)
        self.snapshots = snap.number  # (the referee's count: a restarted follower's too)
        self._drop_hello()
        snap.take_up(line, snap.how, now)
        self._drop_snap()

    def _checked(self, now):
        # The position after the last event against the referee's hash (the
        # follower looks in the pass after the event's, once it is drawn: the
        # hash is 2 ms on a Pico). False: they differ, and a snapshot is asked for.
        h = self._check
        if h < 0:
            return True
        self._check = -1
        if state_hash(self.app.game, self.app.controls) == h:
            return True
        self._diverged(now)
        return False

    def _diverged(self, now):
        # The follower's position is not the referee's: ask for its snapshot
        # and take no event until it comes.
        self.divergences += 1
        self._wait_snap = True
        self._ask(1, now)

    def _ask(self, why, now):
        # The referee's position, please (why: 1 the positions differ, 0 the
        # cable came back), with how many we have taken up: one sent since
        # need not be sent again.
        self._buf[0] = why
        self._buf[1] = self.snapshots & 255
        self.link.send(_ASK, self._buf, 2, now)
