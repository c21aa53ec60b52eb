"""The computer presses its buttons like a person, one press at a time, each
when its time comes, through the same first-press-wins batch as the scanner's
events (SP-7, D-5)."""

from helpers import position

from desktop.keys import DesktopKeys, Event
from engine.notation import card_text
from engine.spit import SPIT_PILES
from hardware import profiles
from hardware.app import App
from hardware.keymaps import STOCK_0, key_numbers


class BlindScreen:
    # The App's screen with nothing drawn: this test is about the buttons.
    rows = 10
    cols = 20
    speed = False

    def show_text(self, lines, twice=False, chosen=-1):
        return 0

    def show_game(self, game, controls, now_ms):
        return None

    def set_style(self, facing, four_colours):
        pass


def test_a_human_press_between_the_computers_two_presses_wins_when_it_was_first():
    profile = profiles.get("pico-st7789-240")
    clock = [0]
    keys = DesktopKeys(len(profile["keymap"]), lambda: clock[0])
    app = App(BlindScreen(), keys, Event(), profile, lambda: clock[0], seed=1)
    app.players = 4  # player 1 is the computer (Expert)
    # The computer's 6S fits both spit piles: it takes two presses (stock, pile).
    # The human's 4H fits only pile 0 and 8H only pile 1: one press each.
    g = position("4H/8H/2C/2D/2S", "6S/KC/KD/KH/QS", pile0="5C", pile1="7D", spit0="3C", spit1="3D")
    app.play(g, 0)
    while app.controls.chosen[1] != 0:  # until the computer has pressed its stock 0 key
        clock[0] += 5
        app.step(clock[0])
        assert clock[0] < 5000
    first = clock[0]
    assert g.counts[5] == 1  # the 6S is chosen, not played: its pile press comes 45 ms later
    # 20 ms after the computer's first press the human plays both cards (one
    # press each, in one scan): whichever pile the computer goes for, the 6S
    # no longer fits it.
    numbers = key_numbers(profile["keymap"])
    clock[0] += 20
    for s in range(2):
        keys.set(numbers[STOCK_0 + s], True, clock[0])
    clock[0] += 5
    app.step(clock[0])
    for s in range(2):
        keys.set(numbers[STOCK_0 + s], False, clock[0])
    while clock[0] < first + 200:
        clock[0] += 5
        app.step(clock[0])
    assert (card_text(g.top(SPIT_PILES)), card_text(g.top(SPIT_PILES + 1))) == ("4H", "8H")  # the human was first
    assert card_text(g.top(5)) == "6S"  # the computer's card is still in its stock
    # (Its pile press, 45 ms after the first, found nobody able to play: a stalemate,
    # where any key calls spit.)


def test_the_computers_side_takes_no_keys_but_the_pause():
    # In a "vs Easy" match the top player's buttons called
    # spit for the computer and played its cards. Now its side's keys make no
    # move; holding both of its pile keys still pauses (a demo has no other).
    from engine.spit import READY
    from hardware.app import PAUSE_HOLD_MS
    from hardware.keymaps import PILE_0
    from hardware.modes import PAUSED

    profile = profiles.get("pico-st7789-240")
    clock = [0]
    keys = DesktopKeys(len(profile["keymap"]), lambda: clock[0])
    app = App(BlindScreen(), keys, Event(), profile, lambda: clock[0], seed=1)
    app.players = 1  # player 1 is the computer (Easy)
    numbers = key_numbers(profile["keymap"])
    from engine.spit import Game

    g = Game(5, 0)  # a new deal: READY
    app.play(g, 0)

    def tap(action, player=1):
        k = numbers[player * 16 + action]
        clock[0] += 5
        keys.set(k, True, clock[0])
        app.step(clock[0])
        clock[0] += 60
        keys.set(k, False, clock[0])
        app.step(clock[0])

    assert g.phase == READY
    tap(STOCK_0)  # any key calls spit in READY: not the computer's keys
    assert g.called == 0
    tap(STOCK_0, player=0)  # the person calls; the computer calls when it reacts
    while g.phase == READY:
        clock[0] += 5
        app.step(clock[0])
        assert clock[0] < 10000
    app.sides = None  # (the computer stops here, so only the keys could move its cards or call)
    before = g.text()
    for action in (STOCK_0, STOCK_0 + 1, PILE_0, PILE_0 + 1):
        tap(action)
    assert g.text() == before and app.controls.chosen[1] == 255 and app.controls.result[1] == 0
    # The pause chord from its side: both pile keys held for PAUSE_HOLD_MS.
    for action in (PILE_0, PILE_0 + 1):
        keys.set(numbers[16 + action], True, clock[0])
    for _ in range(PAUSE_HOLD_MS // 5 + 10):
        clock[0] += 5
        app.step(clock[0])
    assert app.mode == PAUSED and app.paused_by == 1
