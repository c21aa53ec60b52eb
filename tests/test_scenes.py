"""Scenes of the App on the real Screen, read back from the rendered frames."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from helpers import middle, position, speed_position  # noqa: E402
from screens import check_pixels, draw_text, rgb565, settle, snapshot

from desktop.keys import POWER_ON_TICKS, DesktopKeys, Event  # noqa: E402
from desktop.text_shown import shown  # noqa: E402
from hardware import menu  # noqa: E402
from hardware.app import App  # noqa: E402
from hardware.keymaps import PILE_0, PREV, STOCK_0, key_numbers  # noqa: E402
from hardware.modes import OVER
from hardware.over import WON_MS

_WRAP = 1 << 29


class Board:
    # The App as the board runs it, on the rig's Screen, with the desktop's
    # keypad stand-in and a clock that starts where the board's does.
    def __init__(self, profile, screen):
        self.profile = profile
        self.clock = POWER_ON_TICKS
        self.keys = DesktopKeys(len(profile["keymap"]), lambda: self.clock)
        self.app = App(screen, self.keys, Event(), profile, lambda: self.clock, seed=1)
        self.numbers = key_numbers(profile["keymap"])

    def run(self, ms):
        for _ in range(-(-ms // 5)):
            self.clock = (self.clock + 5) % _WRAP
            self.app.step(self.clock)

    def tap(self, player, action):
        k = self.numbers[player * 16 + action]
        self.keys.set(k, True, self.clock)
        self.run(10)
        self.keys.set(k, False, self.clock)


@pytest.mark.parametrize("kind", ["spit", "speed"])
def test_the_winning_play_is_seen_before_the_result(rig, tmp_path, kind):
    # The last table frame showed the pile's old card, then
    # GAME OVER came. Now the winning card is drawn, and the scene follows.
    profile, display, screen = rig
    board = Board(profile, screen)
    if kind == "spit":  # player 0's last card, the 8D, onto the 7C (D-13)
        g = position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", spit1="3D")
    else:
        g = speed_position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD")
    board.app.begin(g, board.clock)
    board.run(50)
    board.tap(0, PILE_0 if profile["cursor"] else STOCK_0)  # (a cursor board: the card under the cursor)
    assert board.app.mode == OVER and g.winner == 0
    image = snapshot(display, "%s-%s-won" % (profile["name"], kind), tmp_path)
    assert not screen.table.hidden and screen.scene.hidden
    check_pixels(screen, image, profile["width"], profile["height"])
    rank, suit = screen.pile_ranks[0], screen.pile_suits[0]
    assert not rank.hidden and (rank[0], suit[0]) == (8 - 1, 1)  # the 8 of diamonds is on pile 0
    board.run(WON_MS)
    assert screen.table.hidden and not screen.scene.hidden
    assert shown(screen.text).split("\n")[0].strip() == "GAME OVER"


def test_the_seats_fit_who_plays_and_stay_changeable(rig, tmp_path):
    # Seats defaulted to side by side, so on a device made
    # for two people facing each other the top player read every card upside
    # down; against the computer, facing seats turned its cards away from the
    # one person playing. Now two people face each other, one person plays
    # with every card upright, and the seats line still changes it.
    from hardware.keymaps import NEXT
    from hardware.modes import FACING, MATCH

    profile, display, screen = rig
    board = Board(profile, screen)
    app = board.app
    # (Two people share a Cardputer's keyboard side by side: both upright.)
    assert app.style & FACING == (0 if profile.get("two_people_sit") == "side_by_side" else FACING) and app.players == 0
    # The players line is the second: move there and change it once (vs Easy).
    if profile["cursor"]:  # the PyBadge's D-pad: Down moves, Left/Right change
        board.tap(0, PILE_0 + 1)
        board.run(60)
        board.tap(0, NEXT)
    else:
        board.tap(0, STOCK_0 + 1)
        board.run(60)
        board.tap(0, PILE_0)
    board.run(60)
    assert app.players == 1 and not app.style & FACING
    # Go (the PyBadge's A): the computer's half is upright, as the person's.
    board.tap(1 if profile["cursor"] else 0, PILE_0 + 1)
    board.run(60)
    assert app.mode == MATCH and not screen.facing
    image = snapshot(display, "%s-vs-computer" % profile["name"], tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    grid = screen.stocks[1][0]
    assert not grid.flip_x and not grid.flip_y


@pytest.mark.parametrize("facing", [False, True], ids=["side-by-side", "facing"])
def test_the_piles_taken_are_said_in_table_words(rig, tmp_path, facing):
    # "took 0:1" counted piles from 0 and read like a score.
    # Now the middle says who took which pile, counted from 1 as the pile
    # buttons are; seats facing, each player reads their own.
    from engine.spit import READY, SLAP_0

    profile, display, screen = rig
    screen.set_style(facing, False)
    screen.twice = facing
    g = position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")
    g.play(0, SLAP_0 + 1)  # the bottom player slaps pile 2 first: they take it, the top player pile 1
    assert g.phase == READY and list(g.took) == [1, 0]
    settle(screen, g, None, 0)
    image = snapshot(display, "%s-took-%s" % (profile["name"], "facing" if facing else "side"), tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    if not facing:
        said = shown(screen.status).split("\n")[1].strip()
        assert said in ("top took pile 1", "top: pile 1", "top:pile1", "T:pile1"), said  # (the shorter name)
        if screen.status.cols >= 9:  # names, not initials, where they fit
            assert said.split(":")[0].split()[0] in ("bottom", "top"), said
    elif screen.status_k == 2:  # (each copy has a line for it where the middle has two)
        assert shown(screen.status_low).split("\n")[1].strip() in ("you took pile 2", "took pile 2", "pile 2")
        assert shown(screen.status_top).split("\n")[1].strip() in ("you took pile 1", "took pile 1", "pile 1")
    assert "0" not in shown(screen.status) + shown(screen.status_low) + shown(screen.status_top)


def _seated(rig, facing):
    # The rig's profile, display and screen, and a Board whose App has the
    # seats facing (or not) and a match in play.
    from hardware.modes import FACING

    profile, display, screen = rig
    board = Board(profile, screen)
    board.app.style = FACING if facing else 0
    board.app.apply_style()
    board.app.play(position("8D/2C/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", spit1="3D"), board.clock)
    board.run(50)
    return profile, display, screen, board


def _scene_pixels_are_its_text(screen, display, profile, name, tmp_path):
    # Every pixel of the scene is the font's glyph of its cell (the top
    # copy turned round where it shows); returns what each copy says.
    from screens import draw_turnable_text, rgb565

    image = snapshot(display, name, tmp_path)
    w, h = profile["width"], profile["height"]
    canvas = [[rgb565((0, 0, 0))] * w for _ in range(h)]
    copies = [screen.text] + ([] if screen.text_top.group.hidden else [screen.text_top])
    for text in copies:
        draw_turnable_text(canvas, text, w, h)
    for y in range(h):
        for x in range(w):
            assert rgb565(tuple(image.get_at((x, y)))[:3]) == canvas[y][x], (name, x, y)
    return [[line.strip() for line in shown(text).split("\n") if line.strip()] for text in copies]


def _pages_seen(board, screen, display, profile, name, tmp_path):
    # What each copy of the scene says over two rounds of its pages.
    from hardware.pages import PAGE_MS

    seen = None
    for i in range(6):
        said = _scene_pixels_are_its_text(screen, display, profile, "%s-%d" % (name, i), tmp_path)
        seen = [set() for _ in said] if seen is None else seen
        for copy, lines in zip(seen, said):
            copy.update(lines)
        board.run(PAGE_MS)
    return seen


@pytest.mark.parametrize("facing", [False, True], ids=["side-by-side", "facing"])
def test_every_scene_says_how_to_go_on_on_every_screen(rig, tmp_path, facing):
    # On the OLED with the seats facing, the pause lacked
    # "pile 2: leave" and the waiting line, and game over lacked "any key:
    # menu", the rounds and the tally. A scene longer than the screen now
    # shows its words a page at a time; each copy says everything.
    from hardware.modes import PAUSED

    profile, display, screen, board = _seated(rig, facing)
    app = board.app
    name = "%s-%s" % (profile["name"], "facing" if facing else "side")
    # The pause, asked for by the bottom player.
    for k in (PILE_0, PILE_0 + 1):
        board.keys.set(board.numbers[k], True, board.clock)
    board.run(1100)
    for k in (PILE_0, PILE_0 + 1):
        board.keys.set(board.numbers[k], False, board.clock)
    board.run(100)
    assert app.mode == PAUSED
    for copy in _pages_seen(board, screen, display, profile, name + "-pause", tmp_path):
        leave = profile.get("pile_2_words", ("pile 2: leave match",))[0]  # (a Cardputer names its keys: X or M)
        assert {"PAUSED by bottom", "other keys: go on", "waiting: bottom top", leave} <= copy, copy
    # Game over, after the bottom player's last card.
    app.play(position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", spit1="3D"), board.clock)
    board.run(50)
    board.tap(0, PILE_0 if profile["cursor"] else STOCK_0)
    board.run(WON_MS)
    assert app.mode == OVER
    said = "tally " + menu.tally_forms(app)[0]
    for copy in _pages_seen(board, screen, display, profile, name + "-over", tmp_path):
        assert {"GAME OVER", "Bottom wins", "after 1 round", "any key: menu"} <= copy, copy
        assert any(line in copy for line in (said,) + menu.tally_forms(app)), copy


def test_the_turned_copies_keep_clear_of_the_edge_and_the_pile(rig, tmp_path):
    # The turned copy of a scene had its first letter on the
    # screen's last column (facing.png: "PAUSED by top", "pile 2: leave"),
    # and the middle's turned words came within about a pixel of the right
    # pile. A turned glyph's blank column is on its right: the copies move a
    # font pixel left, so their first letters stand clear.
    profile, display, screen, board = _seated(rig, True)
    app = board.app
    w, h = profile["width"], profile["height"]
    pile = screen.piles[1].x  # the right pile's card, or its count where that stands between
    if screen.status_top.group.x < screen.pile_info[1].x < pile:
        pile = screen.pile_info[1].x
    status = screen.status_top
    image = snapshot(display, "%s-turned-middle" % profile["name"], tmp_path)
    if status.group.x < pile:  # (the small screen has its words beside the piles)
        box = range(status.group.y, status.group.y + status.lines * status.grid.tile_height * status.group.scale)
        ink = [x for y in box for x in range(status.group.x, pile) if tuple(image.get_at((x, y)))[:3] != (0, 0, 0)]
        assert ink and max(ink) <= pile - 4, (max(ink), pile)  # three pixels clear of the card at least
    app.show_lines(["PAUSED by top", "pile 2: leave"], True)  # as the pause shows them to both
    image = snapshot(display, "%s-turned" % profile["name"], tmp_path)
    ink = [x for y in range(h // 2) for x in range(w) if tuple(image.get_at((x, y)))[:3] != (0, 0, 0)]
    assert ink and max(ink) <= w - 1 - screen.text_top.group.scale


@pytest.mark.parametrize("facing", [False, True], ids=["side-by-side", "facing"])
def test_the_countdown_is_in_the_middle(rig, tmp_path, facing):
    # The countdown was "3 / get ready" in the top-left
    # corner. Now it stands in the middle of the screen (of each half, seats
    # facing), to a character.
    from hardware.modes import PAUSED

    profile, display, screen, board = _seated(rig, facing)
    app = board.app
    app.pause(board.clock)
    board.tap(0, PILE_0)  # any key but pile 2 goes on (a PyBadge has no stock keys)
    board.tap(1, PILE_0)
    board.run(100)
    assert app.mode == PAUSED
    image = snapshot(display, "%s-countdown-%s" % (profile["name"], "facing" if facing else "side"), tmp_path)
    w, h = profile["width"], profile["height"]
    cell_w, cell_h = 6 * screen.text_scale, 12 * screen.text_scale
    for y0, y1 in ((h // 2, h), (0, h // 2)) if facing else ((0, h),):
        ink = [(x, y) for y in range(y0, y1) for x in range(w) if tuple(image.get_at((x, y)))[:3] != (0, 0, 0)]
        xs = [x for x, _ in ink]
        ys = [y for _, y in ink]
        assert abs((min(xs) + max(xs)) / 2 - w / 2) <= cell_w, (min(xs), max(xs))
        assert abs((min(ys) + max(ys)) / 2 - (y0 + y1) / 2) <= cell_h, (min(ys), max(ys))


def test_the_first_round_says_what_the_pile_arrows_mean(rig, tmp_path):
    # Nothing on the screen said what the arrows under the
    # piles mean. In the first round of two people, where the middle's second
    # line is free, it says so (D-2: the arrow points at who spits there).
    from hardware import sprites

    profile, display, screen = rig
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    assert g.round == 1
    settle(screen, g, None, 0)
    image = snapshot(display, "%s-arrows" % profile["name"], tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    assert [screen.pile_info[k][0] for k in range(2)] == [sprites.GLYPH_ARROW_DOWN, sprites.GLYPH_ARROW_UP]
    said = middle(screen)[-1]
    # In words a new player reads (not "arrow: yours"), where they fit; else nothing.
    fits = [t for t in ("arrow at you: your pile", "arrow at you: yours") if len(t) <= screen.status.cols]
    assert said == (fits[0] if fits else ""), said
    assert said or screen.status.cols < 19  # (every screen but the smallest says it)
    screen.opponent = ("^ CPU Easy", "CPU Easy")  # against the computer the line names it, as before
    screen.set_style(False, False)  # (as the App does when a match starts: everything looked at again)
    settle(screen, g, None, 0)
    assert "arrow" not in middle(screen)[-1]
    screen.opponent = ()
    g.round = 2  # after the first round the players know
    settle(screen, g, None, 0)
    assert "arrow" not in middle(screen)[-1]


def test_back_from_the_lobby_the_menu_cursor_is_on_the_line_left(rig, tmp_path):
    # A play-test: after "pile 2: back" from the lobby the cursor was on
    # "Game", so the next pile 1 turned Spit into Speed. It stays on the line
    # the player left, drawn so.
    from hardware.modes import LINKED, LOBBY, MENU

    profile, display, screen = rig
    board = Board(profile, screen)

    def no_cable():
        raise OSError("no cable here")

    board.app.open_link = no_cable
    board.app.players = LINKED
    cursor = profile["cursor"]
    down, change, go = (
        ((0, PILE_0 + 1), (0, PREV), (1, PILE_0 + 1))
        if cursor
        else (
            (0, STOCK_0 + 1),
            (0, PILE_0),
            (0, PILE_0 + 1),
        )
    )
    board.run(50)
    board.tap(*down)  # to "Players: linked"
    board.tap(*go)
    assert board.app.mode == LOBBY
    board.run(50)
    board.tap(*go)  # "pile 2: back" (a PyBadge's A)
    board.run(50)
    assert board.app.mode == MENU
    image = snapshot(display, "%s-menu-after-the-lobby" % profile["name"], tmp_path)
    width, height = profile["width"], profile["height"]
    canvas = [[rgb565((0, 0, 0))] * width for _ in range(height)]
    draw_text(canvas, screen.text, width, height)  # every pixel the font's glyph of its cell
    assert all(rgb565(tuple(image.get_at((x, y)))[:3]) == canvas[y][x] for y in range(height) for x in range(width))
    lines = [line.rstrip() for line in shown(screen.text).split("\n")]
    assert ">Players: linked" in lines and ">Game: Spit" not in lines, lines
    board.tap(*change)  # pile 1 changes the players, not the game
    assert board.app.kind == 0 and board.app.players != LINKED


def test_a_menu_page_turn_draws_the_chosen_line_first_then_a_line_a_pass(rig, tmp_path):
    # A page turned rewrites every line of the list: the press's own frame
    # is its chosen line and the ">" (about 40 ms of composing on a Pico's
    # panel, not a quarter second), each other line a pass after it, and a
    # move within a page is the ">" alone. Read back from the pixels drawn.
    profile, display, screen = rig
    board = Board(profile, screen)
    board.run(20)
    display.refresh()
    display.refresh()  # (Blinka leaves the first full refresh's groups dirty once)
    menu_scene = board.app.scene
    scale = screen.text_scale
    cell = 6 * 12 * scale * scale
    row = screen.cols * cell
    down = board.numbers[PILE_0 + 1 if profile["cursor"] else STOCK_0 + 1]  # (player 0's; a PyBadge's Down)
    turned = False
    for _ in range(len(menu_scene.items())):
        top = menu_scene.top
        pushed = display.pixels_pushed
        board.keys.set(down, True, board.clock)
        presses = board.app.controls.presses
        while board.app.controls.presses == presses:  # to the pass that reads the press (and draws)
            board.run(1)
        display.refresh()
        first = display.pixels_pushed - pushed
        board.keys.set(down, False, board.clock)
        if menu_scene.top == top:
            assert 0 < first <= 2 * cell, first  # the ">" moved, no more
            board.run(60)  # (a key pressed again sooner is bounce: Controls.LOCKOUT_MS)
            assert menu_scene.due(board.clock) is None
            continue
        turned = True
        image = snapshot(display, "%s-page-first" % profile["name"], tmp_path)
        want = menu_scene.lines()
        drawn = shown(screen.text).split("\n")
        assert 0 < first <= row + 2 * cell, first
        assert drawn[menu_scene.row].rstrip() == want[menu_scene.row]
        assert [line for line in drawn if line.startswith(">")] == [drawn[menu_scene.row]]
        _check_text_drawn(profile, screen, image)
        passes = 0
        while menu_scene.due(board.clock) == 0:
            pushed = display.pixels_pushed
            board.app.step(board.clock)
            display.refresh()
            assert 0 < display.pixels_pushed - pushed <= row
            passes += 1
        assert 1 <= passes < screen.rows
        board.run(60)
        image = snapshot(display, "%s-page-turned" % profile["name"], tmp_path)
        assert [line.rstrip() for line in shown(screen.text).split("\n")] == want
        _check_text_drawn(profile, screen, image)
    assert turned  # (every profile's list is longer than its page)


def _check_text_drawn(profile, screen, image):
    width, height = profile["width"], profile["height"]
    canvas = [[rgb565((0, 0, 0))] * width for _ in range(height)]
    draw_text(canvas, screen.text, width, height)
    for y in range(0, height, 2):
        for x in range(width):
            assert rgb565(tuple(image.get_at((x, y)))[:3]) == canvas[y][x], (x, y)
