"""The computer presses its buttons like a person, one press at a time, each
when its time comes, through the same first-press-wins batch as the scanner's
events (SP-7, D-5)."""
from engine.spit import SPIT_PILES
from engine.notation import card_text
from hardware import profiles
from hardware.app import App
from hardware.desktop import DesktopKeys, Event
from hardware.keymaps import STOCK_0, key_numbers
from hardware import menu
from helpers import position


class BlindScreen:
    # The App's screen with nothing drawn: this test is about the buttons.
    rows = 10
    cols = 20
    speed = False

    def show_lines(self, lines, twice=False):
        pass

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
    menu.play(app, g, 0)
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
