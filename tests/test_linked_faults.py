"""Linked play when faults come together (hardware/linked.py): both handhelds
in the same scene (a lost link paused on both, whichever way it was lost; a
player's leaving heard by the other), nothing dropped without a count,
resyncs that do not feed each other, and the protocol's frames in one place
(hardware/protocol.py). The harsh level of tools/bench_linked.py plays a few
matches here; make soak plays more."""

import pytest
from helpers import play_to_the_end
from test_linked import PICO, quiet, referee_follower

from desktop.link_model import Link as Cable
from desktop.linked_pair import (
    HARSH_REACT_MS,
    HARSH_STRAY,
    IN_OVER,
    OUT,
    Pair,
    Racer,
    Scenes,
    fuzzed_match,
    harsh_pair,
    scene,
)
from engine import games
from engine.spit import GAME_OVER
from hardware import keymaps, link, modes, protocol
from hardware.keymaps import PILE_0, STOCK_0
from hardware.linked import LEAVE_MS, LOST_MS
from hardware.modes import CLOSED, GONE, LOST, MATCH, MENU, OTHER_LEFT, OVER, PAUSED
from hardware.protocol import SNAP_ON, SNAP_PAUSED

US = 1000  # a ms in the model's microseconds


def started(seed=3, cable=None):
    pair = Pair(PICO, quiet(), seed=seed, cable=cable if cable is not None else Cable(seed))
    assert pair.start()
    pair.run(500)
    return pair


def left_on_a_silent_cable(out_ms=60000, back_ms=None):
    # Device 0's player leaves from the pause of a cable out for out_ms
    # (back_ms: the wire from the other device back sooner): (the pair, the
    # session left, still waiting for an acknowledgement).
    pair = started()
    a, b = pair.devices
    t = pair.t_us[0]
    if back_ms is None:
        pair.cable.pull(t, t + out_ms * US)
    else:
        pair.cable.pull(t, t + back_ms * US)
        pair.cable.pull(t, t + out_ms * US, a.side)
    pair.run(LOST_MS + 200)
    assert a.app.pause_why == b.app.pause_why == "cable silent"
    a.press(PILE_0 + 1)  # leave (the pause's keys work alone while the cable is silent)
    pair.run(50)
    assert a.app.mode == MENU and a.app.leaving is not None
    return pair, a.app.leaving


def paused_within(pair, ms):
    # The ms each device took to pause, from now (None: not within ms).
    t = pair.t_us[0]
    at = [None, None]
    while pair.t_us[0] < t + ms * US:
        pair.run(1)
        for i, d in enumerate(pair.devices):
            if at[i] is None and d.app.mode == PAUSED:
                at[i] = (pair.t_us[0] - t) // US
    return at


@pytest.mark.parametrize("deaf", ["referee", "follower"])
def test_a_device_heard_but_not_hearing_or_unheard_but_hearing_pauses_within_2_s(deaf):
    # One wire of the two out: one device hears nothing (silent), the other
    # hears all but is not heard (its ALIVE goes unacknowledged). Both pause
    # within 2 s; the wire back, both take up the referee's position.
    pair = started()
    ref, fol = referee_follower(pair)
    unheard = fol if deaf == "referee" else ref  # (the referee deaf: the follower's wire is out)
    t = pair.t_us[0]
    pair.cable.pull(t, t + 4000 * US, unheard.side)
    at = paused_within(pair, 2000)
    assert all(a is not None and a <= 2000 for a in at), at
    assert all(d.app.pause_why == "cable silent" for d in pair.devices)
    assert pair.run_until(lambda: all(d.app.pause_why == "cable back" for d in pair.devices), 4000)
    assert pair.agree() and ref.app.linked.snapshots == 2  # (the start's and the one after the loss: no more)
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    assert pair.playing() and pair.agree()


def test_a_player_who_leaves_keeps_the_cable_until_the_other_handheld_has_heard():
    # The leave's frames lost for 400 ms: the leaving device is in its menu
    # at once but keeps the cable open; the other hears it once the cable
    # is back, says so, and offers the menu.
    pair = started()
    a, b = pair.devices
    a.press(PILE_0, hold_us=1500000)  # the pause chord
    a.press(PILE_0 + 1, hold_us=1500000)
    pair.run(1600)
    assert a.app.mode == b.app.mode == PAUSED
    t = pair.t_us[0]
    pair.cable.pull(t, t + 400 * US)
    a.press(PILE_0 + 1)  # pile 2: leave
    pair.run(300)
    assert a.app.mode == MENU and a.app.leaving is not None  # (the cable still open: not heard yet)
    assert b.app.mode == PAUSED and b.app.pause_why == ""
    assert pair.run_until(lambda: b.app.pause_why == OTHER_LEFT, 1500)
    assert " ".join(b.app.screen.lines) == OTHER_LEFT + " any key: menu"  # (on two lines, the 240 panel's 20 columns)
    assert pair.run_until(lambda: a.app.leaving is None, 500)  # (heard: let go)
    b.press(PILE_0)  # any key
    pair.run(50)
    assert b.app.mode == MENU and b.app.leaving is not None  # (its BYE told too: the UART open while it goes out)
    assert pair.run_until(lambda: b.app.leaving is None, LEAVE_MS + 100)  # (nobody answers: let go)


def test_a_leave_made_while_the_cable_is_silent_is_told_once_it_is_back():
    # The cable out for 6 s, both ways; device 0's player leaves at 1.7 s.
    # Its session keeps the UART while the cable is silent, past LEAVE_MS;
    # the other device shows "cable silent" until the cable is back, then
    # hears the leave within 2 s, and the leaver lets the UART go.
    pair, old = left_on_a_silent_cable(out_ms=6000)
    a, b = pair.devices
    pair.run(4000)  # (5.75 s of the 6 out)
    assert a.app.leaving is old and b.app.pause_why == "cable silent"
    assert pair.run_until(lambda: b.app.pause_why == OTHER_LEFT, 250 + 2000)
    assert pair.run_until(lambda: a.app.leaving is None, 500)


def test_a_leave_the_other_handheld_is_heard_but_never_acknowledges_is_let_go_after_2_s():
    # The other device's wire back at 3 s, the leaver's out for a minute: it
    # hears the other, which never hears its BYE, and lets the UART go
    # LEAVE_MS after it first heard it (linked play can be chosen again).
    pair, old = left_on_a_silent_cable(back_ms=3000)
    a = pair.devices[0]
    heard = old.link.good
    pair.run(1000)
    assert old.link.good == heard and a.app.leaving is old  # (silent still)
    assert pair.run_until(lambda: old.link.good > heard, 1500)  # (a resend of the other's, 200 ms apart at most)
    pair.run(LEAVE_MS - 50)
    assert a.app.leaving is old
    pair.run(100)
    assert a.app.leaving is None and old.phase == CLOSED


def test_a_press_made_before_the_referees_latest_position_is_not_a_key_of_its_pause():
    # The referee pauses ("cable back") and sends its position, which the
    # follower has not taken up yet: the follower's player, still in the
    # match, presses pile 2 (a card). Before, the referee read it as its
    # pause's "pile 2: leave" and left the match. Now it is stale: refused,
    # counted, and both end in the pause with one position.
    pair = started()
    ref, fol = referee_follower(pair)
    t = pair.t_us[0]
    pair.cable.pull(t, t + 300 * US, ref.side)  # (the referee's position lost on its way, for a while)
    ref.app.linked.order.send_snapshot(SNAP_PAUSED, ref.ticks_ms())
    assert ref.app.mode == PAUSED and fol.app.mode == MATCH
    fol.press(PILE_0 + 1)
    pair.run(150)
    assert ref.app.mode == PAUSED and ref.app.linked.order.stale == 2  # (not left; the press and its let-go refused)
    assert pair.run_until(lambda: fol.app.mode == PAUSED, 1000) and pair.agree()
    assert ref.app.mode == PAUSED and ref.app.linked is not None


def test_a_press_with_no_room_in_the_window_waits_and_is_not_lost():
    pair = started()
    ref, fol = referee_follower(pair)
    linked = fol.app.linked
    from hardware.protocol import ALIVE

    while linked.link.room():  # (the window filled: frames on their way, not acknowledged yet)
        linked.link.send(ALIVE, linked._buf, 0, fol.ticks_ms())
    applied = []  # the events the follower applies: (player, action)
    real = linked.apply
    linked.apply = lambda player, action, t, now: applied.append((player, action)) or real(player, action, t, now)
    fol.press(STOCK_0)
    pair.run(1)
    assert linked.follower.pending_n == 1  # (waiting for room)
    assert pair.run_until(lambda: (linked.seat, STOCK_0) in applied, 500)  # (sent, ordered, and back)
    assert linked.follower.pending_n == 0 and linked.dropped() == 0 and ref.app.linked.dropped() == 0
    pair.run(200)
    assert pair.agree()


def test_a_resync_is_not_sent_again_while_one_is_on_its_way():
    pair = started()
    ref, fol = referee_follower(pair)
    t = pair.t_us[0]
    pair.cable.pull(t, t + 200 * US, ref.side)  # (its snapshot takes a while to arrive)
    ref.app.linked.order.send_snapshot(SNAP_ON, ref.ticks_ms())
    sent = ref.app.linked.snapshots
    fol.app.linked.follower.ask(1, fol.ticks_ms())  # the follower asks, not having it yet
    fol.app.linked.follower.ask(1, fol.ticks_ms())
    pair.run(1000)
    assert ref.app.linked.snapshots == sent and pair.agree()
    fol.app.linked.follower.ask(1, fol.ticks_ms())  # now it has it: a new ask is a new divergence, answered once
    fol.app.linked.follower.ask(1, fol.ticks_ms())
    pair.run(500)
    assert ref.app.linked.snapshots == sent + 1 and pair.agree() and pair.playing()


def test_the_protocols_frame_kinds_are_unique_and_fit_the_link():
    taken = set(vars(modes)) | set(vars(keymaps))  # (what it imports to check the order's actions)
    kinds = {name: v for name, v in vars(protocol).items() if name.isupper() and "_" not in name and name not in taken}
    kinds.pop("VERSION")
    kinds.pop("UNRELIABLE")  # (where the unreliable kinds begin)
    reliable = ["EVENT", "PRESS", "SNAP", "MORE", "ASK", "BYE", "ALIVE"]
    assert sorted(kinds) == sorted(reliable + ["ACK", "HELLO", "PING", "PONG", "TICK", "HASH", "WANT"])
    assert len(set(kinds.values())) == len(kinds)
    assert all((kinds[k] < protocol.UNRELIABLE) == (k in reliable) for k in kinds)
    sizes = [v for name, v in vars(protocol).items() if name.endswith("_SIZE")]
    assert sizes and max(sizes) <= protocol.MAX_PAYLOAD


def harsh_match(seed):
    # A whole match at the harsh level, checked: the scenes never differ for
    # more than 2 s, the positions end equal, nothing is dropped, and
    # snapshots come only for a start, a divergence or a loss. (make soak
    # plays more seeds.)
    pair = harsh_pair(PICO, seed)
    assert pair.start(20000)
    racers = [Racer(d, 3 * seed + i, react_ms=HARSH_REACT_MS, stray=HARSH_STRAY) for i, d in enumerate(pair.devices)]
    scenes = Scenes(pair)
    sessions = [d.app.linked for d in pair.devices]
    end = pair.t_us[0] + 600 * 10**6
    while pair.t_us[0] < end and not all(scene(d.app) in (OUT, IN_OVER) for d in pair.devices):
        for r in racers:
            r.step()
        pair.run(1)
        scenes.watch()
    pair.run(3000)
    scenes.watch()
    scenes.finish()
    assert all(scene(d.app) in (OUT, IN_OVER) for d in pair.devices)
    assert scenes.over_2s == 0, scenes.worst_ms
    games = [d.app.game or d.app.saved for d in pair.devices]
    assert games[0].text() == games[1].text()
    assert [s.dropped() for s in sessions] == [0, 0]
    assert scenes.snapshots <= 1 + scenes.divergences + scenes.lost
    return scenes


@pytest.mark.parametrize("seed", [0, 2])  # (two with losses of the link: seed 1 ends before its first outage)
def test_harsh_matches_keep_both_handhelds_in_one_scene(seed):
    # Many faults at once (desktop/linked_pair.py: harsh_pair).
    assert harsh_match(seed).lost > 0  # (the faults happened)


def test_a_session_left_while_another_is_chosen_lets_the_uart_go_first():
    # Linked play chosen again within 2 s of leaving: the last session lets
    # its UART go before the next one opens it.
    pair, old = left_on_a_silent_cable()
    a = pair.devices[0]
    a.app.press(0, PILE_0 + 1)  # "go": linked play again
    assert a.app.leaving is None and old.phase == CLOSED and a.app.linked is not old
    assert a.app.mode != MATCH


def test_a_match_on_one_handheld_started_while_a_left_session_waits_lets_its_uart_go():
    pair, old = left_on_a_silent_cable()
    a = pair.devices[0]
    a.app.players = 0  # two people at this handheld
    a.app.press(0, PILE_0 + 1)  # go
    assert a.app.mode == MATCH and a.app.leaving is None and old.phase == CLOSED


def test_presses_waiting_in_the_order_when_a_snapshot_goes_are_not_keys_of_its_pause():
    # The follower's pile 2 (a card) is still in the referee's queue when
    # the referee sends its position in the pause (the link back after a
    # loss: the harsh level found it so): made on the match, it must not be
    # read as the pause's "leave". A snapshot lets the queue go, counted.
    pair = started()
    ref, fol = referee_follower(pair)
    order = ref.app.linked.order
    order.queue.add(fol.app.linked.seat, PILE_0 + 1, ref.ticks_ms())  # (its turn not yet come)
    order.send_snapshot(SNAP_PAUSED, ref.ticks_ms())
    assert order.queue.waiting() == 0 and order.stale == 1
    pair.run(500)
    assert ref.app.mode == fol.app.mode == PAUSED and not ref.app.linked.phase == GONE and pair.agree()


def test_a_match_that_ends_while_the_cable_is_out_ends_on_both_once_it_is_back():
    # The referee's last move made as the cable goes out both ways for 3 s
    # (its event lost): the follower pauses ("cable silent") and, once the
    # cable is back, takes up the referee's position, which is over: the
    # same result on both, not a pause waiting for a position never sent.
    pair = started()
    ref, fol = referee_follower(pair)
    t = pair.t_us[0]
    pair.cable.pull(t, t + 3000 * US)
    g = games.from_text(ref.app.game.text())
    play_to_the_end(g, 5)
    ref.app.game = g
    ref.app.game_over(ref.ticks_ms())
    pair.run(LOST_MS + 200)
    assert ref.app.mode == OVER and fol.app.mode == PAUSED and fol.app.pause_why == "cable silent"
    assert pair.run_until(lambda: fol.app.mode == OVER, 3000 - LOST_MS - 200 + 2000)
    assert fol.app.game.text() == ref.app.game.text() and fol.app.game.phase == GAME_OVER
    assert ref.app.mode == OVER and ref.app.linked.order.queue.waiting() == 0


def test_a_link_lost_for_four_days_stays_lost_until_the_cable_is_back():
    # A stored time read after 2**28 ms (3.1 days) wraps: a link silent that
    # long must not be taken for one heard a moment ago.
    pair = started()
    t = pair.t_us[0]
    days_us = 4 * 24 * 3600 * 10**6
    pair.cable.pull(t, t + days_us)
    pair.run(LOST_MS + 200)
    assert all(d.app.pause_why == "cable silent" for d in pair.devices)
    while pair.t_us[0] < t + days_us:  # (a pass every 10 s: the board loops on, its clock wrapping)
        pair.t_us[0] += 10 * 10**6
        for d in pair.devices:
            d.step()
        assert all(d.app.linked.phase == LOST and d.app.pause_why == "cable silent" for d in pair.devices)
    assert pair.run_until(lambda: all(d.app.pause_why == "cable back" for d in pair.devices), 4000)
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    assert pair.playing() and pair.agree()


@pytest.mark.parametrize("seed", [0, 2, 5, 7])
def test_frames_with_good_crcs_and_random_payloads_stop_nothing_and_are_counted(seed):
    # A buggy or hostile sender (by radio anyone in range can send): a frame
    # of a random kind and payload every 100 ms, to either device, from the
    # lobby to the result, in the session, a reliable one often with the
    # number expected. Nothing raises; each frame the protocol would not
    # send is refused and counted; the match ends with both devices in it
    # agreeing, or both out of it (a crafted frame that fits may say the
    # other left, as the other device could).
    started, pair, fuzz, sessions = fuzzed_match(PICO, seed)
    assert started
    assert fuzz.sent > 100 and fuzz.unfit > 50
    counted = sum(s.link.bad + s.link.stale for s in sessions)
    assert fuzz.unfit - 2 <= counted <= fuzz.unfit, (
        counted,
        fuzz.unfit,
    )  # (one on its way as a device left is not read)
    ends = [scene(d.app) for d in pair.devices]
    assert set(ends) <= {OUT, IN_OVER} or ends[0] == ends[1] and pair.agree(), ends


def test_a_press_while_the_referees_position_is_awaited_is_refused_on_the_screen_and_counted():
    # The follower found its position differs and waits for the referee's
    # (its snapshot held up on the cable): a press of its player meanwhile
    # plays nothing, says "wait" where the player looks, and is counted;
    # then the position comes and play goes on, both agreeing.
    pair = started(seed=4)
    ref, fol = referee_follower(pair)
    write = ref.app.linked.link.uart.write
    holding = [True]

    def no_snapshot(buf):
        if holding[0] and buf[protocol.FRAME_KIND] in (protocol.SNAP, protocol.MORE):
            return len(buf)
        return write(buf)

    ref.app.linked.link.uart.write = no_snapshot
    fol.app.game.rng.s1 ^= 1  # (its position no longer the referee's: the next event's hash says so)
    ref.press(STOCK_0)  # an event of the order, and its hash
    assert pair.run_until(lambda: fol.app.linked.divergences == 1, 1000)
    seat = fol.app.linked.seat
    refusals = fol.app.controls.refusals[seat]
    fol.press(STOCK_0 + 2)
    pair.run(100)
    assert fol.app.linked.unsent == 1
    assert fol.app.controls.refusals[seat] == refusals + 1 and fol.app.controls.result[seat] == 2  # (its word: wait)
    holding[0] = False
    assert pair.run_until(pair.agree, 2000)
    assert fol.app.mode == MATCH


def test_the_docs_frame_table_names_every_kind_with_its_number():
    # docs/linked.md's table of frames against hardware/protocol.py: every
    # kind the protocol defines is a row, with its number, and no row names
    # another.
    import os
    import re

    taken = set(vars(modes)) | set(vars(keymaps))
    kinds = {name: v for name, v in vars(protocol).items() if name.isupper() and "_" not in name and name not in taken}
    kinds.pop("VERSION")
    kinds.pop("UNRELIABLE")
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "linked.md")) as f:
        doc = f.read()
    found = re.findall(r"([A-Z]+) (0x[0-9A-F]{2})", doc.split("## Frames")[1])
    rows = {name: int(num, 16) for name, num in found}
    assert rows == kinds
    assert "(version %d;" % protocol.VERSION in doc


def test_a_snapshot_whose_line_is_no_position_is_asked_for_again():
    # A snapshot that arrives whole but does not parse (a buggy or hostile
    # sender's, with good CRCs): nothing raises; the follower asks again,
    # and the referee's next one mends it.
    pair = started(seed=4)
    ref, fol = referee_follower(pair)
    write = ref.app.linked.link.uart.write
    spoiled = []

    def spoil(buf):
        if buf[protocol.FRAME_KIND] == protocol.SNAP and not spoiled:
            spoiled.append(True)
            b = bytearray(buf)
            head = 7 + protocol.SNAP_LINE
            b[head : head + 4] = b"nope"  # (the line's first word: no game's name)
            c = link.crc16(b, 2, len(b) - 2)
            b[-2], b[-1] = c >> 8, c & 255
            return write(bytes(b))
        return write(buf)

    ref.app.linked.link.uart.write = spoil
    fol.app.game.rng.s1 ^= 1  # (a divergence: the referee sends its position)
    ref.press(STOCK_0)
    assert pair.run_until(lambda: spoiled and pair.agree(), 3000)
    assert fol.app.linked.divergences >= 2 and fol.app.mode == MATCH
