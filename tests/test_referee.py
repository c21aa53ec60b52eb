"""One order of presses for two linked devices (issue 36, hardware/referee.py):
the referee lets a press go HOLD_MS after its time, in the order of the times
whatever order they arrived in, and a tie goes to each player in turn (D-5)."""

from test_vm import run_vm

from hardware.referee import HOLD_MS, SIZE, Referee

START = 0x1FFF0000 + 65530  # 6 ms before the clock wraps


def released(ref, now):
    out = []
    ref.release(now, lambda p, a, t: out.append((p, a, t)))
    return out


def test_presses_go_in_the_order_of_their_times_after_the_hold():
    ref = Referee()
    t = START
    ref.add(0, 3, (t + 9) & ((1 << 29) - 1))  # the referee's own press, across the wrap
    ref.add(1, 5, t + 2)  # the other device's, made earlier, arrives later
    assert released(ref, t + 2 + HOLD_MS - 1) == []  # still held
    assert released(ref, t + 2 + HOLD_MS) == [(1, 5, t + 2)]
    assert released(ref, (t + 9 + HOLD_MS) & ((1 << 29) - 1)) == [(0, 3, (t + 9) & ((1 << 29) - 1))]


def test_ties_go_to_each_player_in_turn():  # D-5
    ref = Referee()
    winners = []
    for k in range(6):
        t = START + 100 * k
        ref.add(k % 2, 1, t)  # whoever's press arrives first
        ref.add(1 - k % 2, 2, t)
        winners.append(released(ref, t + HOLD_MS)[0][0])
    assert winners == [0, 1, 0, 1, 0, 1]


def test_a_full_queue_refuses_and_counts():
    ref = Referee()
    for i in range(SIZE):
        assert ref.add(i % 2, 0, START + i)
    assert not ref.add(0, 0, START) and ref.dropped == 1
    assert len(released(ref, START + SIZE + HOLD_MS)) == SIZE and ref.waiting() == 0


def test_the_referee_allocates_nothing_on_the_vm():
    out = run_vm("referee.py", pkgs=("hardware",))
    assert "allocated nothing True" in out and "released 400" in out, out
