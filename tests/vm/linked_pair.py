# Two board programs (the App of each of two linked handhelds) in one
# simulated time on the MicroPython VM, joined by the link model: the same
# run as on CPython (tests/test_linked_vm.py compares them), each position
# equal after every event of the order. Arguments: seed, ms of play, loss
# (parts per million of bytes), and the board profile (the 240 panel's if none).
import sys

from desktop.link_model import Link as Cable
from desktop.linked_pair import Pair, QuietScreen, Racer
from hardware import profiles
from hardware.modes import OVER


def main(seed, ms, loss, profile):
    p = profiles.get(profile)
    pair = Pair(p, (QuietScreen(p), QuietScreen(p)), seed=seed, cable=Cable(seed, loss=loss))
    print("started", pair.start())
    a, b = pair.devices
    racers = [Racer(a, 2 * seed), Racer(b, 2 * seed + 1)]
    checked = 0
    differ = 0
    last = -1
    end = pair.t_us[0] + ms * 1000
    while pair.t_us[0] < end:
        for r in racers:
            r.step()
        pair.run(1)
        la, lb = a.app.linked, b.app.linked
        if la.count == lb.count and la.count != last and not lb.lost:
            last = la.count
            checked += 1
            if a.app.game.text() != b.app.game.text():
                differ += 1
        if a.app.mode == OVER and b.app.mode == OVER:
            break
    print("events", a.app.linked.count, "checked", checked, "differ", differ)
    print("resent", a.app.linked.link.resent, b.app.linked.link.resent, "bad", a.app.linked.link.bad)
    print("final", a.app.game.text())
    print("final", b.app.game.text())


main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else "pico-st7789-240")
