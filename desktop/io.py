"""The desktop's display, keys and clock for the App: a window, or headless
frames from a replay. What each SPIT_* variable does is in docs/simulator.md
(the one copy)."""

import os
import time
from collections import deque

from hardware.keymaps import UNUSED, key, key_numbers
from hardware.profiles import SetupError

from .keys import KEYBOARD, POWER_ON_TICKS, TAP_SPACING_MS, TICKS_PERIOD, DesktopKeys, Event, key_legend, key_name
from .replay import read_replay
from .scan_times import first_scan, scan_at_or_after, scan_ms
from .settings import file_to_write, number, setting, whole  # noqa: F401  (setting: for code.py, with open_io)
from .sound import desktop_sound
from .window import pygame_display_class, window_scale

PASS_MS = 5  # a pass of the loop (a replay's, and the window's at the least)


class DesktopIO:
    """Display, keys and clock for the desktop, in a window or headless."""

    def __init__(self, profile, env=os.environ):
        self.profile = profile
        self.replay = env.get("SPIT_REPLAY")
        self.frames = env.get("SPIT_FRAMES")
        self.shot = file_to_write(env, "SPIT_SHOT", "a .png file to save the last frame in")
        self.sound_log = file_to_write(env, "SPIT_SOUND_LOG", "a file to write the sounds in")
        whole(env, "SPIT_SCALE", 1, 16, 0)  # (used where a window opens: checked everywhere)
        if self.frames and os.path.exists(self.frames) and not os.path.isdir(self.frames):
            raise SetupError("SPIT_FRAMES %s is a file: name a folder to save the frames in" % self.frames)
        if self.frames:
            try:
                os.makedirs(self.frames, exist_ok=True)
            except OSError as e:
                raise SetupError("SPIT_FRAMES %s: the folder cannot be made (%s)" % (self.frames, e.strerror))
        # SPIT_SEATS: a monitor stands in front of both players, so a window
        # opens with their seats side by side; a replay shows the board's own.
        self.seats = env.get("SPIT_SEATS") or ("board" if self.replay else "side_by_side")
        if self.seats not in ("side_by_side", "facing", "board"):
            raise SetupError("SPIT_SEATS is side_by_side, facing or board, not %r" % self.seats)
        self.speed = number(env, "SPIT_SPEED", 0, 1000, 0.0)
        self.clock0 = whole(env, "SPIT_CLOCK", 0, TICKS_PERIOD - 1, POWER_ON_TICKS)  # ticks_ms at the start
        self.loop_ms = whole(env, "SPIT_LOOP_MS", PASS_MS, 1000, PASS_MS)  # a replay's time per pass
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
        from hardware.buttons import DEBOUNCE_SCANS, MAX_EVENTS, SCAN_INTERVAL

        # Scanned and debounced as the board's: the game's scanner, or the one
        # the board's firmware makes (a Cardputer's keyboard: profile "keypad_scan").
        interval, debounce, max_events = profile.get("keypad_scan", (SCAN_INTERVAL, DEBOUNCE_SCANS, MAX_EVENTS))
        self.scan_ticks = int(interval * 1024)  # (desktop/scan_times.py)
        self.keys = DesktopKeys(len(keymap), self.ticks_ms, debounce, max_events)
        self.event = Event()
        try:
            events, self._end_ms, start_nvm = read_replay(self.replay, keymap) if self.replay else ([], 0, None)
        except (OSError, ValueError) as e:
            raise SetupError("replay file: %s" % e)
        self._script = deque(events) if self.replay else None
        import pygame

        self._pygame = pygame
        link = env.get("SPIT_LINK")
        # A linked window plays one player: which link it is, and that player's keys.
        joined = ("linked by radio - " if link == "espnow" else "linked by cable, port %s - " % link) if link else ""
        self.caption = "Spit - %s - %s%s" % (profile["name"], joined, key_legend(profile, bool(link)))
        self.held = False  # a watched replay that has ended
        self._typed = []  # the window's key changes not yet made to the switches
        self._changed_at = {}  # when each key's switch last moved (ms of the clock)
        headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"
        display_class = pygame_display_class(1 if headless else window_scale(profile, env, pygame))
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
        from hardware.feedback import Feedback

        out = None if headless else desktop_sound(pygame)
        self.feedback = Feedback(out, None, [] if self.sound_log else None)
        self.store = None
        if start_nvm is not None:  # the saved data a recording started from, in memory only
            from hardware.storage import Store

            from .nvm_flash import FlashNvm

            if save:
                raise SetupError(
                    "the replay carries the saved data it started from (its nvm line): leave SPIT_SAVE out"
                )
            chip = self.profile.get("flash", "rp2040")
            self.store = Store(
                FlashNvm(chip, start_nvm), say=lambda m: print("replay nvm: %s" % m), erases_always=chip != "rp2040"
            )
        elif save:
            from hardware.storage import Store

            from .nvm_flash import FileNvm

            def say(message):
                print("%s: %s" % (save, message))

            try:
                os.makedirs(os.path.dirname(os.path.abspath(save)), exist_ok=True)
            except OSError as e:
                raise SetupError("SPIT_SAVE %s: its folder cannot be made (%s)" % (save, e.strerror or e))
            chip = self.profile.get("flash", "rp2040")  # the board's flash, modelled
            nvm = FileNvm(save, say=print, chip=chip, aside=env.get("SPIT_SAVE") is None)
            self.store = Store(nvm, say=say, erases_always=chip != "rp2040")
            flash = self.store.nvm.flash.flash
            used = len(flash)
            while used and flash[used - 1] in (0xFF, 0 if chip == "esp32s3_nvs" else 0xFF):  # (an ESP32's is zeros)
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

        ahead = pass_of(scan_at_or_after(self._script[0][0], self.scan_ticks) if self._script else self._end_ms)
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
        settings += ["SPIT_SEATS=" + self.seats] if self.seats != "board" else []
        settings += ["%s=%s" % (n, env[n]) for n in ("SPIT_CLOCK", "SPIT_START") if env.get(n)]
        try:
            f = open(env["SPIT_RECORD"], "w")
        except OSError as e:
            raise SetupError("SPIT_RECORD: %s" % e)
        f.write(
            "# Spit replay recorded %s. Replay it with:\n#   %s SPIT_REPLAY=%s .venv/bin/python code.py\n"
            % (time.strftime("%Y-%m-%d %H:%M"), " ".join(settings), env["SPIT_RECORD"])
        )
        f.flush()
        return f

    def _recorded(self, k, pressed):
        if self.record is not None:
            self.record.write(
                "%d %s %s\n" % (self.now_ms, key_name(self.profile["keymap"], k), "down" if pressed else "up")
            )
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
        firmware's times in it (every 977 us), each event stamped with its
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
            if (
                k in moved
                or keys.level[k] != keys.down[k]
                or pressed
                and self.now_ms - self._changed_at.get(k, -TAP_SPACING_MS) < TAP_SPACING_MS
            ):
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
        ticks = self.scan_ticks
        n = first_scan(start + 1, ticks)
        scan = scan_ms(n, ticks)
        while scan <= end:
            while script and script[0][0] <= scan:
                _, k, pressed = script.popleft()
                keys.level[k] = pressed
            if keys.busy():  # (a scan of settled switches changes nothing)
                keys.scan(self.clock0 + scan)
            n += 1
            scan = scan_ms(n, ticks)

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


def open_io(profile, link=None):
    # code.py's way to open the desktop's display, keys and saves (the board's
    # is hardware/board_setup.py). link (SPIT_LINK): the loopback port of
    # linked play's cable to another window (desktop/socket_uart.py), or
    # "espnow": a radio, as the board's (hardware/radio.py), over loopback
    # datagrams (desktop/socket_radio.py).
    port = None
    radio = link == "espnow"
    if radio and not profile.get("espnow_radio"):
        raise SetupError(
            'SPIT_LINK is "espnow", but profile %s has no ESP-NOW radio: SPIT_PROFILE=cardputer' % profile["name"]
        )
    if link and not radio:
        try:
            port = int(link)
        except ValueError:
            port = 0
        if not 1024 <= port <= 65535:
            raise SetupError("SPIT_LINK %r: on a desktop, a port number 1024 to 65535 (both windows the same)" % link)
    io = DesktopIO(profile)
    if io.seats != "board":
        profile["two_people_sit"] = io.seats  # (the menu's Seats line still turns it)
    io.open_link = None
    io.nonce = None  # the number a linked session draws (recorded, and replayed)
    if io.replay:
        from .replay import ReplayUart, read_link

        try:
            nonce, got = read_link(io.replay)
        except (OSError, ValueError) as e:
            raise SetupError("replay file: %s" % e)
        if nonce is not None:  # a linked device's recording: its cable's bytes come again
            io.nonce = nonce
            io.open_link = lambda: ReplayUart(got, io)
            return io
    if radio:
        from hardware.radio import Radio

        from .socket_radio import Module

        opener = Radio(Module(int(os.environ.get("SPIT_RADIO_PORT") or 0) or None))
    elif port is not None:
        from .socket_uart import SocketUart

        def opener():
            return SocketUart(port)
    else:
        return io
    io.open_link = opener
    if io.record is not None:
        from .replay import RecordingUart

        io.nonce = 1 + int(time.time() * 1000) % 65535
        io.record.write("nonce %d\n" % io.nonce)
        io.record.flush()
        io.open_link = lambda: RecordingUart(opener(), io)
    return io
