"""Stand-in for CircuitPython's supervisor: ticks_ms() over a clock the test driver sets."""

_TICKS_MAX = (1 << 29) - 1
_ms = 0


def ticks_ms():
    return _ms & _TICKS_MAX


def set_ms(ms):
    global _ms
    _ms = ms
