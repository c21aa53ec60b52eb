# Two handhelds linked by a cable, in one process and one simulated time:
# each the board's App with its own clock (offset and drift,
# desktop/link_model.py), its own keypad stand-in and its own screen (a real
# Screen on a headless display, or a Quiet one that draws nothing, for the
# bench's thousands of matches), their UARTs the two ends of a modelled
# cable; or, linked by radio, each a station on the modelled air
# (desktop/radio_model.py) through hardware/radio.py, as on the board. The
# tests and tools/bench_link.py drive it; the board never loads it.

from desktop.keys import DesktopKeys, Event
from desktop.link_model import Clock, Uart, frame_bytes, two_clocks
from desktop.link_model import Link as Cable
from desktop.radio_model import BROADCAST, Air
from engine.cards import Rng
from hardware.app import App
from hardware.keymaps import PILE_0, STOCK_0, key_numbers
from hardware.modes import GONE, LINKED, LOBBY, LOST, MATCH, MENU, OVER, PAUSED
from hardware.plan import keys_for_move
from hardware.ticks import ticks_diff

PASS_US = 1000  # each device's loop: a pass every millisecond
MACS = (b"\x24\x0a\xc4\x00\x00\x01", b"\x24\x0a\xc4\x00\x00\x02")  # the two handhelds' radios
_GO = PILE_0 + 1  # the menu's "go"
# A Pico's time to draw (paced devices, Device.pace): a pass that drew the
# table, and one that took up a snapshot (the notation read, a new table).
DRAW_US = 20000
SNAPSHOT_US = 330000


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

    def show_text(self, lines, twice=False, chosen=-1):
        self.lines = lines
        return 0  # (every row drawn)


class Device:
    def __init__(self, profile, screen, cable, side, clock, t_us, nonce, seed, mac=None):
        self.side = side
        self.clock = clock
        self.t_us = t_us  # the true time, shared: [us]
        self.keys = DesktopKeys(len(profile["keymap"]), self.ticks_ms)
        self.uart = None
        self.cable = cable
        self.station = cable.station(mac or MACS[side], t_us) if isinstance(cable, Air) else None
        self.app = App(screen, self.keys, Event(), profile, self.ticks_ms, seed=seed, link=lambda: self.open_link())
        self.app.players = LINKED
        self.app.nonce = nonce
        self.numbers = key_numbers(profile["keymap"])
        self.up_at = {}  # key: the true time it is let go
        # A board whose firmware scans its keys slowly (a Cardputer's keyboard,
        # every 10 ticks: profile "keypad_scan"): a press is seen at the scan that
        # ends its debounce, stamped with that scan's time; scans fall on a
        # grid of the device's own (its phase drawn from the seed). Else a
        # press is seen at once, at its own ms.
        scan = profile.get("keypad_scan")
        self.scan_us = int(scan[0] * 1024) * 1000000 // 1024 if scan else 0
        self.debounce = scan[1] if scan else 1
        self.phase_us = seed * 7919 % self.scan_us if scan else 0
        self.down_at = {}  # key: the true time of the scan that reports its press
        # Paced: each pass takes the board's time to draw what it drew (no
        # pass runs meanwhile; keys are still stamped by the scanner, and
        # bytes pile up in the UART's buffer). Off: a pass every ms.
        self.pace = False
        self._busy_until = 0
        self._drawn = (0, 0)

    def ticks_ms(self):
        return self.clock.ticks_ms(self.t_us[0])

    def restart(self, nonce):
        # The handheld switched off and on: a new App (nothing of the old
        # one's session kept; nothing saved: a linked match never is), its
        # keys let go, in linked play's menu.
        profile = self.app.profile
        self.keys = DesktopKeys(len(profile["keymap"]), self.ticks_ms)
        self.up_at = {}
        self.down_at = {}
        self.app = App(self.app.screen, self.keys, Event(), profile, self.ticks_ms, seed=self.side, link=self.open_link)
        self.app.players = LINKED
        self.app.nonce = nonce

    def open_link(self):
        # This device's end of the modelled cable, or its radio on the air.
        if self.station is not None:
            from hardware.radio import RadioPort

            self.uart = RadioPort(self.station.espnow)
        else:
            self.uart = Uart(self.cable, self.side, self.t_us)
        return self.uart

    def press(self, action, hold_us=60000):
        # This device's player presses a button (its keymap's player 0's), seen at once.
        k = self.numbers[action]
        if k >= len(self.keys.level) or self.keys.level[k]:
            return False  # (no such key on this board, or it is held)
        t = self.t_us[0]
        if self.scan_us:
            first = t + (self.phase_us - t) % self.scan_us  # the first scan at or after the press
            self.down_at[k] = first + (self.debounce - 1) * self.scan_us
            self.keys.level[k] = True  # (held: pressed again only after it is let go)
        else:
            self.keys.set(k, True, self.ticks_ms())
        self.up_at[k] = t + hold_us
        return True

    def step(self):
        t = self.t_us[0]
        for k in sorted(self.down_at):  # (in key order: the same on every VM)
            down = self.down_at[k]
            if down <= t:
                del self.down_at[k]
                self.keys.level[k] = False
                self.keys.set(k, True, self.clock.ticks_ms(down))  # (the scan's stamp)
        for k in sorted(self.up_at):  # (in key order: the same on every VM)
            up = self.up_at[k]
            if up <= t and k not in self.down_at:  # (a press not yet scanned is let go after it)
                del self.up_at[k]
                self.keys.set(k, False, self.ticks_ms())
        if t < self._busy_until:
            return
        self.app.step(self.ticks_ms())
        if self.pace:
            linked = self.app.linked
            drawn = (getattr(self.app.screen, "shown", 0), linked.snapshots if linked is not None else 0)
            if drawn[1] != self._drawn[1] and linked is not None and not linked.is_referee:
                self._busy_until = t + SNAPSHOT_US
            elif drawn[0] != self._drawn[0]:
                self._busy_until = t + DRAW_US
            self._drawn = drawn


def passes(t_us, steppers, ms):
    # ms of passes, a pass every PASS_US of the shared true time: each
    # device, then what steps with them (strangers, people), in that order.
    end = t_us[0] + ms * 1000
    while t_us[0] < end:
        t_us[0] += PASS_US
        for s in steppers:
            s.step()


class Pair:
    """Two devices on a cable: side 0's nonce is higher (it referees a new
    match) unless nonces are given. cable: a desktop.link_model.Link (its
    seed, delay, losses), or a desktop.radio_model.Air (linked by radio),
    else a clean cable. others: what else steps with them (Strangers)."""

    def __init__(self, profile, screens, seed=1, cable=None, nonces=(0x9000, 0x1000), clocks=None, seeds=None):
        self.t_us = [0]
        self.cable = cable if cable is not None else Cable(seed)
        a, b = clocks if clocks is not None else two_clocks(seed)
        seeds = seeds or (seed, seed + 1)
        self.devices = [
            Device(profile, screens[0], self.cable, 0, a, self.t_us, nonces[0], seeds[0]),
            Device(profile, screens[1], self.cable, 1, b, self.t_us, nonces[1], seeds[1]),
        ]
        self.others = []

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
        passes(self.t_us, self.devices + self.others, ms)

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
        # both press a key to go on, as people would. By radio each
        # confirms the handheld found when it is the other's.)
        for d in self.devices:
            d.app.press(0, _GO)
        end = self.t_us[0] + ms * 1000
        while self.t_us[0] < end:
            if self.run_until(lambda: self.confirm() or self.playing(), 500):
                return True
            if all(d.app.mode == PAUSED and d.app.pause_why in ("cable back", "radio's back") for d in self.devices):
                for d in self.devices:
                    d.press(STOCK_0)
        return self.playing()

    def playing(self):
        return all(d.app.mode == MATCH and d.app.game is not None for d in self.devices)

    def confirm(self):
        # By radio: a player whose lobby shows the handheld found, when it is
        # the other's (its name on the other screen), presses a key to play it.
        for d, other in ((self.devices[0], self.devices[1]), (self.devices[1], self.devices[0])):
            linked, theirs = d.app.linked, other.app.linked
            if d.app.mode == LOBBY and linked is not None and linked.confirmed == 0 and theirs is not None:
                if linked.peer == theirs.nonce:
                    d.press(STOCK_0)

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


# The harsh level (tools/bench_linked.py, make soak): many faults at once.
HARSH_REACT_MS = (60, 200)  # each player's moves, and one key in three a stray one
HARSH_STRAY = 3


def harsh_pair(profile, seed):
    """Two paced devices on a bad cable: 0.6 % of bytes lost and 0.3 %
    corrupted, bursts of about 15 bytes once in 3,000, one way 1 to 35 ms
    (18 +- 17), clocks 300 ppm apart, and now and then one way out for
    0.5 to 3 s or both ways for 2 to 4 s."""
    rnd = Rng(seed * 7 + 3)
    cable = Cable(seed, loss=6000, corrupt=3000, burst_every=3000, burst_bytes=15, delay_us=18000, jitter_us=17000)
    t = 0
    for _ in range(40):  # outages every 30 s or so (at this pace a match is over in a minute or so)
        t += (10 + rnd.below(40)) * 10**6
        if rnd.below(4):
            cable.pull(t, t + (500 + rnd.below(2501)) * 1000, rnd.below(2))
        else:
            cable.pull(t, t + (2000 + rnd.below(2001)) * 1000)
    clocks = (Clock(0x1FFF0000 + rnd.below(100000), 150), Clock(rnd.below(1 << 28) << 1, -150))
    screens = (QuietScreen(profile), QuietScreen(profile))
    pair = Pair(profile, screens, seed=seed, cable=cable, clocks=clocks)
    for d in pair.devices:
        d.pace = True
    return pair


# The scenes a device can be in, as its player sees them (Scenes).
IN_MATCH = "match"
IN_PAUSE = "pause"
IN_OVER = "over"
OUT = "out"  # the menu or the lobby, or told the other player left


def scene(app):
    if app.linked is None or app.mode not in (MATCH, PAUSED, OVER):
        return OUT
    if app.mode == OVER:
        return IN_OVER
    if app.mode == PAUSED:
        return OUT if app.linked.phase == GONE else IN_PAUSE
    return IN_MATCH


class Scenes:
    """Whether two linked devices show the same scene: watched every pass,
    each time they differ timed until they agree again (a match over and
    the menu agree: each device leaves the result on its own player's key;
    a change is timed from when the wire from the device that changed
    carries: one that found the link lost and paused, one whose match ended
    or whose player left)."""

    def __init__(self, pair):
        self.pair = pair
        self.apart_since = None  # the true time (us) they began to differ, or None
        self.worst_ms = 0  # the longest they differed
        self.spells = 0  # times they differed
        self.over_2s = 0  # of them, longer than 2 s
        self.changed_at = None  # the true time (us) of the change that began this spell (not moved on)
        self.worst_plain_ms = 0  # the longest they differed, timed from the change itself
        self.plain_over_2s = 0  # spells longer than 2 s timed so (over_2s counts those the wire allowed)
        self.wire_out = 0  # spells during which the wire from the device that changed was out
        self._out = False  # that wire was out in this spell
        self.lost = 0  # times a device found the link lost (silent, or not heard)
        self.snapshots = 0  # snapshots the referees sent
        self.divergences = 0
        self.left_lost = 0  # times a player left while their device found the link lost (nobody to agree with)
        self._scene = [None, None]
        self._mover = 0  # the device whose scene changed first, when they began to differ
        self._lost = [False, False]
        self._sessions = [None, None]  # each device's linked session watched
        self._snaps = [0, 0]  # its snapshots sent (a referee's), divergences found (a follower's) so far
        self._found = [0, 0]

    def watch(self):
        a, b = (scene(d.app) for d in self.pair.devices)
        t = self.pair.t_us[0]
        if a == b or {a, b} == {OUT, IN_OVER}:
            if self.apart_since is not None:
                self._ended(t)
        elif self.apart_since is None:
            self.apart_since = self.changed_at = t
            self.spells += 1
            self._mover = 0 if a != self._scene[0] else 1
            self._out = False
        if self.apart_since is not None and not self.pair.cable.connected(t, self._mover):
            # Nothing can tell the other device of the change (a player left,
            # the match over, a pause) while the wire from the device that
            # changed is out: its 2 s start when the wire is back.
            self.apart_since = t
            self._out = True
        for i, (d, now) in enumerate(zip(self.pair.devices, (a, b))):
            if now == OUT and self._scene[i] == IN_PAUSE and self._lost[i]:
                self.left_lost += 1
            self._scene[i] = now
            linked = d.app.linked
            if linked is None:
                continue
            if linked is not self._sessions[i]:
                self._sessions[i] = linked
                self._snaps[i] = self._found[i] = 0
            if linked.phase == LOST != self._lost[i]:
                self._lost[i] = linked.phase == LOST
                self.lost += linked.phase == LOST
            snaps = linked.snapshots if linked.is_referee else 0
            found = 0 if linked.is_referee else linked.divergences
            self.snapshots += max(0, snaps - self._snaps[i])
            self.divergences += max(0, found - self._found[i])
            self._snaps[i] = snaps
            self._found[i] = found

    def _ended(self, t):
        ms = (t - self.apart_since) // 1000
        self.worst_ms = max(self.worst_ms, ms)
        self.over_2s += ms > 2000
        plain = (t - self.changed_at) // 1000
        self.worst_plain_ms = max(self.worst_plain_ms, plain)
        self.plain_over_2s += plain > 2000
        self.wire_out += self._out
        self.apart_since = None

    def finish(self):
        if self.apart_since is not None:
            self._ended(self.pair.t_us[0])


class Strangers:
    """Another pair of handhelds on the same radio channel, in their lobby:
    each of its two stations says hello to everyone in range every 300 ms,
    a hello that has heard the other of its pair (their own game; ours must
    refuse and count them, and stay paired)."""

    def __init__(self, air, t_us, nonces=(0x7777, 0x5555)):
        self.t_us = t_us
        self.stations = [air.station(bytes((0x30, 0xAE, 0xA4, 0, 0, i + 1)), t_us) for i in range(2)]
        self.frames = [self._hello(nonces[i], nonces[1 - i]) for i in range(2)]
        self._at = 0

    def _hello(self, nonce, seen):
        from hardware.modes import SEEKING
        from hardware.protocol import HELLO, HELLO_NONCE, HELLO_SEEN, HELLO_SIZE, HELLO_STATE, HELLO_VERSION, VERSION

        p = bytearray(HELLO_SIZE)
        p[HELLO_VERSION] = VERSION
        p[HELLO_NONCE], p[HELLO_NONCE + 1] = nonce & 255, nonce >> 8
        p[HELLO_SEEN], p[HELLO_SEEN + 1] = seen & 255, seen >> 8
        p[HELLO_STATE] = SEEKING
        return frame_bytes(HELLO, 0, 255, 0, p)

    def step(self):
        t = self.t_us[0]
        if t - self._at < 300000:
            return
        self._at = t
        for s, frame in zip(self.stations, self.frames):
            s.air.send(s, BROADCAST, frame, t)


class Fuzzer:
    """A buggy or hostile sender on the cable (by radio anyone in range can
    send): every every_ms, a frame with a good CRC to a device drawn at
    random, in that device's session, of one of the protocol's kinds (one in
    eight any byte), its payload random bytes of the kind's length (half the
    time) or of any length up to the link's; a reliable one half the time
    with the sequence number the device expects next. Its header's
    acknowledgement is the other device's own (a link without keys cannot
    tell a forged one from it: the payload is what is checked). sent: the frames
    written; unfit: those the protocol's own check (fits) refuses, which
    the devices must refuse and count."""

    def __init__(self, pair, seed, every_ms=100):
        from hardware import protocol
        from hardware.protocol import MAX_PAYLOAD

        self.pair = pair
        self.rng = Rng(seed)
        self.every_us = every_ms * 1000
        self.next_us = pair.t_us[0]
        self.payload = MAX_PAYLOAD
        self.fits = protocol.fits
        self.kinds = [
            (getattr(protocol, k), getattr(protocol, k + "_SIZE", None))
            for k in (
                "EVENT",
                "PRESS",
                "SNAP",
                "MORE",
                "ASK",
                "BYE",
                "ALIVE",
                "HELLO",
                "PING",
                "PONG",
                "TICK",
                "HASH",
                "WANT",
            )
        ]
        self.sent = 0
        self.unfit = 0
        self.on = True
        self.targets = []  # every session it sent to (one may end before anybody else sees it)

    def step(self):
        t = self.pair.t_us[0]
        if not self.on or t < self.next_us:
            return
        self.next_us = t + self.every_us
        r = self.rng
        side = r.below(2)
        linked = self.pair.devices[side].app.linked
        if linked is None:
            return  # (nothing listens: the device is in its menu)
        link = linked.link
        if linked not in self.targets:
            self.targets.append(linked)
        kind, size = self.kinds[r.below(len(self.kinds))]
        if r.below(8) == 0:
            kind = r.below(256)
            if kind == 0x7F:  # (an acknowledgement: no payload to check)
                kind = 0x7E
        n = size if size is not None and r.below(2) else r.below(self.payload + 1)
        p = bytes(r.below(256) for _ in range(n))
        seq = r.below(256)
        if r.below(2):
            seq = next(s for s in range(256) if link.has_before(s))
        self.sent += 1
        self.unfit += not self.fits(kind, p, n)
        other = self.pair.devices[1 - side].app.linked
        ack = 255 if other is None else (next(s for s in range(256) if other.link.has_before(s)) - 1) & 255
        self.pair.cable.send(1 - side, frame_bytes(kind, seq, ack, link.session, p), t)


class Churn:
    """People changing their minds around a linked pair (tools/bench_linked.py
    --churn, and a short run in the tests): at random moments either player
    leaves (the lobby, the countdown, a snapshot on its way, a match by the
    pause chord, a pause, a result), chooses linked play again with either
    game, or switches the handheld off and on; the cable is pulled for 1 to
    5 s now and then; both race in between (Racer). Then calm(): 12 s in
    which people go on when asked, and 3 s in which nobody presses. ended()
    says how the two ended.
    Each time linked play is chosen the handheld draws a new number, as a
    board does."""

    def __init__(self, pair, seed, act_ms=(1000, 6000), pull_every_ms=8000):
        self.pair = pair
        self.rng = Rng(seed)
        self.act_ms = act_ms
        self.pull_every_ms = pull_every_ms
        self.racers = [Racer(d, seed * 2 + i) for i, d in enumerate(pair.devices)]
        self.next_us = [self._later(), self._later()]
        self.pull_us = pair.t_us[0] + self.rng.below(pull_every_ms) * 1000
        self.chose = [None, None]  # the game each player last chose
        self.acts = {"leave": 0, "again": 0, "restart": 0, "pull": 0, "on": 0}
        self.calming = False
        self.hands_off = False
        self.sessions = []  # every linked session seen (its counts)
        self.wrong = []  # sessions in which a player was in a match of the other game
        self.log = []  # (ms, device, what), each act
        self._on_at = [0, 0]

    def _later(self):
        lo, hi = self.act_ms
        return self.pair.t_us[0] + (lo + self.rng.below(hi - lo + 1)) * 1000

    def nonce(self):
        return self.rng.below(0xFFFF) + 1

    def choose(self, i):
        # Linked play chosen in the menu, a game drawn, a new number.
        d = self.pair.devices[i]
        app = d.app
        if app.mode != MENU:
            return
        app.kind = self.rng.below(2)
        app.players = LINKED
        app.nonce = self.nonce()
        app.saved = None  # (the menu's first line: a new match of the game chosen)
        self.chose[i] = app.kind
        app.press(0, _GO)
        self._did(i, "again")

    def leave(self, i):
        d = self.pair.devices[i]
        app = d.app
        if app.mode == LOBBY or app.mode == PAUSED:
            d.press(PILE_0 + 1)
        elif app.mode == MATCH:
            d.press(PILE_0, hold_us=1300000)  # the pause chord, then pile 2 once paused
            d.press(PILE_0 + 1, hold_us=1300000)
            self.next_us[i] = self.pair.t_us[0] + 1500000
            return
        elif app.mode == OVER:
            d.press(STOCK_0)
        self._did(i, "leave")

    def _did(self, i, what):
        self.acts[what.split()[0]] += 1
        self.log.append((self.pair.t_us[0] // 1000, i, what))

    def step(self):
        pair = self.pair
        t = pair.t_us[0]
        for i, d in enumerate(pair.devices):
            linked = d.app.linked
            if linked is not None and linked not in self.sessions:
                self.sessions.append(linked)
            game = d.app.game
            if (
                linked is not None
                and game is not None
                and d.app.mode in (MATCH, PAUSED)
                and self.chose[i] is not None
                and game.kind != self.chose[i]
                and linked not in self.wrong
            ):
                self.wrong.append(linked)  # (a match of the game this player did not choose)
            if d.app.mode == MATCH and not self.hands_off:
                self.racers[i].step()
            if d.app.mode == LOBBY and not self.hands_off:
                pair.confirm()
            if self.hands_off:
                continue
            if self.calming:
                self._go_on(i, t)
                continue
            if t < self.next_us[i]:
                continue
            self.next_us[i] = self._later()
            roll = self.rng.below(100)
            mode = d.app.mode
            if roll < 6:
                d.restart(self.nonce())
                self.chose[i] = None
                self._did(i, "restart")
            elif mode == MENU:
                self.choose(i)
            elif mode == PAUSED and d.app.pause_why in ("cable back", "radio's back", "") and roll < 40:
                d.press(STOCK_0)  # ready to go on
                self._did(i, "on")
            elif roll < 45:
                self.leave(i)
        if not self.calming and t >= self.pull_us:
            out = (1000 + self.rng.below(4001)) * 1000
            if isinstance(pair.cable, Air):
                pair.cable.silence(t, t + out)  # (by radio: nothing heard on the channel)
            else:
                pair.cable.pull(t, t + out)
            self._did(-1, "pull %d ms" % (out // 1000))
            self.pull_us = t + out + self.rng.below(self.pull_every_ms) * 1000

    def _go_on(self, i, t):
        # Calm: a person goes on when the screen asks, a key every 600 ms.
        d = self.pair.devices[i]
        app = d.app
        if t - self._on_at[i] < 600000:
            return
        offered = app.mode == LOBBY and app.linked is not None and app.linked.offer >= 0
        if app.mode == PAUSED or app.mode == OVER or offered:  # (the lobby's offer: the other's match)
            self._on_at[i] = t
            if offered:
                self.chose[i] = app.linked.offer & 1  # (this player goes on into the other's game)
            d.press(STOCK_0)

    def calm(self, ms=12000):
        self.calming = True
        self.play(ms)
        self.hands_off = True
        self.play(3000)  # (nobody presses: what is on its way arrives, resent on a harsh cable)

    def play(self, ms):
        end = self.pair.t_us[0] + ms * 1000
        while self.pair.t_us[0] < end:
            self.step()
            self.pair.run(1)

    def counts(self):
        # Over every session seen: presses not sent (counted: the link lost,
        # a position awaited, a session started again), presses refused as
        # stale by a referee, presses and events lost for want of room (goal
        # 0), frames of another session, and frames refused as noise.
        c = {"unsent": 0, "stale presses": 0, "dropped": 0, "stale frames": 0, "noise": 0}
        for s in self.sessions:
            c["unsent"] += s.unsent
            c["stale presses"] += s.order.stale if s.order is not None else 0
            c["dropped"] += s.dropped()
            c["stale frames"] += s.link.stale
            c["noise"] += s.link.bad
        return c

    def ended(self):
        """How the two ended: "match" (both in the same match, positions
        equal), "out" (neither in a linked match: a handheld whose screen
        says the other left is out too), "alone" (one in a match with the
        link lost, the other in its menu, which does not listen: switched off
        and on, or left while the cable was out, so nothing could tell the
        first), or what strands them."""
        a, b = (d.app for d in self.pair.devices)
        in_a = a.linked is not None and a.mode in (MATCH, PAUSED, OVER) and a.linked.phase != GONE
        in_b = b.linked is not None and b.mode in (MATCH, PAUSED, OVER) and b.linked.phase != GONE
        if in_a and in_b:
            if a.linked.phase == LOST and b.linked.phase == LOST:
                return "both paused, the link out"  # (an outage at the end: the position comes when it is back)
            return "match" if self.pair.agree() else "positions differ"
        if in_a or in_b:
            one, other = (a, b) if in_a else (b, a)
            if one.linked.phase == LOST and other.mode == MENU and other.linked is None and other.leaving is None:
                return "alone"
            return "one in a match (%s)" % one.pause_why
        if a.mode == LOBBY and b.mode == LOBBY and not (a.linked and a.linked.problem or b.linked and b.linked.problem):
            return "both looking"
        return "out"


class Room:
    """Two pairs of handhelds on one radio channel, all four choosing linked
    play within the same second (a classroom, a family with two pairs): each
    person knows which handheld is their friend's. A person whose lobby
    shows a handheld found confirms it when its name is the one on their
    friend's screen ("this one: ..."); else goes back and chooses again a
    moment later. done(): each handheld in a match with the one its player
    confirmed, who confirmed it too."""

    def __init__(self, profile, seed, loss=0):
        from hardware.lobby import name_of

        self.name_of = name_of
        self.t_us = [0]
        self.air = Air(seed, loss=loss)
        self.rng = Rng(seed * 13 + 5)
        r = self.rng
        self.devices = []
        for i in range(4):
            clock = Clock(r.below(1 << 28), r.below(101) - 50)
            mac = bytes((0x24, 0x0A, 0xC4, seed & 255, seed >> 8 & 255, i + 1))
            screen = QuietScreen(profile)
            self.devices.append(Device(profile, screen, self.air, i, clock, self.t_us, 0, seed * 4 + i, mac=mac))
        self.friend = (1, 0, 3, 2)
        self.choose_at = [r.below(1000) * 1000 for _ in range(4)]  # (all within the same second)
        self.confirm_at = [None] * 4
        self.confirmed = [None] * 4  # the nonce of the handheld each player confirmed
        self.backs = 0  # times a player went back from a handheld found that was not their friend's

    def step(self):
        t = self.t_us[0]
        r = self.rng
        for i, d in enumerate(self.devices):
            app = d.app
            if app.mode == MENU and self.choose_at[i] is not None and t >= self.choose_at[i]:
                self.choose_at[i] = None
                app.players = LINKED
                app.nonce = r.below(0xFFFF) + 1
                app.press(0, _GO)
                continue
            linked = app.linked
            if app.mode != LOBBY or linked is None or linked.confirmed != 0:
                self.confirm_at[i] = None
                continue
            if self.confirm_at[i] is None:
                self.confirm_at[i] = t + (300 + r.below(700)) * 1000  # (reading both screens)
            if t < self.confirm_at[i]:
                continue
            self.confirm_at[i] = None
            theirs = self.devices[self.friend[i]].app.linked
            if theirs is not None and self.name_of(linked.peer) == self.name_of(theirs.nonce):
                self.confirmed[i] = linked.peer
                d.press(STOCK_0)
            else:
                self.backs += 1
                self.confirmed[i] = None
                d.press(PILE_0 + 1)  # back to the menu, to choose again
                self.choose_at[i] = t + (500 + r.below(1500)) * 1000

    def run(self, ms):
        passes(self.t_us, self.devices + [self], ms)

    def done(self):
        return all(d.app.mode in (MATCH, PAUSED) and d.app.linked is not None for d in self.devices)

    def with_the_one_confirmed(self):
        # Each handheld's match is with the handheld its player confirmed,
        # whose player confirmed it too.
        nonce = [d.app.linked.nonce for d in self.devices]
        for i, d in enumerate(self.devices):
            peer = d.app.linked.peer
            if peer != self.confirmed[i] or peer not in nonce or self.confirmed[nonce.index(peer)] != nonce[i]:
                return False
        return True

    def with_friends(self):
        nonce = [d.app.linked.nonce for d in self.devices]
        return all(d.app.linked.peer == nonce[self.friend[i]] for i, d in enumerate(self.devices))


def fuzzed_match(profile, seed):
    """A whole linked match, lobby to result, with a Fuzzer on the cable (a
    random frame every 100 ms), both players racing; then 5 s without it.
    Returns (whether the match started, the pair, the fuzzer, every linked
    session seen: their counts)."""
    pair = Pair(profile, (QuietScreen(profile), QuietScreen(profile)), seed=seed, cable=Cable(seed))
    fuzz = Fuzzer(pair, seed * 11 + 1)
    pair.others.append(fuzz)
    sessions = []

    def watch():
        for d in pair.devices:
            if d.app.linked is not None and d.app.linked not in sessions:
                sessions.append(d.app.linked)

    started = pair.start()
    racers = [Racer(d, 2 * seed + i) for i, d in enumerate(pair.devices)]
    end = pair.t_us[0] + 300 * 10**6
    while pair.t_us[0] < end and not all(scene(d.app) in (OUT, IN_OVER) for d in pair.devices):
        for r in racers:
            r.step()
        pair.run(1)
        watch()
    fuzz.on = False
    pair.run(5000)
    watch()
    sessions += [s for s in fuzz.targets if s not in sessions]
    return started, pair, fuzz, sessions
