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
# Finding each other: both devices, in the lobby (linked play chosen in the
# menu), send a hello every HELLO_MS: the protocol's version, the game, its
# rules, a number drawn at start-up (nonce) and the other's nonce last heard.
# A different version, game or rules is a message on both screens. The higher
# nonce referees and deals: the match starts from its snapshot. A device that
# is in a match referees a device that comes back from a restart.
#
# A silent link (LOST_MS without a frame) pauses the match on both devices;
# noise (bad frames) is counted and told. After start-up nothing here
# allocates per move: frames are read into and written from preallocated
# buffers (hardware/link.py), events are small ints.

from engine.spit import GAME_OVER

from . import forget
from .clock_sync import ClockSync
from .link import Link
from .modes import EV_FOLLOW, EV_PAUSE, GO_ON, LEAVE, LOBBY, MATCH, OVER, PAUSED
from .referee import Referee
from .ticks import ticks_add, ticks_diff

VERSION = 1  # the protocol's: both devices must speak the same
HELLO_MS = 300  # between hellos in the lobby
PING_MS = 250  # between the referee's pings in a match (they keep the link heard, too)
LOST_MS = 1500  # no frame for this long: the link is lost (six pings missed)
NOISE = 3  # bad frames before they are told
SNAP_MAX = 320  # the longest position line

# Frame kinds (hardware/link.py: below 0x40 reliable, in order).
_EVENT = 0x01  # referee to follower: number (2), player, action, time (4), hash (3)
_PRESS = 0x02  # follower to referee: action, its keypad's time (4)
_SNAP = 0x03  # referee to follower: how, its seat, the order's number (2), length (2), the snapshot's number, the line
_MORE = 0x04  # the line's next bytes
_ASK = 0x05  # follower to referee: why (the positions differ, the cable came back), snapshots taken up
_HELLO = 0x41  # version, game, rules, nonce (2), the other's nonce (2), state
_PING = 0x42  # t1 (4)
_PONG = 0x43  # t1, t2, t3 (4 each)
_TICK = 0x44  # follower to referee: its presses are all sent up to this time (4), its next reliable number
TICK_MS = 10  # between the follower's ticks (a frame of 13 bytes: a tenth of the line, a little of the referee's time)

# Where this device is.
SEEKING = 1  # looking for the other device (the lobby)
PLAYING = 2  # in a linked match (a scene of it included: pause, game over)
# How a snapshot is taken up.
SNAP_START = 0  # a new match: the countdown
SNAP_PAUSED = 1  # the link came back, or a device restarted: the pause
SNAP_ON = 2  # the positions differed: play on from the referee's


def state_hash(game, controls):
    # 24 bits of the position (every pile's size and top card, the phase,
    # the round, the points, the generator) and the half-made moves: two
    # devices that diverged differ here at once. Small ints only.
    h = game.phase * 7 + game.called
    counts = game.counts
    for j in range(len(counts)):
        h = _mix(_mix(h, counts[j]), game.top(j))
    rng = game.rng
    h = _mix(_mix(_mix(h, game.round), game.scores[0]), game.scores[1])
    h = _mix(_mix(_mix(_mix(h, rng.s1), rng.s2), rng.s3), game.winner + 1)
    for p in range(2):
        h = _mix(_mix(h, controls.chosen[p]), controls.slot[p])
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
        self.sync = ClockSync()  # the other device's clock (the referee's view)
        self.referee = Referee()
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
        self._hello_at = ticks_add(self._heard_at, -HELLO_MS)
        self._ping_at = self._heard_at
        self._asked = False  # a pause or a scene's "go on" is on its way into the order
        self._wait_snap = False  # the follower drops events until a snapshot comes
        self._snap_at = 0  # the referee's time of its last snapshot: older presses are stale
        self._buf = bytearray(16)  # a frame's payload being written
        self._text = bytearray(SNAP_MAX)  # a snapshot's line, as received (or being sent)
        self._text_n = 0
        self._text_len = -1
        self._snap_how = 0
        self._snap_no = 0  # the snapshot being received: its number
        self._out = -1  # the snapshot's bytes already queued (the referee), or -1: none on its way
        self._out_len = 0
        self._take = self._released  # (bound once: a bound method made each pass would allocate)
        self._stepping = False
        self._closing = False
        self._rejoin = False  # the other device came back with a new nonce mid-match
        self._upto = self._heard_at  # the referee: the follower's presses are all here up to this time
        self._tick_at = self._heard_at  # the follower: when it last said how far its presses have gone
        self._last = self._heard_at  # the start of the last pass (its keys were read in it)

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
        link = self.link
        link.poll(now)
        if link.good != self._heard:
            self._heard = link.good
            self._heard_at = now
            if self.lost and self.state == PLAYING:
                # The cable is back: the referee's position, in the pause,
                # for both (the follower asks, in case the referee never
                # found the link silent).
                self.lost = False
                if self.is_referee:
                    self.send_snapshot(SNAP_PAUSED, now)
                    self.take_up(None, SNAP_PAUSED, now)
                else:
                    self._ask(0, now)
        if self._closing:
            return
        if self.state == SEEKING:
            if ticks_diff(now, self._hello_at) >= HELLO_MS:
                self._hello_at = now
                self._hello(now)
            return
        if self._out >= 0:
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
            if self._out < 0 and not self.lost:  # (no event overtakes a snapshot on its way)
                self.referee.release(now, self._take, self._upto)
        elif not self.lost and ticks_diff(now, self._tick_at) >= TICK_MS:
            # How far this device's presses have gone: every key event
            # stamped up to the last pass's start was read in that pass (the
            # buttons are read after the link), so any press of them is sent.
            self._tick_at = now
            buf = self._buf
            _put32(buf, 0, self._last)
            buf[4] = link.next_seq()
            link.send(_TICK, buf, 5, now)
        self._last = now

    def next_due(self, game, now):
        # The link is polled every pass: a linked match never sleeps.
        return 0

    def paused(self, ms):
        pass  # (the order's times are the keypads': a pause moves nothing)

    # -- the match: the order applied, positions taken up --

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
            c.push(g, app.key_of[player * 16 + action], t)
            c.apply(g)
            if c.attempts != attempts:
                app.sound_for(g, phase, c.applied != applied, now)
            if g.phase == GAME_OVER:
                app.game_over(now)
            return 0
        if app.scene is None:
            return 0
        app.controls.now = now
        return app.scene.press(player, action)

    def _start(self, game, now):
        # This device referees: a new match dealt here, or the saved one
        # (game); the countdown (the follower takes up its snapshot).
        app = self.app
        if game is None:
            from engine import games

            seed = (app.seed if app.seed is not None else now) + app.matches
            game = games.new(app.kind, seed, app.rules)
            forget("engine.games")
        self._begin(game, now, True)

    def take_up(self, line, how, now):
        # The referee's position (its line of the notation; None: ours, as it
        # is) to play from: a new match (the countdown), after the cable came
        # back or a restart (the pause), or mended after a divergence (play on).
        app = self.app
        game = app.game
        if line is not None:
            from engine import games

            game = games.from_text(line)
            for name in ("engine.games", "engine.spit_text", "engine.speed_text", "engine.notation"):
                forget(name)  # (the notation is read again only at the next snapshot)
            c = app.controls
            c.chosen[0] = c.chosen[1] = c.slot[0] = c.slot[1] = 255  # (the referee's went too)
        if game is None:
            return
        if how == SNAP_START or app.mode == LOBBY or app.game is None:
            self._begin(game, now, how == SNAP_START)
            if how == SNAP_START:
                return
        app.game = game
        if how == SNAP_ON:
            if app.mode == PAUSED:
                app.follow(GO_ON, now)  # (no countdown: the positions differed for a pass)
            else:
                app.draw_match(now)
        else:
            app.pause(now, "cable back")

    def _begin(self, game, now, counting):
        app = self.app
        if app.mode == LOBBY:
            forget("hardware.lobby")
        app.begin(game, now)
        from .pause import Pause

        app.mode = PAUSED
        app.pause_why = ""
        app.scene = Pause(app, now, counting)

    def _lost(self, now):
        # The cable went silent: the match stands still, saying why; a match
        # over goes back to the menu (its order can end it no more).
        app = self.app
        if app.mode == MATCH or app.mode == PAUSED:
            app.pause(now, "cable silent")
        elif app.mode == OVER:
            app.follow(LEAVE, now)

    # -- presses: this device's buttons (Controls.relay) --

    def press(self, player, action, t):
        # A press of this device's buttons (its keymap's player 0), stamped
        # by its keypad: into the order as this device's seat.
        if player or self.state != PLAYING:
            return  # (a linked handheld plays one player's buttons; the lobby reads its keys itself)
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
        app = self.app
        if action >= EV_PAUSE:
            self._asked = False
            self._send_event(player, action, t, 0)
            self.apply(player, action, t, self._now)
            return
        go = self.apply(player, action, t, self._now)
        self._send_event(player, action, t, state_hash(app.game, app.controls))
        if go:  # a scene's answer to it (leave, go on): the next event
            self._send_event(self.seat, EV_FOLLOW + go, t, 0)
            self.apply(self.seat, EV_FOLLOW + go, t, self._now)

    def _send_event(self, player, action, t, h):
        self.count = n = (self.count + 1) & 0xFFFF
        buf = self._buf
        buf[0] = n & 255
        buf[1] = n >> 8
        buf[2] = player
        buf[3] = action
        _put32(buf, 4, t)
        buf[8] = h & 255
        buf[9] = (h >> 8) & 255
        buf[10] = h >> 16
        if not self.link.send(_EVENT, buf, 11, self._now, True):  # (twice at once: a lost copy costs no resend's wait)
            self._resync(self._now)  # (the window full: the position says it all)

    def send_snapshot(self, how, now):
        # The referee's position, for the follower to take up: its line of
        # the notation, a frame's worth at a time as the link has room.
        app = self.app
        if app.game is None:
            return
        line = app.game.text()
        for name in ("engine.spit_text", "engine.speed_text", "engine.notation"):
            forget(name)  # (written again only at the next snapshot)
        n = len(line)
        if n > SNAP_MAX:
            raise ValueError("a position line longer than %d bytes" % SNAP_MAX)
        text = self._text
        for i in range(n):
            text[i] = ord(line[i])
        self._snap_how = how
        self._out = 0
        self._out_len = n
        self._snap_at = now
        self.snapshots += 1
        for p in range(2):  # (the follower's half-made moves go: so do ours)
            app.controls.chosen[p] = 255
            app.controls.slot[p] = 255
        self._pump(now)

    def _resync(self, now):
        # Our position for the follower, in the scene we are in: play on in
        # a match, else the pause (both pause scenes start again).
        how = SNAP_ON if self.app.mode == MATCH else SNAP_PAUSED
        self.send_snapshot(how, now)
        if how == SNAP_PAUSED:
            self.take_up(None, SNAP_PAUSED, now)

    def _pump(self, now):
        # The snapshot's next frames, as many as the link's window takes.
        buf = self._buf
        text = self._text
        while self._out >= 0:
            at = self._out
            if at == 0:
                buf[0] = self._snap_how
                buf[1] = 1 - self.seat
                buf[2] = self.count & 255
                buf[3] = self.count >> 8
                buf[4] = self._out_len & 255
                buf[5] = self._out_len >> 8
                buf[6] = self.snapshots & 255  # (its number: the follower counts as we do)
                k = min(9, self._out_len)
                for i in range(k):
                    buf[7 + i] = text[i]
                if not self.link.send(_SNAP, buf, 7 + k, now):
                    return
            else:
                k = min(16, self._out_len - at)
                for i in range(k):
                    buf[i] = text[at + i]
                if not self.link.send(_MORE, buf, k, now):
                    return
            at += k
            self._out = at if at < self._out_len else -1  # (-1: all of it on its way)

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
            if self.is_referee or self._wait_snap or self.state != PLAYING:
                return
            count = p[0] | p[1] << 8
            if count != (self.count + 1) & 0xFFFF:
                self._diverged(now)  # (the link delivers each once, in order: this cannot be)
                return
            self.count = count
            player = p[2]
            action = p[3]
            app = self.app
            if action >= EV_PAUSE:
                self._asked = False
                self.apply(player, action, _get32(p, 4), now)
                return
            self.apply(player, action, _get32(p, 4), now)  # (its scene's answer waits for the referee's)
            if state_hash(app.game, app.controls) != p[8] | p[9] << 8 | p[10] << 16:
                self._diverged(now)
        elif kind == _PRESS:
            if self.is_referee and self.state == PLAYING and not self.lost:
                t = self.sync.to_ours(_get32(p, 1), now)
                self._heard_upto(t)  # (its presses come in order: none earlier is still on its way)
                if ticks_diff(t, self._snap_at) >= 0:  # (a press from before the last snapshot is stale)
                    self.referee.add(1 - self.seat, p[0], t)
        elif kind == _TICK:
            if self.is_referee and self.link.has_before(p[4]):  # (no press of its is lost on the way)
                self._heard_upto(self.sync.to_ours(_get32(p, 0), now))
        elif kind == _SNAP:
            if self.is_referee:
                return
            self._snap_how = p[0]
            self.seat = p[1]
            self.count = p[2] | p[3] << 8
            self._text_len = p[4] | p[5] << 8
            self._snap_no = p[6]
            self._text_n = 0
            self._more(p, 7, n)
        elif kind == _MORE:
            if not self.is_referee and self._text_len >= 0:
                self._more(p, 0, n)
        elif kind == _ASK:
            if self.is_referee and self.state == PLAYING and not self.lost:
                if n and p[0] == 1:
                    self.divergences += 1
                if n < 2 or p[1] == self.snapshots & 255:  # (else one is on its way: sent after its silence)
                    self._resync(now)
        elif kind == _HELLO:
            self._heard_hello(p, n, now)

    def _heard_upto(self, t):
        # The follower's presses up to t (our clock) are all here. (Before a
        # ping says how its clock lies, its times mean nothing here; a word
        # that lies far from now, ahead or behind, is not taken up.)
        if not self.sync.known():
            return
        ahead = ticks_diff(t, self._now)
        if ticks_diff(t, self._upto) > 0 and -LOST_MS < ahead < 100 or ticks_diff(self._now, self._upto) > LOST_MS:
            self._upto = t

    def _more(self, p, start, n):
        text = self._text
        for i in range(start, n):
            if self._text_n < SNAP_MAX:
                text[self._text_n] = p[i]
                self._text_n += 1
        if self._text_n < self._text_len:
            return
        self._text_len = -1
        line = bytes(text[: self._text_n]).decode()
        self.state = PLAYING
        self.lost = False
        self._wait_snap = False
        self._asked = False
        self.snapshots = self._snap_no  # (the referee's count: a restarted follower's too)
        self.take_up(line, self._snap_how, self._now)

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

    # -- finding each other --

    def _hello(self, now):
        app = self.app
        buf = self._buf
        buf[0] = VERSION
        g = self.resume
        buf[1] = g.kind if g is not None else app.kind
        buf[2] = g.rules if g is not None else app.rules
        buf[3] = self.nonce & 255
        buf[4] = self.nonce >> 8
        buf[5] = self.peer & 255
        buf[6] = self.peer >> 8
        buf[7] = self.state | (4 if g is not None else 0)
        h = state_hash(g, app.controls) if g is not None else 0
        buf[8] = h & 255
        buf[9] = (h >> 8) & 255
        buf[10] = h >> 16
        self.link.send(_HELLO, buf, 11, now)

    def _heard_hello(self, p, n, now):
        if n < 11:
            return
        nonce = p[3] | p[4] << 8
        if nonce != self.peer:
            # Another device, or the same one restarted: its frames start
            # again from the first, and so do ours.
            self._rejoin = self.peer != 0
            self.peer = nonce
            self.link.reset()
            self._out = -1
        seen = p[5] | p[6] << 8
        state = p[7] & 3
        resume = p[7] & 4
        if p[0] != VERSION:
            self.problem = "versions differ: %d here, %d there" % (VERSION, p[0])
            return
        if self.state == PLAYING:
            # The other device restarted (or left the match and came back):
            # it joins ours, which this device now referees.
            if state == SEEKING and seen == self.nonce and self._rejoin:
                self._rejoin = False
                self.is_referee = True
                self.lost = False
                self._wait_snap = False
                self.send_snapshot(SNAP_PAUSED, now)
                self.take_up(None, SNAP_PAUSED, now)
            return
        if state == PLAYING:
            self.problem = ""  # (it referees: its snapshot comes when it hears us)
            self._hello_at = ticks_add(now, -HELLO_MS)  # (answer at once: our hello says we heard it)
            return
        app = self.app
        g = self.resume
        kind = g.kind if g is not None else app.kind
        rules = g.rules if g is not None else app.rules
        if p[1] != kind or p[2] != rules:
            self.problem = "the other chose another game or rules"
            return
        if bool(resume) != (g is not None):
            self.problem = "one resumes, one starts new"
            return
        if g is not None and (p[8] | p[9] << 8 | p[10] << 16) != state_hash(g, app.controls):
            self.problem = "saved matches differ"
            return
        self.problem = ""
        if seen != self.nonce:
            self._hello_at = ticks_add(now, -HELLO_MS)  # (let it hear us at once)
            return
        if nonce == self.nonce:  # (once in 65,536 pairs): another number, from the time now
            self.nonce = (self.nonce * 75 + 74 + (now & 0xFFFF)) & 0xFFFF or 1
            self._hello_at = ticks_add(now, -HELLO_MS)
            return
        if self.nonce > nonce:  # we referee and deal
            self.is_referee = True
            self.seat = 0
            self.state = PLAYING
            self._heard_at = now
            self._ping_at = ticks_add(now, -PING_MS)
            self._start(self.resume, now)
            self.send_snapshot(SNAP_START, now)
