"""The App's own tables agree with the engine's."""
from engine import bot, speed
from hardware import app


def test_speed_options_are_the_engines_flags():
    (win, names, flag), (sides, _, short) = app.OPTIONS[1]
    assert flag == speed.SCORING and short == speed.SHORT_SIDES
    assert names[1] == "%d points" % speed.TARGET


def test_players_name_the_bots_levels():
    assert app.PLAYERS[1:5] == tuple("vs " + name for name in bot.LEVEL_NAMES)
