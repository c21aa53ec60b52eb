"""Speed: properties over random moves, the notation, and the move text."""

import pytest
from helpers import play_to_the_end, some_move
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import NotationError
from engine.speed import BASE, CAP, GAME_OVER, PLAY, TURN, Game
from engine.speed_text import move_text, parse_move

BUF = bytearray(16)


def all_cards(g):
    out = [g.hand(p, h) for p in range(2) for h in range(5) if g.hand(p, h) != 255]
    for pile in range(6):
        out += g.cards[BASE + pile * CAP : BASE + pile * CAP + g.counts[pile]]
    return out


def snapshot(g):
    return (
        bytes(g.cards),
        bytes(g.counts),
        g.phase,
        g.called,
        g.winner,
        g.last,
        g.idle,
        g.round,
        tuple(g.scores),
        (g.rng.s1, g.rng.s2, g.rng.s3),
    )


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**40),
    st.integers(0, 3),
    st.lists(st.tuples(st.booleans(), st.integers(-1, 2), st.integers(-2, 20)), max_size=400),
)
def test_random_moves_keep_speed_sound(seed, rules, acts):
    g = Game(seed, rules)
    for legal_one, player, code in acts:
        if g.phase == GAME_OVER:
            break
        if legal_one:
            assert g.play(*some_move(g, player & 1, code)) == 0
        else:
            before = snapshot(g)
            if g.play(player, code):
                assert snapshot(g) == before  # a refused move changes nothing
        assert sorted(all_cards(g)) == list(range(52))
        assert Game.from_text(g.text()).text() == g.text()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**30), st.integers(0, 3))
def test_random_legal_play_always_ends(seed, rules):
    g = Game(seed, rules)
    play_to_the_end(g, seed, limit=100000)
    assert g.phase == GAME_OVER and g.winner in (0, 1)


def test_moves_lists_exactly_what_play_accepts():
    for seed in range(30):
        g = Game(seed, seed % 4)
        for step in range(400):
            if g.phase == GAME_OVER:
                break
            for p in range(2):
                n = g.moves(p, BUF)
                assert set(BUF[:n]) == {m for m in range(11) if g.check(p, m) == 0}
            g.play(*some_move(g, step % 2, step))


def test_sd4_can_move_is_whether_any_hand_card_would_be_accepted():
    # can_move() decides after every play whether the piles are stuck (SD-4,
    # SD-6); it works from a rank mask, so check() is the oracle: the same
    # table in PLAY, every hand card tried on both piles, through whole games.
    said = set()
    for seed in range(40):
        g = Game(seed, seed % 4)
        for step in range(400):
            if g.phase == GAME_OVER:
                break
            t = Game.from_text(g.text())
            t.phase = PLAY
            for p in range(2):
                legal = any(t.check(p, m) == 0 for m in range(TURN))
                assert g.can_move(p) == legal, (g.text(), p)
                said.add(legal)
            g.play(*some_move(g, step % 2, step))
    assert said == {True, False}


def test_move_text_round_trips():
    for code in range(TURN + 1):
        assert parse_move(move_text(code)) == code
    assert move_text(TURN) == "turn" and move_text(3) == "h1>p1"
    for bad in ("h5>p0", "turn!", "", "s0>p0"):
        with pytest.raises(ValueError):
            parse_move(bad)


def test_documented_example_is_the_real_deal():
    from engine import speed_text

    example = [t.strip() for t in speed_text.__doc__.splitlines() if t.strip().startswith("speed ready")]
    assert example == [Game(7).text()]


GOOD = Game(7).text()


def _with(i, value):
    f = GOOD.split(" ")
    f[i] = value
    return " ".join(f)


@pytest.mark.parametrize(
    "text,says",
    [
        ("speed", "16 fields"),
        (_with(1, "slap"), "unknown phase"),
        (_with(1, "over"), "winner"),
        (_with(2, "X"), "unknown rule letter"),
        (_with(2, "5S"), "order S5"),
        (_with(3, "0"), "target"),
        (_with(7, "2"), "last player"),
        (_with(8, "2H/7C/QC/6D"), "5 slots"),
        (_with(8, GOOD.split()[8].lower()), "face up"),
        (_with(9, "-"), "missing cards"),
        (_with(14, GOOD.split()[14].upper()), "face down"),
    ],
)
def test_bad_speed_positions_say_what_is_wrong(text, says):
    with pytest.raises(NotationError) as err:
        Game.from_text(text)
    assert says in str(err.value)


def test_an_empty_hand_slot_with_cards_in_stock_is_refused():
    f = GOOD.split(" ")
    slots = f[8].split("/")
    moved = slots[0]
    slots[0] = "-"
    f[8] = "/".join(slots)
    f[9] = f[9] + "," + moved.lower()
    with pytest.raises(NotationError, match="D-11"):
        Game.from_text(" ".join(f))
