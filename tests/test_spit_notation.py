"""The position and move notation: exact round trips, clear errors."""

import pytest
from helpers import some_move

from engine import spit_text
from engine.notation import NotationError, card_text, parse_card
from engine.spit import GAME_OVER, Game
from engine.spit_text import MOVE_COUNT, move_text, parse_move


def test_cards_read_and_write():
    assert card_text(parse_card("10H")[0]) == "10H"
    assert parse_card("as") == (parse_card("AS")[0], False)
    assert [card_text(c) for c in (0, 12, 13, 26, 51)] == ["AC", "KC", "AD", "AH", "KS"]
    for bad in ("", "A", "1H", "11S", "AX", "aS", "10", "ASS"):
        with pytest.raises(NotationError):
            parse_card(bad)


def test_documented_example_is_the_real_deal():
    example = [line.strip() for line in spit_text.__doc__.splitlines() if line.strip().startswith("spit ready")]
    assert example == [Game(7).text()]


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_positions_round_trip_through_a_whole_game(seed):
    g = Game(seed, seed % 16)
    step = 0
    while g.phase != GAME_OVER:
        t = g.text()
        again = Game.from_text(t)
        assert again.text() == t
        assert bytes(again.counts) == bytes(g.counts)
        player, move = some_move(g, step % 2, seed + step)
        assert g.play(player, move) == 0
        step += 1
    assert Game.from_text(g.text()).text() == g.text()


def test_round_tripped_game_plays_on_identically():
    g = Game(99, 5)
    start = g.text()
    h = Game.from_text(start)
    for i in range(300):
        if g.phase == GAME_OVER:
            break
        p, m = some_move(g, i % 2, i)
        assert g.play(p, m) == h.play(p, m) == 0
        assert g.text() == h.text()  # includes the PRNG: re-deals match too


def test_every_move_code_has_text_and_back():
    seen = set()
    for code in range(MOVE_COUNT):
        try:
            text = move_text(code)
        except NotationError:
            continue  # a stock moved onto itself is no move
        assert parse_move(text) == code
        seen.add(text)
    assert {"s0>p0", "s4>p1", "s3>s0", "spit", "slap0", "slap1", "take0", "take1"} <= seen
    assert len(seen) == 10 + 20 + 5
    for bad in ("", "s5>p0", "s0>p2", "s1>s1", "slap", "SPIT", "s0p0"):
        with pytest.raises(ValueError):
            parse_move(bad)
    with pytest.raises(ValueError):
        move_text(40)


GOOD = Game(7).text()
STOCKS0 = GOOD.split()[6].split("/")


def _with(field, value, text=GOOD):
    f = text.split(" ")
    f[field] = value
    return " ".join(f)


@pytest.mark.parametrize(
    "text,says",
    [
        ("", "12 fields"),
        (GOOD + " ", "12 fields"),
        (GOOD.replace(" ", "  ", 1), "12 fields"),
        ("speed" + GOOD[4:], "starting with 'spit'"),
        (_with(1, "dance"), "unknown phase"),
        (_with(1, "over"), "needs the player"),
        (_with(1, "ready:2"), "0 or 1"),
        (_with(1, "play"), "a card on a spit pile"),
        (_with(2, "X"), "unknown rule letter"),
        (_with(2, "NS"), "order S4NC"),
        (_with(3, "0"), "round"),
        (_with(3, "x1"), "round"),
        (_with(4, "3-4"), "scores"),
        (_with(5, "1.2"), "three numbers"),
        (_with(5, "0.1.1"), "PRNG state s1"),
        (_with(5, "1.1.40000"), "PRNG state s3"),
        (_with(6, "/".join([STOCKS0[0].lower()] + STOCKS0[1:])), "must be face up"),
        (_with(6, "/".join(STOCKS0[:1] + [STOCKS0[1].upper()] + STOCKS0[2:])), "must be face down"),
        (_with(6, GOOD.split()[6] + "/-"), "5 stocks"),
        (_with(7, GOOD.split()[7].replace("4c", "4C")), "must be face down"),
        (_with(7, GOOD.split()[7].replace("4c", "3c")), "appears twice"),
        (_with(7, GOOD.split()[7].replace("4c,", "")), "missing cards: 4C"),
        (_with(7, GOOD.split()[7].replace("4c", "4x")), "not a card"),
        (_with(7, ""), "empty text"),
        (_with(1, "ready:0", _with(7, "-", _with(6, GOOD.split()[6] + "," + GOOD.split()[7]))), "5 cards"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, says):
    with pytest.raises(ValueError) as err:
        Game.from_text(text)
    assert says in str(err.value)


def test_not_a_string_is_refused():
    with pytest.raises(ValueError):
        Game.from_text(None)
