"""Linked play, more seeds than make test: whole matches on lossy
and bursty cables, pulled cables, handhelds restarted, the VM's runs against
CPython's."""

import os

import pytest
from test_linked import PICO, play_checked, quiet
from test_linked_faults import harsh_match
from test_linked_vm import PKGS
from test_vm import run_cpython, run_vm

from desktop.keys import POWER_ON_TICKS
from desktop.link_model import Clock
from desktop.link_model import Link as Cable
from desktop.linked_pair import Device, Pair, QuietScreen, Racer
from engine.cards import Rng
from hardware.keymaps import PILE_0, STOCK_0
from hardware.modes import MATCH, OVER, PAUSED
from hardware.ticks import ticks_add


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("kind", ["uniform", "bursts"])
def test_whole_linked_matches_agree_after_every_event(seed, kind):
    cable = Cable(seed, loss=6000) if kind == "uniform" else Cable(seed, burst_every=1000, burst_bytes=12)
    pair = Pair(PICO, quiet(), seed=100 + seed, cable=cable)
    assert pair.start()
    racers = [Racer(d, 7 * seed + i, react_ms=(120, 400)) for i, d in enumerate(pair.devices)]
    assert play_checked(pair, racers, 3600 * 1000) > 50
    pair.run(500)
    a, b = pair.devices
    assert a.app.mode == b.app.mode == OVER and pair.agree()
    assert a.app.linked.dropped() == b.app.linked.dropped() == 0  # (nothing lost for want of room)


@pytest.mark.parametrize("seed", range(10))
def test_pulled_cables_pause_both_and_lose_nothing(seed):
    pair = Pair(PICO, quiet(), seed=200 + seed, cable=Cable(seed, loss=2000))
    assert pair.start()
    racers = [Racer(d, 3 * seed + i) for i, d in enumerate(pair.devices)]
    for pull in range(3):
        play_checked(pair, racers, 4000)
        if any(d.app.mode != MATCH for d in pair.devices):
            break
        t = pair.t_us[0]
        pair.cable.pull(t, t + (2500 + 700 * pull) * 1000)
        pair.run(2000)
        assert all(d.app.mode == PAUSED and d.app.pause_why == "cable silent" for d in pair.devices)
        assert pair.run_until(lambda: all(d.app.pause_why == "cable back" for d in pair.devices), 8000)
        assert pair.agree()
        for d in pair.devices:
            d.press(STOCK_0)
        pair.run(3500)
        assert all(d.app.mode == MATCH for d in pair.devices) and pair.agree()
    assert [d.app.linked.dropped() for d in pair.devices] == [0, 0]


@pytest.mark.parametrize("seed", range(100))
def test_either_handheld_restarted_at_any_moment_rejoins_where_the_other_is(seed):
    # Power lost on a device at a random moment of play on a lossy cable
    # (three times a match, either device, so a device that came back may
    # referee the next), a new clock and nonce, linked play chosen again
    # after a random while (before or after the other device finds the
    # cable silent): it takes up the other's position, and the match goes
    # on with both agreeing.
    rng = Rng(300 + seed)
    pair = Pair(PICO, quiet(), seed=300 + seed, cable=Cable(seed, loss=2000))
    assert pair.start()
    racers = [Racer(d, 5 * seed + i) for i, d in enumerate(pair.devices)]
    for restart in range(3):
        play_checked(pair, racers, 500 + rng.below(5000))
        if any(d.app.mode == OVER or d.app.linked is None for d in pair.devices):
            break
        who = rng.below(2)
        stays = pair.devices[1 - who]
        clock = Clock(ticks_add(POWER_ON_TICKS, -(pair.t_us[0] // 1000)), rng.below(101) - 50)
        fresh = Device(PICO, QuietScreen(PICO), pair.cable, who, clock, pair.t_us, 1 + rng.below(0xFFFE), seed)
        pair.devices[who] = fresh
        racers[who] = Racer(fresh, 5 * seed + 2 + restart)
        racers[1 - who].left = []  # (its player stops: a move's pile key in the pause would leave)
        pair.run(rng.below(3000))
        fresh.app.press(0, PILE_0 + 1)  # linked play chosen again: "go"

        def back(f=fresh, s=stays):  # both in the pause, the positions equal
            return f.app.mode == PAUSED and s.app.mode == PAUSED and pair.agree()

        assert pair.run_until(back, 8000)
        assert stays.app.linked.is_referee and not fresh.app.linked.is_referee
        assert fresh.app.linked.seat == who and stays.app.linked.seat == 1 - who
        end = pair.t_us[0] + 8 * 10**6
        while not pair.playing() and pair.t_us[0] < end:  # (the racers press to go on)
            for r in racers:
                r.step()
            pair.run(1)
        assert pair.playing() and pair.agree()
        assert play_checked(pair, racers, 3000) > 0  # (equal after every event)
        assert [d.app.linked.dropped() for d in pair.devices] == [0, 0]


@pytest.mark.parametrize("seed", range(6, 12))
def test_the_vm_runs_linked_board_programs_as_cpython_does(seed):
    vm = run_vm("linked_pair.py", seed, 60000, 6000, pkgs=PKGS)
    assert vm == run_cpython("linked_pair.py", seed, 60000, 6000)
    assert "differ 0" in vm


@pytest.mark.parametrize("seed", range(3, 43))  # (tests/test_linked_faults.py plays 0 and 2)
def test_harsh_matches_keep_both_in_one_scene_and_drop_nothing(seed):
    harsh_match(seed)  # (tests/test_linked_faults.py: its checks)


@pytest.mark.parametrize("seed", range(100, 200))
@pytest.mark.parametrize("level", ["clean", "lossy", "harsh", "radio"])
def test_churn_strands_nobody_at_every_level(seed, level):
    # People changing their minds (desktop/linked_pair.py Churn), 40 s a
    # session then calm: each ends in one match, both out, or alone (the
    # other switched off and on), never taken into a game not chosen.
    import sys

    sys.path.insert(
        0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools")
    )
    import bench_linked

    end, wrong, counts, error = bench_linked.churn_session((seed, level, 40000))
    assert error == "" and end in ("match", "out", "alone", "both paused, the link out") and wrong == 0, (end, error)
    assert counts.get("dropped", 0) == 0


@pytest.mark.parametrize("seed", range(100, 140))
def test_random_frames_through_whole_matches_stop_nothing(seed):
    import sys

    sys.path.insert(
        0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools")
    )
    import bench_linked

    sent, unfit, counted, end, error = bench_linked.fuzz_match(seed)
    assert error == "" and end == "ok" and unfit - 2 <= counted, (end, error, unfit, counted)
