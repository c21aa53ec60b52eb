"""The table as a person sees it: every scene drawn headless at every
profile's resolution (Blinka's displayio, the same groups as the board) and
checked on the pixels (tests/screens.py says how)."""

import displayio
import pytest
from helpers import position
from screens import (
    SCENES,
    check_card,
    check_pixels,
    check_table,
    deep_scene,
    digits,
    lit,
    mark_pixels,
    paper_tile,
    row_drawn,
    settle,
    sheet_image,
    slap_scene,
    snapshot,
    tiles,
)

from desktop.keys import POWER_ON_TICKS, DesktopKeys, Event
from desktop.text_shown import shown
from desktop.window import pygame_display_class
from engine.cards import NO_CARD
from engine.spit import FILL_BASE, FOUR_STOCKS, PLAY, SLAP_0, SPIT, SPIT_PILES, Game
from hardware import profiles, sprites
from hardware.app import App
from hardware.controls import Controls
from hardware.screen import FLASH_MS, Screen


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_scene_on_the_pixels(rig, scene, tmp_path):
    profile, display, screen = rig
    make, phase, word = SCENES[scene]
    controls = Controls(profile["keymap"], profile["cursor"])
    g = make(controls)
    assert g.phase == phase
    settle(screen, g, controls, 0)
    image = snapshot(display, "%s-%s" % (profile["name"], scene), tmp_path)
    assert image.get_size() == (profile["width"], profile["height"])
    assert word in shown(screen.status) and lit(image, screen.status) > 0
    check_table(profile, screen, image, g)
    if scene == "play":
        if screen.marks:  # player 0's chosen stock
            assert screen.marks[0][1][0] in (sprites.MARK_CHOSEN_UP, sprites.MARK_CHOSEN_DOWN)
        else:
            assert screen.depth[0][1] in (sprites.ROW_CHOSEN_UP, sprites.ROW_CHOSEN_DOWN)
        assert screen.info[1][7] == sprites.GLYPH_CROSS  # player 1's refused move flashes
        assert screen.info[0][7] == sprites.GLYPH_BLANK
    if scene == "stalemate":
        assert screen.info[0][3] == sprites.GLYPH_STAR and screen.info[1][3] == sprites.GLYPH_BLANK  # P0 called
    if scene == "result":
        assert "20:" in shown(screen.status)  # the scores after the round


def test_a_refused_mark_only_after_a_refused_move_on_the_boards_clock(rig, tmp_path):
    # CircuitPython's ticks_ms() starts at 0x1fff0000, 65,536 ms before its
    # wrap: the first frame shows no refused mark, and one lights for
    # FLASH_MS when a move is refused, before the wrap and across it.
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    assert settle(screen, g, controls, POWER_ON_TICKS) is None  # nothing to redraw later
    image = snapshot(display, "%s-first-frame" % profile["name"], tmp_path)
    check_table(profile, screen, image, g)
    assert [mark_pixels(image, screen.info[p]) for p in range(2)] == [0, 0]
    wrap = 1 << 29
    for at in (POWER_ON_TICKS + 1000, wrap - 100):
        controls.result[1] = 5  # player 1's move is refused
        controls.refusals[1] += 1
        until = settle(screen, g, controls, at)
        assert until == (at + FLASH_MS) % wrap
        image = snapshot(display, "%s-refused" % profile["name"], tmp_path)
        assert mark_pixels(image, screen.info[1]) > 0 and mark_pixels(image, screen.info[0]) == 0
        assert settle(screen, g, controls, (at + FLASH_MS - 5) % wrap) == until  # still lit
        assert settle(screen, g, controls, (at + FLASH_MS) % wrap) is None
        image = snapshot(display, "%s-refused-out" % profile["name"], tmp_path)
        assert [mark_pixels(image, screen.info[p]) for p in range(2)] == [0, 0]


def test_a_refusal_moving_along_a_row_draws_its_new_card_first_and_the_old_one_at_the_next_pass(rig, tmp_path):
    # A player's rows are one grid: displayio composes the span between two
    # changed tiles, so a mark moving from the first stock to the last would
    # redraw the whole row. The place it left is drawn at the next call (the
    # next pass): each frame composes a stock's column, not the span.
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    at = POWER_ON_TICKS
    settle(screen, g, controls, at)
    display.refresh()
    grid = screen.depth[0]
    span = grid.tile_width * grid.width * grid.tile_height * grid.height  # the whole row
    controls.result[0] = 5  # player 0's move is refused: no fit, at the first card
    controls.refused[0] = 0
    controls.refusals[0] += 1
    settle(screen, g, controls, at + 100)
    display.refresh()
    assert row_drawn(screen, 0, 0) == sprites.ROW_REFUSED
    controls.refused[0] = 4  # and again, at the last card
    controls.refusals[0] += 1
    pushed = display.pixels_pushed
    assert screen.show_game(g, controls, at + 300) == at + 300  # (draw again at the next pass)
    image = snapshot(display, "%s-refusal-moved" % profile["name"], tmp_path)
    first = display.pixels_pushed - pushed
    check_pixels(screen, image, profile["width"], profile["height"])
    assert row_drawn(screen, 0, 4) == row_drawn(screen, 0, 0) == sprites.ROW_REFUSED  # (the old one a pass more)
    pushed = display.pixels_pushed
    assert screen.show_game(g, controls, at + 305) == at + 300 + FLASH_MS
    image = snapshot(display, "%s-refusal-moved-next" % profile["name"], tmp_path)
    second = display.pixels_pushed - pushed
    check_pixels(screen, image, profile["width"], profile["height"])
    assert row_drawn(screen, 0, 4) == sprites.ROW_REFUSED and row_drawn(screen, 0, 0) != sprites.ROW_REFUSED
    assert 0 < first < span and 0 < second < span, (first, second, span)


def _pile_counts(screen):
    return [digits(screen.pile_info[k], 1) for k in range(2)]


def test_a_turn_draws_its_piles_first_and_the_words_and_counts_at_the_next_pass(rig, tmp_path):
    # Cards first: the frame of a press composes the cards it changes, no
    # more (displayio composes each changed grid's area in turn); the
    # middle's words and the counts come at the next pass, which show_game
    # asks for by returning now. SP-4: both spit cards turned onto the piles.
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = Game(3)
    settle(screen, g, controls, 0)
    display.refresh()
    display.refresh()  # (Blinka leaves the first full refresh's groups dirty once)
    words = shown(screen.status)
    counts = _pile_counts(screen)
    g.play(0, SPIT)
    g.play(1, SPIT)
    assert g.phase == PLAY
    pushed = display.pixels_pushed
    assert screen.show_game(g, controls, 10) == 10  # (the rest at the next pass)
    display.refresh()
    first = display.pixels_pushed - pushed
    for k in range(2):
        check_card(screen, screen.piles[k], screen.pile_ranks[k], screen.pile_suits[k], g.top(SPIT_PILES + k))
    assert shown(screen.status) == words and _pile_counts(screen) == counts
    z = sprites.SIZES[screen.size]
    cards = z["card_w"] * z["card_h"] + z["rank_w"] ** 2 + z["suit_w"] ** 2
    assert 0 < first <= 2 * (cards + z["mark_w"] * z["mark_h"]), first  # (and a cursor that lights: PyBadge)
    assert settle(screen, g, controls, 12) is None
    image = snapshot(display, "%s-turned" % profile["name"], tmp_path)
    assert shown(screen.status) != words and _pile_counts(screen) == ["1", "1"]
    check_table(profile, screen, image, g)


def test_a_refusal_lights_its_mark_first_and_says_why_at_the_next_pass(rig):
    # The red bar at the card in the press's own frame; its word ("no fit")
    # in the middle a pass later.
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    at = POWER_ON_TICKS
    settle(screen, g, controls, at)

    def said():
        return shown(screen.status) + (shown(screen.big) if screen.big is not None else "")

    assert "no fit" not in said()
    controls.result[0] = 5  # no fit, at the first card
    controls.refused[0] = 0
    controls.refusals[0] += 1
    assert screen.show_game(g, controls, at + 100) == at + 100
    assert row_drawn(screen, 0, 0) == sprites.ROW_REFUSED and "no fit" not in said()
    assert settle(screen, g, controls, at + 105) == at + 100 + FLASH_MS
    assert "no fit" in said()


def test_a_new_round_draws_its_stocks_first_and_empties_the_piles_at_the_next_pass(rig, tmp_path):
    # SP-9: the slap deals a new round. Its frame draws the players' new
    # stocks; the spit piles it empties (and the words) follow a pass later.
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = slap_scene(controls)
    settle(screen, g, controls, 0)
    display.refresh()
    tops = [g.top(SPIT_PILES + k) for k in range(2)]
    g.play(1, SLAP_0 + 1)
    assert g.round == 2 and g.counts[SPIT_PILES] == g.counts[SPIT_PILES + 1] == 0
    assert screen.show_game(g, controls, 10) == 10
    for p in range(2):
        for s in range(5):
            card = g.top(p * 5 + s) if g.counts[p * 5 + s] else None
            check_card(screen, screen.stocks[p][s], screen.ranks[p][s], screen.suits[p][s], card)
    for k in range(2):  # (as they were, for a pass)
        check_card(screen, screen.piles[k], screen.pile_ranks[k], screen.pile_suits[k], tops[k])
    assert settle(screen, g, controls, 12) is None
    image = snapshot(display, "%s-new-round" % profile["name"], tmp_path)
    for k in range(2):
        check_card(screen, screen.piles[k], screen.pile_ranks[k], screen.pile_suits[k], NO_CARD)
    check_table(profile, screen, image, g)


@pytest.mark.parametrize("facing", [False, True])
def test_a_stock_played_out_shows_the_table_and_fills_again(rig, tmp_path, facing):
    # SP-6: a stock's last card played leaves its place empty: the table is
    # seen there (its paper, rank and suit hidden, so displayio composes no
    # layer in it), and a card moved into it shows there again, upright or
    # turned round for the top player. Read back from the pixels drawn.
    profile, display, screen = rig
    screen.set_style(facing, False)
    controls = Controls(profile["keymap"], profile["cursor"])
    g = position("8D/9h,2C/2D/2H/2S", "9S/6H/5H/5S/4C", pile0="7C", pile1="JC", spit0="3C", spit1="3D")
    settle(screen, g, controls, 0)
    for p in range(2):
        assert g.play(p, 0) == 0  # stock 0's only card onto pile 0: 8D on 7C, then 9S on 8D
        settle(screen, g, controls, 0)
        image = snapshot(display, "%s-played-out-%d" % (profile["name"], p), tmp_path)
        check_table(profile, screen, image, g)
        assert screen.stocks[p][0].hidden and screen.ranks[p][0].hidden and screen.suits[p][0].hidden
    assert g.play(0, FILL_BASE + 1 * 5 + 0) == 0  # stock 1's 2C into stock 0, 9H turned up
    settle(screen, g, controls, 0)
    image = snapshot(display, "%s-filled" % profile["name"], tmp_path)
    check_table(profile, screen, image, g)
    assert not screen.stocks[0][0].hidden and screen.ranks[0][0][0] == g.top(0) % 13


@pytest.mark.parametrize("facing,four", [(True, False), (False, True), (True, True)])
def test_facing_each_other_and_four_colours(rig, tmp_path, facing, four):
    profile, display, screen = rig
    screen.set_style(facing, four)
    controls = Controls(profile["keymap"], profile["cursor"])
    g = deep_scene(controls)
    controls.chosen[1] = 2
    settle(screen, g, controls, 0)
    image = snapshot(display, "%s-style-%d%d" % (profile["name"], facing, four), tmp_path)
    check_table(profile, screen, image, g)
    assert all(paper.flip_x == facing and paper.flip_y == facing for paper in screen.stocks[1])
    # Player 1's stock 0 is on their left: over player 0's stock 4 when
    # facing, right above.
    assert screen.stocks[1][0].x == screen.stocks[0][4 if facing else 0].x
    if profile["colour"]:
        diamonds = screen.inks[1][sprites.INKED_INK]
        assert diamonds == (sprites.FOUR_COLOURS[1] if four else sprites.TWO_COLOURS[1])


@pytest.mark.parametrize("phase", ["ready", "play"])
def test_speed_on_the_pixels(rig, phase, tmp_path):
    from engine import speed

    profile, display, screen = rig
    screen.speed = True
    controls = Controls(profile["keymap"], profile["cursor"])
    g = speed.Game(9)
    if phase == "play":
        g.play(0, speed.TURN)
        g.play(1, speed.TURN)
    settle(screen, g, controls, 0)
    image = snapshot(display, "%s-speed-%s" % (profile["name"], phase), tmp_path)
    check_table(profile, screen, image, g, speed=True)
    if phase == "ready":
        assert paper_tile(screen, screen.piles[0]) == sprites.TILE_BACK  # the middle cards lie face down
        assert "TURN" in shown(screen.status)
    # The two counts beside each player are a glyph's height apart on the
    # screen: no lit pixel between them (they read as one number).
    for p in range(2 if profile["name"] != "pico-ssd1306" else 0):  # (no room on the OLED)
        info = screen.info[p]
        w, h = info.tile_width, info.tile_height
        assert digits(info, 1) and digits(info, 9)
        between = [tuple(image.get_at((info.x + x, info.y + h + y)))[:3] for x in range(3 * w) for y in range(h)]
        assert all(c == (0, 0, 0) for c in between), p


def test_every_size_draws_a_place_in_whole_strips_and_lines():
    # screen_build draws a place's paper in strips the gap's width, and the
    # back edges a line of pixels a tile, the blank line being line 0 of the
    # no-edge tile (the grid's default): each size must allow it.
    for name, z in sprites.SIZES.items():
        gap = z["card_tile_w"] - z["card_w"]
        assert gap > 0 and z["card_w"] % gap == 0, name
        if z["edge_pitch"]:
            assert sprites.ROW_DEPTH + 4 < 5 and (4 - 1) * z["edge_pitch"] < z["row_h"], name


def test_every_size_lays_rank_and_suit_on_plain_paper(rig):
    # A card's rank and suit are opaque (their entry 0 is the paper's colour,
    # screen_build), so displayio composes only them where they change: the
    # face under them, upright or turned round, must be the plain paper, or a
    # card would show a paper-coloured square over its edge. (The profiles
    # use every sprite size.)
    profile, display, screen = rig
    z = sprites.SIZES[screen.size]
    image = sheet_image(screen, screen.cards_sheet)
    cw, ch = z["card_w"], z["card_h"]
    left = sprites.TILE_FACE * z["card_tile_w"]
    for (ax, ay), w in ((z["rank_xy"], z["rank_w"]), (z["suit_xy"], z["suit_w"])):
        for x0, y0 in ((ax, ay), (cw - ax - w, ch - ay - w)):
            under = {image.getpixel((left + x, y)) for x in range(x0, x0 + w) for y in range(y0, y0 + w)}
            assert under == {sprites.PAPER_FILL}, (x0, y0)
    paper = screen.face_inks[sprites.PAPER_FILL]
    for ink in screen.inks:
        assert ink[0] == ink[sprites.INKED_PAPER] == paper
        assert not any(ink.is_transparent(i) for i in range(len(ink)))


def test_four_stocks_leave_the_fifth_place_empty_on_every_profile(rig, tmp_path):
    # V-1: with four stocks the fifth place shows no card and no marker (a
    # marker tile of -1 there is refused by the firmware, as by the stand-ins).
    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = Game(5, FOUR_STOCKS)
    assert g.stocks == 4
    settle(screen, g, controls, 0)
    image = snapshot(display, "%s-four-stocks" % profile["name"], tmp_path)
    check_table(profile, screen, image, g)
    assert screen.stocks[0][4].hidden and screen.stocks[1][4].hidden
    if screen.marks:
        assert screen.marks[0][4][0] == sprites.MARK_BLANK


@pytest.mark.parametrize("players,want", [(1, "CPU Easy"), (3, "CPU Hard"), (5, "demo")])
def test_the_computer_is_named_on_the_table(rig, tmp_path, players, want):
    # Against the computer the middle says who it is and (where it fits) that
    # it plays the top half: "^ CPU Hard"; drawn glyph by glyph.
    profile, display, screen = rig
    app = App(screen, DesktopKeys(len(profile["keymap"]), lambda: 0), Event(), profile, lambda: 0, seed=1)
    app.players = players
    app.start_match(0)
    settle(screen, app.game, app.controls, 0)  # (the words a pass after the cards)
    image = snapshot(display, "%s-vs-%d" % (profile["name"], players), tmp_path)
    said = shown(screen.status).split("\n")[1].strip()
    assert want.split()[-1] in said and len(said) <= screen.status.cols, said
    if screen.status.cols >= 10 and players != 5:
        assert said in ("^ " + want, "top: " + want)
    check_pixels(screen, image, profile["width"], profile["height"])


def test_the_stock_the_computer_played_from_is_marked(rig, tmp_path):
    # The computer's cards appeared on a pile with no hint of where
    # they came from. Its stock is marked for PLAYED_MS after each play.
    from hardware.screen import PLAYED_MS

    profile, display, screen = rig
    app = App(screen, DesktopKeys(len(profile["keymap"]), lambda: 0), Event(), profile, lambda: 0, seed=3)
    app.players = 4  # Expert: quick
    app.start_match(0)
    app.game = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="JC", spit0="3C", spit1="3D")
    t = 0
    while app.controls.applied == 0 and t < 5000:
        t += 5
        app.controls.now = t
        app.step(t)
    assert app.controls.applied == 1
    s = app.controls.played[1]
    image = snapshot(display, "%s-computer-played" % profile["name"], tmp_path)
    tile = screen.marks[1][s][0] if screen.marks else screen.depth[1][s]
    assert tile == screen._marker(1, False)
    check_pixels(screen, image, profile["width"], profile["height"])
    later = app.controls.played_at[1] + PLAYED_MS
    app.step(later)
    tile = screen.marks[1][s][0] if screen.marks else screen.depth[1][s]
    assert tile != screen._marker(1, False) or app.controls.played_at[1] + PLAYED_MS > later


@pytest.mark.parametrize("name", ["pico-st7789-240", "pybadge", "pico-ssd1306"])
@pytest.mark.parametrize("kind", [0, 1])
def test_a_table_drawn_move_by_move_is_the_table_drawn_at_once(name, kind):
    # show_game looks only at what changed since its last call: after every
    # press, refusal, computer play and flash going out of random matches, its
    # grids hold exactly what a new Screen draws of the same moment.
    from engine import speed
    from engine.cards import Rng
    from hardware.keymaps import UNUSED

    displayio.release_displays()
    profile = profiles.get(name)
    make = pygame_display_class()

    class Unshown:  # a Screen drawn only to be read back
        root_group = None

    def screen(display):
        s = Screen(display, profile)
        s.speed = kind == 1
        s.watched = 2  # the top player's plays are marked as the computer's
        return s

    drawn = screen(make(width=profile["width"], height=profile["height"], auto_refresh=False))
    rng = Rng(7 + kind)
    keys = [k for k, a in enumerate(profile["keymap"]) if a != UNUSED]
    checked = 0
    for match in range(2):
        g = speed.Game(match, 0) if kind else Game(match, 0)
        controls = Controls(profile["keymap"], profile["cursor"])
        controls.call = g.call
        now = POWER_ON_TICKS
        buf = bytearray(64)
        for step in range(140):
            if g.phase == 5:  # GAME_OVER
                break
            if rng.below(3) == 0 and g.moves(step & 1, buf):  # a legal move, as the computer makes them
                move = buf[rng.below(g.moves(step & 1, buf))]
                controls.now = now
                controls._try(g, step & 1, move)
            else:  # a key, as a person presses them: chooses, cancels, refusals
                k = keys[rng.below(len(keys))]
                controls.feed(g, k, True, now)
                controls.apply(g)
                controls.feed(g, k, False, now + 50)
            now = (now + 60 + rng.below(900)) & ((1 << 29) - 1)
            # (what a frame leaves to the next pass, App.step: a mark left a
            # stock, the counts and words after a card: drawn before it is read)
            settle(drawn, g, controls, now)
            if step % 3 == 0 or g.phase != PLAY:
                fresh = screen(Unshown())
                fresh._refusals[:] = controls.refusals  # the refusals lit now, as the drawn one has them
                fresh._newest = drawn._newest
                fresh._flash_until = list(drawn._flash_until)
                settle(fresh, g, controls, now)
                assert tiles(drawn, drawn.root) == tiles(fresh, fresh.root), (name, kind, match, step, g.text())
                checked += 1
    assert checked > 60
