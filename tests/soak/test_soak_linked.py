"""Linked play (issue 36), more seeds than make test: whole matches on lossy
and bursty cables, pulled cables, the VM's runs against CPython's."""

import pytest
from test_linked import PICO, play_checked, quiet
from test_linked_vm import PKGS
from test_vm import run_cpython, run_vm

from desktop.link_model import Link as Cable
from desktop.linked_pair import Pair, Racer
from hardware.keymaps import STOCK_0
from hardware.modes import MATCH, OVER, PAUSED


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


@pytest.mark.parametrize("seed", range(6, 12))
def test_the_vm_runs_linked_board_programs_as_cpython_does(seed):
    vm = run_vm("linked_pair.py", seed, 60000, 6000, pkgs=PKGS)
    assert vm == run_cpython("linked_pair.py", seed, 60000, 6000)
    assert "differ 0" in vm
