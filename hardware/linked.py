# Linked play: each player on their own handheld, the two joined by a cable
# (a UART) or by radio, the press that really came first still winning. The
# other device's player is a third kind of side beside the buttons and the
# computer (hardware/sides.py). How it works, and its figures: docs/linked.md.
#
# A session is one state machine: its phase (hardware/modes.py: SEEKING ..
# LEAVING) changes only in to(), and TAKES says which frames each phase
# reads; the rest are ignored and counted. One device referees: every press
# of both players goes to its order (hardware/order.py), which applies each
# and sends it, numbered, to the follower (hardware/follower.py), which applies
# the same events: both engines stay identical. Finding each other is
# hardware/hello.py; a position sent whole, hardware/snapshot.py; each part is
# loaded only where and while it is needed. After start-up nothing here
# allocates per move: frames are read into and written from buffers made once.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from . import forget
from .link import Link
from .modes import (
    AWAITING,
    CLOSED,
    ELSEWHERE,
    EV_FOLLOW,
    EV_LET_GO,
    EV_PAUSE,
    GONE,
    LEAVE,
    LEAVING,
    LOST,
    MATCH,
    OTHER_GAME,
    OTHER_LEFT,
    OVER,
    PAUSED,
    PLAYING,
    SEEKING,
)
from .protocol import ALIVE, BYE, HELLO, SNAP_PAUSED, TICK, UNRELIABLE, fits, state_hash
from .ticks import ticks_aged, ticks_diff

try:  # (for the type checker only: the board has no typing module)
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from typing import Any  # noqa: F401  (named in type comments)
except ImportError:
    pass

LOST_MS = 1500  # no frame heard, or none acknowledged, for this long: the link is lost
_ALIVE_MS = const(250)  # nothing reliable on its way this long: an ALIVE asks for an acknowledgement
LEAVE_MS = 2000  # a device whose player left keeps the link open this long at most once heard, for BYE to arrive
_NOISE = const(3)  # bad frames before they are told


# Which frames each phase takes up, by the phase's number: a bit a kind
# (reliable kinds 1..7 at bits 1..7, the others 0x41..0x46 at bits 9..14),
# within what the device's role reads; the rest are ignored and counted.
_REFEREE_READS = const(0x1AE4)  # PRESS ASK BYE ALIVE HELLO PONG TICK
_FOLLOWER_READS = const(0x66DA)  # EVENT SNAP MORE BYE ALIVE HELLO PING HASH WANT
TAKES = (
    0,  # CLOSED: nothing
    0x02D8,  # SEEKING: SNAP MORE BYE ALIVE HELLO (the match's first position; a leave: its offer gone)
    0x7EFE,  # PLAYING: every kind
    0x5EDC,  # LOST: PRESS (counted stale) SNAP MORE BYE ALIVE HELLO PING PONG TICK WANT: no event
    0x46D8,  # AWAITING: SNAP MORE BYE ALIVE HELLO PING WANT: no event until the position comes
    0x1EC0,  # ELSEWHERE: BYE ALIVE HELLO PING PONG TICK: the other's lobby says it joins, or leaves
    0,  # GONE: the link only acknowledges, until this player leaves too
    0,  # LEAVING: only the acknowledgement of our BYE matters
)


class Linked:
    def __init__(self, app, uart, ticks_ms, nonce):
        self.app = app  # the App: the match, its scenes, and how they are followed
        self.ticks_ms = ticks_ms
        self.link = Link(uart, self._frame, fits)
        # By radio: pairs with the sender of the packet just read (None on a cable).
        self.pair = getattr(uart, "pair", None)
        self.order = None  # type: Any  # the referee's side (hardware/order.py), on the referee only
        self.follower = None  # type: Any  # the follower's side (hardware/follower.py), on the follower only
        self.hello = None  # type: Any  # finding each other (hardware/hello.py), while it goes on
        self.snap = None  # type: Any  # a snapshot on its way or coming in (hardware/snapshot.py)
        self.nonce = nonce & 0xFFFF or 1  # drawn at start-up: the higher referees
        self.phase = SEEKING
        self.resume = None  # the saved linked match offered, or None: a new one
        self.is_referee = False
        self.seat = 0  # the player this device's buttons play
        self.peer = 0  # the other device's nonce (0: none heard)
        self.problem = ""  # why the two cannot play, for the lobby's words
        # The other's match heard in the lobby (game | rules << 1), offered or gone on into; -1: none.
        self.offer = -1
        self.joining = -1
        # By radio, the handheld found: -1 none (or a cable), 0 its name shown to confirm, 1 confirmed.
        self.confirmed = -1
        self.count = 0  # events in the order so far
        self.divergences = 0  # hashes that differed (each mended by a snapshot)
        self.snapshots = 0  # snapshots taken up (the follower) or sent (the referee), alike while all arrive
        self.refused = 0  # presses and events lost for want of room (dropped(): 0 is right)
        self.unsent = 0  # presses (and keys let go) not sent: made out of PLAYING, or waiting as it ended
        self.ignored = 0  # frames of the session its phase does not take (TAKES)
        self.now = 0  # the pass's time
        self._heard = 0  # link.good when last looked at
        self.heard_at = ticks_ms()  # when a frame of the other's was last heard
        self._alive_at = self.heard_at
        self._lost_at = self.heard_at
        self.asked = False  # a pause or a scene's "go on" is on its way into the order
        self._buf = bytearray(16)  # a frame's payload being written
        self._stepping = False
        self._closing = False
        self._leaving_at = self.heard_at  # LEAVING: since when (the link kept open for BYE's acknowledgement)
        self._bye_due = False
        self._last = self.heard_at  # the start of the last pass (its keys were read in it)
        self._greeter(self.heard_at)

    # -- the phase: every change in one place --

    def to(self, phase, now):
        # The session goes into phase, doing what entering it does.
        was = self.phase
        self.phase = phase
        app = self.app
        in_match = app.mode == MATCH or app.mode == PAUSED  # (a match over stays on its result)
        if phase == LOST:
            self._lost_at = now
            if in_match:
                app.pause(now, "radio silent" if self.pair else "cable silent")
        elif phase == GONE:
            self._drop_presses()
            if in_match:
                app.pause(now, OTHER_LEFT)
        elif phase == ELSEWHERE:
            if in_match and (app.mode != PAUSED or was != ELSEWHERE):
                app.pause(now, OTHER_GAME)
        elif phase == LEAVING:
            # Our BYE, the UART open until it is out (a chip's UART reset drops
            # what it has not sent); a silent link waited on unless the other left.
            self._leaving_at = now
            self._bye_due = True
            self._wait = was != GONE
            if not self.is_referee:
                self.drop_snapshot()  # (one coming in is not taken up now)
        elif phase == CLOSED:
            deinit = getattr(self.link.uart, "deinit", None)
            if deinit is not None:
                deinit()
            self.drop_hello()
            self.drop_snapshot()

    def playing(self):
        # In a linked match with the other device (paused or not).
        return SEEKING < self.phase < GONE

    # -- what the App asks --

    def noise(self):
        # What the link threw away (bad frames, bytes that were not frames)
        # since the session began, once there are _NOISE or more (else 0).
        bad = self.link.bad
        return bad if bad >= _NOISE else 0

    def dropped(self):
        # Presses and events lost for want of room (a full window or queue): 0 is right.
        return self.refused + (self.order.queue.dropped if self.order is not None else 0)

    def leave(self, now):
        # This device leaves linked play for the menu: the other told (BYE) once
        # they have heard each other. True when the UART is let go; else drain().
        if self.link.session and self.phase != CLOSED:
            self.to(LEAVING, now)
            self._bye(now)
            return False
        self.close(now)
        return True

    def drain(self, now, force=False):
        # A pass after leaving: True once the other has heard, LEAVE_MS have gone
        # with it heard, or force: the UART let go. A silent link waits on
        # (but not for a device that left first: LEAVE_MS at most).
        link = self.link
        self.now = now
        link.poll(now)
        if link.good != self._heard:
            self._heard = link.good
            self.heard_at = now
        if self._wait and ticks_diff(now, self.heard_at) >= LOST_MS:
            self._leaving_at = now
        self._bye(now)
        if force or not self._bye_due and not link.waiting() or ticks_diff(now, self._leaving_at) >= LEAVE_MS:
            self.close(now)
            return True
        return False

    def _bye(self, now):
        # BYE, after the last of a snapshot on its way (the referee's
        # position, which a follower without it waits for), when the window has room.
        if self.snap is not None and self.order is not None:
            self.order.pump(now)
        if self._bye_due and self.snap is None:
            self._bye_due = not self.link.send(BYE, self._buf, 0, now)

    def close(self, now):
        # The UART let go (opened again for the next linked match), at once
        # or, in the middle of a pass, at its end.
        self._closing = True
        if not self._stepping:
            self.to(CLOSED, now)

    # -- a side of the match (hardware/sides.py: step, next_due, paused) --

    def step(self, game, now):
        # One pass, in every scene: frames in, hellos or pings out, the link's loss noticed.
        if self._closing:
            return
        self._stepping = True
        self._pass(now)
        self._stepping = False
        if self._closing:
            self.to(CLOSED, now)

    def _pass(self, now):
        self.now = now
        follower = self.follower
        if follower is not None and follower.check >= 0 and self.phase == PLAYING:
            follower.checked(now)  # (the last event's pass has drawn it: now the hash)
        link = self.link
        link.poll(now)
        phase = self.phase
        if link.good != self._heard:
            self._heard = link.good
            self.heard_at = now
        elif phase == LOST:
            self.heard_at = ticks_aged(now, self.heard_at)  # (a link lost for days stays lost)
        if self._closing:
            return
        if phase == SEEKING:
            self.hello.step(now)
            return
        if not self.playing():
            return
        if link.waiting() == 0 and ticks_diff(now, self._alive_at) >= _ALIVE_MS:
            self._alive_at = now  # (nothing of ours on its way: is the other device hearing us?)
            link.send(ALIVE, self._buf, 0, now)
        lost = ticks_diff(now, self.heard_at) >= LOST_MS or link.unheard(now) >= LOST_MS
        if lost != (phase == LOST):
            if lost:
                self.to(LOST, now)
            else:
                self._back(now)
            if self._closing:
                return
        if self.is_referee:
            self.order.step(now, self._last)
        elif self.phase != LOST and follower is not None:
            follower.step(now, self._last)
        self._last = now

    def keys_read(self, now):
        # This pass's keys are read (in a match): every press stamped before now
        # is in. The referee lets go what that makes due; the follower ticks.
        if self.phase != PLAYING and self.phase != AWAITING:
            return  # (a follower awaiting the position still says its presses are all sent)
        if self.is_referee:
            self.order.release(now, now)
        elif self.follower is not None:
            self.follower.keys_read(now)

    def next_due(self, game, now):
        return 0  # (the link is polled every pass: a linked match never sleeps)

    def paused(self, ms):
        pass  # (the order's times are the keypads': a pause moves nothing)

    # -- the match: the order applied --

    def apply(self, player, action, t, now):
        # One event of the order, applied alike on both devices; the other
        # player's leave is said. Returns the scene's answer (the referee orders it).
        if action >= EV_FOLLOW:
            go = action - EV_FOLLOW
            if go == LEAVE and player != self.seat and self.app.mode == PAUSED:
                self.to(GONE, now)
            else:
                self.app.follow(go, now)
            return 0
        return self.app.apply_event(player, action, t, now)

    def hash_of(self, game):
        # The hash of game with this device's half-made moves.
        return state_hash(game, self.app.controls)

    def _back(self, now):
        # The link is back: the referee's position, in the pause, for both (the
        # follower asks too: one is sent once); a match over's too (the last
        # event may be missing). A device in its lobby gets it once it joins.
        joining = self.hello is not None and self.hello.rejoin
        if self.is_referee:
            self.to(PLAYING, now)
            if not joining and not self.order.sent_since(self._lost_at):
                self.order.send_snapshot(SNAP_PAUSED, now)
            return
        self.to(AWAITING, now)  # (what comes after it, the snapshot says)
        if self.app.mode != OVER and not joining and self.follower is not None:
            self.follower.ask(0, now)

    def restart_link(self):
        # Another device, or the same restarted: frames numbered from the first
        # on both (the session's number is made of both nonces); what was on its way goes.
        a = self.nonce
        b = self.peer
        self.link.reset(((a ^ b) * 31 + a + b) % 255 + 1)  # (never 0: a hello's)
        self.drop_snapshot()
        self._drop_presses()
        if self.order is not None:
            self.order.restart(self.now)  # (a restarted device's clock starts again: pinged anew)

    def _drop_presses(self):
        if self.follower is not None:
            self.unsent += self.follower.drop()

    def be_referee(self, now):
        # This device referees from now on (it deals, or takes back a device
        # back in its lobby): the order loaded, the follower's half let go.
        self.is_referee = True
        self._drop_presses()
        self.follower = None
        forget("hardware.follower")
        if self.order is None:
            from .order import Order

            self.order = Order(self, now)
        self.order.queue.remote = 1 - self.seat  # (the other device's player: its presses go once ours are read)

    def _greeter(self, now):
        if self.hello is None:
            from .hello import Hello

            self.hello = Hello(self, now)
        return self.hello

    def drop_hello(self):
        if self.hello is not None:
            self.hello = None
            forget("hardware.hello")

    def snapshot_part(self):
        if self.snap is None:
            from .snapshot import Snapshot

            self.snap = Snapshot(self)
        return self.snap

    def drop_snapshot(self):
        if self.snap is not None:
            self.snap = None
            forget("hardware.snapshot")

    # -- presses: this device's buttons (Controls.relay) --

    def press(self, player, action, t):
        # A press of this device's buttons (its keymap's player 0): into the order as our seat.
        if player:
            return  # (a linked handheld plays one player's buttons: the other's are no keys of the match)
        phase = self.phase
        if not (SEEKING < phase <= GONE):
            self.unsent += 1  # (the session not in a match: the lobby reads its keys itself)
            return
        app = self.app
        if app.mode == OVER or phase == GONE:
            # (each device leaves a result, or a match left, on its own player's key)
            app.controls.now = t
            app.press(self.seat, action)
            return
        if phase != PLAYING:
            # No order without the other: a pause's keys work here alone; a
            # match's press is refused on the screen (wait) and counted.
            if app.mode != MATCH:
                app.press(self.seat, action)
            else:
                self.unsent += 1
                app.controls.not_now(self.seat)
            return
        if self.is_referee:
            self.order.add(action, t)  # (a full queue counts it: dropped())
        elif self.follower is not None:
            self.follower.press(action, t)

    def let_go(self, player, action, t):
        # A pile key let go, in a match: into the order after its press, so
        # that a press of it with nothing chosen is refused on both alike.
        if self.app.mode == MATCH and self.phase == PLAYING:
            self.press(player, EV_LET_GO + action, t)
        elif self.app.mode == MATCH and not player:
            self.unsent += 1  # (the snapshot that ends the wait settles every key)

    def ask(self, action, now):
        # An event this device's scene asks for (the pause chord, the
        # countdown's end), once until it is in the order.
        if self.asked or self.phase != PLAYING:
            return
        if self.is_referee:
            self.asked = self.order.add(action, now)
        elif action == EV_PAUSE and self.follower is not None:  # (a follower's scenes end when the referee's do)
            self.asked = True
            self.follower.press(action, now)

    # -- frames in --

    def _frame(self, kind, p, n):
        now = self.now
        phase = self.phase
        reads = _REFEREE_READS if self.is_referee else _FOLLOWER_READS
        if not TAKES[phase] & reads & 1 << (kind & 15 | kind >> 3 & 8):
            self.ignored += 1
            return
        if kind < UNRELIABLE and self.pair:
            self.pair()  # (by radio, a reliable frame: the session's, which a restarted device joins by)
        if kind == HELLO:
            if self.app.mode == OVER:
                return  # (a match over takes nobody back: its own player's key leaves it)
            hello = self._greeter(now)
            hello.heard(p, n, now)
            if self.phase != SEEKING and not hello.rejoin:
                self.drop_hello()  # (in a match, only while the other device is coming back)
        elif kind == BYE:
            if phase == SEEKING:
                self.offer = self.joining = -1  # (its match, offered in our lobby, is gone)
            else:
                self.to(GONE, now)
        elif self.is_referee:
            if kind == TICK and self.hello is not None:
                self.drop_hello()  # (a restarted follower ticks once it has our position: it is back)
            if kind != ALIVE:
                self.order.frame(kind, p, n, now)
        elif kind != ALIVE:
            if self.follower is None:
                from .follower import Follower

                self.follower = Follower(self, now)
            self.follower.frame(kind, p, n, now)
