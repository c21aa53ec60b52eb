"""When CircuitPython's keypad scans: the desktop's scanner and the board VM's
scan at these times, so their events carry the stamps a board's would.

The firmware counts ticks of 1/1024 s. A scanner made with `interval` seconds
scans once when it is made and then every int(interval * 1024) ticks
(shared-module/keypad/__init__.c): buttons.SCAN_INTERVAL, 0.001 s, is 1
tick, 976.5625 us. Each scan stamps its events with supervisor.ticks_ms()
of that tick, the tick count * 1000 // 1024 (plus where the clock started,
modulo 2**29). So scans are stamped 0 or 1 ms apart, 1,024 a second: one
millisecond in 42 holds two scans, which then carry the same stamp. (On a
board a scan now and then comes a tick late: the tick interrupt is set 977
us after the last one ran. The stand-ins keep the ideal times;
tests/test_stand_ins.py measures both.)

Times here are ms after the scanner was made (its first scan, number 0, is
at 0). Desktop-only: the board's firmware scans by itself, so make flash
leaves this file off the drive."""

SCAN_TICKS = 1  # int(hardware.buttons.SCAN_INTERVAL * 1024) (tests/test_stand_ins.py checks it)


def ticks_of(interval_ms):
    # The firmware's whole ticks for an interval given in ms (1 -> 1, 2 -> 2, 5 -> 5).
    return interval_ms * 1024 // 1000


def scan_ms(n, ticks=SCAN_TICKS):
    """The stamp, in ms after the scanner was made, of its scan number n."""
    # n * ticks * 1000 // 1024 in small ints (the board VM runs this for hours
    # of clock): every 1024 scans take exactly ticks * 1000 ms.
    return (n >> 10) * ticks * 1000 + (n & 1023) * ticks * 1000 // 1024


def first_scan(ms, ticks=SCAN_TICKS):
    """The number of the first scan stamped at or after ms (ms >= 0)."""
    period = ticks * 1000  # the ms of 1024 scans
    return (ms // period) * 1024 + -(-(ms % period) * 1024 // period)


def scan_at_or_after(ms, ticks=SCAN_TICKS):
    """The stamp of the first scan at or after ms."""
    return scan_ms(first_scan(ms, ticks), ticks)
