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


def test_a_stored_time_aged_daily_stays_old_for_ever():
    # Four days of a time stored and looked at once an hour: plain
    # ticks_diff calls it new after 3.1 days; aged, it stays 37 h old.
    from hardware.ticks import ticks_aged

    then = POWER_ON
    now = POWER_ON
    plain_turned_new = False
    for hour in range(1, 24 * 7):
        now = ticks_add(now, 3600 * 1000)
        plain_turned_new |= ticks_diff(now, POWER_ON) < 0
        then = ticks_aged(now, then)
        age = ticks_diff(now, then)
        assert age == min(hour * 3600 * 1000, 1 << 27)
    assert plain_turned_new
    recent = ticks_add(now, -5)
    assert ticks_aged(now, recent) == recent  # (a young time is left as it is)
