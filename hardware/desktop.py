"""The desktop stand-ins: a window or headless frames, the keyboard or a replay.

Runs the same App as the board with Blinka's displayio
(adafruit-blinka-displayio) drawing into a pygame surface
(blinka-displayio-pygamedisplay 4.0.1). Unlike the stock PyGameDisplay, which
redraws the whole window every frame, the display here refreshes only
displayio's dirty areas, as a board does, and counts the pixels it pushes.

Environment (code.py reads it; settings.toml on the board):
  SPIT_PROFILE  board profile (resolution, buttons); see hardware/profiles.py
  SPIT_REPLAY   a replay file: run headless, pressing the keys it lists
  SPIT_RECORD   a file: the window's key events are written there as a replay
                (the seed fixed and named in its header, nothing saved)
  SPIT_WATCH    with SPIT_REPLAY: play it in the window at real speed (or
                SPIT_SPEED times that); its last frame stays until Esc
  SPIT_START    a position (a line of the engine's notation, or a file holding
                one): the match starts there instead of at the menu
  SPIT_FRAMES   a folder: save a PNG of every frame that changed
  SPIT_SHOT     a file: save a PNG of the last frame (the screen at the end)
  SPIT_SCALE    the window's scale (default: about 720 pixels, fitting the
                monitor); headless frames keep the board's own size
  SPIT_SEED     deal seed (default: from the clock of the start press; code.py
                reads it, on the board too)
  SPIT_SPEED    replay speed factor (default 0: as fast as possible)
  SPIT_FAST     0: a headless replay steps every 5 ms pass (by default it jumps
                over the scans where nothing can happen, with the same results,
                and draws only its last frame unless SPIT_FRAMES asks for all)
  SPIT_CLOCK    ticks_ms at the start (default 0x1fff0000 = 536805376, where
                CircuitPython starts it: 65,536 ms before its wrap at 2**29)
  SPIT_LOOP_MS  a replay's time per pass of the loop (default 5, one scan): a
                slow loop reads several scans' events in one batch
  SPIT_SOUND_LOG  a file: the sounds a headless run made (ms, sound, player)
  SPIT_SAVE     the file standing in for the board's nvm (settings, a match
                between rounds), written as a Pico's flash is
                (hardware/nvm_flash.py); default ~/.spit/nvm.bin for the
                window, none for a replay. A file that is neither empty
                nor a save of the game's is refused and left as it is

Replay file: one key event a line, ``MS KEY [down|up]``, times in ms from the
start, ``#`` comments. KEY is ``p0.stock2``, ``p1.pile0``, ``p0.prev``,
``p1.next`` (player, then the action) or a keypad key number. A line without
down/up is a tap: down at MS, up 60 ms later. ``MS end``, the last line, ends
the replay at MS; without it the replay ends 2 s after its last event. Then
the final position is printed in the engine's notation. ``nvm HEX``, before
the events, is the saved data the replay starts from (a recording made with
a save file writes it), kept in memory: nothing is saved to a file.
"""

import os
import time
from collections import deque

from .controls import Controls
from .keymaps import NEXT, PILE_0, PREV, STOCK_0, UNUSED, key, key_numbers
from .profiles import SetupError
from .scan_times import first_scan, scan_at_or_after, scan_ms

TICKS_PERIOD = 1 << 29
POWER_ON_TICKS = 0x1FFF0000  # supervisor.ticks_ms() at power-on: the board's clock wraps 65.5 s in
TAP_MS = 60
# A press of a key from the keyboard at least this long after its last change:
# the Controls' bounce lockout (from the last press or release), and room for
# the two scans of debounce at each edge.
TAP_SPACING_MS = Controls.LOCKOUT_MS + 10
REPLAY_MAX_MS = 24 * 3600 * 1000
PASS_MS = 5  # a pass of the loop (a replay's, and the window's at the least)

# Keyboard layouts for both players on one keyboard, per key map.
KEYBOARD = {
    "handheld14": {
        (0, STOCK_0 + 0): "a", (0, STOCK_0 + 1): "s", (0, STOCK_0 + 2): "d", (0, STOCK_0 + 3): "f",
        (0, STOCK_0 + 4): "g", (0, PILE_0): "z", (0, PILE_0 + 1): "x",
        (1, STOCK_0 + 0): "h", (1, STOCK_0 + 1): "j", (1, STOCK_0 + 2): "k", (1, STOCK_0 + 3): "l",
        (1, STOCK_0 + 4): ";", (1, PILE_0): "n", (1, PILE_0 + 1): "m",
    },
    "cursor": {
        (0, PREV): "a", (0, NEXT): "d", (0, PILE_0): "w", (0, PILE_0 + 1): "s",
        (1, PREV): "j", (1, NEXT): "l", (1, PILE_0): "k", (1, PILE_0 + 1): "i",
    },
}
ACTION_NAMES = {"prev": PREV, "next": NEXT, "pile0": PILE_0, "pile1": PILE_0 + 1}
ACTION_NAMES.update({"stock%d" % s: STOCK_0 + s for s in range(5)})


class Event:
    """keypad.Event's fields, filled by EventQueue.get_into()."""

    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    """keypad.EventQueue's semantics: a full queue drops the new event and sets overflowed."""

    def __init__(self, max_events=64):
        self._q = deque()
        self._max = max_events
        self.overflowed = False

    def get_into(self, event):
        if not self._q:
            return False
        event.key_number, event.pressed, event.timestamp = self._q.popleft()
        return True

    def clear(self):
        self._q.clear()
        self.overflowed = False

    def __len__(self):
        return len(self._q)

    def put(self, key_number, pressed, timestamp):
        if len(self._q) >= self._max:
            self.overflowed = True
            return
        self._q.append((key_number, pressed, timestamp))


class DesktopKeys:
    """A keypad scanner with the board's semantics, for the desktop and the tests.

    The switches (level) move when the keyboard or a replay says; scan(ms),
    called at the firmware's scan times (hardware/scan_times.py), reports a new level once debounce_threshold
    scans in a row have seen it (the board's scanner uses buttons.DEBOUNCE_SCANS),
    with that scan's timestamp, in key-number order. A full queue drops the
    new event and sets overflowed; reset() forgets what was reported, so keys
    still held are reported pressed again by the next scans. set() is a
    switch moved and seen at once (threshold 1), for tests that step an App
    without a scanner."""

    def __init__(self, key_count, ticks_ms, debounce_threshold=1, max_events=64):
        self.key_count = key_count
        self.events = EventQueue(max_events)
        self.level = [False] * key_count  # the switches as they are
        self.down = [False] * key_count  # as last reported
        self._seen = [0] * key_count  # scans in a row that saw a new level
        self.threshold = debounce_threshold
        self._ticks_ms = ticks_ms

    def set(self, key_number, pressed, timestamp):
        self.level[key_number] = pressed
        if self.down[key_number] != pressed:
            self.down[key_number] = pressed
            self._seen[key_number] = 0
            self.events.put(key_number, pressed, timestamp % TICKS_PERIOD)

    def scan(self, timestamp):
        for k in range(self.key_count):
            if self.level[k] != self.down[k]:
                self._seen[k] += 1
                if self._seen[k] >= self.threshold:
                    self.down[k] = self.level[k]
                    self._seen[k] = 0
                    self.events.put(k, self.level[k], timestamp % TICKS_PERIOD)
            else:
                self._seen[k] = 0

    def busy(self):
        # True while a scan can change anything (a switch moved, not yet reported or settled).
        return self.level != self.down or any(self._seen)

    def reset(self):
        self.down = [False] * self.key_count
        self._seen = [0] * self.key_count


def _whole(env, name, low, high, default):
    # A whole-number setting of the environment, checked.
    text = env.get(name)
    if text in (None, ""):
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise SetupError("%s is a whole number from %d to %d, not %r" % (name, low, high, text))
    return int(text)


def key_legend(profile):
    """Whose keyboard keys are which, in the words of the buttons, for the
    window's title: "bottom: stocks a s d f g, piles z x; top: ..."."""
    layout = KEYBOARD["cursor" if profile["cursor"] else "handheld14"]
    numbers = key_numbers(profile["keymap"])

    def keys(player, actions):
        return " ".join(layout[player, a] for a in actions if numbers[key(player, a)] != UNUSED)

    piles = (PILE_0, PILE_0 + 1)
    said = []
    for player, name in ((0, "bottom"), (1, "top")):
        if profile["cursor"]:
            said.append("%s: %s move, %s piles" % (name, keys(player, (PREV, NEXT)), keys(player, piles)))
        else:
            said.append("%s: stocks %s, piles %s" % (name, keys(player, range(STOCK_0, STOCK_0 + 5)),
                                                     keys(player, piles)))
    return "; ".join(said)


def key_name(keymap, k):
    """The replay name of keypad key k: ``p0.stock2``."""
    code = keymap[k]
    action = [name for name, a in ACTION_NAMES.items() if a == code & 15][0]
    return "p%d.%s" % (code >> 4, action)


def key_number(keymap, name):
    """``p0.stock2`` (or a plain key number) -> the keypad key number of keymap."""
    if name.isdigit():
        k = int(name)
        if k >= len(keymap):
            raise ValueError("key number %d: this board has %d keys" % (k, len(keymap)))
        return k
    player, _, action = name.partition(".")
    if player not in ("p0", "p1") or action not in ACTION_NAMES:
        raise ValueError("unknown key %r (like p0.stock2, p1.pile0, p0.next, or a key number)" % name)
    k = key_numbers(keymap)[key(int(player[1]), ACTION_NAMES[action])]
    if k == UNUSED:
        raise ValueError("key %r is not on this board" % name)
    return k


def read_replay(path, keymap):
    """Parse a replay file: a sorted list of (ms, key number, pressed), when
    it ends (its end line, or 2 s after its last event), and the saved data
    it starts from (its nvm line's bytes), or None."""
    events = []
    end = None
    nvm = None
    last = 0  # the latest line's time
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("%s line %d: not UTF-8 text" % (path, lineno))
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                if words[0] == "nvm":
                    if len(words) != 2 or nvm is not None or events:
                        raise ValueError("one nvm line, before the events: 'nvm HEX'")
                    nvm = bytes.fromhex(words[1])
                    continue
                if end is not None:
                    raise ValueError("nothing may follow the end line")
                if len(words) == 2 and words[1] == "end":
                    end = _replay_ms(words[0])
                    if end < last:
                        raise ValueError("the end comes before an event")
                    continue
                if len(words) not in (2, 3) or (len(words) == 3 and words[2] not in ("down", "up")):
                    raise ValueError("expected 'MS KEY [down|up]'")
                ms = _replay_ms(words[0])
                k = key_number(keymap, words[1])
                last = max(last, ms)
            except ValueError as e:
                raise ValueError("%s line %d: %s: %r" % (path, lineno, e, line.strip()))
            if len(words) == 2:
                events.append((ms, k, True))
                events.append((ms + TAP_MS, k, False))
            else:
                events.append((ms, k, words[2] == "down"))
    events.sort(key=lambda e: e[0])
    if end is None:
        end = (events[-1][0] if events else 0) + 2000
    return events, end, nvm


def _replay_ms(word):
    ms = int(word)
    if ms < 0:
        raise ValueError("negative time")
    if ms > REPLAY_MAX_MS:
        raise ValueError("%d ms is past a replay's longest, %d ms (24 hours)" % (ms, REPLAY_MAX_MS))
    return ms


def file_setting(name, path=None):
    """A value of settings.toml beside code.py, as CircuitPython's os.getenv reads it."""
    import tomllib

    path = path or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "settings.toml")
    try:
        with open(path, "rb") as f:
            value = tomllib.load(f).get(name)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return None if value is None else str(value)


class _Quiet:
    """Keeps the chatter of libraries out of the terminal: Python prints and
    what C code writes to stderr (libasound lists every sound card it cannot
    find when SDL opens audio on a machine without one)."""

    def __enter__(self):
        import contextlib
        import io
        import sys

        self._out = contextlib.redirect_stdout(io.StringIO())
        self._out.__enter__()
        sys.stderr.flush()
        self._saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        return self

    def __exit__(self, *exc):
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._out.__exit__(*exc)
        return False


def _pygame_display_class(scale=1):
    with _Quiet():  # Blinka's board detection warns that a PC is no board (on import)
        import busdisplay
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay

    class MeasuredDisplay(PyGameDisplay):
        """Refreshes only displayio's dirty areas and counts the pixels pushed.

        The board's pixels are drawn on a surface of its own size (what the
        headless frames save); a window shows them scale times larger."""

        pixels_pushed = 0
        exposed = False  # the window was uncovered: show it again at the next refresh

        def _initialize(self, init_sequence):
            with _Quiet():  # (pygame.init opens the audio device too)
                pygame.init()
            if self._caption:
                pygame.display.set_caption(self._caption)
            self._window = pygame.display.set_mode(size=(self.width * scale, self.height * scale), flags=self._flags)
            self._pygame_screen = self._window if scale == 1 else pygame.Surface((self.width, self.height))

        def _get_refresh_areas(self):
            return busdisplay.BusDisplay._get_refresh_areas(self)

        def _refresh_area(self, area):
            self.pixels_pushed += area.width() * area.height()
            return super()._refresh_area(area)

        def _refresh_display(self):
            before = self.pixels_pushed
            busdisplay.BusDisplay._refresh_display(self)
            if self.pixels_pushed != before or self.exposed:  # the window is drawn only when it changed
                self.exposed = False
                if scale != 1:
                    pygame.transform.scale(self._pygame_screen, self._window.get_size(), self._window)
                pygame.display.flip()
            self._last_refresh = time.monotonic()
            self._refresh_pending = False

    return MeasuredDisplay


def window_scale(profile, env, pygame):
    """SPIT_SCALE, else the whole number that makes the screen about 720 pixels
    on its longer side and still fits the monitor."""
    chosen = env.get("SPIT_SCALE")
    if chosen:
        if not chosen.isdigit() or not 1 <= int(chosen) <= 16:
            raise SetupError("SPIT_SCALE is a whole number from 1 to 16, not %r" % chosen)
        return int(chosen)
    w, h = profile["width"], profile["height"]
    scale = max(1, round(720 / max(w, h)))
    try:
        pygame.display.init()
        desk_w, desk_h = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        return scale
    while scale > 1 and (w * scale > desk_w * 0.9 or h * scale > desk_h * 0.9):
        scale -= 1
    return scale


class DesktopSound:
    """The board's tones through pygame's mixer: a looped wave a pitch, made once."""

    def __init__(self, pygame):
        import numpy

        from .feedback import PITCHES

        rate = pygame.mixer.get_init()[0]
        self.sounds = [None]
        for hz in PITCHES[1:]:
            t = numpy.arange(rate // 10) / rate  # a tenth of a second, looped
            wave = (numpy.sign(numpy.sin(2 * numpy.pi * hz * t)) * 6000).astype(numpy.int16)
            channels = pygame.mixer.get_init()[2]
            self.sounds.append(pygame.sndarray.make_sound(numpy.repeat(wave[:, None], channels, axis=1)))
        self.channel = None

    def set_volume(self, volume):
        for sound in self.sounds[1:]:
            sound.set_volume(0.15 if volume == 1 else 0.6)

    def tone(self, pitch):
        self.quiet()
        self.channel = self.sounds[pitch].play(loops=-1)

    def quiet(self):
        if self.channel is not None:
            self.channel.stop()
            self.channel = None


def _desktop_sound(pygame):
    # pygame's mixer when this machine can make a sound; else silence, never an error.
    try:
        with _Quiet():
            pygame.mixer.init()
        return DesktopSound(pygame)
    except Exception as e:  # no audio device, or no driver for one
        print("no sound: %s" % e)
        return None


class DesktopIO:
    """Display, keys and clock for the desktop, in a window or headless."""

    def __init__(self, profile, env=os.environ):
        self.profile = profile
        self.replay = env.get("SPIT_REPLAY")
        self.frames = env.get("SPIT_FRAMES")
        self.shot = env.get("SPIT_SHOT")
        if self.shot:  # refused now, not after the whole replay has run
            folder = os.path.dirname(os.path.abspath(self.shot))
            if os.path.isdir(self.shot):
                raise SetupError("SPIT_SHOT %s is a folder: name a .png file to save the last frame in" % self.shot)
            if not os.path.isdir(folder):
                raise SetupError("SPIT_SHOT %s: its folder %s does not exist" % (self.shot, folder))
        if self.frames and os.path.exists(self.frames) and not os.path.isdir(self.frames):
            raise SetupError("SPIT_FRAMES %s is a file: name a folder to save the frames in" % self.frames)
        self.speed = float(env.get("SPIT_SPEED", "0") or 0)
        self.clock0 = _whole(env, "SPIT_CLOCK", 0, TICKS_PERIOD - 1, POWER_ON_TICKS)  # ticks_ms at the start
        self.loop_ms = _whole(env, "SPIT_LOOP_MS", PASS_MS, 1000, PASS_MS)  # a replay's time per pass
        self.record = None  # SPIT_RECORD: the file the window's key events are written to
        if env.get("SPIT_RECORD"):
            if self.replay:
                raise SetupError("SPIT_RECORD records the keys of the window: leave SPIT_REPLAY out")
            self.record = self._start_recording(env, profile)
        self.watch = bool(self.replay and env.get("SPIT_WATCH"))  # a replay in the window, at real speed
        # Jump over idle scans (SPIT_FAST=0: step every one); code.py gives the App.
        self.fast = bool(self.replay) and not self.watch and self.loop_ms == PASS_MS and env.get("SPIT_FAST") != "0"
        self.app = None
        if self.watch and not env.get("SPIT_SPEED"):
            self.speed = 1.0
        headless = self.replay and not self.watch or env.get("SPIT_HEADLESS")
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
            # SDL would turn SIGINT and SIGTERM into quit events nobody reads
            # here: a headless run keeps Python's own handling of them.
            os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        keymap = profile["keymap"]
        self.now_ms = 0
        from .buttons import DEBOUNCE_SCANS

        self.keys = DesktopKeys(len(keymap), self.ticks_ms, DEBOUNCE_SCANS)  # debounced as the board's
        self.event = Event()
        try:
            events, self._end_ms, start_nvm = read_replay(self.replay, keymap) if self.replay else ([], 0, None)
        except (OSError, ValueError) as e:
            raise SetupError("replay file: %s" % e)
        self._script = deque(events) if self.replay else None
        import pygame

        self._pygame = pygame
        self.caption = "Spit - %s - %s" % (profile["name"], key_legend(profile))
        self.held = False  # a watched replay that has ended
        self._typed = []  # the window's key changes not yet made to the switches
        self._changed_at = {}  # when each key's switch last moved (ms of the clock)
        headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"
        display_class = _pygame_display_class(1 if headless else window_scale(profile, env, pygame))
        try:
            self.display = display_class(
                width=profile["width"], height=profile["height"], auto_refresh=False, caption=self.caption
            )
        except pygame.error as e:
            raise SetupError("no window can be opened here (%s). Headless: set SPIT_REPLAY to a replay file" % e)
        layout = KEYBOARD["cursor" if profile["cursor"] else "handheld14"]
        self._keyboard = {}
        numbers = key_numbers(keymap)
        for (player, action), name in layout.items():
            if numbers[key(player, action)] != UNUSED:
                self._keyboard[pygame.key.key_code(name)] = numbers[key(player, action)]
        self._start = None  # the wall clock at the first pass: the time taken to start counts for nothing
        self._drawn_at = 0.0  # the wall clock at the last refresh drawn
        self.running = True
        self.frame = 0
        save = env.get("SPIT_SAVE")
        if save is None and not self.replay and not self.record:  # a recording starts as its replay will
            save = os.path.join(os.path.expanduser("~"), ".spit", "nvm.bin")
        from .feedback import Feedback

        self.sound_log = env.get("SPIT_SOUND_LOG")  # a file: the sounds of a headless run, one a line
        out = None if headless else _desktop_sound(pygame)
        self.feedback = Feedback(out, None, [] if self.sound_log else None)
        self.store = None
        if start_nvm is not None:  # the saved data a recording started from, in memory only
            from .nvm_flash import FlashNvm
            from .storage import Store

            if save:
                raise SetupError("the replay carries the saved data it started from (its nvm line): leave SPIT_SAVE out")
            self.store = Store(FlashNvm("rp2040", start_nvm), say=lambda m: print("replay nvm: %s" % m))
        elif save:
            from .nvm_flash import FileNvm
            from .storage import Store

            def say(message):
                print("%s: %s" % (save, message))

            try:
                os.makedirs(os.path.dirname(os.path.abspath(save)), exist_ok=True)
            except OSError as e:
                raise SetupError("SPIT_SAVE %s: its folder cannot be made (%s)" % (save, e.strerror or e))
            chip = "samd51" if self.profile.get("flash") == "samd51" else "rp2040"  # the board's flash, modelled
            self.store = Store(FileNvm(save, say=print, chip=chip), say=say, erases_always=chip == "samd51")
            flash = self.store.nvm.flash.flash
            used = len(flash)
            while used and flash[used - 1] == 0xFF:
                used -= 1
            if self.record is not None and used:  # its replay starts from the same saved data
                self.record.write("nvm %s\n" % bytes(flash[:used]).hex())
                self.record.flush()

    def _jump(self):
        # A fast replay skips the passes where nothing can happen: it goes on
        # to the pass that sees the scan of the next key event, or the next
        # thing the App has due, whichever comes first; every pass in between
        # would have changed nothing. Passes stay on the loop's 5 ms grid, so
        # jumping and stepping step the App at the same times.
        def pass_of(ms):
            return max(PASS_MS, -(-(ms - self.now_ms) // PASS_MS) * PASS_MS)

        ahead = pass_of(scan_at_or_after(self._script[0][0]) if self._script else self._end_ms)
        if self.app is None or self.now_ms < 2 * PASS_MS or self.keys.busy():
            return PASS_MS  # the first two passes as always (Blinka pushes the first frame twice); debouncing
        due = self.app.next_due(self.ticks_ms())
        if due is not None:
            ahead = min(ahead, pass_of(self.now_ms + due))
        return ahead

    def _start_recording(self, env, profile):
        # The session must be one its replay can repeat: a fixed seed (chosen
        # now unless given; code.py reads it after the IO is open), nothing
        # saved or loaded, and the window's loop on the 5 ms grid of passes.
        seed = env.get("SPIT_SEED") or str(int(time.time() * 1000) % 1000000)
        os.environ["SPIT_SEED"] = seed
        settings = ["SPIT_PROFILE=" + profile["name"], "SPIT_SEED=" + seed]
        settings += ["%s=%s" % (n, env[n]) for n in ("SPIT_CLOCK", "SPIT_START") if env.get(n)]
        try:
            f = open(env["SPIT_RECORD"], "w")
        except OSError as e:
            raise SetupError("SPIT_RECORD: %s" % e)
        f.write("# Spit replay recorded %s. Replay it with:\n#   %s SPIT_REPLAY=%s .venv/bin/python code.py\n"
                % (time.strftime("%Y-%m-%d %H:%M"), " ".join(settings), env["SPIT_RECORD"]))
        f.flush()
        return f

    def _recorded(self, k, pressed):
        if self.record is not None:
            self.record.write("%d %s %s\n" % (self.now_ms, key_name(self.profile["keymap"], k),
                                               "down" if pressed else "up"))
            self.record.flush()  # nothing lost if the program is stopped

    def finish(self):
        """After the loop: the last frame (SPIT_SHOT), the sound log, and the
        recording's end line (its replay stops where the window did)."""
        if self.shot:
            self.save_png(self.shot)
        if self.sound_log:
            with open(self.sound_log, "w") as f:
                f.write("".join("%d %s %d\n" % entry for entry in self.feedback.log))
        if self.record is not None:
            self.record.write("%d end\n" % self.now_ms)
            self.record.close()
            self.record = None

    def ticks_ms(self):
        return (self.clock0 + self.now_ms) % TICKS_PERIOD

    def pump(self):
        """Advance the clock and feed the keys: real time for the window, scripted for a replay.

        A replay's pass lasts loop_ms (SPIT_LOOP_MS): the keypad scans at the
        firmware's times in it (every 1.95 ms), each event stamped with its
        scan, so a slow loop reads the events of several scans in one batch,
        as a busy board does. The window's keys move its switches at the
        pass's time, as its recording says."""
        if self._start is None:
            self._start = time.monotonic()
        if self._script is not None:
            if self.held:  # a watched replay is over: its last frame stays, the clock stands
                time.sleep(0.02)
            else:
                self._replay_pass()
            if self.watch:  # Esc or closing the window still quits
                pygame = self._pygame
                for ev in pygame.event.get():
                    if ev.type == pygame.QUIT or ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                        self.running = False
        else:
            before = self.now_ms
            if self.record is not None:  # on the grid of passes, as its replay will be
                self.now_ms += PASS_MS
                late = self._start + self.now_ms / 1000.0 - time.monotonic()
                if late > 0:
                    time.sleep(late)
            else:
                time.sleep(PASS_MS / 1000.0)
                self.now_ms = max(before + 1, int((time.monotonic() - self._start) * 1000))
            self._scan_between(before, self.now_ms - 1)  # the scans before the keys moved
            pygame = self._pygame
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    self.running = False
                elif ev.type == pygame.WINDOWEXPOSED:
                    self.display.exposed = True
                elif ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                    if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                        self.running = False
                    k = self._keyboard.get(ev.key)
                    if k is not None:
                        self._typed.append((k, ev.type == pygame.KEYDOWN))
            self._move_switches()
            self._scan_between(self.now_ms - 1, self.now_ms)  # a scan at the pass's ms sees them

    def _move_switches(self):
        # The keyboard's presses move the switches the scanner debounces. A
        # key's next change waits until its last one was reported, so a tap
        # shorter than the debounce (xdotool's, or one made while a pass was
        # drawing) is still a press; and its next press waits out the
        # Controls' bounce lockout after its last change, so taps read in one batch
        # (typed while a pass drew, or a key's auto-repeat) all count. A
        # recording has the switches as moved.
        keys = self.keys
        moved = set()  # keys moved in this pass, or waiting: their later changes wait too
        later = []
        for k, pressed in self._typed:
            if (k in moved or keys.level[k] != keys.down[k]
                    or pressed and self.now_ms - self._changed_at.get(k, -TAP_SPACING_MS) < TAP_SPACING_MS):
                later.append((k, pressed))  # after the change before it
                moved.add(k)
            elif keys.level[k] != pressed:
                keys.level[k] = pressed
                self._changed_at[k] = self.now_ms
                self._recorded(k, pressed)
                moved.add(k)
        self._typed = later

    def _replay_pass(self):
        start = self.now_ms
        self.now_ms += self._jump() if self.fast else self.loop_ms
        if self.speed:  # keep to the replay's own time, SPIT_SPEED times faster
            late = self._start + self.now_ms / 1000.0 / self.speed - time.monotonic()
            if late > 0:
                time.sleep(late)
        self._scan_between(start, self.now_ms)
        if self.now_ms >= self._end_ms:
            if self.watch:  # the person watching sees the end until they quit
                self.held = True
                self._pygame.display.set_caption(self.caption + ": the replay is over, Esc quits")
            else:
                self.running = False

    def _scan_between(self, start, end):
        # The scanner's scans stamped after start and up to end; a replay's
        # switches move at their times before each.
        keys = self.keys
        script = self._script
        n = first_scan(start + 1)
        scan = scan_ms(n)
        while scan <= end:
            while script and script[0][0] <= scan:
                _, k, pressed = script.popleft()
                keys.level[k] = pressed
            if keys.busy():  # (a scan of settled switches changes nothing)
                keys.scan(self.clock0 + scan)
            n += 1
            scan = scan_ms(n)

    def _late(self):
        # How many ms the game's clock is behind the wall clock's, where it
        # keeps to it on the grid of passes: a recording, a watched replay.
        if self._start is None or self.frames:
            return 0.0
        if self._script is not None:
            pace = self.speed if not self.held else 0.0
        else:
            pace = 1.0 if self.record is not None else 0.0
        return (time.monotonic() - self._start) * 1000.0 * pace - self.now_ms if pace else 0.0

    def refresh(self):
        if self.fast and not self.frames and self.running:
            return  # a fast headless replay draws its last frame only (nobody watches the others)
        if self.running and self._late() > PASS_MS and time.monotonic() - self._drawn_at < 0.1:
            # Behind the wall clock (the window takes longer to draw than a
            # pass lasts): this pass's picture is skipped, and the passes run
            # on until the game's clock has caught up; what changed is drawn
            # then, and at least ten times a second.
            return
        self._drawn_at = time.monotonic()
        before = self.display.pixels_pushed
        self.display.refresh()
        if self.frames and self.display.pixels_pushed != before:
            os.makedirs(self.frames, exist_ok=True)
            self.save_png(os.path.join(self.frames, "frame_%05d.png" % self.frame))
            self.frame += 1

    def save_png(self, path):
        self._pygame.image.save(self.display._pygame_screen, path)

    def show_error(self, message):
        print(message)

    def close(self):
        self._pygame.quit()
