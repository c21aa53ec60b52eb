# A snapshot of linked play: the referee's position as a line of
# the notation, sent to the follower a frame's worth at a time, and taken up
# by both: a new match (the countdown), the cable back or a device restarted
# (the pause), or the positions mended after a divergence (play on). Loaded
# while one is on its way or coming in, and forgotten after
# (hardware/linked.py): a match plays without it.

from engine.spit import GAME_OVER, PLAY

from . import forget
from .modes import GO_ON, LOBBY, OVER, PAUSED
from .protocol import (
    MAX_PAYLOAD,
    MORE,
    SNAP,
    SNAP_COUNT,
    SNAP_HOW,
    SNAP_LENGTH,
    SNAP_LINE,
    SNAP_MAX,
    SNAP_NUMBER,
    SNAP_ON,
    SNAP_SEAT,
    SNAP_START,
)

forget("hardware.protocol")  # (its numbers are ours now)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


# MORE's payload (hardware/protocol.py): the snapshot's number, where in the line its bytes go, the bytes.
_MORE_NUMBER = const(0)
_MORE_AT = const(1)
_MORE_LINE = const(3)


class Snapshot:
    def __init__(self, linked):
        self.linked = linked  # the session: its link, its count, its seat
        self.how = 0
        self.number = 0  # the snapshot's: the follower counts them as the referee does
        self._text = bytearray(SNAP_MAX)  # the line, being sent or received
        self._n = 0  # its bytes received
        self._len = -1  # its length (-1: no line coming)
        self._out = -1  # its bytes queued (the referee), or -1: none on its way
        self._buf = bytearray(MAX_PAYLOAD)

    # -- the referee's --

    def send(self, how, now):
        # Our position on its way: the line, then as many frames as the
        # link has room for (pump sends the rest).
        app = self.linked.app
        line = app.game.text()
        for name in ("engine.spit_text", "engine.speed_text", "engine.notation"):
            forget(name)  # (written again only at the next snapshot)
        data = line.encode()  # (a character taken out of a str is looked up among the firmware's names: 0.08 ms each)
        n = len(data)
        if n > SNAP_MAX:
            raise ValueError("a position line longer than %d bytes" % SNAP_MAX)
        self._text[:n] = data
        self.how = how
        self.number = self.linked.snapshots
        self._out = 0
        self._len = n
        app.controls.settle()  # (the follower's half-made moves and races go: so do ours)

    def pump(self, now):
        # The line's next frames, as many as the link's window takes: True
        # once all of it is on its way.
        linked = self.linked
        buf = self._buf
        text = self._text
        n = self._len
        while self._out >= 0:
            at = self._out
            if at == 0:
                count = linked.count
                buf[SNAP_HOW] = self.how
                buf[SNAP_SEAT] = 1 - linked.seat
                buf[SNAP_COUNT] = count & 255
                buf[SNAP_COUNT + 1] = count >> 8
                buf[SNAP_LENGTH] = n & 255
                buf[SNAP_LENGTH + 1] = n >> 8
                buf[SNAP_NUMBER] = self.number & 255
                k = min(MAX_PAYLOAD - SNAP_LINE, n)
                for i in range(k):
                    buf[SNAP_LINE + i] = text[i]
                if not linked.link.send(SNAP, buf, SNAP_LINE + k, now):
                    return False
            else:
                k = min(MAX_PAYLOAD - _MORE_LINE, n - at)
                buf[_MORE_NUMBER] = self.number & 255
                buf[_MORE_AT] = at & 255
                buf[_MORE_AT + 1] = at >> 8
                for i in range(k):
                    buf[_MORE_LINE + i] = text[at + i]
                if not linked.link.send(MORE, buf, _MORE_LINE + k, now):
                    return False
            at += k
            self._out = at if at < n else -1
        return True

    # -- the follower's --

    def first(self, p, n):
        # The first frame (p: its payload, n bytes, its fields checked:
        # hardware/protocol.py's fits): True when the line is whole.
        self.how = p[SNAP_HOW]
        self._len = p[SNAP_LENGTH] | p[SNAP_LENGTH + 1] << 8
        self.number = p[SNAP_NUMBER]
        self._n = 0
        return self.more(p, n, SNAP_LINE)

    def more(self, p, n, start=-1):
        # A frame of the line's next bytes (start: the first frame's, from
        # there): True when the line is whole. One of another snapshot, or
        # not where the line has got to, is not taken.
        if start < 0:
            if self._len < 0 or p[_MORE_NUMBER] != self.number or (p[_MORE_AT] | p[_MORE_AT + 1] << 8) != self._n:
                return False
            start = _MORE_LINE
        text = self._text
        for i in range(start, n):
            if self._n < self._len:
                text[self._n] = p[i]
                self._n += 1
        return self._n >= self._len

    def game(self):
        # The line received, as a position (ValueError: it is none).
        from engine import games

        try:
            return games.from_text(bytes(self._text[: self._n]).decode())
        finally:
            for name in ("engine.games", "engine.spit_text", "engine.speed_text", "engine.notation"):
                forget(name)  # (the notation is read again only at the next snapshot)

    # -- both: the position played from --

    def deal(self, game, now):
        # The referee's new match (or the saved one, game): the countdown.
        app = self.linked.app
        if game is None:
            from engine import games

            seed = (app.seed if app.seed is not None else now) + app.matches
            game = games.new(app.kind, seed, app.rules)
            forget("engine.games")
        self._begin(game, now, True)

    def take_up(self, game, how, now):
        # The referee's position (parsed from its line; None: ours, as it
        # is) to play from, as how says.
        app = self.linked.app
        if game is not None:
            app.controls.settle()  # (the referee's went too: no half-made move, no race waiting)
        else:
            game = app.game
        if game is None:
            return
        if game.phase == GAME_OVER and how != SNAP_START:
            # The match ended while the link was lost (its last event never
            # came): the referee's result, with its sound.
            app.game = game
            if app.mode != OVER:
                if app.mode == PAUSED:
                    app.follow(GO_ON, now)
                app.sound_for(game, PLAY, True, now)
                app.game_over(now)
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
            app.pause(now, "radio's back" if self.linked.pair else "cable back")

    def _begin(self, game, now, counting):
        app = self.linked.app
        if app.mode == LOBBY:
            forget("hardware.lobby")
        app.begin(game, now)
        from .pause import Pause

        app.mode = PAUSED
        app.pause_why = ""
        app.scene = Pause(app, now, counting)
