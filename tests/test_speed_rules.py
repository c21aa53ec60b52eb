"""Speed (SD-1..SD-8, D-11, D-12, D-14..D-18): one test (at least) per rule id."""

import pytest
from helpers import speed_position

from engine.notation import NotationError, card_text, parse_card
from engine.speed import GAME_OVER, PILE, PLAY, READY, SHORT_SIDES, SIDE, STALEMATE, STOCK, TURN, Game
from engine.speed_text import E_EMPTY_SLOT, E_NOTHING_TO_TURN, E_PHASE, E_RANK, E_TURNED

BUF = bytearray(16)


def legal(g, p):
    return list(BUF[: g.moves(p, BUF)])


def top(g, pile):
    return card_text(g.top(pile))


def test_sd1_sd2_deal_hands_stocks_side_piles_and_middle():
    g = Game(3)
    for p in range(2):
        assert all(g.hand(p, h) != 255 for h in range(5))  # five cards in hand
        assert g.counts[STOCK + p] == 10  # 15 cards each
        assert g.counts[SIDE + p] == 10
        assert g.counts[PILE + p] == 1  # the two middle cards
    assert g.phase == READY


def test_sd2b_short_side_piles():
    g = Game(3, SHORT_SIDES)
    for p in range(2):
        assert g.counts[SIDE + p] == 5 and g.counts[STOCK + p] == 15


def test_sd3_d14_both_turn_the_middle_cards():
    g = Game(4)
    text = g.text().split()
    assert text[14] == text[14].lower() and text[15] == text[15].lower()  # face down
    assert legal(g, 0) == [TURN] == legal(g, 1)
    assert g.play(0, 0) == E_PHASE  # no card before the start
    assert g.play(0, TURN) == 0
    assert g.phase == READY and g.play(0, TURN) == E_TURNED
    assert g.play(1, TURN) == 0
    assert g.phase in (PLAY, STALEMATE)
    text = g.text().split()
    assert text[14] == text[14].upper()  # face up now


def test_sd4_one_up_or_down_on_either_pile_corner_turns():
    g = speed_position("KS/2H/5D/9C/9D", "5C/5H/5S/4C/4D", pile0="AH", pile1="10C", stock0="8h", stock1="8c")
    moves = legal(g, 0)
    assert {0, 2} <= set(moves)  # K and 2 on the Ace
    assert 7 in moves and 9 in moves  # 9 on 10 (pile 1)
    assert g.play(0, 4) == E_RANK  # 5 on A
    assert g.play(0, 5) == E_RANK  # 5 on 10


def test_sd5_d11_draw_back_up_to_five_at_once():
    g = speed_position("KS/2H/5D/9C/9D", "5C/5H/5S/4C/4D", pile0="AH", pile1="10C", stock0="7c,8h", stock1="8c")
    assert g.play(0, 0) == 0  # KS on AH
    assert card_text(g.hand(0, 0)) == "8H"  # the top of the stock fills the slot
    assert g.counts[STOCK] == 1
    assert g.play(0, 1) == E_RANK  # the new 8H does not fit the 10C


def test_sd5_empty_stock_leaves_the_slot_empty():
    g = speed_position("KS/2H/5D/9C/9D", "5C/5H/5S/4C/4D", pile0="AH", pile1="10C", stock1="8c")
    assert g.play(0, 0) == 0
    assert g.hand(0, 0) == 255
    assert g.play(0, 0) == E_EMPTY_SLOT


def stuck(side0="3c", side1="3d", **kw):
    # Pile tops 7C and KD: player 0's twos and player 1's fives fit neither.
    kw.setdefault("pile0", "7C")
    kw.setdefault("pile1", "KD")
    return speed_position("8D/2C/2D/2H/2S", "5C/5D/5H/5S/4C", side0=side0, side1=side1, filler="pile0", **kw)


def test_sd6_d15_stalemate_both_turn_a_side_card_onto_the_pile_beside_it():
    g = stuck()
    assert g.play(0, 0) == 0  # 8D on 7C: now nobody can play
    assert g.phase == STALEMATE
    assert legal(g, 0) == [TURN] == legal(g, 1)
    assert g.play(0, TURN) == 0 and g.phase == STALEMATE  # both must act
    assert g.play(1, TURN) == 0
    assert (top(g, PILE), top(g, PILE + 1)) == ("3C", "3D")  # side p onto play pile p
    assert g.phase == PLAY  # the twos fit the threes


def test_d15_an_empty_side_pile_counts_as_having_turned():
    g = stuck(side0="", side1="7d,3d")
    g.play(0, 0)
    assert g.phase == STALEMATE
    assert legal(g, 0) == [] and g.play(0, TURN) == E_NOTHING_TO_TURN
    pile0 = g.counts[PILE]
    assert g.play(1, TURN) == 0  # alone
    assert g.counts[PILE] == pile0 and top(g, PILE + 1) == "3D"


def test_d15_stalemate_at_the_very_start():
    g = speed_position(
        "2C/2D/2H/2S/3C",
        "5C/5D/5H/5S/4C",
        pile0="9c",
        pile1="kd",
        side0="8s",
        side1="7d",
        phase="ready",
        filler="side0",
    )
    g.play(0, TURN)
    g.play(1, TURN)
    assert g.phase == STALEMATE


def test_sd7_d16_reshuffle_when_both_side_piles_are_empty():
    g = stuck(side0="3c", side1="3d", pile0="9H,10H,7C", pile1="QS,KD")
    under = g.counts[PILE] - 1 + g.counts[PILE + 1] - 1
    g.play(0, 0)  # 8D on 7C
    under += 1
    g.play(0, TURN)
    g.play(1, TURN)  # the last side cards: both side piles are empty now
    assert (top(g, PILE), top(g, PILE + 1)) == ("3C", "3D")  # the top cards stay
    assert g.counts[PILE] == 1 and g.counts[PILE + 1] == 1
    assert g.counts[SIDE] + g.counts[SIDE + 1] == under + 2 - 0  # every card under the tops
    assert g.counts[SIDE] - g.counts[SIDE + 1] in (0, 1)  # dealt alternately, side 0 first


def test_sd8_first_to_play_every_card_wins():
    g = speed_position("8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD", side0="3c")
    assert g.play(0, 0) == 0
    assert g.phase == GAME_OVER and g.winner == 0


def test_d12_d18_winner_scores_the_opponents_cards_left_then_a_new_deal():
    g = speed_position(
        "8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD", side0="3c", stock1="9c,9d", rules="S", scores="10:0"
    )
    g.play(0, 0)
    assert g.scores == [10 + 7, 0]  # five in hand, two in stock
    assert g.phase == READY and g.round == 2 and g.winner == -1
    assert g.counts[SIDE] == 10 and g.counts[STOCK] == 10  # a fresh full deal


def test_d18_reaching_the_target_ends_the_game():
    g = speed_position(
        "8D/-/-/-/-", "5C/5D/5H/5S/4C", pile0="7C", pile1="KD", side0="3c", rules="S", scores="48:30", target=50
    )
    g.play(0, 0)
    assert g.scores == [53, 30] and g.phase == GAME_OVER and g.winner == 0


def test_d17_dead_end_fewer_cards_left_wins():
    # Player 0 has four twos, player 1 fives and a four: nothing that goes round
    # (8D, KD, 9S) ever fits. Player 0's side pile is empty, player 1 turns alone.
    # Player 1 has played since the round began ("1", no "*").
    g = speed_position(
        "2C/2D/2H/2S/-",
        "5C/5D/5H/5S/4C",
        pile0="8D",
        pile1="KD",
        side1="9s",
        filler="stock1",
        phase="stalemate",
        last="1",
    )
    assert g.play(1, TURN) == 0  # 9S on KD; both side piles empty: KD reshuffled (D-16)
    assert g.phase == STALEMATE and g.counts[SIDE] == 1 and g.idle
    assert g.play(0, TURN) == 0  # KD comes round again and fits nothing: a dead end
    assert g.phase == GAME_OVER
    assert g.winner == 0  # four cards left against forty-five


def test_d17_dead_end_equal_counts_the_last_player_wins():
    # No play since the last reshuffle (the "*"), player 1 played last, 4 cards each.
    g = speed_position(
        "2C/2D/2H/2S/-",
        "5C/5D/5H/5S/-",
        pile0="8D",
        pile1="KD",
        side0="9s",
        filler="pile0",
        phase="stalemate",
        last="1*",
    )
    assert g.play(0, TURN) == 0  # 9S on 8D, side piles empty, nothing fits
    assert g.phase == GAME_OVER and g.winner == 1


def test_d17_the_start_of_a_round_counts_like_a_reshuffle():
    # Nobody can ever play: the round is dealt again when the side piles first
    # run out, after 10 turns, not after a reshuffle and 10 more.
    g = Game.from_text(
        "speed ready - 50 1 0:0 1.1.1 -* 2C/2D/2H/2S/3C ac,ad,ah,as,4h,6c,6d,6h,6s,7c 3D/3H/3S/4C/4D"
        " 4s,5c,5d,5h,5s,7d,7h,7s,8c,8d 8h,8s,9c,9d,9h,9s,10c,10d,10h,10s jc,jd,jh,js,qc,qd,qh,qs,kc,kh kd ks"
    )
    assert g.play(0, TURN) == 0 and g.play(1, TURN) == 0  # the middle cards
    turns = 0
    while g.round == 1:
        assert g.phase == STALEMATE and g.idle
        assert g.play(0, TURN) == 0 and g.play(1, TURN) == 0
        turns += 1
    assert turns == 10
    assert g.phase == READY and g.round == 2 and g.winner == -1  # nobody played: dealt again
    assert g.idle and g.text().split(" ")[7] == "-*"  # and the new round starts marked too
    assert Game(7).text().split(" ")[7] == "-*"


def test_d17_a_play_after_the_reshuffle_keeps_the_round_going():
    # Only player 0's twos can ever play, on the 3H under the 7C.
    g = speed_position(
        "8D/2C/2D/2H/2S", "5C/5D/5H/5S/JC", pile0="3H,7C", pile1="KD", side0="9s", side1="9h", filler="stock1"
    )
    assert g.play(0, 0) == 0 and g.phase == STALEMATE  # 8D on 7C
    g.play(0, TURN)
    g.play(1, TURN)  # 9S, 9H: the side piles run out after a play: reshuffled (D-16)
    assert g.counts[SIDE] + g.counts[SIDE + 1] == 4 and g.idle  # 3H, 7C, 8D, KD
    while g.phase == STALEMATE:  # turn until the 3H comes up
        g.play(0, TURN)
        g.play(1, TURN)
    assert g.phase == PLAY and "3H" in (top(g, PILE), top(g, PILE + 1))
    assert g.play(0, legal(g, 0)[0]) == 0 and not g.idle  # a two on the 3H
    reshuffled = False
    while g.phase == STALEMATE and not reshuffled:
        sides = g.counts[SIDE] + g.counts[SIDE + 1]
        g.play(0, TURN)
        g.play(1, TURN)
        reshuffled = g.counts[SIDE] + g.counts[SIDE + 1] >= sides
    assert reshuffled and g.phase != GAME_OVER and g.round == 1  # not a dead end


@pytest.mark.parametrize(
    "line, rule",
    [
        # play piles 7C and KD, both side piles empty, in play
        ("speed play - 50 1 0:0 1.1.1 1 8D/2C/2D/2H/2S - 5C/5D/5H/5S/4C %s - - 7C KD", "D-16"),
        ("speed stalemate - 50 1 0:0 1.1.1 1 2C/2D/2H/2S/3C - 5C/5D/5H/5S/4C %s - - 7C KD", "D-16"),
        ("speed ready - 50 1 0:0 1.1.1 - 2C/2D/2H/2S/3C %s 5C/5D/5H/5S/4C - 6c 8s 7c kd", "D-17"),
        ("speed play - 50 1 0:0 1.1.1 - 8D/2C/2D/2H/2S %s 5C/5D/5H/5S/4C - 6c 8s 7C KD", "D-17"),
    ],
)
def test_d16_d17_positions_the_rules_cannot_reach_are_refused(line, rule):
    named = {parse_card(t)[0] for t in line.replace("/", " ").replace(",", " ").split()[8:] if t not in ("-", "%s")}
    rest = ",".join(card_text(c, False) for c in range(52) if c not in named)
    with pytest.raises(NotationError, match=rule):
        Game.from_text(line % rest)


@pytest.mark.parametrize("move", [-1, 11, 40])
def test_bad_codes_are_refused(move):
    g = Game(2)
    before = g.text()
    assert g.play(0, move) != 0
    assert g.text() == before
