"""The App's own tables agree with the engine's."""

from engine import bot, speed
from hardware import app, modes


def test_speed_options_are_the_engines_flags():
    (win, names, flag), (sides, _, short) = modes.OPTIONS[1]
    assert flag == speed.SCORING and short == speed.SHORT_SIDES
    assert names[1] == "%d points" % speed.TARGET


def test_players_name_the_bots_levels():
    assert modes.PLAYERS[1:5] == tuple("vs " + name for name in bot.LEVEL_NAMES)


def test_the_computer_calls_spit_after_its_reaction_time():
    # The README's word: at the deal the computer calls spit when its reaction
    # time is up (a miss adds one more), never at once.
    import displayio

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from engine.spit import READY
    from hardware import profiles
    from hardware.screen import Screen

    profile = profiles.get("pico-st7789-240")
    for players in range(1, 5):
        fast, slow, misses = bot.LEVELS[players - 1]
        for seed in range(4):
            displayio.release_displays()
            screen = Screen(pygame_display_class()(width=240, height=240, auto_refresh=False), profile)
            a = app.App(screen, DesktopKeys(14, lambda: 0), Event(), profile, lambda: 0, seed=seed)
            a.players = players
            a.start_match(0)
            g = a.game
            t = 0
            while g.phase == READY and not g.called & 2:
                t += 5
                a.controls.now = t
                a.step(t)
            assert fast <= t <= slow * (4 if misses else 1) + 50, (players, seed, t)
