# Two handhelds linked by a cable, in one process and one simulated time
# (issue 36): each the board's App with its own clock (offset and drift,
# desktop/link_model.py), its own keypad stand-in and its own screen (a real
# Screen on a headless display, or a Quiet one that draws nothing, for the
# bench's thousands of matches), their UARTs the two ends of a modelled
# cable. The tests and tools/bench_link.py drive it; the board never loads it.

from desktop.keys import DesktopKeys, Event
from desktop.link_model import Link as Cable
from desktop.link_model import Uart, two_clocks
from engine.cards import Rng
from hardware.app import App
from hardware.keymaps import PILE_0, STOCK_0, key_numbers
from hardware.modes import LINKED, MATCH, PAUSED
from hardware.plan import keys_for_move
from hardware.ticks import ticks_diff

PASS_US = 1000  # each device's loop: a pass every millisecond
_GO = PILE_0 + 1  # the menu's "go"


class QuietScreen:
    """A Screen's surface that draws nothing (the bench plays thousands of
    linked matches): what the App sets and asks, answered as a table of
    the profile's size does."""

    def __init__(self, profile):
        scale = 2 if profile["width"] >= 240 else 1  # (as hardware/screen_build.py sizes the text)
        self.cols = profile["width"] // (6 * scale)
        self.rows = profile["height"] // (12 * scale)
        self.names = ("bottom", "top")
        self.bottom = 0
        self.shown = 0  # tables drawn

    def set_style(self, facing, four_colours, bottom=0):
        self.bottom = bottom

    def show_game(self, game, controls, now_ms):
        self.shown += 1
        return None

    def show_text(self, lines, twice=False):
        self.lines = lines


class Device:
    def __init__(self, profile, screen, cable, side, clock, t_us, nonce, seed):
        self.side = side
        self.clock = clock
        self.t_us = t_us  # the true time, shared: [us]
        self.keys = DesktopKeys(len(profile["keymap"]), self.ticks_ms)
        self.uart = None
        self.cable = cable
        self.app = App(screen, self.keys, Event(), profile, self.ticks_ms, seed=seed, link=lambda: self.open_link())
        self.app.players = LINKED
        self.app.nonce = nonce
        self.numbers = key_numbers(profile["keymap"])
        self.up_at = {}  # key: the true time it is let go

    def ticks_ms(self):
        return self.clock.ticks_ms(self.t_us[0])

    def open_link(self):
        # This device's end of the modelled cable.
        self.uart = Uart(self.cable, self.side, self.t_us)
        return self.uart

    def press(self, action, hold_us=60000):
        # This device's player presses a button (its keymap's player 0's), seen at once.
        k = self.numbers[action]
        if k >= len(self.keys.level) or self.keys.level[k]:
            return False  # (no such key on this board, or it is held)
        self.keys.set(k, True, self.ticks_ms())
        self.up_at[k] = self.t_us[0] + hold_us
        return True

    def step(self):
        t = self.t_us[0]
        for k in sorted(self.up_at):  # (in key order: the same on every VM)
            up = self.up_at[k]
            if up <= t:
                del self.up_at[k]
                self.keys.set(k, False, self.ticks_ms())
        self.app.step(self.ticks_ms())


class Pair:
    """Two devices on a cable: side 0's nonce is higher (it referees a new
    match) unless nonces are given. cable: a desktop.link_model.Link (its
    seed, delay, losses), else a clean one."""

    def __init__(self, profile, screens, seed=1, cable=None, nonces=(0x9000, 0x1000), clocks=None, seeds=None):
        self.t_us = [0]
        self.cable = cable if cable is not None else Cable(seed)
        a, b = clocks if clocks is not None else two_clocks(seed)
        seeds = seeds or (seed, seed + 1)
        self.devices = [
            Device(profile, screens[0], self.cable, 0, a, self.t_us, nonces[0], seeds[0]),
            Device(profile, screens[1], self.cable, 1, b, self.t_us, nonces[1], seeds[1]),
        ]

    def play_replays(self, replays, until_ms):
        # Each device's replay (a list of (ms, key number, pressed)), its
        # switches moved at their times from now; then until_ms in all.
        start = self.t_us[0]
        script = sorted(
            (start + ms * 1000, d, k, pressed) for d, events in enumerate(replays) for ms, k, pressed in events
        )
        while self.t_us[0] < start + until_ms * 1000:
            while script and script[0][0] <= self.t_us[0]:
                _, d, k, pressed = script.pop(0)
                dev = self.devices[d]
                dev.keys.set(k, pressed, dev.ticks_ms())
            self.run(1)

    def run(self, ms):
        end = self.t_us[0] + ms * 1000
        while self.t_us[0] < end:
            self.t_us[0] += PASS_US
            for d in self.devices:
                d.step()

    def run_until(self, done, ms):
        # Passes until done() (True) or ms of true time went by (False).
        end = self.t_us[0] + ms * 1000
        while self.t_us[0] < end:
            if done():
                return True
            self.run(1)
        return done()

    def start(self, ms=10000):
        # Both players choose linked play in the menu and press "go"; then
        # the countdown: True when both play the same match. (A cable
        # silent for a while, in a burst of losses, pauses the countdown:
        # both press a key to go on, as people would.)
        for d in self.devices:
            d.app.press(0, _GO)
        end = self.t_us[0] + ms * 1000
        while self.t_us[0] < end:
            if self.run_until(self.playing, 500):
                return True
            if all(d.app.mode == PAUSED and d.app.pause_why == "cable back" for d in self.devices):
                for d in self.devices:
                    d.press(STOCK_0)
        return self.playing()

    def playing(self):
        return all(d.app.mode == MATCH and d.app.game is not None for d in self.devices)

    def agree(self):
        # Both positions the same, in the notation.
        a, b = (d.app.game for d in self.devices)
        return a is not None and b is not None and a.text() == b.text()

    def since(self, side, t_ms):
        return ticks_diff(self.devices[side].ticks_ms(), t_ms)


class Racer:
    """A quick person at one device: a legal move of theirs every reaction
    time (drawn from react_ms), its keys pressed PRESS_MS apart; now and
    then (one in `stray`) a key at random instead."""

    PRESS_MS = 45

    def __init__(self, device, seed, react_ms=(150, 600), stray=8):
        self.device = device
        self.rng = Rng(seed)
        self.react_ms = react_ms
        self.stray = stray
        self.moves = bytearray(64)
        self.keys = bytearray(16)
        self.left = []  # (true time us, action) still to press
        self.next_us = 0
        self.presses = 0
        self.actions = [a for a in range(16) if device.numbers[a] < len(device.keys.level)]  # (its player's keys)

    def step(self):
        d = self.device
        t = d.t_us[0]
        if self.left:
            if self.left[0][0] <= t and d.press(self.left[0][1]):
                self.left.pop(0)
                self.presses += 1
            return
        app = d.app
        if app.mode == PAUSED and app.pause_why and t >= self.next_us:  # the cable paused it: go on when it can
            self.next_us = t + 500000
            d.press(STOCK_0)
            return
        if t < self.next_us or app.mode != MATCH or app.game is None or app.linked is None:
            return
        lo, hi = self.react_ms
        self.next_us = t + (lo + self.rng.below(hi - lo + 1)) * 1000
        g = app.game
        seat = app.linked.seat
        n = g.moves(seat, self.moves)
        if self.rng.below(self.stray) == 0 or not n:
            self.left.append((t, self.actions[self.rng.below(len(self.actions))]))
            return
        k = keys_for_move(g, app.controls, seat, self.moves[self.rng.below(n)], self.keys)
        for i in range(k):
            self.left.append((t + i * self.PRESS_MS * 1000, self.keys[i]))
