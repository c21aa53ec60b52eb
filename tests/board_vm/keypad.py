"""Stand-in for CircuitPython's keypad with the board's semantics.

- The scanner scans when the test driver calls scan_all(ms) (at the
  firmware's scan times of its clock: desktop/scan_times.py), and once when
  it is made, as the firmware's does; every event of one scan carries that
  scan's timestamp, in key-number order.
- Debouncing is the firmware's up/down counter per key
  (shared-module/keypad/__init__.c, keypad_debounce): it starts at 0, so a key
  held at power-on gives no press, only its later release; from released
  (-threshold) a press is reported when threshold scans in a row saw it.
- The event queue is a fixed ring: a full queue drops the new event and sets
  overflowed; clear() empties it and resets the flag. get_into() fills an Event
  and allocates nothing, as on the board.
- reset() forgets what was reported, so keys still held report pressed again.
The driver moves the switches with press(key, pressed).
"""

import supervisor

_live = []
_held_at_start = []  # keys a test holds down before the scanner is made


def hold_at_start(keys):
    # Keys held when the next scanner is made (at power-on).
    _held_at_start[:] = list(keys)


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = supervisor.ticks_ms() if timestamp is None else timestamp  # as the firmware's

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    def __init__(self, max_events):
        self._keys = bytearray(max_events)
        self._pressed = bytearray(max_events)
        self._times = [0] * max_events
        self._first = 0
        self._count = 0
        self.overflowed = False

    def get_into(self, event):
        if not self._count:
            return False
        i = self._first
        event.key_number = self._keys[i]
        event.pressed = self._pressed[i] == 1
        event.timestamp = self._times[i]
        self._first = (i + 1) % len(self._keys)
        self._count -= 1
        return True

    def clear(self):
        self._count = 0
        self.overflowed = False

    def __len__(self):
        return self._count

    def __bool__(self):
        return self._count > 0

    def _put(self, key, pressed, timestamp):
        n = len(self._keys)
        if self._count == n:
            self.overflowed = True
            return
        i = (self._first + self._count) % n
        self._keys[i] = key
        self._pressed[i] = 1 if pressed else 0
        self._times[i] = timestamp
        self._count += 1


class _Scanner:
    def __init__(self, key_count, max_events, debounce_threshold, interval):
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        self.ticks = int(interval * 1024)  # it scans every this many ticks of 1/1024 s (desktop/scan_times.py)
        self.key_count = key_count
        self.events = EventQueue(max_events)
        self._level = bytearray(key_count)  # the switches as they are
        for k in _held_at_start:
            self._level[k] = 1
        self._counter = [0] * key_count  # the firmware's debounce counters, -threshold..threshold
        self._threshold = debounce_threshold
        self.after_scan = None  # a reader the firmware runs after each scan (the Cardputer's console)
        _live.append(self)
        self.scan(supervisor.ticks_ms())  # the constructor scans once

    def deinit(self):
        if self in _live:
            _live.remove(self)

    def reset(self):
        # Every key released as far as the scanner knows, then a scan now.
        for k in range(self.key_count):
            self._counter[k] = -self._threshold
        self.scan(supervisor.ticks_ms())

    def press(self, key, pressed):
        self._level[key] = 1 if pressed else 0

    def debouncing(self):
        # A key whose counter has not settled at its level's end (the driver must scan).
        t = self._threshold
        for k in range(self.key_count):
            if self._counter[k] != (t if self._level[k] else -t):
                return True
        return False

    def scan(self, timestamp):
        t = self._threshold
        counter = self._counter
        for k in range(self.key_count):
            c = counter[k]
            if self._level[k]:
                if c < t:
                    c += 1
                    if c == 0:
                        c = t
                        self.events._put(k, True, timestamp)
            elif c > -t:
                c -= 1
                if c == 0:
                    c = -t
                    self.events._put(k, False, timestamp)
            counter[k] = c
        if self.after_scan is not None:
            self.after_scan()


class Keys(_Scanner):
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64, debounce_threshold=1):
        import board

        for pin in pins:
            if pin is None:
                raise ValueError("a pin is missing")
            if pin in board._claimed:
                raise ValueError("%s in use" % pin.name)  # the firmware checks every pin before it takes one
        for pin in pins:
            board.claim(pin)
        _Scanner.__init__(self, len(pins), max_events, debounce_threshold, interval)


class ShiftRegisterKeys(_Scanner):
    def __init__(
        self,
        *,
        clock,
        data,
        latch,
        value_to_latch=True,
        key_count,
        value_when_pressed,
        interval=0.02,
        max_events=64,
        debounce_threshold=1,
    ):
        import board

        for pin in (clock, data, latch):
            board.claim(pin)
        _Scanner.__init__(self, key_count, max_events, debounce_threshold, interval)


def scanner():
    # The scanner the program made (the driver presses its keys).
    return _live[-1]


def scan_all(timestamp):
    for s in _live:
        s.scan(timestamp)


def debouncing():
    # True when a scan can change anything: a switch moved and not yet reported.
    for s in _live:
        if s.debouncing():
            return True
    return False
