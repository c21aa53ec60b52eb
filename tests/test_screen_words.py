"""The words on the screen: the menu, game over, a refused move's reason and
the words both players read when they face each other, on the pixels."""

import pytest
from helpers import middle, position
from screens import (
    STUCK1,
    check_pixels,
    draw_text,
    draw_turnable_text,
    lit,
    press,
    rgb565,
    row_drawn,
    settle,
    snapshot,
)

from desktop.keys import POWER_ON_TICKS, DesktopKeys, Event
from desktop.text_shown import shown
from engine.spit import Game
from hardware import sprites
from hardware.app import App
from hardware.controls import Controls
from hardware.keymaps import PILE_0
from hardware.modes import GONE, LINKED, MENU, OTHER_LEFT
from hardware.over import lines as over_lines
from hardware.screen import FLASH_MS


def check_text_drawn(profile, screen, image):
    # Every pixel of a full-screen text scene is the font's glyph of its cell, on black.
    width, height = profile["width"], profile["height"]
    canvas = [[rgb565((0, 0, 0))] * width for _ in range(height)]
    draw_text(canvas, screen.text, width, height)
    for y in range(height):
        for x in range(width):
            assert rgb565(tuple(image.get_at((x, y)))[:3]) == canvas[y][x], (x, y)


def test_menu_and_game_over_scenes(rig, tmp_path):
    profile, display, screen = rig
    keys = DesktopKeys(len(profile["keymap"]), lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=1)
    image = snapshot(display, "%s-menu" % profile["name"], tmp_path)
    text = shown(screen.text)
    assert ">Game: Spit" in text and "Players: two" in text
    assert "Seats: facing" in text or screen.rows < 10  # two people's default
    assert lit(image, screen.text) > 200 and screen.table.hidden
    # How to use the menu, on every screen, in the words of its buttons (issue
    # 23), drawn: every pixel is the font's glyph of its cell.
    hint = {"pybadge": "left/right or B change", "cardputer": "Z/N change, X/M go"}.get(
        profile["name"], "pile 1 change, 2 go"
    )
    assert text.rstrip("\n").split("\n")[-1].rstrip() == hint
    check_text_drawn(profile, screen, image)
    app.game = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="S", scores="40:95")
    app.game.play(0, 0)
    app.show_lines(over_lines(app))
    snapshot(display, "%s-over" % profile["name"], tmp_path)
    assert "wins" in shown(screen.text) and "points" in shown(screen.text)


def test_menu_lines_that_grow_are_never_cut_off(rig):
    # The tally and the saved match's line grow with their numbers: on every
    # screen each is drawn whole, in a shorter form where the long one would
    # not fit (the 240 x 240 panel has 20 columns: "Tally bottom 12 : 10 top"
    # lost "top"), and so is the game over scene's tally. Read back from the
    # cells drawn.
    profile, display, screen = rig
    keys = DesktopKeys(len(profile["keymap"]), lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=1)
    app.tally = [12, 10, 3, 4, 5, 6, 7, 8, 65535, 65535]

    def chosen_line(players, saved=None):
        app.players = players
        app.saved = saved
        app.scene.item = len(app.scene.items()) - 1 if saved is None else 0  # the tally, or the saved match
        app.scene.draw()
        display.refresh()
        chosen = [line.rstrip() for line in shown(screen.text).split("\n") if line.startswith(">")]
        assert len(chosen) == 1
        return chosen[0]

    def first_fitting(*forms):  # the longest form a line of this screen holds with its ">"
        return ">" + next(f for f in forms if len(f) < screen.text.cols)

    assert chosen_line(0) == first_fitting("Tally bottom 12 : 10 top", "Won bottom 12:10 top", "bottom 12:10 top")
    assert chosen_line(1) == first_fitting("Tally you 3 : 4 Easy", "Won you 3:4 Easy")
    assert chosen_line(2) == first_fitting("Tally you 5 : 6 Medium", "Won you 5:6 Medium")
    assert chosen_line(4) == first_fitting(
        "Tally you 65535 : 65535 Expert", "Won you 65535:65535 Expert", "you 65535:65535 Expert", "you 65535:65535 CPU"
    )
    assert chosen_line(5) == first_fitting("Tally none in a demo", "No tally in a demo")
    g = Game(3)
    g.round = 12
    app.kind = 1  # the menu's game; the saved match names its own
    assert chosen_line(0, g) == first_fitting("Resume Spit round 12", "Resume Spit R12")
    # The game over scene's tally line, as long as it can be.
    app.game = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    app.game.play(0, 0)
    for players, forms in (
        (0, ("tally bottom 12 : 10 top", "bottom 12 : 10 top")),
        (
            4,
            (
                "tally you 65535 : 65535 Expert",
                "you 65535 : 65535 Expert",
                "you 65535:65535 Expert",
                "you 65535:65535 CPU",
            ),
        ),
    ):
        app.players = players
        app.show_lines(over_lines(app))
        display.refresh()
        drawn = [line.rstrip() for line in shown(screen.text).split("\n")]
        assert next(f for f in forms if len(f) <= screen.text.cols) in drawn


@pytest.mark.parametrize("case", ["no fit", "taken", "race lost", "pick"])
def test_a_refused_move_is_marked_at_its_card_with_a_word(rig, tmp_path, case):
    # The cross was a few pixels beside the count, for 0.4 s, with
    # no reason. Now it is at the card (or the pile) that was refused, for
    # FLASH_MS, and the middle says why in a word where it fits.
    from hardware.keymaps import NEXT, STOCK_0

    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    first = "6D" if case == "race lost" else "8D"
    g = position(first + "/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    cursor = profile["cursor"]
    t = POWER_ON_TICKS
    settle(screen, g, controls, t)
    if case == "no fit":  # player 0's 2D fits neither 7C nor 9C
        if cursor:
            for _ in range(2):
                t += 50
                press(controls, g, profile, 0, NEXT, t)
            t += 50
            press(controls, g, profile, 0, PILE_0, t)
        else:
            t += 50
            press(controls, g, profile, 0, STOCK_0 + 2, t)
        place = 2
    elif case == "taken":  # player 0 is on 8D for pile 0; player 1 lays 6H there first
        if not cursor:
            press(controls, g, profile, 0, STOCK_0, t + 50)  # 8D fits both piles: chosen
        press(controls, g, profile, 1, STOCK_0 if not cursor else PILE_0, t + 100)  # 6H onto 7C
        t += 200
        press(controls, g, profile, 0, PILE_0, t)
        place = 0
    elif case == "race lost":  # player 1 lays 6H on 7C; player 0's 6D fitted 7C and now fits no pile (SP-7)
        press(controls, g, profile, 1, STOCK_0 if not cursor else PILE_0, t + 100)
        t += 130
        press(controls, g, profile, 0, STOCK_0 if not cursor else PILE_0, t)
        place = 0
    else:  # a pile key with no card chosen (cursor boards have no such press)
        if cursor:
            pytest.skip("a pile key on a cursor board plays the card under the cursor")
        t += 50
        press(controls, g, profile, 0, PILE_0 + 1, t)
        place = PILE_0 + 1
    assert controls.refused[0] == place
    until = settle(screen, g, controls, t)
    if until == t:  # the cursor left a card of the row: drawn at the next pass (App.step)
        until = settle(screen, g, controls, t)
    assert until == (t + FLASH_MS) % (1 << 29)
    image = snapshot(display, "%s-refused-%s" % (profile["name"], case.replace(" ", "-")), tmp_path)
    if place < PILE_0:
        assert row_drawn(screen, 0, place) == sprites.ROW_REFUSED  # a red bar beside the card
        if screen.marks:
            assert screen.marks[0][place][0] == sprites.MARK_REFUSED  # and a red x
    else:
        assert screen.pile_info[1][0] == sprites.GLYPH_CROSS
    assert screen.info[0][7] == sprites.GLYPH_BLANK  # not beside the count any more
    word = "taken" if case == "race lost" else case
    status = middle(screen)[-1]
    # Who it is for in words where they fit, else the word alone: the mark
    # says whose (never the cryptic "v pick").
    assert status in ("bottom: " + word, word) or len(word) > screen.status.cols, status
    check_pixels(screen, image, profile["width"], profile["height"])
    # It goes out after FLASH_MS, the card as before.
    assert settle(screen, g, controls, (t + FLASH_MS) % (1 << 29)) is None
    if place < PILE_0:
        assert row_drawn(screen, 0, place) != sprites.ROW_REFUSED
        assert not screen.marks or screen.marks[0][place][0] != sprites.MARK_REFUSED
    else:
        assert screen.pile_info[1][0] != sprites.GLYPH_CROSS
    assert word not in "\n".join(middle(screen))


def test_facing_seats_show_every_word_to_both_players(rig, tmp_path):
    # With Seats facing, the middle's words, the pause screen and
    # game over stayed upright for the bottom player only. Now each is shown
    # twice, the top player's copy turned round, drawn glyph by glyph.
    from hardware.modes import FACING

    profile, display, screen = rig
    w, h = profile["width"], profile["height"]
    app = App(screen, DesktopKeys(len(profile["keymap"]), lambda: 0), Event(), profile, lambda: 0, seed=1)
    app.style = FACING
    app.apply_style()
    app.start_match(0)
    settle(screen, app.game, app.controls, 0)  # (the words a pass after the cards)
    image = snapshot(display, "%s-facing-table" % profile["name"], tmp_path)
    assert screen.twice and screen.status.group.hidden
    for text in (screen.status_top, screen.status_low):
        assert not text.group.hidden and "SPIT!" in shown(text)
    assert screen.status_top.grid.flip_x and screen.status_top.grid.flip_y
    check_pixels(screen, image, w, h)
    app.pause(0)
    image = snapshot(display, "%s-facing-pause" % profile["name"], tmp_path)
    top, low = screen.text_top, screen.text
    assert shown(top).split("\n")[0].startswith("PAUSED by") and shown(low).split("\n")[0].startswith("PAUSED by")
    assert top.grid.flip_y and not low.grid.flip_y and low.group.y >= h // 2 - 12 * screen.text_scale
    canvas = [[rgb565((0, 0, 0))] * w for _ in range(h)]
    for text in (top, low):
        draw_turnable_text(canvas, text, w, h)
    for y in range(h):
        for x in range(w):
            assert rgb565(tuple(image.get_at((x, y)))[:3]) == canvas[y][x], (x, y)
    # Back to one copy where the words are for one person (the menu).
    app.press(0, PILE_0 + 1)  # pile 2: leave
    assert app.mode == MENU and screen.text_top.group.hidden and screen.text.group.y == 0


def test_the_other_player_left_is_drawn_whole_on_every_screen(rig, tmp_path):
    # A linked match's pause when the other player has left: its words
    # whole on every panel (on the 240 panel's 20 columns "the other player
    # left" lost its last letter), every pixel the font's glyph of its cell.
    profile, display, screen = rig
    keys = DesktopKeys(len(profile["keymap"]), lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=1)
    app.players = LINKED  # (one player a device: the words once, upright)
    app.start_match(0)
    app.step(10)

    class Gone:
        # (the linked session as the other's leave left it: its phase, what a pause asks of it)
        phase = GONE
        pair = None

        def noise(self):
            return 0

        def step(self, game, now):
            pass

    app.linked = Gone()
    app.pause(20, OTHER_LEFT)
    app.step(30)
    image = snapshot(display, "%s-other-left" % profile["name"], tmp_path)
    words = " ".join(line.strip() for line in shown(screen.text).split("\n") if line.strip())
    assert words == OTHER_LEFT + " any key: menu"
    check_text_drawn(profile, screen, image)


def test_text_shows_each_line_whatever_came_before():
    # A Text looks only at the rows whose line changed (hardware/text.py):
    # what its cells show is still each line, cut or padded to the width,
    # after lines that grow, shrink, come back and go.
    import displayio

    from hardware.text import Text

    text = Text(displayio.Group(), 0, 0, 5, 3)
    for lines in (
        ["ab", "cdefgh"],
        ["ab", "cd", "e"],
        ["ab", "cdefgh"],
        ["xb", "", "e"],
        [],
        ["abc", "abc", "abc"],
    ):
        text.show(lines)
        assert shown(text).split("\n") == [(lines[r] if r < len(lines) else "")[:5].ljust(5) for r in range(3)]


def test_text_shows_a_character_it_lacks_as_a_question_mark_in_its_own_cell():
    # The font is printable ASCII: a character past it takes one cell, shown
    # as "?", and the characters after it stay in their own cells (the row is
    # read as bytes, where such a character is more than one: hardware/text.py).
    import displayio

    from hardware.text import Text

    text = Text(displayio.Group(), 0, 0, 6, 2)
    text.show(["caf\u00e9 au", "\u00e9t\u00e9\tx"])
    assert shown(text).split("\n") == ["caf? a", "?t??x "]
    text.show(["cafe", "et"])
    assert shown(text).split("\n") == ["cafe  ", "et    "]


class _Line(str):
    # A line a test can watch go: a str that takes a weak reference.
    pass


def test_the_scene_lets_its_lines_go_while_the_table_is_up_and_draws_them_again(rig, tmp_path):
    # The full-screen text keeps no line of its last scene through a match
    # (Text.forget: heap kept in a match on a board); the next scene is still
    # drawn whole, the rows it shares with the last one included, with its
    # chosen line's ">" (the menu's cursor) over a blank first cell.
    import gc
    import weakref

    profile, display, screen = rig
    keys = DesktopKeys(len(profile["keymap"]), lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=1)
    words = ["> Game", "  Players", "", "  Seats"]
    lines = [_Line(w) for w in words]
    screen.show_text(lines, True, 0)
    seen = [weakref.ref(line) for line in lines]
    game = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    screen.show_game(game, app.controls, 0)
    del lines
    gc.collect()
    assert [ref() for ref in seen] == [None] * len(words)
    screen.show_text(list(words), False, 0)
    image = snapshot(display, "%s-scene-again" % profile["name"], tmp_path)
    assert screen.table.hidden and not screen.scene.hidden
    rows = shown(screen.text).split("\n")
    assert [row.rstrip() for row in rows[: len(words)]] == [">" + words[0][1:]] + words[1:]
    check_text_drawn(profile, screen, image)


@pytest.mark.parametrize("before", ["", "\x1f"])
def test_the_firmware_font_s_tiles_are_its_sorted_characters(monkeypatch, before):
    # On a board terminalio.FONT is one bitmap whose tiles are its characters
    # sorted (the firmware's gen_display_resources.py). With " " first and "~"
    # the 95th, font() takes each printable character's tile from its place,
    # asking for two glyphs, not 95 (3 ms of a Pico's start-up); a font with
    # another character before them is asked for each.
    import displayio
    import terminalio

    from hardware import sprites

    class Glyph:
        def __init__(self, tile_index):
            self.tile_index = tile_index

    class Font:
        def __init__(self, chars):
            self.chars = chars
            self.bitmap = displayio.Bitmap(6 * len(chars), 14, 2)
            self.asked = 0

        def get_bounding_box(self):
            return (6, 14, 0, -3)

        def get_glyph(self, codepoint):
            self.asked += 1
            return Glyph(self.chars.index(chr(codepoint)))

    chars = before + "".join(chr(c) for c in range(0x20, 0x7F)) + "\u00e9\u00fc"
    board_font = Font(chars)
    monkeypatch.setattr(terminalio, "FONT", board_font)
    monkeypatch.setattr(sprites, "_font", None)
    sheet, _, tiles, w, h = sprites.font()
    assert sheet is board_font.bitmap and (w, h) == (6, 14)
    assert list(tiles) == [chars.index(chr(c)) for c in range(0x20, 0x7F)]
    assert board_font.asked == (2 if before == "" else 1 + 95)  # (" " is not the first: "~" is not asked)
