"""Run the board's program (code.py's board branch) from a flashed drive, with
stand-ins for the hardware only, on the MicroPython VM or on CPython.

    boardrun.py DRIVE BOARD [options]

DRIVE is a folder `make flash` wrote (code.py, engine/, hardware/, lib/ with
the libraries its profile needs, settings.toml); BOARD is pico, pybadge or cardputer (which pins
and display the stand-in board has). The stand-ins beside this file come first
on sys.path, as the firmware's modules do on a board.

Every display refresh ends one pass of code.py's loop; then the driver moves
the clock on (--loop-ms, 5 by default), scans the keys at the firmware's scan
times in it (every 2 ticks of 1/1024 s, the Cardputer's keyboard every 10:
desktop/scan_times.py), feeding the
presses of the replay, and checks when to stop. With 5 ms passes it jumps over
the passes where nothing can happen, as the desktop's fast replay does: to the
pass that sees the scan of the next key event, or the next thing the App has
due (App.next_due), stepping every pass while a key is being debounced.

Options:
  --replay FILE     press the keys of a replay file (lines sorted by time)
  --set NAME=VALUE  a settings.toml value for os.getenv (SPIT_SEED=3, ...)
  --clock MS        the tick clock at the start (default 0x1fff0000, the firmware's)
  --loop-ms MS      ms per pass of the loop (a slow loop batches several scans)
  --every-scan      a pass every 5 ms, never a jump (to compare with the jumps)
  --until MS        stop when the clock has run this long (default: the replay's end)
  --stop over|round:N  stop at the game-over screen, or when round N waits to start (a pass after it is dealt)
  --nvm HEX         the nvm contents at power-on (from an earlier run's "nvm"
                    line: its bytes up to the last that is not erased)
  --hide NAME       importing NAME fails, as for a library never installed
  --i2c WIRING      the I2C bus: "nopullup" (no pull-up resistors), or the
                    addresses that answer, in hex ("3d"; by default 3c)
  --memory          print the heap kept after start-up and the highest heap in
                    use between passes (MicroPython only, run with mpvm.mjs
                    --steps vm_step; the stand-in modules are not counted)
  --alloc           print the bytes each ordinary move allocated (MicroPython
                    only, run with mpvm.mjs --steps vm_step)
  --modules         print the modules loaded at the end (MicroPython only: on
                    CPython hardware.forget keeps every module)
Prints "final POSITION" (or "final -" when no match started), "menu ..." with
the menu's state and its lines as drawn, "nvm HEX", "outputs COUNT DIGEST"
(every change of sound and lights, and when: outputs.py), on a Cardputer
"console attached|detached TYPED" (its keyboard's, after the program, and the
key events the console took), and the figures asked for.
"""

import gc
import sys

if sys.implementation.name == "micropython":
    HERE = "/proj"
else:
    import os as _os

    HERE = _os.path.dirname(_os.path.abspath(__file__))
    # The project's desktop/ (the stand-ins' flash model and scan times), as
    # the VM has it in /proj; last on the path, so the drive's packages come first.
    sys.path.append(_os.path.dirname(_os.path.dirname(HERE)))

import audioio  # noqa: E402,F401
import board  # noqa: E402  (stand-ins, as the firmware has them: loaded before the heap is measured)
import displayio  # noqa: E402
import keypad  # noqa: E402
import microcontroller  # noqa: E402
import outputs  # noqa: E402
import supervisor  # noqa: E402
import terminalio  # noqa: E402,F401

from desktop.scan_times import first_scan, scan_at_or_after, scan_ms  # noqa: E402

PASS_MS = 5  # a pass of the loop unless --loop-ms says
TAP_MS = 60
_TICKS_MAX = (1 << 29) - 1
_POWER_ON_TICKS = 0x1FFF0000  # ticks_ms() at power-on, as CircuitPython starts it


class Held(Exception):
    # code.fail() reached the board's endless wait: the message is out.
    pass


def parse_args(argv):
    opts = {
        "drive": argv[1],
        "board": argv[2],
        "set": {},
        "replay": None,
        "clock": _POWER_ON_TICKS,
        "loop": PASS_MS,
        "until": None,
        "stop": None,
        "nvm": None,
        "memory": False,
        "alloc": False,
        "missing": None,
        "every": False,
        "modules": False,
    }
    i = 3
    while i < len(argv):
        a = argv[i]
        if a in ("--memory", "--alloc", "--every-scan", "--modules"):
            opts[{"--memory": "memory", "--alloc": "alloc", "--every-scan": "every", "--modules": "modules"}[a]] = True
            i += 1
            continue
        v = argv[i + 1]
        if a == "--set":
            name, _, value = v.partition("=")
            opts["set"][name] = value
        elif a == "--replay":
            opts["replay"] = v
        elif a == "--clock":
            opts["clock"] = int(v)
        elif a == "--loop-ms":
            opts["loop"] = int(v)
        elif a == "--until":
            opts["until"] = int(v)
        elif a == "--stop":
            opts["stop"] = v
        elif a == "--nvm":
            opts["nvm"] = v
        elif a == "--i2c":
            opts["i2c"] = v
        elif a == "--hide":
            opts["missing"] = v
        else:
            raise ValueError("unknown option " + a)
        i += 2
    return opts


def toml_value(drive, name):
    # What CircuitPython 10.2.1's os.getenv reads from settings.toml (its
    # own settings reader): always a str, a quoted one without its
    # quotes, a bare word or number as written; None for a line it cannot
    # read (an unclosed quote, no value).
    try:
        f = open(drive + "/settings.toml")
    except OSError:
        return None
    with f:
        for line in f:
            key, eq, value = line.partition("=")
            if eq and key.strip() == name:
                value = value.strip()
                if value[:1] == '"':
                    end = value.find('"', 1)
                    return value[1:end] if end > 0 else None
                value = value.split("#")[0].strip()
                return value or None
    return None


class Replay:
    # The key events of a replay file, read a line at a time (the file can be
    # long; its events are not held in memory): (ms, key, pressed).
    def __init__(self, path, numbers):
        self._f = open(path)
        self._numbers = numbers
        self._pending = []  # events read but not yet due, in time order
        self._line_ms = 0
        self.end_ms = None  # its end line, or 2 s after the last event, once the file is read
        self._last = 0
        self._read()

    def _key(self, name):
        if name.isdigit():
            return int(name)
        from hardware.keymaps import NEXT, PILE_0, PREV, STOCK_0

        player, _, action = name.partition(".")
        actions = {"prev": PREV, "next": NEXT, "pile0": PILE_0, "pile1": PILE_0 + 1}
        for s in range(5):
            actions["stock%d" % s] = STOCK_0 + s
        k = self._numbers[int(player[1]) * 16 + actions[action]]
        if k == 255:
            raise ValueError("key %s is not on this board" % name)
        return k

    def _add(self, ms, key, pressed):
        i = len(self._pending)
        while i and self._pending[i - 1][0] > ms:
            i -= 1
        self._pending.insert(i, (ms, key, pressed))
        if ms > self._last:
            self._last = ms

    def _read(self):
        for line in self._f:
            words = line.split("#")[0].split()
            if not words:
                continue
            ms = int(words[0])
            if ms < self._line_ms:
                raise ValueError("replay lines must be in time order: %r" % line)
            self._line_ms = ms
            if words[1] == "end":  # the replay stops here
                for rest in self._f:
                    if rest.split("#")[0].strip():
                        raise ValueError("nothing may follow the end line: %r" % rest)
                self._f.close()
                self.end_ms = ms
                return
            key = self._key(words[1])
            if len(words) == 2:
                self._add(ms, key, True)
                self._add(ms + TAP_MS, key, False)
            else:
                self._add(ms, key, words[2] == "down")
            return
        self._f.close()
        self.end_ms = self._last + 2000

    def next_ms(self):
        # When the next event is, or None when there are no more.
        if not self._pending and self.end_ms is None:
            self._read()
        return self._pending[0][0] if self._pending else None

    def due(self, now, scanner):
        # Move the switches of every event due by now.
        while self.end_ms is None and self._line_ms <= now:
            self._read()
        while self._pending and self._pending[0][0] <= now:
            _, key, pressed = self._pending.pop(0)
            scanner.press(key, pressed)


class Driver:
    def __init__(self, opts, code):
        self.opts = opts
        self.code = code
        self.io = None
        self.app = None
        self.elapsed = 0  # ms since the start
        self.replay = None
        self.base = 0
        self.peak = 0
        self.passes = 0
        self.moves = 0  # ordinary moves measured
        self.alloc_total = 0
        self.alloc_max = 0
        self.alloc_moves = 0  # ordinary moves that allocated
        self._before = 0
        self._applied = 0
        self._round = 0
        self._phase = 0
        self._stop_round = 0
        self._stop_waited = 0  # passes seen with the stop's round waiting to start
        self.startup = None
        stop = opts["stop"] or ""
        if stop.startswith("round:"):
            self._stop_round = int(stop[6:])

    def chunk(self):
        # --memory, --alloc: one call from the VM's host runs passes until one
        # handles a press or changes the scene (or 40 passes). The next call
        # starts with a collection, which this VM makes only at the start of a
        # call from its host, and reads the heap in use. Within a call the
        # collector is off, so mem_alloc() counts what each pass allocates.
        # False when the run is over.
        gc.collect()
        used = gc.mem_alloc() - self.base
        if used > self.peak:
            self.peak = used
        if self.startup is None:
            self.startup = used
        app = self.app
        io = self.io
        seen = app.controls.presses * 4 + app.mode
        gc.disable()
        self._before = gc.mem_alloc()
        for _ in range(40):
            if not io.running:
                break
            io.pump()  # the body of code.run's loop
            app.step(io.ticks_ms())
            io.refresh()
            if app.controls.presses * 4 + app.mode != seen:
                break
        gc.enable()
        return io.running

    def after_pass(self):
        app = self.app
        if self.opts["alloc"]:
            spent = gc.mem_alloc() - self._before
            g = app.game
            c = app.controls
            if (
                g is not None
                and app.mode == 1
                and c.applied == self._applied + 1
                and g.round == self._round
                and self._phase == 1
                and g.phase == 1
            ):
                # One move that kept the round in play: an ordinary move.
                self.moves += 1
                self.alloc_total += spent
                if spent:
                    self.alloc_moves += 1
                if spent > self.alloc_max:
                    self.alloc_max = spent
        self.passes += 1
        if self.finished():
            self.io.running = False
            return
        start = self.elapsed
        scanner = keypad.scanner()
        self.elapsed += self.ahead()
        ticks = scanner.ticks  # (every 2 ticks; the Cardputer's keyboard every 10)
        n = first_scan(start + 1, ticks)
        t = scan_ms(n, ticks)
        while t <= self.elapsed:  # the scanner's own scans while the loop was busy
            now = (self.opts["clock"] + t) & _TICKS_MAX
            if self.replay is not None:
                self.replay.due(t, scanner)
            if keypad.debouncing():  # (a scan of switches as they were reported changes nothing)
                keypad.scan_all(now)
            n += 1
            t = scan_ms(n, ticks)
        supervisor.set_ms(self.opts["clock"] + self.elapsed)
        if self.opts["alloc"]:
            g = app.game
            self._applied = app.controls.applied
            self._round = g.round if g is not None else 0
            self._phase = g.phase if g is not None else 0
            self._before = gc.mem_alloc()

    def ahead(self):
        # ms to the next pass: the loop's time, or, jumping, to the scan of
        # the next key event, of the next thing due, or of the stop.
        loop = self.opts["loop"]
        if loop != PASS_MS or self.opts["every"] or self.passes < 2 or keypad.debouncing():
            return loop
        now = self.elapsed
        until = self.until()
        target = until if until is not None else now + 3600000
        if self.replay is not None:
            ms = self.replay.next_ms()
            at = None if ms is None else scan_at_or_after(ms, keypad.scanner().ticks)
            if at is not None and at < target:
                target = at
        due = self.app.next_due(self.io.ticks_ms())
        if due is not None and now + due < target:
            target = now + due
        return max(PASS_MS, -(-(target - now) // PASS_MS) * PASS_MS)

    def until(self):
        until = self.opts["until"]
        if until is None and self.replay is not None:
            until = self.replay.end_ms
        return until

    def finished(self):
        app = self.app
        stop = self.opts["stop"]
        if stop == "over" and app.mode == 2:
            return True
        if self._stop_round and app.game is not None and app.mode == 1:
            g = app.game
            if g.round >= self._stop_round and g.phase == 0 and not g.called:
                # A pass after the one that dealt it: the round's table is
                # drawn and the App has saved it, as a player waiting to
                # call spit would see.
                self._stop_waited += 1
                if self._stop_waited > 1:
                    return True
        until = self.until()
        return until is not None and self.elapsed >= until


def main():
    opts = parse_args(sys.argv)
    drive = opts["drive"]
    board.use(opts["board"])
    if opts["board"] == "cardputer":  # the firmware's own modules, its keyboard scanning from boot
        import audiobusio  # noqa: F401
        import cardputer_keyboard  # noqa: F401
    wiring = opts.get("i2c")
    if wiring == "nopullup":
        board.pull_ups = False
    elif wiring:
        board.i2c_devices = tuple(int(a, 16) for a in wiring.split(","))
    chip = {"pico": "rp2040", "cardputer": "esp32s3_nvs"}.get(opts["board"], "samd51")
    microcontroller.use(chip)
    if opts["nvm"]:  # the flash as an earlier run left it (the rest erased)
        raw = opts["nvm"]
        microcontroller.nvm = microcontroller.FlashNvm(
            chip, bytes(int(raw[2 * i : 2 * i + 2], 16) for i in range(len(raw) // 2))
        )
    import os

    overrides = opts["set"]

    def getenv(name, default=None):
        if name in overrides:
            return overrides[name]
        value = toml_value(drive, name)
        return default if value is None else value

    os.getenv = getenv
    supervisor.set_ms(opts["clock"])
    if opts["missing"]:
        # A module of that name that cannot be imported, first on the path.
        folder = (drive + "/..") if sys.implementation.name != "micropython" else "/"
        folder += "/hidden"
        try:
            os.mkdir(folder)
        except OSError:
            pass
        with open(folder + "/" + opts["missing"] + ".py", "w") as f:
            f.write('raise ImportError("no module named %s")\n' % opts["missing"])
        sys.path.insert(0, folder)
    if not (opts["memory"] or opts["alloc"]):
        driver = start(opts, 0)
        if driver is not None:
            driver.code.play(driver.io, driver.app)  # code.py's own loop, and its end
            report(driver)
        return
    # --memory, --alloc: in steps (see Driver.chunk). The first measures the heap with the
    # stand-ins loaded (the board's firmware) and starts the program; the
    # second measures what the program keeps after start-up.
    global vm_step
    running = []

    def vm_step():
        if not running:
            gc.collect()
            driver = start(opts, gc.mem_alloc() if sys.implementation.name == "micropython" else 0)
            if driver is None:
                return False
            running.append(driver)
            return True
        if running[0].chunk():
            return True
        report(running[0])
        return False

    if sys.implementation.name != "micropython":
        while vm_step():
            pass
    # on the VM, tools/mpvm.mjs --steps vm_step calls it until it says False


def screen_lines(group):
    # The text lines of the font's TileGrids in group (hardware/text.py): the
    # stand-in font's tile i is character 0x20 + i.
    lines = []
    for item in group:
        if isinstance(item, displayio.Group):
            lines += screen_lines(item)
        elif isinstance(item, displayio.TileGrid) and item.bitmap is terminalio.FONT.bitmap:
            for row in range(item.height):
                line = "".join(chr(0x20 + item[col, row]) for col in range(item.width)).rstrip()
                if line:
                    lines.append(line)
    return lines


def start(opts, base):
    # code.py's start(), from the drive: the Driver of the running program, or
    # None when it stopped with a message (code.fail).
    drive = opts["drive"]
    sys.path.insert(1, drive)
    sys.path.insert(2, drive + "/lib")
    import code

    code.ON_BOARD = True  # the tests run what the board runs, on CPython too

    def hold():
        raise Held()

    code.hold = hold
    try:
        io, app = code.start()
    except Held:
        for display in displayio.displays:
            if display.shown is not None:  # what a maker sees on the screen
                print("screen " + " | ".join(screen_lines(display.shown)))
        print("held")
        return None
    driver = Driver(opts, code)
    driver.io = io
    driver.app = app
    driver.base = base
    if opts["replay"]:
        from hardware.keymaps import key_numbers

        driver.replay = Replay(opts["replay"], key_numbers(app.profile["keymap"]))
    displayio.on_refresh = driver.after_pass
    return driver


def report(driver):
    app = driver.app
    gc.enable()
    if driver.opts["memory"]:
        print("startup %d" % driver.startup)
        print("peak %d" % driver.peak)
    if driver.opts["alloc"]:
        print(
            "moves %d allocating %d bytes %d max %d"
            % (driver.moves, driver.alloc_moves, driver.alloc_total, driver.alloc_max)
        )
    print("passes %d" % driver.passes)
    print("outputs %d %d" % (outputs.count, outputs.digest))
    if driver.opts["modules"]:
        print("modules " + " ".join(sorted(sys.modules)))
    if "espnow" in sys.modules:  # the packets its radio sent
        print("radio sent %d" % sys.modules["espnow"].sent())
    if "cardputer_keyboard" in sys.modules:  # whether its keys type into the console, and how many did
        keyboard = sys.modules["cardputer_keyboard"]
        print("console %s %d" % ("attached" if keyboard.attached else "detached", keyboard.typed))
    menu = " ".join(
        str(x)
        for x in (app.kind, app.players, app.rules_of[0], app.rules_of[1], app.scene.item if app.mode == 0 else 0)
    )
    print("menu " + menu)
    from desktop.text_shown import shown  # (after the figures: the reading allocates)

    for line in shown(app.screen.text).split("\n"):
        print("line " + line)
    if app.mode == 0:
        for line in app.scene.lines():
            print("want " + line)
    flash = microcontroller.nvm.flash
    used = len(flash)
    erased = (0xFF, 0 if microcontroller.nvm.chip == "esp32s3_nvs" else 0xFF)  # (an ESP32's nvm starts as zeros)
    while used and flash[used - 1] in erased:
        used -= 1
    print("nvm " + "".join("%02x" % b for b in flash[:used]))
    print("final " + (app.game.text() if app.game is not None else "-"))


main()
