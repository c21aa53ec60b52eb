# The one clock module (hardware/ticks.py): the board's ticks_ms wraps at
# 2**29, and a board's clock starts 65,536 ms before the wrap.
from hardware.ticks import ticks_add, ticks_diff, ticks_less

PERIOD = 1 << 29
POWER_ON = 0x1FFF0000


def test_ticks_diff_wraps_at_2_29():
    assert ticks_diff(5, PERIOD - 3) == 8
    assert ticks_diff(PERIOD - 3, 5) == -8
    assert ticks_diff(1000, 10) == 990


def test_a_deadline_past_the_wrap_is_still_ahead():
    due = ticks_add(POWER_ON, 70000)  # 4.5 s past the wrap
    assert due == 70000 - 65536
    assert ticks_diff(due, POWER_ON) == 70000
    assert ticks_less(POWER_ON, due) and not ticks_less(due, POWER_ON)
    assert ticks_add(3, -5) == PERIOD - 2  # and back before it


def test_the_same_time_is_not_less():
    assert not ticks_less(POWER_ON, POWER_ON)
    assert ticks_diff(ticks_add(POWER_ON, 1), POWER_ON) == 1
