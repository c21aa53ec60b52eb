# The board's millisecond clock (supervisor.ticks_ms, a keypad event's
# timestamp) wraps at 2**29: every deadline and every "how long since" in the
# program goes through these, never through plain + and -. The names and
# meanings of the first three are adafruit_ticks' (the ecosystem's form of
# this); they are kept here rather than installed as one more board library.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


_TICKS_PERIOD = const(1 << 29)
_TICKS_MAX = const(_TICKS_PERIOD - 1)
_TICKS_HALF = const(_TICKS_PERIOD // 2)
_AGE_MAX = const(1 << 27)  # 37 hours: longer than any wait of the program's


def ticks_add(ticks, delta):
    # The time delta ms after ticks (delta may be negative).
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(a, b):
    # a - b in ms for two ticks values within 2**28 ms (3 days) of each other.
    return ((a - b + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def ticks_less(a, b):
    # a comes before b.
    return ticks_diff(a, b) < 0


def ticks_aged(now, at):
    # at, moved on to _AGE_MAX before now if it is older: a stored time
    # aged at least once a day compares right (as 37 hours old at most) for
    # ever, where ticks_diff alone turns it new after 3.1 days.
    if ticks_diff(now, at) > _AGE_MAX:
        return (now - _AGE_MAX) & _TICKS_MAX
    return at
