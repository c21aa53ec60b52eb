"""Linked play by radio: ESP-NOW between two Cardputers (hardware/radio.py, a
frame a packet), on the modelled air (desktop/radio_model.py). Rule ids:
SP-7 and D-5 across two devices, as on the cable (tests/test_linked.py, tests/test_linked_order.py)."""

import pytest
from test_linked import play_checked as play

from desktop.keys import POWER_ON_TICKS
from desktop.link_model import Clock
from desktop.linked_pair import MACS, Device, Pair, QuietScreen, Racer, Room, Strangers
from desktop.radio_model import BROADCAST, HEADER, Air
from desktop.text_shown import shown
from hardware import profiles
from hardware.keymaps import PILE_0, STOCK_0
from hardware.linked import LOST_MS
from hardware.modes import MATCH, PAUSED
from hardware.radio import RX_BYTES, Radio, RadioPort
from hardware.ticks import ticks_add

CARDPUTER = profiles.get("cardputer")


def quiet():
    return (QuietScreen(CARDPUTER), QuietScreen(CARDPUTER))


def two_radios(air, t):
    a = air.station(b"\x01\x01\x01\x01\x01\x01", t)
    b = air.station(b"\x02\x02\x02\x02\x02\x02", t)
    return a, b


# -- the air --


@pytest.mark.parametrize("kind", ["uniform", "bursts"])
def test_the_air_loses_packets_as_asked(kind):
    t = [0]
    air = Air(5, loss=50000) if kind == "uniform" else Air(5, burst_every_us=567000, burst_us=100000)
    a, b = two_radios(air, t)
    rx = b.espnow.ESPNow()
    tx = a.espnow.ESPNow()
    peer = a.espnow.Peer(mac=b.mac)
    tx.peers.append(peer)
    got = []
    for i in range(20000):
        tx.send(bytes((i & 255, i >> 8)), peer)
        t[0] += 5000
        packet = rx.read()
        while packet is not None:
            got.append(packet.msg[0] | packet.msg[1] << 8)
            packet = rx.read()
    lost = 20000 - len(got)
    assert lost == air.lost and air.dropped == 0
    assert got == sorted(got)  # (one way keeps its order)
    if kind == "uniform":
        assert 900 < lost < 1100  # 5 %
    else:
        assert 2500 < lost < 3500  # 15 %, in bursts of 100 ms (20 packets 5 ms apart) on average
        runs = sum(1 for k in range(1, len(got)) if got[k] != got[k - 1] + 1)
        assert 12 < lost / runs < 28


def test_a_packet_takes_1_to_4_ms_a_unicast_reaches_its_station_only_and_a_full_ring_drops():
    t = [0]
    air = Air(1)
    a, b = two_radios(air, t)
    c = air.station(b"\x03\x03\x03\x03\x03\x03", t)
    tx, rb, rc = a.espnow.ESPNow(), b.espnow.ESPNow(), c.espnow.ESPNow()
    to_b = a.espnow.Peer(mac=b.mac)
    everyone = a.espnow.Peer(mac=BROADCAST)
    with pytest.raises(OSError):
        tx.send(b"x", to_b)  # (a peer never appended: the firmware's ESP_ERR_ESPNOW_NOT_FOUND)
    tx.peers.append(to_b)
    tx.peers.append(everyone)
    with pytest.raises(ValueError):
        tx.send(bytes(251), to_b)
    tx.send(b"b only", to_b)
    tx.send(b"all", everyone)
    t[0] = 999
    assert rb.read() is None
    t[0] = 4000
    assert [rb.read().msg, rb.read().msg, rb.read()] == [b"b only", b"all", None]
    assert [rc.read().msg, rc.read()] == [b"all", None]
    # The ring holds RX_BYTES: 13 bytes of header a packet, then the packet.
    for _ in range(30):
        tx.send(bytes(30), to_b)
    t[0] += 5000
    b.land()  # (the firmware's receive callback puts each in the ring as it comes)
    kept = RX_BYTES // (HEADER + 30)
    assert rb.read_success == 2 + kept and rb.read_failure == 30 - kept == air.dropped
    # A radio whose ESPNow is let go hears nothing.
    while rb.read() is not None:
        pass
    rc.deinit()
    tx.send(b"after", everyone)
    t[0] += 5000
    assert c.now is None and rb.read().msg == b"after"


# -- the port --


def test_the_port_pairs_with_the_sender_of_the_last_packet_and_refuses_strangers():
    t = [0]
    air = Air(1)
    a, b = two_radios(air, t)
    c = air.station(b"\x03\x03\x03\x03\x03\x03", t)
    port = Radio(a.espnow)()
    ours, stranger = RadioPort(b.espnow), RadioPort(c.espnow)
    buf = bytearray(64)
    ours.write(b"hello from b")
    t[0] += 5000
    stranger.write(b"hello from c")
    t[0] += 5000
    assert port.readinto(buf) == 12 and bytes(buf[:12]) == b"hello from b"
    port.pair()
    assert port.partner == b.mac
    assert port.readinto(buf) is None and port.strangers == 1  # (c's, read after: refused)
    port.write(b"to b alone")
    t[0] += 5000

    def heard(p):
        out = []
        n = p.readinto(buf)
        while n:
            out.append(bytes(buf[:n]))
            n = p.readinto(buf)
        return out

    assert heard(ours) == [b"hello from c", b"to b alone"]  # (broadcasts go to all; ours, now, to b alone)
    assert heard(stranger) == [b"hello from b"]
    port.unpair()
    stranger.write(b"c again")
    t[0] += 5000
    assert port.readinto(buf) == 7 and port.partner is None and not port.unpair()
    port.deinit()
    with pytest.raises(RuntimeError):
        port.now.read()


# -- two Cardputers by radio --


def test_radio_silence_pauses_both_within_2_s_and_the_match_goes_on():
    air = Air(3, loss=50000)
    pair = Pair(CARDPUTER, quiet(), seed=3, cable=air)
    pair.others.append(Strangers(air, pair.t_us))
    assert pair.start()
    racers = [Racer(d, 30 + i) for i, d in enumerate(pair.devices)]
    assert play(pair, racers, 5000) > 10
    t = pair.t_us[0]
    air.silence(t, t + 5 * 10**6)
    paused = [None, None]
    while pair.t_us[0] < t + 3 * 10**6:
        for r in racers:
            r.step()
        pair.run(1)
        for i, d in enumerate(pair.devices):
            if paused[i] is None and d.app.mode == PAUSED:
                paused[i] = pair.t_us[0] - t
    assert all(p is not None and p <= 2 * 10**6 for p in paused), paused
    assert all(d.app.pause_why == "radio silent" for d in pair.devices)
    assert "PAUSED: radio silent" in pair.devices[0].app.screen.lines
    pair.run(4000)
    assert all(d.app.pause_why == "radio's back" for d in pair.devices) and pair.agree()
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    assert all(d.app.mode == MATCH for d in pair.devices)
    assert play(pair, racers, 10000) > 10
    assert all(d.uart.partner is not None and d.uart.strangers > 10 for d in pair.devices)


def test_a_restarted_cardputer_rejoins_by_radio_its_partner_s_radio_the_same():
    # The partner's radio is the same after a restart (its MAC): the device
    # still in the match takes its packets, and strangers' still not.
    air = Air(4)
    pair = Pair(CARDPUTER, quiet(), seed=4, cable=air)
    pair.others.append(Strangers(air, pair.t_us))
    assert pair.start()
    racers = [Racer(d, 40 + i) for i, d in enumerate(pair.devices)]
    play(pair, racers, 4000)
    stays = pair.devices[0]
    old = pair.devices[1].clock
    clock = Clock(ticks_add(POWER_ON_TICKS, -(pair.t_us[0] // 1000)), old.ppm)
    fresh = Device(CARDPUTER, QuietScreen(CARDPUTER), air, 1, clock, pair.t_us, 0x2222, 99)
    assert fresh.station.mac == MACS[1]
    pair.devices[1] = fresh
    pair.run(LOST_MS + 500)
    assert stays.app.mode == PAUSED and stays.app.pause_why == "radio silent"
    kept = stays.app.game.text()  # (a press on the air when the other restarted is in it)
    fresh.app.press(0, PILE_0 + 1)
    assert pair.run_until(lambda: fresh.app.mode == PAUSED, 3000)
    assert fresh.app.game.text() == stays.app.game.text() == kept
    assert fresh.uart.partner == MACS[0] and stays.uart.partner == MACS[1]
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    racers[1] = Racer(fresh, 42)
    assert stays.app.mode == fresh.app.mode == MATCH and play(pair, racers, 8000) > 5


def test_each_linked_cardputer_shows_its_own_player_s_keys_beside_its_cards(monkeypatch):
    # A linked handheld's player plays with player 0's keys (A S D F G, Z X)
    # whichever seat is theirs: the first round's legend says so, beside
    # this device's cards at the bottom, and nothing beside the other's.
    import displayio

    from desktop.window import pygame_display_class
    from hardware.screen import Screen

    displayio.release_displays()
    monkeypatch.setattr(displayio, "CIRCUITPY_DISPLAY_LIMIT", 2)
    displays = [pygame_display_class(own=True)(width=240, height=135, auto_refresh=False) for _ in range(2)]
    screens = [Screen(d, CARDPUTER) for d in displays]
    pair = Pair(CARDPUTER, screens, seed=5, cable=Air(5))
    assert pair.start()
    for d, screen in zip(pair.devices, screens):
        seat = d.app.linked.seat
        mine, theirs = screen.keys[0][seat], screen.keys[0][1 - seat]
        assert [line.rstrip() for line in shown(mine).split("\n")] == [
            "keys ASDFG",
            "piles ZX",
        ] and not mine.group.hidden
        assert theirs.group.hidden
        assert mine.group.y > screen.card_y[1]  # (at the bottom: this device's player sits there)
    assert {d.app.linked.seat for d in pair.devices} == {0, 1}


@pytest.mark.parametrize("seed", range(5))
def test_two_pairs_choosing_in_the_same_second_each_play_the_handheld_their_player_confirmed(seed):
    # A classroom: two pairs of Cardputers choose linked play within one
    # second. Each lobby shows this handheld's name and the one found; a
    # player plays it only on a key, once it is their friend's (its name on
    # the friend's screen), and goes back to choose again when it is not.
    # No match is dealt before both players confirmed each other.
    room = Room(CARDPUTER, seed)
    for _ in range(60):
        room.run(500)
        for d in room.devices:
            linked = d.app.linked
            if d.app.mode == PAUSED and linked is not None:
                assert linked.confirmed == 1
        if room.done():
            break
    assert room.done() and room.with_the_one_confirmed() and room.with_friends()
