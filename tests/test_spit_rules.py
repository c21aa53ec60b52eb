"""One test (at least) per rule id of docs/rules.md that the Spit engine covers."""

import pytest
from helpers import legal, position

from engine.cards import NO_CARD, fits
from engine.notation import parse_card
from engine.spit import (
    ALT_COLOURS,
    CHOOSE,
    FOUR_STOCKS,
    GAME_OVER,
    NO_SLAP,
    NOBODY,
    PLAY,
    READY,
    SCORING,
    SLAP,
    SLAP_0,
    SPIT,
    SPIT_CARDS,
    SPIT_PILES,
    STALEMATE,
    TAKE_0,
    Game,
)
from engine.spit_text import (
    E_CALLED,
    E_COLOUR,
    E_EMPTY_PILE,
    E_EMPTY_STOCK,
    E_NO_REVEAL,
    E_NO_SPIT_CARDS,
    E_NOT_A_MOVE,
    E_NOT_CHOOSER,
    E_PHASE,
    E_RANK,
    E_SLOT_TAKEN,
    fill_move,
    play_move,
)


def card(t):
    return parse_card(t)[0]


def stock_sizes(g, p):
    return [g.counts[p * 5 + s] for s in range(g.stocks)]


def start(g):
    """Both players call spit."""
    for p in range(2):
        if SPIT in legal(g, p):
            assert g.play(p, SPIT) == 0
    return g


# A position used by several tests: pile tops 7C and KD. Player 0 can play 8D on
# 7C; after that nobody can move (player 0's twos need an A or a 3, player 1's
# fives and four need a 4/6 or 3/5).
STUCK0 = "8D/2C/2D/2H/2S"
STUCK1 = "5C/5D/5H/5S/4C"


def test_sp1_deck_of_52_ranks_only():
    g = Game(11)
    seen = sorted(g.cards[i] for p in range(14) for i in _pile_slots(g, p))
    assert seen == list(range(52))
    # Suits do not matter (without V-3): a heart on a spade, a club on a club.
    assert fits(card("5H"), card("4S"), False)
    assert fits(card("5C"), card("6C"), False)
    assert not fits(card("5C"), card("5D"), False)


def _pile_slots(g, pile):
    if pile < SPIT_CARDS:
        base = pile * 5
    else:
        base = 50 + (pile - SPIT_CARDS) * 52
    return range(base, base + g.counts[pile])


def test_sp2_deal_layout_and_spit_cards():
    g = Game(5)
    assert g.phase == READY
    for p in range(2):
        assert stock_sizes(g, p) == [1, 2, 3, 4, 5]
        assert g.counts[SPIT_CARDS + p] == 11
        assert g.cards_held(p) == 26
    assert g.counts[SPIT_PILES] == g.counts[SPIT_PILES + 1] == 0
    # Top of each stock face up (upper case), the rest face down, spit cards unseen.
    stocks = g.text().split()[6].split("/")
    for s in stocks:
        cards = s.split(",")
        assert cards[-1] == cards[-1].upper()
        assert all(c == c.lower() for c in cards[:-1])
    assert g.text().split()[7] == g.text().split()[7].lower()


def test_sp3_both_call_spit_and_turn_a_card_each():
    g = Game(5)
    spit_tops = [g.top(SPIT_CARDS), g.top(SPIT_CARDS + 1)]
    assert g.play(0, SPIT) == 0
    assert g.phase == READY  # one call is not enough
    assert legal(g, 0) == []
    assert g.play(0, SPIT) == E_CALLED
    assert g.play(1, SPIT) == 0
    assert g.phase in (PLAY, STALEMATE)
    assert [g.top(SPIT_PILES), g.top(SPIT_PILES + 1)] == spit_tops
    assert g.counts[SPIT_CARDS] == g.counts[SPIT_CARDS + 1] == 10


def test_sp4_one_up_or_down_and_ranks_turn_the_corner():
    g = position("KS/2H/3D/9C/9D", STUCK1, pile0="AH", pile1="10C")
    moves = legal(g, 0)
    assert play_move(0, 0) in moves  # K on A
    assert play_move(1, 0) in moves  # 2 on A
    assert play_move(3, 1) in moves and play_move(4, 1) in moves  # 9 on 10
    assert g.play(0, play_move(2, 0)) == E_RANK  # 3 on A
    assert g.play(0, play_move(0, 0)) == 0
    assert g.top(SPIT_PILES) == card("KS")
    g = position("AD/2H/3D/9C/9D", STUCK1, pile0="KC", pile1="2C")
    assert g.play(0, play_move(0, 0)) == 0  # A on K
    g = position("AD/2H/3D/9C/9D", STUCK1, pile0="KC", pile1="2C")
    assert g.play(0, play_move(0, 1)) == 0  # A on 2
    # Only the top card of a stock plays: the 6 under the 9 does not.
    g = position("6S,9C/8H/3D/JC/JD", STUCK1, pile0="7C", pile1="KD")
    assert play_move(0, 0) not in legal(g, 0)
    assert g.play(0, play_move(0, 0)) == E_RANK


def test_sp5_and_d1_card_beneath_turns_up_by_itself():
    g = position("4h,8d,6H/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="KD")
    assert g.play(0, play_move(0, 0)) == 0
    assert g.top(0) == card("8D")
    assert g.text().split()[6].startswith("4h,8D/")


def test_sp6_refill_reveals_card():
    g = position("-/6c,9d,KH/2C/2D/2H", STUCK1, pile0="7C", pile1="3D")
    move = fill_move(1, 0)
    assert move in legal(g, 0)
    assert g.play(0, move) == 0
    assert g.top(0) == card("KH") and g.counts[0] == 1
    assert g.top(1) == card("9D") and g.counts[1] == 2  # D-1: turned up at once
    # Never more than five stocks: no slot is empty now.
    assert g.play(0, fill_move(1, 2)) == E_SLOT_TAKEN


def test_d3_single_card_into_empty_slot_is_not_a_move():
    g = position("-/9C/-/2D/2H", "5C/5D/5H/5S/4C,6S", pile0="7C", pile1="3D")
    assert fill_move(1, 0) not in legal(g, 0)
    assert g.play(0, fill_move(1, 0)) == E_NO_REVEAL
    assert g.play(0, fill_move(0, 2)) == E_EMPTY_STOCK
    assert g.play(0, fill_move(0, 1)) == E_SLOT_TAKEN
    assert g.play(0, fill_move(1, 1)) == E_NOT_A_MOVE  # a slot onto itself is no code


def test_d3_stalemate_waits_for_a_revealing_refill():
    # After 8D is played, nobody can play a card, but player 1 can refill an
    # empty slot from a two-card stock: no stalemate.
    g = position(STUCK0, "-/5D/5H/5S/4c,5C", pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    assert g.play(0, play_move(0, 0)) == 0
    assert g.phase == PLAY
    assert legal(g, 1) == [fill_move(4, 0)]
    assert legal(g, 0) == []
    assert g.play(1, fill_move(4, 0)) == 0
    assert g.phase == STALEMATE  # 4C revealed fits nothing


def test_sp7_first_card_on_the_pile_wins():
    g = position("8D/2C/2D/2H/2S", "6H/9S/5H/5S/4C", pile0="7C", pile1="KD")
    assert play_move(0, 0) in legal(g, 1)
    assert g.play(0, play_move(0, 0)) == 0  # player 0 was first
    before = g.text()
    assert g.play(1, play_move(0, 0)) == E_RANK  # 6 no longer fits on 8
    assert g.text() == before
    assert g.play(1, play_move(1, 0)) == 0  # 9 still fits on 8


def test_sp8_stalemate_then_both_spit_again():
    g = position(STUCK0, STUCK1, pile0="7C", pile1="KD", spit0="4h,3C", spit1="4s,3D")
    assert g.play(0, play_move(0, 0)) == 0
    assert g.phase == STALEMATE
    assert legal(g, 0) == [SPIT] and legal(g, 1) == [SPIT]
    assert g.play(0, play_move(1, 0)) == E_PHASE
    assert g.play(0, SPIT) == 0
    assert g.phase == STALEMATE
    assert g.play(1, SPIT) == 0
    assert g.top(SPIT_PILES) == card("3C") and g.top(SPIT_PILES + 1) == card("3D")
    assert g.phase == PLAY  # the twos fit on the threes


def test_sp8_repeats_while_nobody_can_play():
    g = position(STUCK0, STUCK1, pile0="7C", pile1="KD", spit0="3c,9H", spit1="3d,9S")
    g.play(0, play_move(0, 0))
    start(g)
    assert g.phase == STALEMATE  # nines fit nothing either
    start(g)
    assert g.phase == PLAY


def test_sp9_d4_player_without_spit_cards_does_not_spit():
    g = position(STUCK0, STUCK1, pile0="7C", pile1="KD", spit1="3D")
    g.play(0, play_move(0, 0))
    assert g.phase == STALEMATE
    assert legal(g, 0) == []  # counts as having called (D-4)
    assert g.play(0, SPIT) == E_NO_SPIT_CARDS
    pile0 = g.counts[SPIT_PILES]
    assert g.play(1, SPIT) == 0  # alone, on their own pile (D-2)
    assert g.counts[SPIT_PILES] == pile0
    assert g.top(SPIT_PILES + 1) == card("3D")
    assert g.phase == PLAY


def test_sp10a_round_ends_when_a_stock_is_empty():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    assert g.play(0, play_move(0, 0)) == 0
    assert g.phase == SLAP
    assert list(g.round_points) == [1, 6]


def test_sp10b_round_ends_in_stalemate_without_spit_cards():
    g = position(STUCK0, STUCK1, pile0="7C", pile1="KD")
    assert g.play(0, play_move(0, 0)) == 0
    assert g.phase == SLAP
    assert legal(g, 0) == [SLAP_0, SLAP_0 + 1] == legal(g, 1)


def slap_position():
    return position(STUCK0, STUCK1, pile0="7C", pile1="KD,AC", phase="slap", spit0="3C", spit1="3D")


def test_sp11_d5_first_slap_takes_that_pile_other_gets_the_other():
    g = slap_position()
    held = [g.cards_held(0), g.cards_held(1)]
    piles = [g.counts[SPIT_PILES], g.counts[SPIT_PILES + 1]]
    assert g.play(1, SLAP_0 + 1) == 0  # player 1 slaps the small pile first
    assert list(g.took) == [0, 1]
    assert g.cards_held(1) == held[1] + piles[1]
    assert g.cards_held(0) == held[0] + piles[0]
    # D-5: the slower slap is not waited for; it finds the next round.
    assert g.phase == READY
    assert g.play(0, SLAP_0 + 1) == E_PHASE


def test_sp11_same_pile_first_hand_takes_it():
    g = slap_position()
    assert g.play(0, SLAP_0 + 1) == 0
    assert list(g.took) == [1, 0]
    assert g.play(1, SLAP_0 + 1) == E_PHASE


def test_sp12_redeal_from_own_cards_with_different_spit_counts():
    g = position(
        STUCK0,
        STUCK1,
        pile0="7C",
        pile1="KD,AC",
        phase="slap",
        spit0="3C,4H,6H,7H,9H,10H,JH,QH,KH,AH",
        spit1="3D,4D,6D,7D,9D,10D,JD,QD,AD,6S",
    )
    assert g.play(0, SLAP_0) == 0  # player 0 takes the big pile 0
    assert g.phase == READY and g.round == 2
    total0 = g.cards_held(0)
    assert total0 + g.cards_held(1) == 52
    for p in range(2):
        assert stock_sizes(g, p) == [1, 2, 3, 4, 5]
        assert g.counts[SPIT_CARDS + p] == g.cards_held(p) - 15
    assert g.counts[SPIT_CARDS] != g.counts[SPIT_CARDS + 1]
    assert g.counts[SPIT_PILES] == g.counts[SPIT_PILES + 1] == 0


def test_sp13_d6_short_layout_row_by_row():
    # Player 0 takes the one-card pile 0: 11 stock cards + 1 = 12 cards.
    g = position("AD/2D,3D/4D,6D,7D/8D,9D,QD/10D,JD", STUCK1, pile0="QS", pile1="KS", phase="slap", filler=1)
    assert g.play(0, SLAP_0) == 0
    assert g.cards_held(0) == 12
    assert stock_sizes(g, 0) == [1, 2, 3, 3, 3]
    assert g.counts[SPIT_CARDS] == 0
    # Three cards make stocks of 1, 1, 1, 0, 0.
    g = position("AD/2D/-/-/-", STUCK1, pile0="QS", pile1="KS", phase="slap", filler=1)
    g.play(0, SLAP_0)
    assert stock_sizes(g, 0) == [1, 1, 1, 0, 0]


def test_sp13_d7_fifteen_cards_leave_one_spit_pile():
    # 14 stock cards + the one-card pile 0 = exactly 15 (D-7): a full layout, no spit cards.
    g = position("AD/2D,3D/4D,6D,7D/8D,9D,10D,JD/QD,KD,AH,2H", STUCK1, pile0="3H", pile1="KS", phase="slap", filler=1)
    g.play(0, SLAP_0)
    assert stock_sizes(g, 0) == [1, 2, 3, 4, 5] and g.counts[SPIT_CARDS] == 0
    assert g.play(0, SPIT) == E_NO_SPIT_CARDS
    assert g.play(1, SPIT) == 0  # player 0 counts as called
    assert g.phase != READY
    assert g.counts[SPIT_PILES] == 0 and g.counts[SPIT_PILES + 1] == 1  # D-2: player 1's pile


def test_sp14_d13_player_without_spit_cards_empties_first_and_wins():
    g = position("8D/-/-/-/-", STUCK1, pile1="7C", spit1="3D", filler=1)
    assert g.play(0, play_move(0, 1)) == 0
    assert g.phase == GAME_OVER and g.winner == 0
    assert legal(g, 0) == legal(g, 1) == []


def test_sp14_d8_spitting_player_empties_first_game_goes_on():
    g = position(STUCK1, "8D/-/-/-/-", pile1="7C", spit1="3D", filler=1)
    pile = g.counts[SPIT_PILES + 1]
    assert g.play(1, play_move(0, 1)) == 0
    assert g.winner == -1 and g.phase == READY
    assert list(g.took) == [1, NOBODY]  # player 1 takes nothing from the middle
    assert g.cards_held(1) == 1  # but keeps the spit card (D-8)
    assert g.cards_held(0) == 5 + pile + 1  # own stock + the pile (with 8D)


def test_d13_last_card_with_no_spit_cards_left_wins_whatever_the_case():
    # Player 1 spat on the one pile but has used every spit card; emptying the stock
    # now leaves nothing at all.
    g = position(STUCK1, "8D/-/-/-/-", pile1="7C", filler=1)
    assert g.play(1, play_move(0, 1)) == 0
    assert g.phase == GAME_OVER and g.winner == 1


def test_d8_one_pile_stalemate_fewer_stock_cards_takes_nothing():
    g = position("8D/2C/-/-/-", STUCK1, pile0="7C")
    assert g.play(0, play_move(0, 0)) == 0
    # Player 0 has 1 stock card left, player 1 has 5: player 0 takes nothing.
    assert list(g.took) == [NOBODY, 0]
    assert g.phase == READY
    assert g.cards_held(0) == 1


def test_d8_one_pile_stalemate_equal_counts_pile_owner_takes_it():
    g = position("8D/2C/2D/2H/2S", "5C/5D/5H/5S/-", pile1="7C", filler=1)
    # Player 1 owns pile 1 (had spit cards); player 0 plays onto it.
    assert g.play(0, play_move(0, 1)) == 0
    assert list(g.took) == [NOBODY, 1]  # 4 against 4: the owner takes it
    assert g.cards_held(0) == 4


def test_sp15_d9_points_are_cards_held_and_rounds_go_on():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="S", scores="90:40")
    g.play(0, play_move(0, 0))
    assert list(g.round_points) == [1, 6]
    assert g.scores == [91, 46]
    assert g.phase == SLAP  # nobody at 100: slap and re-deal as usual


def test_sp15_d9_lowest_total_wins_at_once_when_someone_reaches_100():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="S", scores="40:95")
    g.play(0, play_move(0, 0))
    assert g.scores == [41, 101]
    assert g.phase == GAME_OVER and g.winner == 0
    assert g.counts[SPIT_PILES] and g.counts[SPIT_PILES + 1]  # no slap, no re-deal


def test_d9_tie_at_100_plays_another_round():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="S", scores="99:94")
    g.play(0, play_move(0, 0))
    assert g.scores == [100, 100]
    assert g.phase == SLAP and g.winner == -1


def test_d9_no_cards_left_in_scoring_deals_26_and_26_afresh():
    g = position("8D/-/-/-/-", STUCK1, pile1="7C", spit1="3D", filler=1, rules="S", scores="10:20")
    g.play(0, play_move(0, 1))
    assert g.phase == READY and g.winner == -1
    assert g.scores == [10, 26]
    assert g.cards_held(0) == g.cards_held(1) == 26
    assert stock_sizes(g, 0) == [1, 2, 3, 4, 5]


def test_v1_four_stocks():
    g = Game(3, FOUR_STOCKS)
    for p in range(2):
        assert stock_sizes(g, p) == [1, 2, 3, 4]
        assert g.counts[SPIT_CARDS + p] == 16
    assert g.play(0, fill_move(4, 0)) == E_NOT_A_MOVE
    assert g.play(0, play_move(4, 0)) == E_NOT_A_MOVE
    # "Fewer than 15" becomes "fewer than 10": 12 cards give a full layout and 2 spit cards.
    g = position(
        "AS/2S,3S/4S,5S,6S/7S,8S,9S,10S", "5C/5D/5H/4C", pile0="JS,QS", pile1="KD", phase="slap", rules="4", filler=1
    )
    g.play(0, SLAP_0)
    assert stock_sizes(g, 0) == [1, 2, 3, 4] and g.counts[SPIT_CARDS] == 2
    g = position("AS/2S,3S/4S,5S,6S/7S,8S", "5C/5D/5H/4C", pile0="JS", pile1="KD", phase="slap", rules="4", filler=1)
    g.play(0, SLAP_0)  # 9 cards: rows 4, 3, 2 -> 1, 2, 3, 3
    assert stock_sizes(g, 0) == [1, 2, 3, 3] and g.counts[SPIT_CARDS] == 0


def test_v2_emptier_chooses_the_pile():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="N")
    g.play(0, play_move(0, 0))
    assert g.phase == CHOOSE and g.chooser == 0
    assert legal(g, 1) == []
    assert g.play(1, TAKE_0) == E_NOT_CHOOSER
    assert g.play(1, SLAP_0) == E_PHASE
    assert g.play(0, TAKE_0 + 1) == 0
    assert list(g.took) == [1, 0]


def test_d10_v2_after_stalemate_fewer_stock_cards_chooses():
    g = position("8D/2C/-/-/-", STUCK1, pile0="7C", pile1="KD", rules="N")
    g.play(0, play_move(0, 0))
    assert g.phase == CHOOSE and g.chooser == 0


def test_d10_v2_after_stalemate_equal_counts_slap():
    g = position("8D/2C/2D/2H/2S", "5C/5D/5H/5S/-", pile0="7C", pile1="KD", rules="N")
    g.play(0, play_move(0, 0))
    assert g.phase == SLAP


def test_v3_alternating_colours():
    g = position("8H/8S/2C/2D/2H", STUCK1, pile0="7D", pile1="KD", rules="C")
    assert g.play(0, play_move(0, 0)) == E_COLOUR
    assert play_move(0, 0) not in legal(g, 0)
    assert g.play(0, play_move(1, 0)) == 0


def test_v3_spit_cards_need_not_alternate():
    g = position("8C/2C/2D/2H/2S", STUCK1, pile0="7D", pile1="KD", spit0="9D", spit1="QH", rules="C")
    g.play(0, play_move(0, 0))
    assert g.phase == STALEMATE
    start(g)  # 9D goes on 8C, QH on KD: red on red is fine for spit cards
    assert g.top(SPIT_PILES) == card("9D") and g.top(SPIT_PILES + 1) == card("QH")


def test_d2_each_player_spits_on_their_own_pile():
    g = Game(5)
    tops = [g.top(SPIT_CARDS), g.top(SPIT_CARDS + 1)]
    start(g)
    assert [g.top(SPIT_PILES), g.top(SPIT_PILES + 1)] == tops


def test_empty_spit_pile_takes_no_card():
    g = position(STUCK1, "8D/-/-/-/-", pile1="7C", spit1="3D", filler=1)
    assert g.play(1, play_move(0, 0)) == E_EMPTY_PILE
    assert g.top(SPIT_PILES) == NO_CARD


@pytest.mark.parametrize("player,move", [(2, 0), (-1, 0), (0, -1), (0, 40), (1, 255)])
def test_bad_player_or_code_is_refused(player, move):
    g = Game(1)
    before = g.text()
    assert g.play(player, move) == E_NOT_A_MOVE
    assert g.text() == before


def test_unknown_rule_flags_are_refused():
    with pytest.raises(ValueError):
        Game(1, 16)
    for rules in (0, SCORING, FOUR_STOCKS, NO_SLAP, ALT_COLOURS, 15):
        Game(1, rules)
