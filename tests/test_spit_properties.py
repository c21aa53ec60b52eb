"""Properties over random move sequences, legal and illegal (hypothesis)."""

from helpers import play_to_the_end, some_move
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.spit import GAME_OVER, PLAY, SPIT, SPIT_CARDS, Game

BUF = bytearray(64)

actions = st.lists(
    st.tuples(st.booleans(), st.integers(-1, 2), st.integers(-2, 70)),
    min_size=1,
    max_size=400,
)


def snapshot(g):
    return (
        bytes(g.cards),
        bytes(g.counts),
        g.phase,
        g.called,
        g.chooser,
        g.winner,
        g.round,
        tuple(g.scores),
        (g.rng.s1, g.rng.s2, g.rng.s3),
    )


def all_cards(g):
    out = []
    for pile in range(14):
        base = pile * 5 if pile < SPIT_CARDS else 50 + (pile - SPIT_CARDS) * 52
        out += g.cards[base : base + g.counts[pile]]
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 15), actions)
def test_random_moves_keep_the_game_sound(seed, rules, acts):
    g = Game(seed, rules)
    for legal_one, player, code in acts:
        if g.phase == GAME_OVER:
            break
        if legal_one:
            assert g.play(*some_move(g, player & 1, code)) == 0
        else:
            before = snapshot(g)
            text = g.text()
            if g.play(player, code):
                assert snapshot(g) == before  # a refused move changes nothing
                assert g.text() == text
        assert sorted(all_cards(g)) == list(range(52))
        # from_text validates everything it reads, so a valid state round-trips.
        assert Game.from_text(g.text()).text() == g.text()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**30), st.integers(0, 15))
def test_random_legal_play_always_reaches_game_over(seed, rules):
    g = Game(seed, rules)
    play_to_the_end(g, seed)
    assert g.phase == GAME_OVER and g.winner in (0, 1)


def test_moves_lists_exactly_the_moves_play_accepts():
    for seed in range(30):
        g = Game(seed, seed % 16)
        step = 0
        while g.phase != GAME_OVER and step < 500:
            for p in range(2):
                n = g.moves(p, BUF)
                listed = set(BUF[:n])
                assert len(listed) == n
                assert listed == {m for m in range(40) if g.check(p, m) == 0}
            g.play(*some_move(g, step % 2, step))
            step += 1


def test_sp8_can_move_is_whether_any_card_move_would_be_accepted():
    # can_move() decides PLAY or STALEMATE after every card moved (SP-8); it
    # works from rank masks, so check() (card by card) is the oracle: the same
    # table in PLAY, every play and SP-6 move tried. Over the four rule sets
    # that change what fits (V-1 four stocks, V-3 colours), through whole games,
    # so both answers come up for both players, stalemates included.
    said = set()
    for seed in range(40):
        rules = (0, 2, 8, 10)[seed % 4]
        g = Game(seed, rules)
        step = 0
        while g.phase != GAME_OVER and step < 400:
            t = Game.from_text(g.text())
            t.phase = PLAY
            for p in range(2):
                legal = any(t.check(p, m) == 0 for m in range(SPIT))
                assert g.can_move(p) == legal, (g.text(), p)
                said.add((g.phase == PLAY, legal))
            g.play(*some_move(g, step % 2, step))
            step += 1
    assert said >= {(True, True), (True, False), (False, False)}


def test_same_seed_same_deal_different_seed_different_deal():
    assert Game(42).text() == Game(42).text()
    deals = {" ".join(Game(s).text().split()[6:]) for s in range(200)}
    assert len(deals) == 200
