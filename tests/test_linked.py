"""Linked play: two handhelds, each the board's App with its own
clock, keypad and screen, joined by the modelled cable in one simulated time
(desktop/linked_pair.py). Rule ids: SP-7 and D-5 (first press wins, ties in
turn) across two devices; how linked play decides the rest: docs/linked.md."""

import displayio
import pytest
from helpers import position
from screens import check_pixels, snapshot

from desktop.keys import POWER_ON_TICKS
from desktop.link_model import Clock, frame_bytes
from desktop.link_model import Link as Cable
from desktop.linked_pair import Device, Pair, QuietScreen, Racer
from desktop.text_shown import shown
from desktop.window import pygame_display_class
from hardware import profiles
from hardware.controls import NOTHING_CHOSEN
from hardware.keymaps import PILE_0, STOCK_0
from hardware.linked import LOST_MS
from hardware.modes import LINKED, LOBBY, LOST, MATCH, MENU, OTHER_LEFT, OVER, PAUSED
from hardware.protocol import ASK, SNAP_ON
from hardware.screen import FLASH_MS, Screen
from hardware.sprites import GLYPH_CROSS
from hardware.ticks import ticks_add

PICO = profiles.get("pico-st7789-240")


def quiet():
    return (QuietScreen(PICO), QuietScreen(PICO))


def two_displays(monkeypatch):
    # Two boards, two displays (the desktop's displayio allows one: a board has one).
    displayio.release_displays()
    monkeypatch.setattr(displayio, "CIRCUITPY_DISPLAY_LIMIT", 2)
    displays = [pygame_display_class(own=True)(width=240, height=240, auto_refresh=False) for _ in range(2)]
    screens = [Screen(d, PICO) for d in displays]
    return displays, screens


def referee_follower(pair):
    a, b = pair.devices
    return (a, b) if a.app.linked.is_referee else (b, a)


def set_position(pair, game):
    # The referee's position becomes the match's (its snapshot: the follower takes it up).
    ref, _ = referee_follower(pair)
    ref.app.game = game
    ref.app.linked.order.send_snapshot(SNAP_ON, ref.ticks_ms())
    pair.run(100)
    assert pair.agree()


def play_checked(pair, racers, ms):
    # Both play; at every event of the order the two positions are the same.
    a, b = pair.devices
    checked = 0
    last = -1
    end = pair.t_us[0] + ms * 1000
    while pair.t_us[0] < end and a.app.linked is not None and b.app.linked is not None:
        for r in racers:
            r.step()
        pair.run(1)
        la, lb = a.app.linked, b.app.linked
        if la is not None and lb is not None and la.count == lb.count != last and not lb.phase == LOST:
            last = la.count
            assert a.app.game.text() == b.app.game.text(), "diverged at event %d" % last
            checked += 1
        if a.app.mode == OVER and b.app.mode == OVER:
            break
    return checked


def test_two_handhelds_start_one_match_each_shows_its_player_at_the_bottom(tmp_path, monkeypatch):
    displays, screens = two_displays(monkeypatch)
    pair = Pair(PICO, screens, seed=5)
    assert pair.start()
    ref, fol = pair.devices
    assert ref.app.linked.is_referee and not fol.app.linked.is_referee  # (the higher nonce referees)
    assert (ref.app.linked.seat, fol.app.linked.seat) == (0, 1)
    assert pair.agree()
    pair.run(50)
    images = [snapshot(d, "linked-%d" % i, tmp_path) for i, d in enumerate(displays)]
    for screen, image in zip(screens, images):
        check_pixels(screen, image, 240, 240)
    # The follower's bottom row is player 1's cards, as the referee draws them at its top.
    z = screens[0]
    x0, x1 = z.row_x, z.row_x + 5 * z.layout["card_tile_w"]
    bottom, top = z.card_y[0], z.card_y[1]
    for dy in range(z.layout["card_h"]):
        for x in range(x0, x1, 3):
            assert images[1].get_at((x, bottom + dy)) == images[0].get_at((x, top + dy))
            assert images[1].get_at((x, top + dy)) == images[0].get_at((x, bottom + dy))
    assert screens[0].names == ("you", "rival") and screens[1].names == ("rival", "you")
    displayio.release_displays()


def test_linked_speed_shows_each_player_only_their_own_hand(tmp_path, monkeypatch):
    # A play-test: linked Speed showed the opponent's hand face up. On two
    # handhelds each player sees their own hand (at the bottom) and the
    # other's as backs (SD-1: secret, as at a table), read from the frames.
    displays, screens = two_displays(monkeypatch)
    pair = Pair(PICO, screens, seed=5)
    for d in pair.devices:
        d.app.kind = 1
    assert pair.start()
    pair.run(200)
    assert pair.agree() and all(d.app.screen.speed for d in pair.devices)
    for i, (d, screen) in enumerate(zip(pair.devices, screens)):
        image = snapshot(displays[i], "linked-speed-%d" % i, tmp_path)
        mine, theirs = d.app.linked.seat, 1 - d.app.linked.seat
        g = d.app.game
        for s in range(5):
            if g.hand(theirs, s) < 52:  # their card: the paper in the back's inks, no rank or suit
                assert screen.stocks[theirs][s].pixel_shader is screen.back_inks
                assert screen.ranks[theirs][s].hidden and screen.suits[theirs][s].hidden
            if g.hand(mine, s) < 52:  # mine: the face, its rank and suit
                assert screen.stocks[mine][s].pixel_shader is screen.face_inks
                assert not screen.ranks[mine][s].hidden and screen.ranks[mine][s][0] == g.hand(mine, s) % 13
        check_pixels(screen, image, 240, 240)
    displayio.release_displays()


@pytest.mark.parametrize("seed", [1, 2])
def test_both_positions_are_equal_after_every_move_on_a_lossy_cable(seed):
    # 5 % of frames lost, clocks apart and drifting: the same moves in the same order.
    pair = Pair(PICO, quiet(), seed=seed, cable=Cable(seed, loss=6000))
    assert pair.start()
    racers = [Racer(d, 10 * seed + i) for i, d in enumerate(pair.devices)]
    assert play_checked(pair, racers, 400000) > 100
    a, b = pair.devices
    pair.run(200)
    assert a.app.mode == b.app.mode == OVER and a.app.game.winner == b.app.game.winner >= 0
    assert a.app.linked.link.resent > 0  # (the losses were there, and mended)
    assert a.app.linked.divergences == b.app.linked.divergences == 0


def test_a_lone_pile_key_let_go_is_refused_on_both_screens(tmp_path, monkeypatch):
    # A pile key pressed with nothing chosen is refused once let go (not at
    # once: both pile keys held are the pause chord). Linked, the key let go
    # goes into the order after its press, so both devices flash its cross at
    # the pile, drawn; the reason's word shows on the refused player's own
    # screen only (the other player reads theirs on theirs).
    displays, screens = two_displays(monkeypatch)
    pair = Pair(PICO, screens, seed=7)
    assert pair.start()
    pair.run(2000)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    devices = sorted(pair.devices, key=lambda d: d.app.linked.seat)
    for seat in (1, 0):  # the follower's player, then the referee's
        before = [d.app.controls.refusals[seat] for d in devices]
        devices[seat].press(PILE_0 + 1, hold_us=150000)
        pair.run(100)
        assert [d.app.controls.refusals[seat] for d in devices] == before  # (held: nothing yet)
        pair.run(200)
        assert pair.agree()
        for i, d in enumerate(devices):
            c = d.app.controls
            assert c.refusals[seat] == (before[i] + 1) & 255 and c.result[seat] == NOTHING_CHOSEN
            assert c.refused[seat] == PILE_0 + 1
            image = snapshot(displays[pair.devices.index(d)], "lone-pile-%d-%d" % (seat, i), tmp_path)
            check_pixels(d.app.screen, image, 240, 240)
            z = d.app.screen
            assert z.pile_info[1][0] == GLYPH_CROSS  # (the pile's arrow crossed, on both)
            words = [shown(t) for t in (z.big, z.status) if t is not None and not t.group.hidden]
            if d.app.linked.seat == seat:
                assert "pick" in words[0], words  # (the reason, in the middle: the big word where the panel has it)
                assert z.big.group.y == z.status_low.group.y  # (in the half of the player it is for: the bottom)
            else:
                assert z.big.group.hidden and not any("pick" in t for t in words), words
        pair.run(FLASH_MS)  # (both flashes out)
    displayio.release_displays()


def test_both_pile_keys_held_refuse_nothing_on_either_device():
    # Both pile keys of a player held are the pause chord: the second press
    # makes no move and no refusal. Which pile keys are held is the order's
    # (each press and let-go in it), not the device's own keys: the device
    # that does not hold them refused the second key let go.
    pair = Pair(PICO, quiet(), seed=7)
    assert pair.start()
    pair.run(2000)
    set_position(pair, position("2S/3S/4S/8D/5S", "2C/3C/JC/8C/5C", pile0="7S", pile1="QH", spit0="KD", spit1="KH"))
    devices = sorted(pair.devices, key=lambda d: d.app.linked.seat)
    for seat in (1, 0):
        before = [d.app.controls.refusals[seat] for d in devices]
        devices[seat].press(PILE_0, hold_us=400000)
        pair.run(100)
        devices[seat].press(PILE_0 + 1, hold_us=150000)
        pair.run(700)
        assert pair.agree()
        assert [d.app.controls.refusals[seat] for d in devices] == before
        assert all(d.app.mode == MATCH for d in devices)


def test_a_pulled_cable_pauses_both_and_the_match_goes_on_without_a_lost_or_doubled_move():
    pair = Pair(PICO, quiet(), seed=3, cable=Cable(3))
    assert pair.start()
    racers = [Racer(d, 30 + i) for i, d in enumerate(pair.devices)]
    play_checked(pair, racers, 5000)
    a, b = pair.devices
    assert a.app.linked.is_referee
    t = pair.t_us[0]
    pair.cable.pull(t, t + 6 * 10**6)
    paused_at = [None, None]
    held = [None, None]  # each device's position when it paused
    while pair.t_us[0] < t + 3 * 10**6:
        for r in racers:  # (both play on until their device pauses: the referee's moves then are its own)
            r.step()
        pair.run(1)
        for i, d in enumerate(pair.devices):
            if paused_at[i] is None and d.app.mode == PAUSED:
                paused_at[i] = pair.t_us[0] - t
                held[i] = d.app.game.text()
    assert all(p is not None and p <= 2 * 10**6 for p in paused_at), paused_at  # both within 2 s
    for d in pair.devices:
        assert d.app.pause_why == "cable silent"
        assert "PAUSED: cable silent" in d.app.screen.lines
    pair.run(4000)  # the cable is back
    assert a.app.mode == b.app.mode == PAUSED and a.app.pause_why == "cable back"
    assert pair.agree()
    assert a.app.game.text() == held[0]  # the referee's position as it paused: what it played stays played
    for d in pair.devices:  # both ready: the countdown, then the match
        d.press(STOCK_0)
    pair.run(3500)
    assert a.app.mode == b.app.mode == MATCH and pair.agree()
    assert play_checked(pair, racers, 20000) > 10


def restart(pair, racers, who, nonce):
    # Device who loses power and starts again (a new App, a new nonce, its
    # clock from the start, its menu), then its player chooses linked play:
    # the device still in the match referees it from its position, each with
    # its own player, and both play on.
    stays = pair.devices[1 - who]
    old = pair.devices[who].clock
    clock = Clock(ticks_add(POWER_ON_TICKS, -(pair.t_us[0] // 1000)), old.ppm)  # (a board's clock starts again)
    fresh = Device(PICO, QuietScreen(PICO), pair.cable, who, clock, pair.t_us, nonce, 99)
    pair.devices[who] = fresh
    pair.run(LOST_MS + 500)
    assert stays.app.mode == PAUSED and stays.app.pause_why == "cable silent"
    kept = stays.app.game.text()  # (a press on the cable when the other lost power is in it)
    fresh.app.press(0, PILE_0 + 1)  # linked play is chosen: "go"
    assert pair.run_until(lambda: fresh.app.mode == PAUSED, 3000)
    assert fresh.app.game.text() == stays.app.game.text() == kept
    assert fresh.app.linked.seat == who and stays.app.linked.is_referee and not fresh.app.linked.is_referee
    assert fresh.app.linked.link.bad == 0  # (a frame's tail read first is no noise: the pause says none)
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    assert stays.app.mode == fresh.app.mode == MATCH
    assert stays.app.linked.hello is None  # (the hellos' part let go again once the other is back)
    racers[who] = Racer(fresh, 41 + who)
    assert play_checked(pair, racers, 10000) > 5


@pytest.mark.parametrize("who", [1, 0])
def test_a_restarted_handheld_rejoins_the_match_from_the_other_ones_position(who):
    # Either device (device 0 referees: the higher nonce): the referee as it
    # was, or the follower becomes it; the new clock is pinged anew.
    pair = Pair(PICO, quiet(), seed=4)
    assert pair.start()
    racers = [Racer(d, 40 + i) for i, d in enumerate(pair.devices)]
    play_checked(pair, racers, 8000)
    assert pair.devices[0].app.linked.is_referee
    restart(pair, racers, who, 0x2222)


def test_a_handheld_that_joined_by_the_snapshot_referees_when_the_other_restarts():
    # A device that came back took up the referee's position and never heard
    # its hello; when the referee restarts in turn, its new nonce is a
    # restart all the same, and the device that came back referees.
    pair = Pair(PICO, quiet(), seed=4)
    assert pair.start()
    racers = [Racer(d, 40 + i) for i, d in enumerate(pair.devices)]
    play_checked(pair, racers, 4000)
    restart(pair, racers, 1, 0x2222)  # the follower
    restart(pair, racers, 0, 0x3333)  # then the referee


def test_frames_of_the_last_session_are_not_taken_once_the_frames_start_again():
    # A restarted device's frames start again from the first, in a new
    # session (its number made of both devices' nonces): a frame, or an
    # acknowledgement, still on its way from before is not taken for one of
    # the new session (its numbers would clear the new frames on their way,
    # or add to a snapshot another), and is counted.
    pair = Pair(PICO, quiet(), seed=4)
    assert pair.start()
    pair.run(500)
    ref, fol = referee_follower(pair)
    linked = ref.app.linked
    old = linked.link.session
    expected = next(s for s in range(256) if linked.link.has_before(s))
    from_before = frame_bytes(ASK, expected, 255, old, bytes((0, linked.snapshots & 255)))
    linked.peer ^= 0x5A5A  # (the follower came back with another number)
    linked.restart_link()
    assert linked.link.session not in (0, old)
    assert linked.link.waiting() == 0 and linked.link.next_seq() == 0  # (from number 0, nothing of the old on its way)
    stale = linked.link.stale
    pair.cable.send(fol.side, from_before, pair.t_us[0])
    pair.run(30)
    assert linked.link.stale > stale and linked.snapshots == 1  # (its ask not taken: no snapshot sent for it)


def test_different_games_are_a_message_on_both_screens_never_a_match():
    pair = Pair(PICO, quiet(), seed=6)
    pair.devices[1].app.kind = 1  # Speed on one, Spit on the other
    assert not pair.start(3000)
    for d in pair.devices:
        assert d.app.mode == LOBBY and "cannot play:" in d.app.screen.lines
        # Which setting differs, in the menu's words.
        said = " ".join(d.app.screen.lines)
        other = "Spit, this one Speed" if d.app.kind else "Speed, this one Spit"
        assert said.count("the other chose " + other) == 1, said
        assert all(len(line) <= d.app.screen.cols for line in d.app.screen.lines)  # (nothing cut off)
        d.app.press(0, PILE_0 + 1)  # pile 2: back to the menu, the cable let go
        assert d.app.mode == MENU and d.app.linked is None


def test_different_rules_are_named_in_the_menus_words():
    # "the other chose another game or rules" said neither which: now the
    # lobby names the other's settings that differ.
    from engine.spit import FOUR_STOCKS, NO_SLAP

    pair = Pair(PICO, quiet(), seed=6)
    pair.devices[1].app.rules_of[0] = FOUR_STOCKS | NO_SLAP
    assert not pair.start(3000)
    said = [" ".join(d.app.screen.lines) for d in pair.devices]
    assert "the other chose Stocks: four, Slap: no" in said[0], said[0]
    assert "the other chose Stocks: five, Slap: yes" in said[1], said[1]


def test_noise_on_the_line_never_crashes_and_is_reported():
    pair = Pair(PICO, quiet(), seed=8)
    junk = bytes((i * 37 + 11) & 255 for i in range(400))  # another program, the wrong baud rate
    a, b = pair.devices
    a.app.press(0, PILE_0 + 1)  # one in the lobby, the other still in the menu
    pair.cable.send(1, junk, 0)  # (towards device 0)
    pair.run(300)
    assert a.app.mode == LOBBY and any(line.startswith("cable noise:") for line in a.app.screen.lines)
    b.app.press(0, PILE_0 + 1)
    assert pair.run_until(pair.playing, 8000)  # and then they play all the same
    t = pair.t_us[0]
    for k in range(20):  # bursts of junk in the match
        pair.cable.send(k & 1, junk[: 40 + k], t + k * 50000)
    racers = [Racer(d, 80 + i) for i, d in enumerate(pair.devices)]
    assert play_checked(pair, racers, 5000) > 3
    assert a.app.linked.link.bad + b.app.linked.link.bad > 20
    t = pair.t_us[0]
    pair.cable.pull(t, t + 3 * 10**6)  # a pause says so too
    pair.run(2000)
    for d in pair.devices:
        assert d.app.mode == PAUSED and any(line.startswith("cable noise:") for line in d.app.screen.lines)


def test_a_divergence_is_found_by_the_hash_and_mended_from_the_referees_position():
    pair = Pair(PICO, quiet(), seed=9)
    assert pair.start()
    ref, fol = referee_follower(pair)
    g = fol.app.game
    g.rng.s1 = (g.rng.s1 % 30000) + 1  # (a follower's engine gone astray)
    racers = [Racer(d, 90 + i) for i, d in enumerate(pair.devices)]
    for _ in range(3000):
        for r in racers:
            r.step()
        pair.run(1)
        if fol.app.linked.divergences:
            break
    assert fol.app.linked.divergences == 1
    pair.run(200)
    assert pair.agree() and fol.app.mode == MATCH
    assert play_checked(pair, racers, 5000) > 3


def test_the_menu_offers_linked_play_only_where_a_link_is():
    from hardware.menu import _choices

    pair = Pair(PICO, quiet(), seed=1)
    app = pair.devices[0].app
    assert _choices(app) == LINKED + 1
    app.open_link = None
    assert _choices(app) == LINKED


def test_a_handheld_set_up_for_linked_play_opens_its_menu_at_linked_and_keeps_a_choice():
    # A window of make linked (a fresh save) or a board flashed with LINK=1:
    # "go" is linked play at once, the seats as linked play has them; once a
    # player chose (saved), their choice comes back.
    from desktop.nvm_flash import FlashNvm
    from hardware.app import App
    from hardware.modes import FACING
    from hardware.storage import SETTINGS, Store

    pair = Pair(PICO, quiet(), seed=1)
    dev = pair.devices[0]

    def opened(store):
        return App(QuietScreen(PICO), dev.keys, None, PICO, dev.ticks_ms, store=store, link=lambda: None)

    fresh = opened(Store(FlashNvm("rp2040"), say=lambda m: None))
    assert fresh.players == LINKED and not fresh.style & FACING
    assert " Players: linked" in fresh.screen.lines
    nvm = FlashNvm("rp2040")
    Store(nvm, say=lambda m: None).save(SETTINGS, bytes([0, 0, 0, 0, FACING, 1]))
    kept = opened(Store(nvm, say=lambda m: None))
    assert kept.players == 0 and kept.style & FACING
    unlinked = App(QuietScreen(PICO), dev.keys, None, PICO, dev.ticks_ms)
    assert unlinked.players == 0 and unlinked.style & FACING  # (two people facing, a Pico's default)


def test_a_linked_match_left_is_resumed_only_linked():
    pair = Pair(PICO, quiet(), seed=2)
    assert pair.start()
    a, b = pair.devices
    a.press(PILE_0, hold_us=1500000)  # the pause chord, held past a second
    a.press(PILE_0 + 1, hold_us=1500000)
    pair.run(1600)
    assert a.app.mode == b.app.mode == PAUSED
    a.press(PILE_0 + 1)  # pile 2: leave
    pair.run(300)
    assert a.app.mode == MENU and a.app.leaving is None  # (the other heard it: the cable let go)
    assert (
        b.app.mode == PAUSED and " ".join(b.app.screen.lines) == OTHER_LEFT + " any key: menu"
    )  # (on two lines, the 240 panel's 20 columns)
    b.press(STOCK_0)  # any key: the menu
    pair.run(100)
    assert b.app.mode == MENU
    assert a.app.saved is not None and a.app.saved_linked and a.app.resumable()
    a.app.players = 0
    assert not a.app.resumable()  # (only linked again)
    a.app.players = LINKED
    text = a.app.saved.text()
    for d in pair.devices:
        d.app.scene.item = 0  # the resume line
        d.app.press(0, PILE_0 + 1)
    assert pair.run_until(lambda: a.app.mode == b.app.mode == PAUSED and a.app.linked is not None, 3000)
    assert a.app.game.text() == b.app.game.text() == text


def test_clocks_far_apart_and_across_the_wrap_agree():
    # One clock 5 ms before the wrap, the other running 50 ppm fast.
    pair = Pair(PICO, quiet(), seed=11, clocks=(Clock((1 << 29) - 5, -50), Clock(12345, 50)))
    assert pair.start()
    racers = [Racer(d, 110 + i) for i, d in enumerate(pair.devices)]
    assert play_checked(pair, racers, 20000) > 10


@pytest.mark.parametrize("first", [0, 1])
def test_after_a_linked_match_each_key_takes_its_own_handheld_to_the_menu_each_tally_its_own(first):
    # A play-test: one player's key took both handhelds to the menu before
    # the other had read the result. Each leaves on its own player's key; the
    # other stays on the result (its cable silent or not), and a hello of the
    # first one, back in its lobby, takes nobody back into the match over.
    pair = Pair(PICO, quiet(), seed=2, cable=Cable(2, loss=6000))
    assert pair.start()
    racers = [Racer(d, 20 + i) for i, d in enumerate(pair.devices)]
    play_checked(pair, racers, 400000)
    a, b = pair.devices
    assert a.app.mode == b.app.mode == OVER
    pair.run(2000)  # (past the game over's grace)
    leaver, stayer = pair.devices[first], pair.devices[1 - first]
    shown = list(stayer.app.screen.lines) if hasattr(stayer.app.screen, "lines") else None
    leaver.press(STOCK_0)
    pair.run(LOST_MS + 2000)  # (the cable silent for the one left behind)
    assert leaver.app.mode == MENU and leaver.app.linked is None
    assert stayer.app.mode == OVER and (shown is None or stayer.app.screen.lines == shown)
    leaver.app.press(0, PILE_0 + 1)  # linked again, back in the lobby: its hellos on the cable
    pair.run(2000)
    assert stayer.app.mode == OVER
    stayer.press(PILE_0)
    pair.run(100)
    assert a.app.mode != OVER and b.app.mode != OVER and stayer.app.mode == MENU and stayer.app.linked is None
    winner = a.app.game.winner
    for d in pair.devices:  # this device's player's wins first, then the rival's
        seat_won = winner == (0 if d is a else 1)
        assert d.app.tally[12:14] == ([1, 0] if seat_won else [0, 1])


def test_a_linked_match_lets_its_saves_go_and_takes_them_back_for_the_tally_and_the_menu():
    # A linked match is never saved: each device lets its Store go for the
    # match (the storage module's heap, on a board) and makes it again from
    # the same memory at game over, where the tally counts the match, and
    # when a match is left for the menu. What was saved before is still there.
    from hardware.storage import SETTINGS, TALLY, Store

    pair = Pair(PICO, quiet(), seed=2, cable=Cable(2, loss=6000))
    memories = [bytearray(b"\xff" * 4096), bytearray(b"\xff" * 4096)]
    for d, nvm in zip(pair.devices, memories):
        d.app.store = Store(nvm, say=lambda m: None)
        d.app.store.save(SETTINGS, b"\x00\x05\x00\x00")
    assert pair.start()
    assert all(d.app.store is None for d in pair.devices)
    racers = [Racer(d, 20 + i) for i, d in enumerate(pair.devices)]
    play_checked(pair, racers, 400000)
    a, b = pair.devices
    assert a.app.mode == b.app.mode == OVER
    for d, nvm in zip(pair.devices, memories):
        assert d.app.store is not None and d.app.store.nvm is nvm
        assert d.app.store.load(SETTINGS) == b"\x00\x05\x00\x00"
        tally = Store(nvm, say=lambda m: None).load(TALLY)  # (as the next power-on reads it)
        assert tally is not None and sum(tally[24:28]) == 1  # this match, for one of the two
    pair.run(2000)
    a.press(STOCK_0)  # each player's own key leaves the game over
    b.press(STOCK_0)
    assert pair.run_until(lambda: a.app.mode == b.app.mode == MENU, LOST_MS + 500)
    assert all(d.app.store is not None for d in pair.devices)
    # A new linked match lets them go again; left from its pause, the menu has them back.
    for d in pair.devices:
        d.app.press(0, PILE_0 + 1)  # (the first line: a new linked match)
    assert pair.run_until(lambda: a.app.mode == b.app.mode == MATCH, 10000)
    assert all(d.app.store is None for d in pair.devices)
    a.press(PILE_0, hold_us=1500000)  # the pause chord
    a.press(PILE_0 + 1, hold_us=1500000)
    pair.run(1600)
    a.press(PILE_0 + 1)  # leave: the other is told, and its player leaves too
    assert pair.run_until(lambda: b.app.pause_why == OTHER_LEFT, 1000) and a.app.mode == MENU
    b.press(STOCK_0)
    assert pair.run_until(lambda: b.app.mode == MENU, 1000)
    assert all(d.app.store is not None and d.app.store.load(SETTINGS) == b"\x00\x05\x00\x00" for d in pair.devices)


def test_a_linked_handheld_leaves_the_cables_pins_to_the_uart():
    # The Pico profiles' link is UART0 on GP12/GP13, player 1's pile buttons
    # on a handheld for two: with SPIT_LINK the keypad is opened without them
    # (the other buttons keep their key numbers); a link pin amid the buttons
    # is a maker's message.
    from hardware.board_setup import buttons_of
    from hardware.profiles import SetupError

    for name in ("pico-st7789-240", "pico-st7789-320", "pico-ssd1306"):
        p = profiles.get(name)
        assert p["link"] == ("GP12", "GP13")
        assert buttons_of(p) == p["buttons"]
        assert buttons_of(p, p["link"]) == p["buttons"][:12]
        used = set(p["display_pins"].values()) | {p["sound"][1]}
        assert not used & set(p["link"])  # (nor the display's, nor the buzzer's)
    with pytest.raises(SetupError, match="GP3"):
        buttons_of(PICO, ("GP3", "GP13"))


def test_a_bad_link_setting_on_the_desktop_is_a_message():
    from desktop.io import open_io
    from hardware.profiles import SetupError

    with pytest.raises(SetupError, match="SPIT_LINK"):
        open_io(PICO, "cable")
