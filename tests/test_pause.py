"""Pause, leave a match and the tally, through key events (the keypad-like queue
with the board's semantics, the App as the board runs it)."""

import pytest
from helpers import position, speed_position

from desktop.keys import POWER_ON_TICKS, TICKS_PERIOD, DesktopKeys, Event
from engine import speed
from engine.notation import parse_card
from engine.spit import CHOOSE, PLAY, READY, SLAP, STALEMATE, Game
from hardware import menu, profiles
from hardware.app import App
from hardware.keymaps import PILE_0, STOCK_0, key_numbers
from hardware.modes import MATCH, MENU, OVER, PAUSED, PLAYING
from hardware.storage import SIZE_NEEDED, Store

STUCK1 = "5C/5D/5H/5S/4C"


class TextScreen:
    # The App's screen, keeping the last lines it was asked to show.
    rows = 10
    cols = 20
    speed = False

    def __init__(self):
        self.lines = []
        self.tables = 0

    def show_text(self, lines, twice=False, chosen=-1):
        self.lines = list(lines)
        return 0  # (every row drawn)

    def show_game(self, game, controls, now_ms):
        self.tables += 1
        return None

    def set_style(self, facing, four_colours):
        pass


class Rig:
    def __init__(self, players=0, nvm=None):
        self.profile = profiles.get("pico-st7789-240")
        self.clock = POWER_ON_TICKS  # as the board's clock starts: it wraps 65.5 s in
        self.keys = DesktopKeys(len(self.profile["keymap"]), lambda: self.clock)
        self.screen = TextScreen()
        self.nvm = nvm if nvm is not None else bytearray(b"\xff" * SIZE_NEEDED)
        self.app = App(
            self.screen,
            self.keys,
            Event(),
            self.profile,
            lambda: self.clock,
            seed=1,
            store=Store(self.nvm, say=lambda m: None),
        )
        self.app.players = players
        self.app.style = 0  # seats side by side: the scenes' words once, as written (blank lines kept)
        self.app.scene.draw()
        self.numbers = key_numbers(self.profile["keymap"])

    def run(self, ms):
        for _ in range(-(-ms // 5)):
            self.clock = (self.clock + 5) % TICKS_PERIOD
            self.app.step(self.clock)

    def press(self, player, *actions, hold=60):
        for a in actions:
            self.keys.set(self.numbers[player * 16 + a], True, self.clock)
        self.run(hold)
        for a in actions:
            self.keys.set(self.numbers[player * 16 + a], False, self.clock)
        self.run(100)

    def pause(self, player=0):
        self.press(player, PILE_0, PILE_0 + 1, hold=1100)


def play_position():
    return position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")


def stalemate_position():
    g = position("8D/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    g.play(0, 0)
    assert g.phase == STALEMATE
    return g


PHASES = {
    "spit ready": lambda: Game(5),
    "spit play": play_position,
    "spit stalemate": stalemate_position,
    "speed ready": lambda: speed.Game(4),
    "speed play": lambda: speed_position(
        "KS/2H/5D/9C/9D", "5C/5H/5S/4C/4D", pile0="AH", pile1="10C", stock0="7c,8h", stock1="8c", side0="3c", side1="3d"
    ),
    "speed stalemate": lambda: speed_position(
        "2C/2D/2H/2S/-",
        "5C/5D/5H/5S/4C",
        pile0="8D",
        pile1="KD",
        side1="9s,jc",
        filler="stock1",
        phase="stalemate",
        last="1",
    ),
}


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_pause_and_resume_in_every_phase_and_no_press_moves_while_paused(phase):
    rig = Rig()
    g = PHASES[phase]()
    rig.app.play(g, rig.clock)
    rig.pause(1)  # player 1 holds both pile buttons for a second
    assert rig.app.mode == PAUSED and rig.app.paused_by == 1
    assert rig.screen.lines[0] == "PAUSED by top" and "bottom top" in rig.screen.lines[2]
    before = g.text()  # (the chord's first press counted as usual: in READY it called)
    for p in range(2):  # presses while paused: none becomes a move
        for a in (STOCK_0, STOCK_0 + 1, STOCK_0 + 2, PILE_0):
            rig.press(p, a)
            if p == 0:
                assert rig.app.mode == PAUSED and "top" in rig.screen.lines[2] and "bottom" not in rig.screen.lines[2]
    assert g.text() == before
    # Both have pressed: a countdown, then the match goes on where it was.
    assert rig.app.mode == PAUSED and [line for line in rig.screen.lines if line.strip()][0].strip() in ("3", "2")
    rig.press(0, STOCK_0 + 3)  # during the countdown: nothing either
    rig.run(3000)
    assert rig.app.mode == MATCH and g.text() == before and rig.app.game is g


@pytest.mark.parametrize("phase", ["spit stalemate", "speed stalemate", "spit ready"])
def test_the_pause_chord_right_after_a_call_is_no_refusal_first(phase):
    # A play-test: the chord pressed right after calling in a stalemate
    # flashed a refusal ("turned", a red x, a buzz) before the pause. A pile
    # key that may become the chord is refused only once it is let go alone.
    rig = Rig()
    if phase == "speed stalemate":  # (both with a side pile: a turn waits for the other's)
        g = speed_position(
            "2C/2D/2H/2S/-",
            STUCK1,
            pile0="8D",
            pile1="KD",
            side0="10s",
            side1="9s,jc",
            filler="stock1",
            phase="stalemate",
        )
    else:
        g = PHASES[phase]()
    rig.app.play(g, rig.clock)
    rig.run(400)  # (past the grace of a round just dealt)
    rig.press(1, STOCK_0 + 3)  # player 1 calls (Speed: turns)
    assert g.called & 2
    controls = rig.app.controls
    refusals, heard = controls.refusals[1], []
    real = rig.app.feedback.event
    rig.app.feedback.event = lambda kind, player, now: heard.append(kind) or real(kind, player, now)
    rig.pause(1)  # both pile keys, held for a second
    assert rig.app.mode == PAUSED and rig.app.paused_by == 1
    assert controls.refusals[1] == refusals, "a refusal flashed before the pause"
    from hardware.feedback import REFUSED

    assert REFUSED not in heard
    rig.press(1, STOCK_0)  # both go on: the countdown, then the match
    rig.press(0, STOCK_0)
    rig.run(3200)
    assert rig.app.mode == MATCH
    # A pile key pressed alone after the call is still refused, once let go.
    rig.press(1, PILE_0)
    assert controls.refusals[1] == (refusals + 1) & 255 and controls.result[1] != 0


@pytest.mark.parametrize("phase", ["slap", "choose"])
def test_no_pause_while_a_slap_or_a_choice_is_decided(phase):
    rig = Rig()
    g = position(
        "8D/-/-/-/-",
        STUCK1,
        pile0="7C",
        pile1="KD,AC",
        spit0="3C",
        spit1="3D",
        phase="slap" if phase == "slap" else "choose:0",
        rules="-" if phase == "slap" else "N",
    )
    rig.app.play(g, rig.clock)
    assert g.phase == (SLAP if phase == "slap" else CHOOSE)
    rig.pause(0)
    # The first press slapped (chose) and that stays decided: the next round
    # is dealt, whether or not the held buttons then pause it.
    assert g.round == 2 and g.phase == READY and g.took[0] == 0
    if rig.app.mode == PAUSED:
        rig.press(0, STOCK_0)
        rig.press(1, STOCK_0)
        rig.run(3000)
    assert rig.app.mode == MATCH and g.round == 2 and g.took[0] == 0


def test_the_computer_does_not_move_while_paused():
    rig = Rig(players=4)  # player 1 is the computer, Expert
    g = play_position()
    rig.app.play(g, rig.clock)
    rig.pause(0)  # (the computer may have played during the second it took)
    assert rig.app.mode == PAUSED
    before = g.text()
    rig.run(20000)
    assert g.text() == before  # twenty seconds: its reaction times stood still
    rig.press(0, STOCK_0)  # the one person at the device goes on alone
    rig.run(3000)
    assert rig.app.mode == MATCH
    rig.run(3000)
    assert g.text() != before  # and then it plays


def test_leave_then_resume_restores_the_exact_position():
    rig = Rig()
    g = play_position()
    rig.app.play(g, rig.clock)
    rig.press(0, STOCK_0)
    rig.press(0, PILE_0)  # 8D onto the 7C: a position no deal has
    assert g.phase == PLAY and g.top(12) == parse_card("8D")[0]
    rig.pause(0)
    left = g.text()
    rig.press(1, PILE_0 + 1)  # "pile 2: leave"
    assert rig.app.mode == MENU and rig.screen.lines[1].startswith(">Resume Spit round 1")
    rig.press(0, PILE_0 + 1)  # start: the first line, resume
    # The same countdown as after a pause; presses meanwhile move nothing.
    said = [line.strip() for line in rig.screen.lines if line.strip()]
    assert rig.app.mode == PAUSED and said[0] in ("3", "2") and said[1] == "get ready"
    rig.press(1, STOCK_0)
    assert rig.app.game.text() == left and rig.app.controls.chosen[1] == 255
    rig.run(3000)
    assert rig.app.mode == MATCH and rig.app.game.text() == left


def winning_move_position():
    # Player 0 plays the 8D and gets rid of every card: they win at once (D-13).
    return position("8D/-/-/-/-", STUCK1, pile0="7C", spit1="3D")


def test_the_tally_counts_is_shown_and_survives_a_reload():
    rig = Rig()
    for players in (0, 0, 3):  # two people twice, then one against the computer at Hard
        rig.app.players = players
        rig.app.play(winning_move_position(), rig.clock)
        rig.press(0, STOCK_0)
        assert rig.app.mode == OVER and rig.app.game.winner == 0
        rig.run(1000)  # (the winning play stays on the table for WON_MS first)
        assert any(line.endswith(menu.tally_forms(rig.app)[0]) for line in rig.screen.lines), rig.screen.lines
        rig.run(1000)
        rig.press(1, STOCK_0)  # any key: the menu
        assert rig.app.mode == MENU
    assert rig.app.tally == [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    # Power off and on: the tally is read back from nvm.
    again = Rig(nvm=rig.nvm)
    assert again.app.tally == [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    again.press(0, STOCK_0)  # up from the first line: the last one, the tally
    assert ">Won bottom 2:0 top" in again.screen.lines  # "Tally bottom 2 : 0 top" is too long for 20 columns
    again.app.players = 3
    assert menu.tally_forms(again.app)[0] == "you 1 : 0 Hard"


def test_the_tally_is_cleared_from_the_menu_with_a_second_press():
    rig = Rig()
    rig.app.tally[0] = 4
    menu.save_tally(rig.app)
    last = len(rig.app.scene.items()) - 1
    rig.press(0, STOCK_0)  # up from the first line: the last, the tally
    assert rig.app.scene.item == last
    rig.press(0, PILE_0)
    assert rig.app.tally[0] == 4 and any("Clear tally?" in line for line in rig.screen.lines)
    rig.press(0, PILE_0)
    assert rig.app.tally == [0] * 14
    assert Rig(nvm=rig.nvm).app.tally == [0] * 14


def test_the_menu_turns_a_page_only_when_the_chosen_line_would_leave_it():
    # The list kept the chosen line in its middle, so each move past
    # the third line scrolled every line (about 0.2 s to draw on a Pico's
    # 240 x 240 panel). Now a move within the page changes two lines, and
    # going once round the whole list turns the page twice.
    rig = Rig()
    rig.app.players = 1  # a computer level in the list: every line is there
    count = len(rig.app.scene.items())
    room = rig.screen.rows - 3
    assert count > room  # more lines than fit: the list has pages
    turns = 0
    shown = list(rig.screen.lines)
    for _ in range(count):
        rig.press(0, STOCK_0 + 1)  # down, round to the first line again
        chosen = [line for line in rig.screen.lines if line.startswith(">")]
        assert len(chosen) == 1  # the chosen line is always on the page
        changed = sum(1 for a, b in zip(shown, rig.screen.lines) if a != b)
        assert changed >= 2
        if changed > 2:
            turns += 1
        shown = list(rig.screen.lines)
    assert rig.app.scene.item == 0 and rig.app.scene.top == 0
    assert turns == 2  # down onto the next page, and round to the first


def test_the_board_collects_the_heap_once_the_table_is_up_and_after_a_pause():
    # (On the board launch gives the App gc.collect: a scene's leftovers go
    # as a match starts or goes on, not in an automatic collection mid-play.)
    rig = Rig()
    drawn = []
    rig.app.collect = lambda: drawn.append((rig.app.mode, rig.screen.tables))
    rig.app.play(play_position(), rig.clock)
    assert drawn == [(MATCH, 1)]  # after the table was drawn
    rig.pause()
    rig.press(0, STOCK_0)  # both players ready: the countdown, then the match goes on
    rig.press(1, STOCK_0)
    assert rig.app.mode == PAUSED and [m for m, _ in drawn] == [MATCH, PAUSED]  # the countdown's first second
    rig.run(3500)
    assert rig.app.mode == MATCH
    # Once each second the countdown shows (3, 2, 1), not every pass; then the match.
    assert [m for m, _ in drawn] == [MATCH, PAUSED, PAUSED, PAUSED, MATCH]
    assert drawn[-1] == (MATCH, rig.screen.tables) and rig.screen.tables > 1  # after the table was drawn again
    rig.run(1000)
    assert len(drawn) == 5  # (not every pass)


def test_the_countdown_collects_once_a_second_whatever_else_it_redraws():
    # Linked play's noise words coming and going redraw the countdown's
    # words; the heap is still collected once a second, not at each redraw.
    rig = Rig()
    drawn = []
    rig.app.collect = lambda: drawn.append(rig.app.mode)
    rig.app.play(play_position(), rig.clock)
    rig.pause()
    noise = [0]

    class Linked:
        # (what a countdown asks of the session: its phase, its noise; it is stepped each pass)
        medium = "cable"
        phase = PLAYING

        def noise(self):
            return noise[0]

        def step(self, game, now):
            pass

    rig.press(0, STOCK_0)
    rig.app.linked = Linked()
    rig.press(1, STOCK_0)
    for _ in range(20):  # (every 100 ms, the noise words on or off: the words redrawn)
        noise[0] = 3 - noise[0]
        rig.run(100)
        if rig.app.mode != PAUSED:
            break
    rig.app.linked = None
    assert drawn.count(PAUSED) == 3, drawn


DAY_MS = 24 * 3600 * 1000


def _leave_for(rig, ms, step_ms=60000):
    # Nobody touches the device for ms: the board loops on (a pass a minute
    # here), its clock wrapping at 2**29 (6.2 days) on the way.
    for _ in range(ms // step_ms):
        rig.clock = (rig.clock + step_ms) % TICKS_PERIOD
        rig.app.step(rig.clock)


def test_a_result_left_four_days_still_takes_a_key():
    # A stored time read after 2**28 ms (3.1 days) wraps: the result's grace
    # for the last frantic presses must not last days more.
    rig = Rig()
    rig.app.play(winning_move_position(), rig.clock)
    rig.press(0, STOCK_0)
    assert rig.app.mode == OVER
    _leave_for(rig, 4 * DAY_MS)
    assert rig.app.mode == OVER
    rig.press(1, STOCK_0)  # any key: the menu
    assert rig.app.mode == MENU


@pytest.mark.parametrize("days", [1, 4, 7])
def test_a_pause_left_for_days_goes_on_and_the_computer_plays(days):
    # The computer's reaction time stood still through the pause, however long.
    rig = Rig(players=4)
    g = play_position()
    rig.app.play(g, rig.clock)
    rig.pause(0)
    assert rig.app.mode == PAUSED
    before = g.text()
    _leave_for(rig, days * DAY_MS)
    assert rig.app.mode == PAUSED and g.text() == before
    rig.press(0, STOCK_0)
    rig.run(3000)
    assert rig.app.mode == MATCH
    rig.run(3000)
    assert g.text() != before


def test_a_key_in_the_menu_after_its_lines_changed_under_the_cursor_raises_nothing():
    # The resume line comes and goes (with linked play, a saved match
    # dropped): the cursor on a line that is no longer there starts at the top.
    rig = Rig()
    count = len(rig.app.scene.items())
    rig.app.scene.item = count  # (one past the last line)
    rig.press(0, STOCK_0 + 1)  # down
    assert rig.app.mode == MENU and rig.app.scene.item == 1
