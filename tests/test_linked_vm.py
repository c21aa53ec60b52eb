"""Linked play on the MicroPython VM: two board programs in one
simulated time on the link model, run alike on the VM and on CPython; and a
linked match's every pass stepped with the heap locked."""

import re

import pytest
from test_vm import run_cpython, run_vm

PKGS = ("engine", "hardware", "desktop")


@pytest.mark.parametrize(
    "seed,loss,profile,link",
    [(3, 6000, "pico-st7789-240", "cable"), (5, 0, "cardputer", "cable"), (7, 50000, "cardputer", "radio")],
)
def test_two_linked_board_programs_on_the_vm_end_where_cpython_predicts(seed, loss, profile, link):
    # D-5/SP-7 across two devices: the same events, the same order, on both;
    # the VM's run is the model's (CPython's) byte for byte. (Two Cardputers
    # too: their keyboards' 56 keys, on a cable to their Grove ports, or by
    # radio with 5 % of packets lost and another pair's hellos on the channel,
    # refused and counted, both radios paired.)
    vm = run_vm("linked_pair.py", seed, 30000, loss, profile, link, pkgs=PKGS)
    cp = run_cpython("linked_pair.py", seed, 30000, loss, profile, link)
    assert vm == cp
    assert "started True" in vm
    events, checked, differ = map(int, re.search(r"events (\d+) checked (\d+) differ (\d+)", vm).groups())
    assert events > 100 and checked > 50 and differ == 0
    finals = re.findall(r"final (.*)", vm)
    assert len(finals) == 2 and finals[0] == finals[1]
    if link == "radio":
        assert "paired True True" in vm
        lost, sent = map(int, re.search(r"lost (\d+) of (\d+) packets", vm).groups())
        assert 0.03 < lost / sent < 0.07
        strangers = [int(n) for n in re.findall(r"\d+", vm.split("strangers", 1)[1].split("\n")[0])]
        assert min(strangers) > 10, vm


def test_a_linked_match_allocates_nothing_on_the_vm():
    # Every pass of a linked match until its game over, with the heap locked:
    # presses, the order's events, pings, hashes, acknowledgements.
    out = run_vm("linked_alloc.py", 3, 60000, pkgs=PKGS)
    assert "refuses True" in out and "ALLOCATED" not in out, out
    passes, events = map(int, re.search(r"locked passes (\d+) with events (\d+)", out).groups())
    assert passes > 50000 and events > 300, out
