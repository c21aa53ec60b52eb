"""The order of presses across two linked handhelds (hardware/order.py,
hardware/referee.py) on the desktop pair: SP-7 (the press made first wins)
and D-5 (ties in turn) however the cable delays or loses a press, the
referee's own press asking for the follower's word, and each event of the
order sounded once on each device. The rest of linked play: test_linked.py."""

import pytest
from helpers import position
from test_linked import PICO, quiet, referee_follower, set_position

from desktop.link_model import Link as Cable
from desktop.linked_pair import Pair
from hardware.controls import TAKEN
from hardware.follower import TICK_MS
from hardware.keymaps import STOCK_0
from hardware.link import put32
from hardware.modes import LOST
from hardware.protocol import FRAME_KIND, PRESS, SNAP_ON, TICK, TICK_NEXT, TICK_SIZE, TICK_TIME
from hardware.referee import HOLD_MAX_MS


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("gap_ms", [3, 20])
def test_the_press_made_first_wins_a_contested_pile_across_two_devices(first, gap_ms):
    # SP-7: both players' 8s fit pile 0 only; the one pressed first, on
    # whichever device, is the one played there; the other is refused.
    pair = Pair(PICO, quiet(), seed=7)
    assert pair.start()
    pair.run(2000)  # (pings: the clocks known)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    devices = sorted(pair.devices, key=lambda d: d.app.linked.seat)
    devices[first].press(STOCK_0 + 3)
    pair.run(gap_ms)
    devices[1 - first].press(STOCK_0 + 3)
    pair.run(200)
    assert pair.agree()
    top = devices[0].app.game.text().split()[-2]  # PILE0, top last
    assert top.split(",")[-1].upper() == ("8D" if first == 0 else "8C")
    results = [d.app.controls.result[1 - first] for d in devices]
    # The later press refused, the same on both screens: it fitted 7S when
    # pressed, so it lost a race ("taken"), not a card that never fitted.
    assert results[0] == results[1] == TAKEN


def test_an_earlier_press_lost_on_the_cable_again_and_again_still_wins():
    # SP-7 on a bad cable: the follower's press is lost, both its copies and
    # its first two resends, while its ticks arrive, each saying a frame of
    # it is still to come. The referee's own press, 15 ms later, waits for
    # that frame, however long it takes (not HOLD_MAX_MS: that is for a
    # follower not heard at all), and loses the race.
    pair = Pair(PICO, quiet(), seed=7)
    assert pair.start()
    pair.run(2000)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    ref, fol = referee_follower(pair)
    uart = fol.app.linked.link.uart
    write = uart.write
    lost = []

    def lossy(buf):
        if buf[FRAME_KIND] == PRESS and len(lost) < 4:
            lost.append(pair.t_us[0])
            return len(buf)
        return write(buf)

    uart.write = lossy
    fol.press(STOCK_0 + 3)  # the follower's 8C onto the 7S
    pair.run(15)
    ref.press(STOCK_0 + 3)  # the referee's 8D, 15 ms later
    pair.run(600)
    assert len(lost) == 4 and (lost[-1] - lost[0]) // 1000 > HOLD_MAX_MS // 2  # (the resends' waits: 25, 50 ms)
    assert pair.agree() and ref.app.game.text().split()[-2].split(",")[-1].upper() == "8C"
    assert ref.app.controls.result[ref.app.linked.seat] == TAKEN  # (the later press lost a race)


def test_a_press_of_the_referees_player_asks_for_the_followers_word_at_once():
    # SP-7's order lets a press of the referee's own player go once the
    # follower's word (a tick) is past it. The follower ticks every TICK_MS;
    # the referee asks for one as the press comes (WANT), so it goes a round
    # trip later, not when the next tick happens to come. (A cable of 1 ms:
    # the follower has just ticked when the press comes, and its next tick
    # of its own would release it no sooner than TICK_MS after.)
    pair = Pair(PICO, quiet(), seed=7, cable=Cable(7, delay_us=1000, jitter_us=0))
    assert pair.start()
    pair.run(2000)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    ref, fol = referee_follower(pair)
    ticked = fol.app.linked.follower._tick_at
    assert pair.run_until(lambda: fol.app.linked.follower._tick_at != ticked, 100)
    count = ref.app.linked.count
    ref.press(STOCK_0 + 3)  # the 8D onto the 7S
    pressed = pair.t_us[0]
    assert pair.run_until(lambda: ref.app.linked.count > count, 100)
    assert (pair.t_us[0] - pressed) // 1000 < TICK_MS
    pair.run(100)
    assert pair.agree() and ref.app.game.text().split()[-2].split(",")[-1].upper() == "8D"


def test_each_press_of_the_order_sounds_once_on_each_device():
    # SP-7 through the order: a card played by either player is one tick of
    # feedback on each device (the App once sounded it again after the
    # order had).
    pair = Pair(PICO, quiet(), seed=7)
    assert pair.start()
    pair.run(2000)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    heard = []
    for i, d in enumerate(pair.devices):
        real = d.app.feedback.event

        def event(kind, player, now, real=real, i=i):
            heard.append((i, kind, player))
            return real(kind, player, now)

        d.app.feedback.event = event
    devices = sorted(pair.devices, key=lambda d: d.app.linked.seat)
    devices[1].press(STOCK_0 + 3)  # the follower's or the referee's 8C onto the 7S
    pair.run(300)
    devices[0].press(STOCK_0 + 3)  # 8D: no pile takes it now (refused)
    pair.run(300)
    assert pair.agree()
    for i in range(2):
        mine = [(kind, player) for d, kind, player in heard if d == i]
        assert len(mine) == 2 and mine[0][1] == 1 and mine[1][1] == 0, heard


def test_a_word_far_ahead_is_not_taken_up_however_old_the_last_one_is():
    # SP-7 against a follower whose word of its presses is stale for 2 s
    # (its ticks lost) and then says "all sent up to 5 s from now" (a bad
    # clock, or a crafted frame): the referee does not take that up, so its
    # own press, made 15 ms after the follower's (on its way for 30 ms), still
    # waits for it and loses.
    pair = Pair(PICO, quiet(), seed=7, cable=Cable(7, delay_us=30000, jitter_us=0))
    assert pair.start()
    pair.run(2000)
    ref, fol = referee_follower(pair)
    ref.app.game = position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH")
    ref.app.linked.order.send_snapshot(SNAP_ON, ref.ticks_ms())
    pair.run(500)
    assert pair.agree()
    uart = fol.app.linked.link.uart
    write = uart.write
    dropping = [True]

    def no_ticks(buf):
        if dropping[0] and buf[FRAME_KIND] == TICK:
            return len(buf)
        return write(buf)

    uart.write = no_ticks
    pair.run(2000)
    assert pair.playing() and not ref.app.linked.phase == LOST  # (pongs and acks still come: only the word is stale)
    dropping[0] = False
    linked = fol.app.linked
    buf = bytearray(TICK_SIZE)
    put32(buf, TICK_TIME, (fol.ticks_ms() + 5000) & ((1 << 29) - 1))
    buf[TICK_NEXT] = linked.link.next_seq()
    linked.link.send(TICK, buf, TICK_SIZE, fol.ticks_ms())
    dropping[0] = True  # (no true word after it: only the far one)
    pair.run(5)
    fol.press(STOCK_0 + 3)  # the follower's 8C onto the 7S
    pair.run(15)
    ref.press(STOCK_0 + 3)  # the referee's 8D, 15 ms later
    pair.run(600)
    assert pair.agree() and ref.app.game.text().split()[-2].split(",")[-1].upper() == "8C"
