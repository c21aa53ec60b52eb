# The board's buttons: one keypad scanner for both players, read into Controls.
#
# Every key of both players is on one scanner, so every event carries the same
# clock (keypad timestamps are supervisor.ticks_ms values). Events are read
# with get_into() into one preallocated Event: no allocation per event. The
# scanner runs every SCAN_INTERVAL seconds with DEBOUNCE_SCANS stable scans
# before it reports a change (Controls adds its own first-edge lockout).
#
# The keypad module is imported only by the two constructors below, so this
# file also loads where there is none (the desktop tests use a fake scanner).

# One tick of 1/1024 s (977 us): a press is reported 1 to 2 ms after its
# edge (two scans in a row see it), a glitch one scan sees is dropped, and
# presses stamped the same ms are a tie (D-5). Bounce, on pressing or letting
# go, is the Controls' lockout's. Two ticks made every press about 1.5 ms
# slower to reach the screen, five ticks 7 ms, measured on the emulated Pico
# (make bench); scanning twice as often took nothing measurable from drawing.
SCAN_INTERVAL = 0.001  # seconds
DEBOUNCE_SCANS = 2
MAX_EVENTS = 64


def _scanner(make, *args, **kw):
    try:
        return make(*args, interval=SCAN_INTERVAL, max_events=MAX_EVENTS, debounce_threshold=DEBOUNCE_SCANS, **kw)
    except TypeError:
        # CircuitPython before 9 has no debounce_threshold; the lockout in
        # Controls still makes one move of a bouncing press.
        return make(*args, interval=SCAN_INTERVAL, max_events=MAX_EVENTS, **kw)


def keys_on_pins(pins, value_when_pressed=False, pull=True):
    # One button per pin (the two-handed handheld: 14 pins, pressed = low).
    import keypad

    return _scanner(keypad.Keys, pins, value_when_pressed=value_when_pressed, pull=pull)


def keys_on_shift_register(clock, data, latch, key_count, value_when_pressed=True, value_to_latch=True):
    # Buttons behind a parallel-in shift register (PyBadge).
    import keypad

    return _scanner(
        keypad.ShiftRegisterKeys,
        clock=clock,
        data=data,
        latch=latch,
        key_count=key_count,
        value_when_pressed=value_when_pressed,
        value_to_latch=value_to_latch,
    )


class Buttons:
    # Reads a keypad scanner (keypad.Keys or anything with the same events,
    # reset() and the Event it fills) into a Controls.

    def __init__(self, keys, controls, event, ticks_ms):
        self.keys = keys
        self.controls = controls
        self._event = event
        self._ticks_ms = ticks_ms
        self.overflows = 0

    def poll(self, game, scene=None):
        # Read every waiting event, play the presses in order, recover from
        # overflow. With a scene (menus) presses go to scene.press(player, action).
        events = self.keys.events
        event = self._event
        controls = self.controls
        while events.get_into(event):
            controls.feed(game, event.key_number, event.pressed, event.timestamp, scene)
        controls.apply(game, scene)
        if events.overflowed:
            # Events after the full queue were dropped: which keys are down is
            # unknown. Start over from the keys as they are now; Controls makes
            # no move of the keys the scanner reports as already held.
            self.overflows += 1
            events.clear()
            self.keys.reset()
            controls.resync(self._ticks_ms())
