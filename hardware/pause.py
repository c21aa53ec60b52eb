# The pause scene: its words, its keys, the countdown back to the match, or
# leaving for the menu. Loaded when a match is paused (or a saved one is
# resumed: the countdown only) and forgotten when it goes on or is left
# (hardware.forget), so a match keeps its heap. It asks the App for what
# comes next through what press and step return (hardware/modes.py).

from .keymaps import PILE_0
from .modes import COUNTDOWN_MS, ELSEWHERE, GO_ON, GONE, LEAVE, OTHER_GAME, OTHER_LEFT, STAY
from .ticks import ticks_add, ticks_diff


class Pause:
    def __init__(self, app, now_ms, counting=False):
        # counting: straight to the countdown (a saved match resumed: whoever
        # pressed "go" gets no head start).
        self.app = app
        self.since = now_ms  # when the match stopped
        self._ready = 0  # bit p: player p has pressed to go on
        self._resume_at = ticks_add(now_ms, COUNTDOWN_MS) if counting else None  # the countdown's end
        self._shown = -1  # what the screen shows now
        self._go = STAY
        self.tick(now_ms)

    def step(self, now_ms):
        # One pass: the keys, then the countdown.
        self._go = STAY
        self.app.buttons.poll(None, self)
        return self._go or self.tick(now_ms)

    def due(self, now_ms):
        # 0 while the countdown runs; else when a page of words turns.
        if self._resume_at is not None:
            return 0
        return self.app.pages.due(now_ms)

    def press(self, player, action):
        # Any key: that player is ready (the match goes on when every person at
        # the device is, after a countdown); pile 2: leave for the menu.
        if self._resume_at is not None:
            return STAY  # the countdown runs: presses wait for the match
        phase = self.phase()
        if action == PILE_0 + 1 or phase == GONE:  # (the other player left: only the menu is left)
            self._go = LEAVE
            return LEAVE
        if phase == ELSEWHERE:
            return STAY  # (nobody to go on with until the other handheld joins)
        self._ready |= 1 << player
        want = self.app.humans()
        if self._ready & want == want:
            self._resume_at = ticks_add(self.app.controls.now, COUNTDOWN_MS)
        return STAY

    def tick(self, now_ms):
        # The countdown's second on the screen, or GO_ON when it is over.
        app = self.app
        if self._resume_at is not None and ticks_diff(now_ms, self._resume_at) >= 0:
            return GO_ON
        left = -1 if self._resume_at is None else (ticks_diff(self._resume_at, now_ms) + 999) // 1000
        noise = app.linked.noise() if app.linked is not None else 0  # (linked play: bad frames on the cable)
        shown = (left * 8 + self._ready) * 2 + (1 if noise and left < 0 else 0)  # (the countdown says no noise)
        if shown != self._shown:
            self._shown = shown
            app.show_lines(self.lines(left, noise), app.twice(), now_ms)
            if left >= 0:
                # Each second of the countdown (its words change only then:
                # it does not show the link's noise): nobody plays yet, so
                # the board collects then (about 21 ms), and the garbage a
                # countdown makes (a linked one: its frames, the clock's
                # pings) never piles up on what the lobby left.
                app.collect()
        else:
            app.pages.turn(now_ms)  # (a small screen shows the words a page at a time)
        return STAY

    def phase(self):
        # The linked session's phase (hardware/modes.py), or 0: a match on one device.
        linked = self.app.linked
        return linked.phase if linked is not None else 0

    def lines(self, left, noise=0):
        app = self.app
        phase = self.phase()
        if phase == GONE:
            if len(OTHER_LEFT) <= app.screen.cols:
                return [OTHER_LEFT, "any key: menu"]
            return ["the other player", "left", "any key: menu"]  # (the 240 panel's 20 columns)
        if left >= 0:  # the countdown, in the middle of the screen (of each half, seats facing)
            cols = app.screen.cols
            room = app.screen.rows // 2 if app.twice() else app.screen.rows
            # (" ": a line between them where there is room, kept where blank ones are left out)
            words = [str(left), " ", "get ready"] if room > 3 else [str(left), "get ready"]
            return [" "] * ((room - len(words)) // 2) + [" " * ((cols - len(w)) // 2) + w for w in words]
        if phase == ELSEWHERE:
            return [
                "PAUSED: " + OTHER_GAME,
                "the other handheld",
                "chose another game",
                app.profile.get("pile_2_words", ("pile 2: leave match", "pile 2: back"))[0],
            ]
        want = app.humans()
        waiting = " ".join(app.who(p) for p in range(2) if want & (1 << p) and not self._ready & (1 << p))
        lines = [
            "PAUSED: " + app.pause_why if app.pause_why else "PAUSED by " + app.who(app.paused_by),
            "other keys: go on",
            "waiting: " + (waiting or "anyone"),
            app.profile.get("pile_2_words", ("pile 2: leave match", "pile 2: back"))[0],
        ]  # the most needed first: a small screen shows the first ones twice
        if noise:
            lines.append(("radio noise: %d" if app.linked.pair else "cable noise: %d") % noise)
        return lines
