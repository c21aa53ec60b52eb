"""A stand-in for CircuitPython's keypad that keeps the board's semantics.

Blinka's desktop keypad has no timestamps, so the tests use this instead:
- a scan at the firmware's times: every int(interval * 1024) ticks of
  1/1024 s, stamped with that tick's ms (``interval_ms`` 1, the board's:
  977 us apart, stamps 0 or 1 ms apart; desktop/scan_times.py); all events of one scan
  carry the same timestamp, in key-number order, like the board's scanner;
- ``debounce_threshold`` consecutive scans must see a new level before it is
  reported;
- a full queue drops the new event and sets ``overflowed`` (``clear()`` resets it);
- ``reset()`` forgets the debounced state, so held keys are reported pressed again;
- timestamps are ticks_ms values that wrap at 2**29, starting where the
  firmware starts them (0x1fff0000, 65,536 ms before the wrap).
"""

from desktop.keys import POWER_ON_TICKS, DesktopKeys, Event, EventQueue  # noqa: F401  (the same keypad-like scanner)
from desktop.scan_times import scan_ms, ticks_of

TICKS_PERIOD = 1 << 29


class Keys(DesktopKeys):
    # The desktop's scanner on a clock of its own, scanning when run() says.
    def __init__(self, key_count, interval_ms=1, max_events=64, debounce_threshold=1, start_ms=POWER_ON_TICKS):
        DesktopKeys.__init__(self, key_count, self.ticks_ms, debounce_threshold, max_events)
        self.interval_ms = interval_ms
        self.ticks = ticks_of(interval_ms)  # the firmware's whole ticks of 1/1024 s
        self.debounce_threshold = debounce_threshold
        self.start_ms = start_ms
        self.elapsed_ms = 0

    def ticks_ms(self):
        return (self.start_ms + self.elapsed_ms) % TICKS_PERIOD

    def scan(self):
        DesktopKeys.scan(self, self.ticks_ms())


def run(keys, trace, until_ms, each_scan=None, step_ms=1):
    """Play a trace of (ms, key, level) switch changes through the scanner.

    Time advances step_ms at a time; the scanner scans at the firmware's
    times and each_scan(scan_number) runs after every scan (the game loop's
    poll). Several scans within one step are run at their own stamps."""
    trace = sorted(trace, key=lambda e: e[0])
    i = 0
    scans = 0
    start = keys.elapsed_ms
    while keys.elapsed_ms <= until_ms:
        while i < len(trace) and trace[i][0] <= keys.elapsed_ms:
            keys.level[trace[i][1]] = trace[i][2]
            i += 1
        now = keys.elapsed_ms
        while start + scan_ms(scans, keys.ticks) <= now:
            keys.elapsed_ms = start + scan_ms(scans, keys.ticks)
            keys.scan()
            keys.elapsed_ms = now
            if each_scan:
                each_scan(scans)
            scans += 1
        keys.elapsed_ms += step_ms
