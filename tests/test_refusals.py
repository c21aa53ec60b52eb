"""A refused move's mark and word, as a player sees them:
a mark lasts its second, is never shown again, and the middle names the
player refused. Every profile, Spit and Speed, both seat layouts."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from helpers import middle, position, speed_position  # noqa: E402
from screens import check_pixels, row_drawn, settle, snapshot

from desktop.keys import POWER_ON_TICKS  # noqa: E402
from hardware import sprites  # noqa: E402
from hardware.controls import Controls  # noqa: E402
from hardware.keymaps import NEXT, PILE_0, STOCK_0  # noqa: E402
from hardware.screen import FLASH_MS  # noqa: E402

_WRAP = 1 << 29


def _tap(controls, g, profile, player, action, t):
    k = profile["keymap"].index(player * 16 + action)
    controls.feed(g, k, True, t)
    controls.apply(g)
    controls.feed(g, k, False, (t + 60) % _WRAP)
    return (t + 100) % _WRAP


def _play_from(controls, g, profile, player, s, pile, t):
    # Player's stock s played onto pile (or tried there), as their keys do it.
    if profile["cursor"]:
        while controls.cursor[player] != s:
            t = _tap(controls, g, profile, player, NEXT, t)
        return _tap(controls, g, profile, player, PILE_0 + pile, t)
    t = _tap(controls, g, profile, player, STOCK_0 + s, t)
    if controls.chosen[player] == s:  # fits both piles: the pile key says which
        t = _tap(controls, g, profile, player, PILE_0 + pile, t)
    return t


def _game(kind):
    # Player 0's third card and player 1's third fit neither pile (7C, 9C);
    # player 1's first (6H) fits pile 0 only.
    if kind == "spit":
        return position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    return speed_position("8D/2C/2D/2H/2S", "6H/10S/5H/5S/4C", pile0="7C", pile1="9C", stock0="3C", stock1="3D")


def _refused_marks(screen):
    # (player, stock) of every red bar drawn beside a card.
    return [(p, s) for p in range(2) for s in range(5) if row_drawn(screen, p, s) == sprites.ROW_REFUSED]


def _words(screen):
    # The middle's words each player reads: one copy, or each player's own.
    if screen.twice:
        return ("\n".join(middle(screen, 0)), "\n".join(middle(screen, 1)))
    return ("\n".join(middle(screen)),) * 2


@pytest.mark.parametrize("facing", [False, True], ids=["side-by-side", "facing"])
@pytest.mark.parametrize("kind", ["spit", "speed"])
def test_a_refusal_lasts_its_second_is_never_shown_again_and_names_its_player(rig, tmp_path, kind, facing):
    profile, display, screen = rig
    screen.speed = kind == "speed"
    screen.set_style(facing, False)
    screen.twice = facing
    controls = Controls(profile["keymap"], profile["cursor"])
    g = _game(kind)
    if screen.speed:
        controls.call = g.call
    t = POWER_ON_TICKS
    settle(screen, g, controls, t)
    name = "%s-%s-%s" % (profile["name"], kind, "facing" if facing else "side")

    # The bottom player is refused: their mark and word, for FLASH_MS.
    t = _play_from(controls, g, profile, 0, 2, 0, t)
    assert controls.result[0]
    settle(screen, g, controls, t)
    image = snapshot(display, name + "-1-bottom-refused", tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    assert _refused_marks(screen) == [(0, 2)]
    t = (t + FLASH_MS + 1200) % _WRAP  # 2.2 s later: long out
    settle(screen, g, controls, t)
    assert _refused_marks(screen) == []

    # The top player is refused: only their mark, and the middle names them.
    t = _play_from(controls, g, profile, 1, 2, 0, t)
    assert controls.result[1] and controls.result[0]  # the bottom's old reason is still kept
    settle(screen, g, controls, t)
    image = snapshot(display, name + "-2-top-refused", tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    assert _refused_marks(screen) == [(1, 2)]
    bottom, top = _words(screen)
    if facing:
        assert "no fit" not in bottom and ("no fit" in top or screen.status_top.cols < 6), (bottom, top)
    else:
        said = bottom.split("\n")[-1].strip()
        assert not said.startswith("bottom"), bottom  # never the bottom's side
        # Whose in words where they fit (never an arrow's "^ no fit"); else the marks say whose.
        assert said == ("top: no fit" if (screen.big or screen.status).cols >= 11 else "no fit"), bottom

    # A legal play by the top player once that is out brings no mark back.
    t = (t + FLASH_MS + 100) % _WRAP
    settle(screen, g, controls, t)
    t = _play_from(controls, g, profile, 1, 0, 0, t)
    assert controls.result[1] == 0
    settle(screen, g, controls, t)
    image = snapshot(display, name + "-3-top-played", tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    assert _refused_marks(screen) == []
    assert all("no fit" not in w for w in _words(screen)), _words(screen)
    assert [screen.info[p][7] for p in range(2)] == [sprites.GLYPH_BLANK] * 2


def test_the_middle_speaks_plain_words(rig, tmp_path):
    # "stuck" and "v called" were words a new player could
    # not decode. A second spit call waits; a stalemate says nobody can play.
    from engine.spit import STALEMATE, Game

    profile, display, screen = rig
    controls = Controls(profile["keymap"], profile["cursor"])
    g = Game(5)
    t = POWER_ON_TICKS
    for _ in range(2):
        t = _tap(controls, g, profile, 0, STOCK_0 if not profile["cursor"] else NEXT, t)
    assert g.called == 1 and controls.result[0]  # the second call was refused
    settle(screen, g, controls, t)
    image = snapshot(display, "%s-called-twice" % profile["name"], tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    said = middle(screen)[-1]
    assert said in ("bottom: wait", "wait"), said
    g = position("8D/2C/2D/2H/2S", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    g.play(0, 0)
    assert g.phase == STALEMATE
    settle(screen, g, None, t)
    said = middle(screen)[-1]
    assert said in ("nobody can play", "no plays", "no play"), said


def _ink_runs(image, x0, y0, w, h):
    # The lengths of the runs of lit pixels in the box, along its rows and
    # along its columns.
    lit = [[tuple(image.get_at((x, y)))[:3] != (0, 0, 0) for x in range(x0, x0 + w)] for y in range(y0, y0 + h)]
    runs = []
    for line in lit + [list(column) for column in zip(*lit)]:
        n = 0
        for on in line + [False]:
            if on:
                n += 1
            elif n:
                runs.append(n)
                n = 0
    return runs


@pytest.mark.parametrize("facing", [False, True], ids=["side-by-side", "facing"])
def test_mid_race_words_are_twice_the_size_on_the_bigger_panels(rig, tmp_path, facing):
    # The middle's words were the 8-pixel font. A refused
    # move's word and SLAP! are what a player needs mid-race: on the 240 and
    # 320 panels they are drawn at twice the font's size (every stroke two
    # pixels, along and across), in the refused player's half, over the lines
    # there (which come back when the mark goes out); the smaller screens
    # keep one size for everything.
    profile, display, screen = rig
    screen.set_style(facing, False)
    screen.twice = facing
    controls = Controls(profile["keymap"], profile["cursor"])
    g = _game("spit")
    t = POWER_ON_TICKS
    settle(screen, g, controls, t)
    before = [middle(screen, p if facing else -1) for p in range(2)]
    if screen.status_k != 2:  # (the big words are where the middle has two lines: the large cards' panels)
        assert screen.big is None
        return
    name = "%s-big-%s" % (profile["name"], "facing" if facing else "side")
    for p, stock in ((0, 2), (1, 2)):
        t = _play_from(controls, g, profile, p, stock, 0, t)
        assert controls.result[p]
        settle(screen, g, controls, t)
        image = snapshot(display, "%s-%d" % (name, p), tmp_path)
        check_pixels(screen, image, profile["width"], profile["height"])
        big = screen.big if p == 0 or not facing else screen.big_top
        assert not big.group.hidden and middle(screen, p if facing else -1)[0].endswith("no fit")
        half = (screen.status_low if p == 0 else screen.status_top).group.y
        assert big.group.y == half  # the refused player's half
        box = (big.group.x, big.group.y, big.cols * 12, 24)
        runs = _ink_runs(image, *box)
        assert runs and all(n % 2 == 0 for n in runs), runs
        assert max(runs) >= 8  # (a glyph's stem: at least four font pixels)
        t = (t + FLASH_MS + 10) % _WRAP
        settle(screen, g, controls, t)
        assert screen.big.group.hidden and screen.big_top.group.hidden
        assert [middle(screen, q if facing else -1) for q in range(2)] == before
    g = position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")
    settle(screen, g, controls, t)
    image = snapshot(display, name + "-slap", tmp_path)
    check_pixels(screen, image, profile["width"], profile["height"])
    assert all(middle(screen, q if facing else -1) == ["SLAP!"] for q in range(2))


def test_a_position_taken_up_from_elsewhere_keeps_no_race_of_the_moves_before_it():
    # Linked play's snapshot is taken up on both devices, one of
    # which never saw the moves before it, and after a restart the order's
    # times are a new referee's clock: Controls.settle() drops what those
    # moves left waiting, so both judge the next presses alike.
    from hardware import profiles
    from hardware.controls import NOTHING_CHOSEN, TAKEN

    profile = profiles.get("pico-st7789-240")
    for settled in (False, True):
        controls = Controls(profile["keymap"], profile["cursor"])
        g = _game("spit")
        t = POWER_ON_TICKS
        t = _tap(controls, g, profile, 0, STOCK_0, t)  # 8D fits 7C and 9C: chosen
        t = _tap(controls, g, profile, 1, STOCK_0, t)  # 6H onto 7C: pile 0 changed
        if settled:
            controls.settle()
            assert controls.chosen[0] == controls.slot[0] == 255
            controls.chosen[0] = 0  # (chosen again after it: the race is what is tested)
        t = _tap(controls, g, profile, 0, PILE_0, t)  # 8D onto 6H: no fit
        assert controls.result[0] == (5 if settled else TAKEN)  # (the engine's "no fit" once settled)
        # A pile key pressed with nothing chosen waits for its key let go:
        # settled before that, it is no refusal.
        k = profile["keymap"].index(PILE_0 + 1)
        refusals = controls.refusals[0]
        controls.feed(g, k, True, t)
        controls.apply(g)
        if settled:
            controls.settle()
        controls.feed(g, k, False, (t + 60) % _WRAP)
        assert controls.refusals[0] == refusals + (0 if settled else 1)
        assert settled or controls.result[0] == NOTHING_CHOSEN


@pytest.mark.parametrize("kind", ["spit", "speed"])
@pytest.mark.parametrize("name", ["pico-st7789-240", "pybadge"])
def test_a_card_that_fitted_the_pile_the_other_just_changed_lost_a_race(kind, name):
    # SP-7: player 1 lays 6H on 7C; player 0's 6 pressed 30 ms later fitted
    # 7C and now fits no pile: the press lost a race (TAKEN, "taken"), not a
    # misread card (the engine's "no fit"). The same card pressed after
    # TAKEN_MS, or a card that never fitted, is "no fit".
    from hardware import profiles
    from hardware.controls import TAKEN

    profile = profiles.get(name)
    for gap, want in ((30, TAKEN), (Controls.TAKEN_MS + 50, "engine")):
        if kind == "spit":
            g = position("6D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
        else:
            g = speed_position("6D/2C/2D/2H/2S", "6H/10S/5H/5S/4C", pile0="7C", pile1="9C", stock0="3C", stock1="3D")
        controls = Controls(profile["keymap"], profile["cursor"])
        t = _play_from(controls, g, profile, 1, 0, 0, POWER_ON_TICKS)  # 6H onto 7C (its only fit)
        assert g.pile_top(0) == 6 + 13 * 2 - 1  # (6H: hearts are suit 2, ranks from the Ace at 0)
        t = (t - 100 + gap) % _WRAP
        _play_from(controls, g, profile, 0, 0, 0, t)  # 6D: it fitted 7C
        assert controls.refused[0] == 0
        assert controls.result[0] == (TAKEN if want == TAKEN else g.check(0, 0)), (gap, controls.result[0])
        # A card that never fitted (2C on 6H or 9C) is no race lost, however soon.
        controls = Controls(profile["keymap"], profile["cursor"])
        g2 = _game(kind)
        t = _play_from(controls, g2, profile, 1, 0, 0, POWER_ON_TICKS)
        _play_from(controls, g2, profile, 0, 2, 0, (t - 70) % _WRAP)
        assert controls.result[0] == g2.check(0, 4) != TAKEN


@pytest.mark.parametrize("name", ["pico-st7789-240", "pybadge"])
def test_the_race_lost_in_the_play_test_is_taken(name):
    # The position and the presses of the play-test that found it: the top
    # player's 5C fitted the 6D when pressed, 30 ms after the bottom player's
    # 5S covered it, and fits neither 5S nor QD now.
    from engine.spit import Game
    from hardware import profiles
    from hardware.controls import TAKEN

    profile = profiles.get(name)
    g = Game.from_text(
        "spit play - 1 0:0 13834.7387.18503 5S/KD/QC/JS/QS as,2s,3s,4s,6s,7s,8s,9s,10s,ks,ah,2h,3h,5h,6h,7h,8h,9h,"
        "jh,kh 5C/4H/10H/QH/8C ad,2d,3d,4d,5d,7d,8d,9d,10d,jd,ac,2c,3c,4c,6c,7c,9c,10c,jc,kc 6D QD"
    )
    controls = Controls(profile["keymap"], profile["cursor"])
    t = _play_from(controls, g, profile, 0, 0, 0, POWER_ON_TICKS)  # 5S onto 6D
    _play_from(controls, g, profile, 1, 0, 0, (t - 70) % _WRAP)  # 5C, 30 ms later
    assert controls.result[1] == TAKEN and controls.refused[1] == 0
