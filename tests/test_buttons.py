"""Buttons to moves: debounce, first press wins, ties, overflow, the wrap, every move reachable.

Driven through hardware.buttons.Buttons with tests/fake_keypad.py, which keeps
the board's keypad semantics (same-scan timestamps, dropping overflow, wrap)."""

import random

import pytest
from fake_keypad import TICKS_PERIOD, Event, Keys, run
from helpers import legal, position, some_move

from engine.notation import card_text
from engine.spit import GAME_OVER, READY, SPIT_PILES, Game
from engine.spit_text import E_RANK
from hardware.buttons import Buttons
from hardware.controls import NONE, TAKEN, Controls
from hardware.keymaps import HANDHELD_14, PILE_0, PYBADGE, STOCK_0, key
from hardware.plan import keys_for_move

STUCK1 = "5C/5D/5H/5S/4C"
# Player 0's stock 0 is 8D over 9S: 8D fits only pile 0 (7C), and once it is
# played the 9S fits too, so a doubled press would show as two cards played.
ONE_PRESS = {"stocks0": "9s,8D/2C/2D/2H/2S", "stocks1": STUCK1, "pile0": "7C", "pile1": "KD"}


def keynum(keymap, player, action):
    return keymap.index(key(player, action))


def rig(game, keymap=HANDHELD_14, cursor=False, **kw):
    keys = Keys(len(keymap), **kw)
    controls = Controls(keymap, cursor)
    buttons = Buttons(keys, controls, Event(), keys.ticks_ms)
    return keys, controls, buttons


def press(trace, t, k, hold=60):
    trace.append((t, k, True))
    trace.append((t + hold, k, False))


def bounce(trace, t, k, pattern, hold=100):
    """A press that bounces: levels flip every ms following pattern, then held, then a bouncy release."""
    for i, level in enumerate(pattern):
        trace.append((t + i, k, level))
    trace.append((t + len(pattern), k, True))
    for i, level in enumerate(pattern):
        trace.append((t + hold + i, k, not level))
    trace.append((t + hold + len(pattern), k, False))


@pytest.mark.parametrize("seed", range(40))
def test_contact_bounce_and_chatter_make_one_move(seed):
    rnd = random.Random(seed)
    g = position(**ONE_PRESS)
    keys, controls, buttons = rig(g, interval_ms=1, debounce_threshold=1)  # the worst scanner
    pattern = [rnd.random() < 0.5 for _ in range(rnd.randint(2, 9))]
    pile = g.counts[SPIT_PILES]
    trace = []
    bounce(trace, 10, 0, [True] + pattern, hold=rnd.randint(60, 200))
    run(keys, trace, 500, lambda scan: buttons.poll(g))
    assert controls.applied == 1
    assert g.counts[0] == 1 and g.counts[SPIT_PILES] == pile + 1  # 8D played, 9S stays
    assert card_text(g.top(SPIT_PILES)) == "8D"


@pytest.mark.parametrize("start_ms", [0, 1000, TICKS_PERIOD - 3, TICKS_PERIOD - 7, TICKS_PERIOD - 1])
@pytest.mark.parametrize("first", [0, 1])
def test_two_presses_one_scan_apart_first_wins(start_ms, first):
    # Both want spit pile 0 (7C): player 0 with 8D, player 1 with 6H.
    g = position("8D/2C/2D/2H/2S", "6H/9S/5H/5S/4C", pile0="7C", pile1="KD")
    keys, controls, buttons = rig(g, start_ms=start_ms)
    trace = []
    k0 = keynum(HANDHELD_14, 0, STOCK_0)
    k1 = keynum(HANDHELD_14, 1, STOCK_0)
    press(trace, 10 if first == 0 else 15, k0)
    press(trace, 15 if first == 0 else 10, k1)
    run(keys, trace, 200, lambda scan: buttons.poll(g) if scan % 32 == 31 else None)  # one batch (30 ms)
    winner_card = "8D" if first == 0 else "6H"
    assert card_text(g.top(SPIT_PILES)) == winner_card
    # The later press no longer fits, and fitted 7C a moment before: a race
    # lost (SP-7), which the screen says as "taken", not "no fit".
    assert g.check(1 - first, 0) == E_RANK and controls.result[1 - first] == TAKEN
    assert controls.applied == 1


def test_same_scan_ties_alternate_and_never_follow_key_numbers():
    keys_map = HANDHELD_14
    wins = [0, 0]
    g = position("8D/2C/2D/2H/2S", "6H/9S/5H/5S/4C", pile0="7C", pile1="KD")
    keys, controls, buttons = rig(g)
    for _ in range(200):
        g = position("8D/2C/2D/2H/2S", "6H/9S/5H/5S/4C", pile0="7C", pile1="KD")
        t = keys.elapsed_ms + 10
        trace = []
        press(trace, t, keynum(keys_map, 0, STOCK_0))
        press(trace, t, keynum(keys_map, 1, STOCK_0))
        run(keys, trace, t + 100, lambda scan, g=g: buttons.poll(g))
        wins[0 if card_text(g.top(SPIT_PILES)) == "8D" else 1] += 1
    assert wins == [100, 100]


def test_a_players_own_keys_in_one_scan_choose_then_play():
    # Stock key and pile key in the same scan: the stock is chosen first.
    g = position("8D/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="9C")  # 8D fits both piles
    keys, controls, buttons = rig(g)
    trace = []
    press(trace, 10, keynum(HANDHELD_14, 0, PILE_0 + 1))
    press(trace, 10, keynum(HANDHELD_14, 0, STOCK_0))
    run(keys, trace, 100, lambda scan: buttons.poll(g))
    assert g.counts[SPIT_PILES + 1] == 2 and controls.applied == 1


def test_mashing_and_holding_never_double_a_press():
    for seed in range(10):
        rnd = random.Random(seed)
        g = Game(seed)
        keys, controls, buttons = rig(g, interval_ms=rnd.choice([1, 2, 5]), debounce_threshold=rnd.choice([1, 2]))
        trace = []
        presses = 0
        t = 5
        while t < 4000:
            k = rnd.randrange(14)
            if rnd.random() < 0.1:
                bounce(trace, t, k, [rnd.random() < 0.5 for _ in range(4)], hold=rnd.randint(50, 800))
            else:
                press(trace, t, k, hold=rnd.randint(45, 600))
            presses += 1
            t += rnd.randint(0, 60)
        # Only presses that start after the key's previous release count as new.
        run(keys, trace, 5000, lambda scan, b=buttons, g=g: b.poll(g) if scan % 3 == 0 else None)
        assert controls.attempts <= presses
        assert controls.applied <= controls.attempts
        assert Game.from_text(g.text()).text() == g.text()  # still a sound position


def test_holding_keys_down_makes_no_repeat():
    g = Game(3)
    keys, controls, buttons = rig(g)
    trace = [(10, k, True) for k in range(14)] + [(3000, k, False) for k in range(14)]
    run(keys, trace, 200, lambda scan: buttons.poll(g))
    assert g.phase != READY  # both called spit
    done = (controls.attempts, controls.applied, g.text())
    run(keys, trace, 2990, lambda scan: buttons.poll(g))  # everything held for 3 s
    assert (controls.attempts, controls.applied, g.text()) == done


def test_queue_overflow_recovers_without_phantom_or_double():
    g = position("9S/8D/2C/2D/2H", STUCK1, pile0="7C", pile1="KD")
    keys, controls, buttons = rig(g, max_events=4)
    trace = [(10, keynum(HANDHELD_14, 0, STOCK_0 + 1), True)]  # player 0 holds stock 1 (8D)
    t = 20
    for i in range(40):  # player 1 mashes while nobody reads the queue
        press(trace, t, 7 + i % 7, hold=30)
        t += 11
    trace.append((700, keynum(HANDHELD_14, 0, STOCK_0 + 1), False))
    press(trace, 800, keynum(HANDHELD_14, 0, STOCK_0))  # then presses stock 0 (9S)
    polls = {30, 60}  # the game loop stalls for 150 scans in between

    def poll(scan):
        if scan in polls or scan > 90:
            buttons.poll(g)

    run(keys, trace, 1000, poll)
    assert buttons.overflows >= 1
    assert [card_text(g.top(SPIT_PILES))] == ["9S"]
    assert controls.applied == 2  # 8D once (not again after the reset), then 9S
    assert g.counts[0] == 0 and g.counts[1] == 0


def test_half_made_move_is_cancelled_by_choosing_again():
    g = position("8D/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="9C")
    controls = Controls(HANDHELD_14)
    controls.feed(g, 0, True, 10)
    controls.apply(g)
    assert controls.chosen[0] == 0  # fits both piles: wait for a pile key
    controls.feed(g, 0, False, 60)
    controls.feed(g, 0, True, 100)
    controls.apply(g)
    assert controls.chosen[0] == NONE


def test_half_made_move_is_dropped_when_it_cannot_be_completed_and_blocks_nobody():
    g = position("8D/2C/2D/2H/2S", "6H/10S/5H/5S/4C", pile0="7C", pile1="9C")
    controls = Controls(HANDHELD_14)
    controls.feed(g, keynum(HANDHELD_14, 0, STOCK_0), True, 10)  # 8D chosen (fits 7C and 9C)
    controls.apply(g)
    assert controls.chosen[0] == 0
    controls.feed(g, keynum(HANDHELD_14, 1, STOCK_0 + 1), True, 20)  # 10S on 9C: one press
    controls.feed(g, keynum(HANDHELD_14, 1, STOCK_0), True, 30)  # 6H on 7C: one press
    controls.apply(g)
    assert controls.applied == 2  # player 0's choice blocked nothing
    assert controls.chosen[0] == NONE  # 8D fits neither 6H nor 10S now


@pytest.mark.parametrize("keymap,cursor", [(HANDHELD_14, False), (PYBADGE, True)])
def test_every_engine_move_is_reachable_on_every_profile(keymap, cursor):
    # hardware/plan.py writes the presses for each legal move; fed to fresh
    # Controls they must make exactly that move.
    checked = 0
    for seed in range(150):
        g = Game(seed, seed % 16)
        rnd = random.Random(seed)
        for _ in range(rnd.randint(0, 400)):
            if g.phase == GAME_OVER:
                break
            g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
        for p in range(2):
            for move in legal(g, p):
                want = Game.from_text(g.text())
                want.play(p, move)
                got = Game.from_text(g.text())
                controls = Controls(keymap, cursor)
                out = bytearray(16)
                t = 0
                for action in out[: keys_for_move(got, controls, p, move, out)]:
                    t += 100
                    controls.feed(got, keynum(keymap, p, action), True, t)
                    controls.feed(got, keynum(keymap, p, action), False, t + 50)
                    controls.apply(got)
                assert got.text() == want.text(), (g.text(), p, move)
                checked += 1
    assert checked > 200


def test_cursor_slot_choice_is_cancelled_on_the_same_slot():
    g = position("-/6c,9d,KH/2C/2D/2H", STUCK1, pile0="7C", pile1="3D")
    controls = Controls(PYBADGE, cursor=True)
    controls.feed(g, keynum(PYBADGE, 0, PILE_0), True, 10)  # cursor on the empty slot 0
    controls.apply(g)
    assert controls.slot[0] == 0
    controls.feed(g, keynum(PYBADGE, 0, PILE_0), False, 40)
    controls.feed(g, keynum(PYBADGE, 0, PILE_0), True, 100)
    controls.apply(g)
    assert controls.slot[0] == NONE and controls.applied == 0


def test_slap_goes_through_first_press_wins():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")
    keys, controls, buttons = rig(g)
    trace = []
    press(trace, 10, keynum(HANDHELD_14, 1, PILE_0 + 1))  # player 1 slaps the small pile first
    press(trace, 15, keynum(HANDHELD_14, 0, PILE_0 + 1))
    run(keys, trace, 100, lambda scan: buttons.poll(g) if scan == 20 else None)  # (19.5 ms: one batch)
    assert list(g.took) == [0, 1]  # player 1 took pile 1, player 0 pile 0
    assert g.phase == READY  # player 0's late slap is not taken as a spit call
    press(trace, 400, keynum(HANDHELD_14, 0, PILE_0))
    run(keys, trace, 500, lambda scan: buttons.poll(g))
    assert g.phase != READY  # a press after the grace calls spit (player 1 has no spit cards)


def test_a_stock_key_on_a_card_that_fits_one_pile_always_plays_it():
    # The same key sometimes played and sometimes only chose (when
    # the card could also fill an empty slot), and a player lost a race to
    # it. Now a card that fits exactly one pile goes there at once, whatever
    # else it could do; filling an empty slot (SP-6) starts at the slot.
    g = position("-/9d,8C/2C/2D/2H", STUCK1, pile0="7C", pile1="KD")  # slot 0 empty; 8C over a hidden 9d
    controls = Controls(HANDHELD_14)
    assert controls.can_fill_from(g, 0, 1)  # 8C could fill slot 0 (SP-6), and fits 7C only
    controls.feed(g, keynum(HANDHELD_14, 0, STOCK_0 + 1), True, 10)
    controls.apply(g)
    assert controls.applied == 1 and card_text(g.top(12)) == "8C"  # on 7C at once
    # The slot first, then the card: SP-6, the chosen slot marked meanwhile.
    g = position("-/9d,8C/2C/2D/2H", STUCK1, pile0="7C", pile1="KD")
    controls = Controls(HANDHELD_14)
    controls.feed(g, keynum(HANDHELD_14, 0, STOCK_0), True, 10)  # the empty slot 0
    controls.apply(g)
    assert controls.slot[0] == 0 and controls.applied == 0
    controls.feed(g, keynum(HANDHELD_14, 0, STOCK_0), False, 60)
    controls.feed(g, keynum(HANDHELD_14, 0, STOCK_0 + 1), True, 120)  # 8C goes there
    controls.apply(g)
    assert controls.applied == 1 and controls.slot[0] == NONE
    assert card_text(g.top(0)) == "8C" and card_text(g.top(1)) == "9D"  # 9d turned up (D-1)
