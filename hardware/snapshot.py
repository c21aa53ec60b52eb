# A snapshot of linked play (issue 36): the referee's position as a line of
# the notation, sent to the follower a frame's worth at a time, and taken up
# by both: a new match (the countdown), the cable back or a device restarted
# (the pause), or the positions mended after a divergence (play on). Loaded
# while one is on its way or coming in, and forgotten after
# (hardware/linked.py): a match plays without it.

from engine.spit import GAME_OVER, PLAY

from . import forget
from .link import PAYLOAD
from .modes import GO_ON, LOBBY, OVER, PAUSED, SNAP_ON, SNAP_START
from .protocol import MORE, SNAP, SNAP_COUNT, SNAP_HOW, SNAP_LENGTH, SNAP_LINE, SNAP_NUMBER, SNAP_SEAT

forget("hardware.protocol")  # (its numbers are ours now)

SNAP_MAX = 320  # the longest position line


class Snapshot:
    def __init__(self, linked):
        self.linked = linked  # the session: its link, its count, its seat
        self.how = 0
        self.number = 0  # the snapshot's: the follower counts them as the referee does
        self._text = bytearray(SNAP_MAX)  # the line, being sent or received
        self._n = 0  # its bytes received
        self._len = -1  # its length (-1: no line coming)
        self._out = -1  # its bytes queued (the referee), or -1: none on its way
        self._buf = bytearray(PAYLOAD)

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
                k = min(PAYLOAD - SNAP_LINE, n)
                for i in range(k):
                    buf[SNAP_LINE + i] = text[i]
                if not linked.link.send(SNAP, buf, SNAP_LINE + k, now):
                    return False
            else:
                k = min(PAYLOAD, n - at)
                for i in range(k):
                    buf[i] = text[at + i]
                if not linked.link.send(MORE, buf, k, now):
                    return False
            at += k
            self._out = at if at < n else -1
        return True

    # -- the follower's --

    def first(self, p, n):
        # The first frame (p: its payload, n bytes): True when the line is whole.
        self.how = p[SNAP_HOW]
        self._len = p[SNAP_LENGTH] | p[SNAP_LENGTH + 1] << 8
        self.number = p[SNAP_NUMBER]
        self._n = 0
        return self.more(p, SNAP_LINE, n)

    def more(self, p, start, n):
        # More of the line: True when it is whole.
        if self._len < 0:
            return False
        text = self._text
        for i in range(start, n):
            if self._n < SNAP_MAX:
                text[self._n] = p[i]
                self._n += 1
        return self._n >= self._len

    def line(self):
        return bytes(self._text[: self._n]).decode()

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

    def take_up(self, line, how, now):
        # The referee's position (its line of the notation; None: ours, as it
        # is) to play from, as how says.
        app = self.linked.app
        game = app.game
        if line is not None:
            from engine import games

            game = games.from_text(line)
            for name in ("engine.games", "engine.spit_text", "engine.speed_text", "engine.notation"):
                forget(name)  # (the notation is read again only at the next snapshot)
            app.controls.settle()  # (the referee's went too: no half-made move, no race waiting)
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
