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
# A lost link pauses the match on both devices: LOST_MS without a frame
# heard, or a reliable frame unacknowledged that long (a device that hears
# the other but is not heard finds out so: each sends a reliable ALIVE when
# nothing else is on its way). When it is back, the referee's position comes
# in the pause. A press carries the snapshots its device has taken up: one
# made on a position the referee has since replaced is stale, and refused
# (counted), never read as a key of another scene. A player who leaves the
# match sends BYE and keeps the link open until it is acknowledged (at most
# LEAVE_MS with the other device heard: while the cable is silent, for as
# long as the menu shows); the other device then says the other player
# left. Nothing is
# dropped without a count: a press the window has no room for waits (the
# follower's _PENDING), the referee lets go no more than the window takes,
# and what is refused all the same is counted (dropped()). Noise (bad frames)
# is counted and told. After start-up nothing here allocates per move:
# frames are read into and written from preallocated buffers
# (hardware/link.py), events are small ints. The frames are
# hardware/protocol.py's.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from . import forget
from .link import UNRELIABLE, Link, get32, put32
from .modes import (
    EV_FOLLOW,
    EV_LET_GO,
    EV_PAUSE,
    LEAVE,
    MATCH,
    OTHER_GAME,
    OTHER_LEFT,
    OVER,
    PAUSED,
    PLAYING,
    SEEKING,
    SNAP_PAUSED,
    SNAP_START,
)
from .protocol import (
    ALIVE,
    ASK,
    ASK_SIZE,
    ASK_TAKEN,
    ASK_WHY,
    BYE,
    EVENT,
    EVENT_ACTION,
    EVENT_NUMBER,
    EVENT_PLAYER,
    EVENT_TIME,
    HASH,
    HASH_NUMBER,
    HASH_VALUE,
    HELLO,
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
    fits,
)
from .ticks import ticks_aged, ticks_diff

try:  # (for the type checker only: the board has no typing module)
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from typing import Any  # noqa: F401  (named in type comments)
except ImportError:
    pass

forget("hardware.protocol")  # (its numbers are ours now)

LOST_MS = 1500  # no frame heard, or none acknowledged, for this long: the link is lost
_ALIVE_MS = const(250)  # nothing reliable on its way this long: an ALIVE asks for an acknowledgement
LEAVE_MS = 2000  # a device whose player left keeps the link open this long at most once heard, for BYE to arrive
_NOISE = const(3)  # bad frames before they are told
TICK_MS = 10  # between the follower's ticks (a frame of 14 bytes: a tenth of the line, a little of the referee's time)
_PENDING = const(32)  # the follower's presses waiting for room in the link's window (LOST_MS of a quick player's)


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


class Linked:
    def __init__(self, app, uart, ticks_ms, nonce):
        self.app = app  # the App: the match, its scenes, and how they are followed
        self.ticks_ms = ticks_ms
        self.link = Link(uart, self._frame, fits)
        # By radio (hardware/radio.py): what pairs it with the sender of the
        # packet just read; None on a cable. (Also what tells the words a pause
        # and the lobby say: "radio silent", "cable silent".)
        self.pair = getattr(uart, "pair", None)
        self.order = None  # type: Any  # the referee's side (hardware/order.py), loaded on the referee only
        self.hello = None  # type: Any  # finding each other (hardware/hello.py), while it goes on
        self.snap = None  # type: Any  # a snapshot on its way or coming in (hardware/snapshot.py)
        self.nonce = nonce & 0xFFFF or 1  # drawn at start-up: the higher referees
        self.state = SEEKING
        self.resume = None  # the saved linked match offered, or None: a new one
        self.is_referee = False
        self.seat = 0  # the player this device's buttons play
        self.peer = 0  # the other device's nonce (0: none heard)
        self.problem = ""  # why the two cannot play, for the lobby's words
        # The other's match, heard in the lobby (its game | rules << 1): offered
        # to this player (offer), or gone on into (joining); -1: none.
        self.offer = -1
        self.joining = -1
        # By radio, the handheld found in the lobby: -1 none (or a cable: no
        # need), 0 its name shown for this player to confirm, 1 confirmed.
        self.confirmed = -1
        self.lost = False  # the link is lost (silent, or not hearing us) in a match
        self.gone = False  # the other player left the match (this device offers the menu)
        self.count = 0  # events in the order so far
        self.divergences = 0  # hashes that differed (each mended by a snapshot)
        self.snapshots = 0  # snapshots taken up (the follower) or sent (the referee), alike while all arrive
        self.refused = 0  # presses and events lost for want of room (dropped(): 0 is right)
        # Presses (and pile keys let go) not sent, each counted: made with the
        # link lost or the referee's position awaited (a press then is refused
        # on the screen too), or waiting to be sent when the session started
        # again or the other player left.
        self.unsent = 0
        self._now = 0
        self._heard = 0  # link.good when last looked at
        self.heard_at = ticks_ms()
        self._alive_at = self.heard_at
        self._lost_at = self.heard_at
        self.asked = False  # a pause or a scene's "go on" is on its way into the order
        self._ask_due = -1  # the follower: a snapshot to ask for (why) when the window has room (-1: none)
        self._wait_snap = False  # the follower drops events until a snapshot comes
        self._check = -1  # the follower: the referee's hash after the last event, looked at a pass later (-1: none)
        self._buf = bytearray(16)  # a frame's payload being written
        self._pending = bytearray(_PENDING * PRESS_SIZE)  # the follower's presses waiting for room
        self._pending_n = 0
        self._stepping = False
        self._closing = False
        self._leaving_at = -1  # this device's player left: when (the link kept open for BYE's acknowledgement)
        self._bye_due = False
        self._tick_at = self.heard_at  # the follower: when it last said how far its presses have gone
        self._due = False  # the follower: the referee asked for a tick (WANT)
        self._last = self.heard_at  # the start of the last pass (its keys were read in it)
        self._greeter(self.heard_at)

    # -- what the App asks --

    def playing(self):
        return self.state == PLAYING and not self.gone

    def noise(self):
        # What the link threw away (bad frames, bytes that were not frames)
        # since the session began, once there are _NOISE or more (else 0).
        bad = self.link.bad
        return bad if bad >= _NOISE else 0

    def dropped(self):
        # Presses and events lost for want of room (a full window or queue): 0 is right.
        return self.refused + (self.order.queue.dropped if self.order is not None else 0)

    def leave(self, now):
        # This device leaves linked play for the menu. Once the two have
        # heard each other (from the lobby, the countdown, a match, its
        # pause or result) the other device is told (BYE, after what is
        # still on its way: a match's last events, which a match over may
        # not have delivered yet), and the link stays open until it has
        # heard (drain): True when nothing is left to do, and the UART is
        # let go (at once, or at the end of a pass).
        if self.gone:  # (nobody to wait for; but a leave may have been a crafted frame: told once)
            self.link.send(BYE, self._buf, 0, now)
        elif self.link.session:
            if not self.is_referee:
                self.drop_snapshot()  # (one coming in is not taken up now)
            self._leaving_at = now
            self._bye_due = True
            self._bye(now)
            return False
        self.close()
        return True

    def drain(self, now, force=False):
        # A pass after leaving: the acknowledgement looked for (the frames
        # that come are not taken up). True once the other device has
        # everything sent, LEAVE_MS have gone with it heard, or force: the
        # UART let go. While the cable is silent the wait starts again: a
        # leave made while it was out is told once it is back (the other
        # device shows "cable silent" until then, and no longer).
        link = self.link
        self._now = now
        link.poll(now)
        if link.good != self._heard:
            self._heard = link.good
            self.heard_at = now
        if ticks_diff(now, self.heard_at) >= LOST_MS:
            self._leaving_at = now
        self._bye(now)
        if force or not self._bye_due and not link.waiting() or ticks_diff(now, self._leaving_at) >= LEAVE_MS:
            self.close()
            return True
        return False

    def _bye(self, now):
        # BYE, after the last of a snapshot on its way (the referee's
        # position, which a follower without it waits for), when the window
        # has room.
        if self.snap is not None and self.order is not None:
            self.order.pump(now)
        if self._bye_due and self.snap is None:
            self._bye_due = not self.link.send(BYE, self._buf, 0, now)

    def close(self):
        # The UART is let go (opened again for the next linked match), at
        # once or, in the middle of a pass, at its end.
        self._closing = True
        if not self._stepping:
            self._close()

    def _close(self):
        deinit = getattr(self.link.uart, "deinit", None)
        if deinit is not None:
            deinit()
        self.state = 0
        self._drop_hello()
        self.drop_snapshot()

    # -- a player of the match (hardware/sides.py: step, next_due, paused) --

    def step(self, game, now):
        # One pass, in every scene: frames in, hellos or pings out, the
        # order's presses released, the link's loss noticed.
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
        link = self.link
        link.poll(now)
        if link.good != self._heard:
            self._heard = link.good
            self.heard_at = now
        elif self.lost:
            self.heard_at = ticks_aged(now, self.heard_at)  # (a link lost for days stays lost)
        if self._closing:
            return
        if self.state == SEEKING:
            self.hello.step(now)
            return
        if self.gone:
            return  # (the other player left: the link only acknowledges, until this one leaves too)
        if link.waiting() == 0 and ticks_diff(now, self._alive_at) >= _ALIVE_MS:
            self._alive_at = now  # (nothing of ours on its way: is the other device hearing us?)
            link.send(ALIVE, self._buf, 0, now)
        lost = ticks_diff(now, self.heard_at) >= LOST_MS or link.unheard(now) >= LOST_MS
        if lost != self.lost:
            if lost:
                self.lost = True
                self._lost_at = now
                self._wait_snap = not self.is_referee  # (what comes after it, the snapshot says)
                self._lost(now)
            else:
                self._back(now)
            if self._closing:
                return
        if self.is_referee:
            self.order.step(now, self._last)
        elif not self.lost:
            if self._pending_n:
                self._flush()
            if self._ask_due >= 0:
                self._ask(self._ask_due, now)
            if self.app.mode != MATCH and (self._due or ticks_diff(now, self._tick_at) >= TICK_MS):
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
        if self.state != PLAYING or self.lost or self.gone:
            return
        if self.is_referee:
            self.order.release(now, now)
        elif self._due or ticks_diff(now, self._tick_at) >= TICK_MS:
            self._tick(now, now)

    def _tick(self, now, upto):
        # How far this device's presses have gone (upto), and the number of
        # its next reliable frame: no press before it is still to come. (Not
        # while a press waits for room: it is not sent yet.)
        if self._pending_n:
            return
        self._tick_at = now
        self._due = False
        buf = self._buf
        put32(buf, TICK_TIME, upto)
        buf[TICK_NEXT] = self.link.next_seq()
        self.link.send(TICK, buf, TICK_SIZE, now)

    def next_due(self, game, now):
        # The link is polled every pass: a linked match never sleeps.
        return 0

    def paused(self, ms):
        pass  # (the order's times are the keypads': a pause moves nothing)

    # -- the match: the order applied --

    def apply(self, player, action, t, now):
        # One event of the order, applied alike on both devices (App.apply_event),
        # but a player's leaving: that device goes to the menu, and this one,
        # if it is the other's, says so. Returns what the scene shown asks
        # for in answer (the referee puts it in the order).
        if action >= EV_FOLLOW:
            go = action - EV_FOLLOW
            if go == LEAVE and player != self.seat and self.app.mode == PAUSED:
                self._other_left(now)
            else:
                self.app.follow(go, now)
            return 0
        return self.app.apply_event(player, action, t, now)

    def hash_of(self, game):
        # The hash of game with this device's half-made moves (a hello's saved match).
        return state_hash(game, self.app.controls)

    def _lost(self, now):
        # The link is lost: the match stands still, saying why. A match
        # over stays on its result until this device's player leaves it (the
        # other device may have left already).
        app = self.app
        if app.mode == MATCH or app.mode == PAUSED:
            app.pause(now, "radio silent" if self.pair else "cable silent")

    def _back(self, now):
        # The link is back: the referee's position, in the pause, for both
        # (the follower asks, in case the referee never found the link lost;
        # one is sent once). A referee whose match is over sends it too: the
        # follower may not have had the last event (it takes up the result).
        self.lost = False
        if self.state != PLAYING or self.gone or self.hello is not None and self.hello.rejoin:
            return  # (a device back in its lobby gets our position once it joins: Hello.heard)
        if not self.is_referee:
            if self.app.mode != OVER:  # (a follower over had the last event)
                self._ask(0, now)
        elif not self.order.sent_since(self._lost_at):
            self.order.send_snapshot(SNAP_PAUSED, now)  # (none sent since it was lost)

    def _other_left(self, now):
        # The other player left: this device says so, and offers the menu.
        self.gone = True
        self.lost = False
        self._wait_snap = False
        self.unsent += self._pending_n
        self._pending_n = 0
        self.app.pause(now, OTHER_LEFT)

    # -- the session: what hardware/hello.py decides --

    def deal(self, now):
        # This device referees the match starting: a new one dealt here (or
        # the saved one), the countdown on both.
        self.seat = 0
        self._be_referee(now)
        self.state = PLAYING
        self.heard_at = now
        self._drop_hello()
        self.snapshot_part().deal(self.resume, now)
        self.order.send_snapshot(SNAP_START, now)

    def rejoined(self, now):
        # The other device, back in its lobby (its player left, or it
        # restarted), joins our match: this device referees it now (a
        # follower whose referee it was, from our position: the events it
        # applied that we never took are gone with it), in the pause.
        self._be_referee(now)
        self.lost = False
        self._wait_snap = False
        self._check = -1
        self.unsent += self._pending_n
        self._pending_n = 0
        self._ask_due = -1
        self.heard_at = now
        self.order.restart(now)  # (a ping at once: the new device's clock is another)
        self.order.send_snapshot(SNAP_PAUSED, now)

    def restart_link(self):
        # Another device, or the same restarted: frames start again from the
        # first, and a snapshot on its way or coming in is gone, and so are
        # presses waiting to be sent. The referee of a match the cable has
        # already brought back sends its position again, numbered anew (the
        # restarted device's acknowledgement of our resends can come a poll
        # before its hello: the position that went then carried the old
        # numbers, which the new device cannot take).
        a = self.nonce
        b = self.peer
        self.link.reset(((a ^ b) * 31 + a + b) % 255 + 1)  # (the same number on both devices, never 0)
        self.drop_snapshot()
        self.unsent += self._pending_n
        self._pending_n = 0
        if self.order is not None:
            self.order.restart(self._now)  # (a restarted device's clock starts again: pinged anew)

    def waits(self, now):
        # The other device is back in its lobby with another game chosen:
        # our match stays paused, saying so, until its player goes on into
        # it (Hello.heard) or leaves.
        self.lost = False
        app = self.app
        if app.mode == MATCH or app.mode == PAUSED and app.pause_why != OTHER_GAME:
            app.pause(now, OTHER_GAME)

    def _be_referee(self, now):
        self.is_referee = True
        if self.order is None:
            from .order import Order

            self.order = Order(self, now)
        self.order.queue.remote = 1 - self.seat  # (the other device's player: its presses go once ours are read)

    def _greeter(self, now):
        if self.hello is None:
            from .hello import Hello

            self.hello = Hello(self, now)
        return self.hello

    def _drop_hello(self):
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
        # A press of this device's buttons (its keymap's player 0), stamped
        # by its keypad: into the order as this device's seat.
        if player:
            return  # (a linked handheld plays one player's buttons: the other's are no keys of the match)
        if self.state != PLAYING:
            self.unsent += 1  # (the session closing: the lobby reads its keys itself)
            return
        app = self.app
        if app.mode == OVER or self.gone:
            # Game over, or the other player left: each device leaves on its
            # own player's key, not the other's (who may still be reading
            # it): no order needed.
            app.controls.now = t
            app.press(self.seat, action)
            return
        if self.lost or self._wait_snap:
            # No order without the other device: the pause's keys work here
            # alone (leaving for the menu, say); in the match, a press is
            # refused on the screen (its word: wait) and counted.
            if app.mode != MATCH:
                app.press(self.seat, action)
            else:
                self.unsent += 1
                app.controls.not_now(self.seat)
            return
        if self.is_referee:
            self.order.add(action, t)  # (a full queue counts it: dropped())
            return
        self._send_press(action, t)

    def let_go(self, player, action, t):
        # A pile key of this device's buttons let go, in a match: into the
        # order after its press, so that a press of it with nothing chosen is
        # refused on both devices alike (Controls.let_go).
        if self.app.mode == MATCH and not self.lost and not self._wait_snap:
            self.press(player, EV_LET_GO + action, t)
        elif self.app.mode == MATCH and not player:
            self.unsent += 1  # (the snapshot that ends the wait settles every key)

    def ask(self, action, now):
        # An event this device's scene asks for (the pause chord, the
        # countdown's end), once until it is in the order.
        if self.asked or not self.playing() or self.lost:
            return
        if self.is_referee:
            self.asked = self.order.add(action, now)
        elif action == EV_PAUSE:  # (a follower's scenes end when the referee's do)
            self.asked = True
            self._send_press(action, now)

    def _send_press(self, action, t):
        # The follower's press (or pause chord) to the referee, with the
        # snapshots taken up and the events applied (what it was made on),
        # written twice at once (a lost copy costs no resend's wait). With no
        # room in the window it waits, in order, for the next passes.
        n = self._pending_n
        if n >= _PENDING:
            self.refused += 1
            return
        q = self._pending
        i = n * PRESS_SIZE
        q[i + PRESS_ACTION] = action
        put32(q, i + PRESS_TIME, t)
        q[i + PRESS_TAKEN] = self.snapshots & 255
        q[i + PRESS_SEEN] = self.count & 255
        q[i + PRESS_SEEN + 1] = self.count >> 8
        self._pending_n = n + 1
        self._flush()

    def _flush(self):
        # The presses waiting, in order, while the window has room.
        q = self._pending
        buf = self._buf
        sent = 0
        while sent < self._pending_n:
            at = sent * PRESS_SIZE
            for k in range(PRESS_SIZE):
                buf[k] = q[at + k]
            if not self.link.send(PRESS, buf, PRESS_SIZE, self._now, True):
                break
            sent += 1
        if sent:
            at = sent * PRESS_SIZE
            for i in range((self._pending_n - sent) * PRESS_SIZE):
                q[i] = q[at + i]
            self._pending_n -= sent

    # -- frames in --

    def _frame(self, kind, p, n):
        now = self._now
        if self._leaving_at >= 0:
            return  # (this device left: only the acknowledgement of its BYE matters)
        if kind < UNRELIABLE and self.pair:
            self.pair()  # (by radio, a reliable frame: the session's, which a restarted device joins by)
        if self.is_referee and (kind == PONG or kind == PRESS or kind == TICK or kind == ASK):
            self.order.frame(kind, p, n, now)  # (the follower's frames)
        if kind == PING:
            if self.state == PLAYING and not self.is_referee:
                buf = self._buf
                for i in range(4):
                    buf[i] = p[i]
                put32(buf, 4, now)  # t2
                put32(buf, 8, self.ticks_ms())  # t3
                self.link.send(PONG, buf, PONG_SIZE, now)
        elif kind == EVENT:
            if self.is_referee or self._wait_snap or self.state != PLAYING or self.gone or not self._checked(now):
                return
            count = p[EVENT_NUMBER] | p[EVENT_NUMBER + 1] << 8
            if count != (self.count + 1) & 0xFFFF:
                self._diverged(now)  # (the link delivers each once, in order: this cannot be)
                return
            self.count = count
            action = p[EVENT_ACTION]
            if action >= EV_PAUSE:
                self.asked = False
            self.apply(p[EVENT_PLAYER], action, get32(p, EVENT_TIME), now)  # (a scene's answer: the next event)
        elif kind == HASH:
            # The referee's position after its event of this number: looked
            # at in the next pass (this one draws the event first).
            if (
                not self.is_referee
                and not self._wait_snap
                and self.state == PLAYING
                and (p[HASH_NUMBER] | p[HASH_NUMBER + 1] << 8) == self.count
            ):
                self._check = p[HASH_VALUE] | p[HASH_VALUE + 1] << 8 | p[HASH_VALUE + 2] << 16
        elif kind == WANT:
            self._due = not self.is_referee  # (a press of the referee's player waits for it)
        elif kind == TICK:
            if self.hello is not None and self.state == PLAYING:
                self._drop_hello()  # (a restarted follower ticks once it has our position: it is back)
        elif kind == SNAP:
            if self.is_referee or self.gone:
                return
            self.seat = p[SNAP_SEAT]
            self.count = p[SNAP_COUNT] | p[SNAP_COUNT + 1] << 8
            if self.snapshot_part().first(p, n):
                self._taken(now)
        elif kind == MORE:
            if not self.is_referee and self.snap is not None and self.snap.more(p, n):
                self._taken(now)
        elif kind == BYE:
            if self.state == SEEKING:
                self.offer = self.joining = -1  # (its match, offered in our lobby, is gone)
            elif self.state == PLAYING and not self.gone:
                if self.app.mode == OVER:
                    self.gone = True  # (the result stays until our player leaves it: nobody to tell then)
                elif self.app.mode == MATCH or self.app.mode == PAUSED:
                    self._other_left(now)
        elif kind == HELLO:
            if self.app.mode == OVER or self.gone:
                return  # (a match over, or left, takes nobody back: its own player's key leaves it)
            hello = self._greeter(now)
            hello.heard(p, n, now)
            if self.state == PLAYING and not hello.rejoin:
                self._drop_hello()  # (in a match, only while the other device is coming back)

    def _taken(self, now):
        # The follower has the referee's whole line: the match goes on from it.
        snap = self.snap
        try:
            game = snap.game()
        except (ValueError, IndexError, KeyError, TypeError):  # (no position: a buggy or hostile sender's)
            self.snapshots = snap.number  # (ours to ask again for: the next is not "on its way")
            self.drop_snapshot()
            self._diverged(now)
            return
        self.state = PLAYING
        self.lost = False
        self._wait_snap = False
        self.asked = False
        self._ask_due = -1
        self._check = -1  # (the position is the referee's)
        self.snapshots = snap.number  # (the referee's count: a restarted follower's too)
        self._drop_hello()
        snap.take_up(game, snap.how, now)
        self.drop_snapshot()

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
        # link came back), with how many we have taken up: one sent since
        # need not be sent again. With no room in the window: at a later pass.
        buf = self._buf
        buf[ASK_WHY] = why
        buf[ASK_TAKEN] = self.snapshots & 255
        self._ask_due = -1 if self.link.send(ASK, buf, ASK_SIZE, now) else why
