# One game contract (engine/games.py): both games keep the surface the rest of
# the program uses, and a game is picked by its number or its name there.
import pytest

from engine import games, speed, spit


@pytest.mark.parametrize("kind", [games.SPIT, games.SPEED])
def test_each_game_keeps_the_contract(kind):
    g = games.new(kind, 7)
    assert g.kind == kind and type(g) is games.module(kind).Game
    for name in games.CONTRACT:
        assert hasattr(g, name), "%s.Game lacks %s" % (games.NAMES[kind], name)
    buf = bytearray(64)
    n = g.moves(0, buf)
    assert n > 0 and buf[0] == g.call  # a match starts with a call: spit, or Speed's turn
    assert g.check(0, buf[0]) == 0 and g.play(0, buf[0]) == 0
    again = games.from_text(g.text())
    assert again.kind == kind and again.text() == g.text()


def test_the_names_pick_the_modules():
    assert games.module(games.SPIT) is spit and games.module(games.SPEED) is speed
    assert [games.kind_of(n) for n in games.NAMES] == [0, 1]
    assert games.TITLES == ("Spit", "Speed")


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(ValueError, match="a position starts with spit or speed, not 'snap'"):
        games.from_text("snap 1 2 3")
    with pytest.raises(ValueError, match="game 2 is unknown"):
        games.module(2)
