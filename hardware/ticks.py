# The board's millisecond clock (supervisor.ticks_ms, a keypad event's
# timestamp) wraps at 2**29: every deadline and every "how long since" in the
# program goes through these three, never through plain + and -. The names and
# meanings are adafruit_ticks' (the ecosystem's form of this); they are kept
# here, three lines, rather than installed as one more board library.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


_TICKS_PERIOD = const(1 << 29)
_TICKS_MAX = const(_TICKS_PERIOD - 1)
_TICKS_HALF = const(_TICKS_PERIOD // 2)


def ticks_add(ticks, delta):
    # The time delta ms after ticks (delta may be negative).
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(a, b):
    # a - b in ms for two ticks values within 2**28 ms (3 days) of each other.
    return ((a - b + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def ticks_less(a, b):
    # a comes before b.
    return ticks_diff(a, b) < 0
