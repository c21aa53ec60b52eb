"""One order of presses for two linked devices (hardware/referee.py):
the referee lets a press go once the other device's word says nothing earlier
can come, in the order of the times whatever order they arrived in, and a tie
goes to each player in turn (D-5)."""

from test_vm import run_vm

from hardware.referee import SIZE, SYNC_MS, Referee
from hardware.ticks import ticks_add

START = 0x1FFF0000 + 65530  # 6 ms before the clock wraps


def released(ref, now, most=SIZE):
    # What goes at now, the other device's word at now too.
    out = []
    ref.release(now, lambda p, a, t: out.append((p, a, t)), upto=now, most=most)
    return out


def test_presses_go_in_the_order_of_their_times_after_the_word():
    ref = Referee()
    t = START
    ref.add(0, 3, ticks_add(t, 9))  # the referee's own press, across the wrap
    ref.add(1, 5, t + 2)  # the other device's, made earlier, arrives later
    assert released(ref, t + 2 + SYNC_MS - 1) == []  # still held
    assert released(ref, t + 2 + SYNC_MS) == [(1, 5, t + 2)]
    assert released(ref, ticks_add(t, 9 + SYNC_MS)) == [(0, 3, ticks_add(t, 9))]


def test_no_more_go_than_the_link_has_room_for():
    # (The rest wait in the queue for the next pass: none is lost.)
    ref = Referee()
    for i in range(5):
        ref.add(i % 2, i, START + i)
    assert [a for _, a, _ in released(ref, START + 100, most=2)] == [0, 1]
    assert [a for _, a, _ in released(ref, START + 100, most=0)] == []
    assert [a for _, a, _ in released(ref, START + 100)] == [2, 3, 4]


def test_ties_go_to_each_player_in_turn():  # D-5
    ref = Referee()
    winners = []
    for k in range(6):
        t = START + 100 * k
        ref.add(k % 2, 1, t)  # whoever's press arrives first
        ref.add(1 - k % 2, 2, t)
        winners.append(released(ref, t + SYNC_MS)[0][0])
    assert winners == [0, 1, 0, 1, 0, 1]


def test_a_full_queue_refuses_and_counts():
    ref = Referee()
    for i in range(SIZE):
        assert ref.add(i % 2, 0, START + i)
    assert not ref.add(0, 0, START) and ref.dropped == 1
    assert len(released(ref, START + SIZE + SYNC_MS)) == SIZE and ref.waiting() == 0


def test_the_referee_allocates_nothing_on_the_vm():
    out = run_vm("referee.py", pkgs=("hardware",))
    assert "allocated nothing True" in out and "released 400" in out, out


def test_with_the_other_devices_word_a_press_goes_once_nothing_earlier_can_come():
    # D-5/SP-7 across two devices: the referee's own press at t waits until
    # the other device has said its presses are all sent past t (plus the
    # clocks' error), however long its loop is busy; without any word, at
    # most HOLD_MAX_MS.
    from hardware.referee import HOLD_MAX_MS

    ref = Referee()
    got = []
    ref.add(0, 1, 1000)
    assert ref.release(1030, lambda *a: got.append(a), upto=1000 + SYNC_MS - 1) == 0  # (its word is too early)
    ref.add(1, 2, 995)  # the other's earlier press, late over a busy cable
    assert ref.release(1031, lambda *a: got.append(a), upto=1000 + SYNC_MS) == 2
    assert got == [(1, 2, 995), (0, 1, 1000)]  # the earlier first
    ref.add(0, 3, 2000)
    assert ref.release(2000 + HOLD_MAX_MS - 1, lambda *a: got.append(a), upto=1500) == 0
    assert ref.release(2000 + HOLD_MAX_MS, lambda *a: got.append(a), upto=1500) == 1  # (no word: at most this)


def test_no_press_goes_by_the_hold_while_the_other_device_says_a_frame_of_its_is_missing():
    # SP-7: the other device is heard (its ticks come), but a frame of its
    # was lost and its word counts for nothing until that frame comes again:
    # it may be a press earlier than ours. The hold (HOLD_MAX_MS) is for a
    # device not heard at all; here our press waits for the frame.
    from hardware.referee import HOLD_MAX_MS

    ref = Referee()
    got = []
    ref.add(0, 1, START)
    late = ticks_add(START, 4 * HOLD_MAX_MS)
    assert ref.release(late, lambda *a: got.append(a), upto=START - 10, held=True) == 0
    ref.add(1, 2, ticks_add(START, -15))  # the lost press, come again: 15 ms earlier
    assert ref.release(late, lambda *a: got.append(a), upto=ticks_add(START, SYNC_MS)) == 2
    assert got == [(1, 2, ticks_add(START, -15)), (0, 1, START)]


def test_the_word_works_across_the_wrap():
    ref = Referee()
    got = []
    t = (1 << 29) - 3
    ref.add(0, 1, t)
    assert ref.release(t + 1, lambda *a: got.append(a), upto=(t + SYNC_MS) & ((1 << 29) - 1)) == 1


def test_a_remote_press_goes_once_this_devices_own_keys_are_read_past_it():
    # D-5/SP-7 across two devices: the other device's press needs no word
    # from it (its earlier presses came before it on the cable), only this
    # device's keys read past its time: an own press of the same
    # millisecond is then in the queue, and the tie goes by turns.
    ref = Referee()
    ref.remote = 1
    got = []
    ref.add(1, 2, 1000)
    assert (
        ref.release(1003, lambda *a: got.append(a), upto=1000, read=1000) == 0
    )  # (an own press at 1000 may be unread)
    assert ref.release(1003, lambda *a: got.append(a), upto=1000, read=1001) == 1
    assert got == [(1, 2, 1000)]
    # A tie: both at 2000, the remote one first in the queue (its turn is not).
    ref.tie_to = 0
    ref.add(1, 3, 2000)
    assert ref.release(2001, lambda *a: got.append(a), upto=1990, read=2000) == 0
    ref.add(0, 4, 2000)  # read in the pass that started at 2000
    assert ref.release(2002, lambda *a: got.append(a), upto=1990, read=2001) == 0  # (ours first: it waits for the word)
    assert ref.release(2003, lambda *a: got.append(a), upto=2000 + SYNC_MS, read=2002) == 2
    assert got[1:] == [(0, 4, 2000), (1, 3, 2000)] and ref.tie_to == 1


def test_the_link_bench_s_contests_put_the_earlier_press_first():
    # tools/bench_link.py's contests (D-5): two devices' presses on the link
    # model, the other device's ticks saying how far its presses have gone;
    # 40 of them after the clock sync's first 16, gaps 0 to 40 ms: every
    # press more than 15 ms earlier goes first (the bench's full run prints
    # the figures in docs/linked.md).
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
    from bench_link import contests

    results = contests(56)
    wide = [ok for gap, ok, _ in results if gap > 15]
    assert len(results) == 40 and wide and all(wide), results
