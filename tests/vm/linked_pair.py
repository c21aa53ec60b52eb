# Two board programs (the App of each of two linked handhelds) in one
# simulated time on the MicroPython VM, joined by the link model: the same
# run as on CPython (tests/test_linked_vm.py compares them), each position
# equal after every event of the order. Arguments: seed, ms of play, loss
# (parts per million of bytes; by radio, of packets), the board profile (the
# 240 panel's if none), and "radio" for two radios on the modelled air, with
# another pair's hellos on the channel (desktop/radio_model.py), not a cable.
import sys

from desktop.link_model import Link as Cable
from desktop.linked_pair import Pair, QuietScreen, Racer, Strangers
from desktop.radio_model import Air
from hardware import profiles
from hardware.modes import LOST, OVER


def main(seed, ms, loss, profile, radio):
    p = profiles.get(profile)
    link = Air(seed, loss=loss) if radio else Cable(seed, loss=loss)
    pair = Pair(p, (QuietScreen(p), QuietScreen(p)), seed=seed, cable=link)
    if radio:
        pair.others.append(Strangers(link, pair.t_us))
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
        if la.count == lb.count and la.count != last and not lb.phase == LOST:
            last = la.count
            checked += 1
            if a.app.game.text() != b.app.game.text():
                differ += 1
        if a.app.mode == OVER and b.app.mode == OVER:
            break
    pair.run(300)  # (nobody presses: the events on their way when time ran out arrive)
    print("events", a.app.linked.count, "checked", checked, "differ", differ)
    print("resent", a.app.linked.link.resent, b.app.linked.link.resent, "bad", a.app.linked.link.bad)
    if radio:
        print(
            "lost",
            link.lost,
            "of",
            link.sent,
            "packets; paired",
            a.uart.partner is not None,
            b.uart.partner is not None,
        )
        print("strangers", [d.uart.strangers for d in pair.devices])
    print("final", a.app.game.text())
    print("final", b.app.game.text())


args = sys.argv[1:] + ["pico-st7789-240", ""][len(sys.argv) - 4 :]
main(int(args[0]), int(args[1]), int(args[2]), args[3], args[4] == "radio")
