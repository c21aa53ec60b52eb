"""Stand-in for CircuitPython's supervisor: ticks_ms() over a clock the test driver sets."""

_TICKS_MAX = (1 << 29) - 1
_ms = 0x1FFF0000  # the firmware's ticks_ms() at power-on: 65,536 ms before the wrap


def ticks_ms():
    return _ms & _TICKS_MAX


def set_ms(ms):
    global _ms
    _ms = ms
