"""Linked sessions as people use them (hardware/linked.py, hardware/hello.py,
hardware/lobby.py): a player who leaves in the countdown, or while the cable
is out and then chooses linked play again, another game chosen while the
other handheld still has a match going, a handheld restarted; and the churn
of all of these at random (desktop/linked_pair.py's Churn; tools/bench_linked.py
--churn plays thousands). Each ends with both handhelds in the same match,
or both out of it, each saying why."""

import pytest
from test_linked import PICO, quiet, referee_follower

from desktop.link_model import Link as Cable
from desktop.linked_pair import Churn, Pair
from hardware.keymaps import PILE_0, STOCK_0
from hardware.linked import LOST_MS
from hardware.modes import LINKED, LOBBY, MENU, OTHER_GAME, OTHER_LEFT, PAUSED
from hardware.protocol import FRAME_KIND, MORE, SNAP

US = 1000
_GO = PILE_0 + 1


def choose(device, kind=0, nonce=None, new=True):
    # Linked play chosen in the menu (a game, a new number as a board
    # draws); new: a new match, not the saved one the menu offers first.
    app = device.app
    app.kind = kind
    app.players = LINKED
    if nonce is not None:
        app.nonce = nonce
    if new:
        app.saved = None
    app.press(0, _GO)


def left_while_the_cable_was_out(seed, out_ms):
    # In a match the cable is pulled for out_ms; device 0's player leaves
    # from the pause it made.
    pair = Pair(PICO, quiet(), seed=seed)
    assert pair.start()
    pair.run(500)
    a, b = pair.devices
    t = pair.t_us[0]
    pair.cable.pull(t, t + out_ms * US)
    pair.run(LOST_MS + 300)
    a.press(PILE_0 + 1)  # leave, from the pause the cable made
    pair.run(100)
    assert a.app.mode == MENU
    return pair, a, b


def test_a_leave_in_the_countdown_reaches_the_referee():
    # The referee has dealt; the follower's player leaves before its
    # snapshot is whole (pile 2 in the lobby). The referee says the other
    # player left, not that the cable is silent.
    pair = Pair(PICO, quiet(), seed=3)
    ref, fol = pair.devices  # (side 0's nonce is the higher: it referees)
    uart_write = None
    dropping = [True]

    def no_snapshot(buf):
        if dropping[0] and buf[FRAME_KIND] in (SNAP, MORE):
            return len(buf)
        return uart_write(buf)

    for d in pair.devices:
        choose(d)
    assert pair.run_until(lambda: ref.app.linked.phase == 2, 3000)  # (PLAYING: it dealt)
    uart_write = ref.app.linked.link.uart.write
    ref.app.linked.link.uart.write = no_snapshot
    pair.run(50)
    assert fol.app.mode == LOBBY and ref.app.mode == PAUSED
    fol.press(PILE_0 + 1)  # pile 2: back to the menu
    pair.run(100)
    assert fol.app.mode == MENU
    assert pair.run_until(lambda: ref.app.pause_why == OTHER_LEFT, 2000), ref.app.pause_why


def test_a_leave_while_the_cable_was_out_is_told_once_it_is_back():
    # The leaving handheld keeps its end open in the menu until the other
    # has heard: once the cable is back, the other says the player left;
    # then both choose linked play again (the saved match, offered first on
    # both) and play it.
    pair, a, b = left_while_the_cable_was_out(3, 5000)
    assert pair.run_until(lambda: b.app.pause_why == OTHER_LEFT, 6000)
    choose(a, new=False)
    b.press(STOCK_0)  # any key: the menu
    pair.run(200)
    assert b.app.mode == MENU
    choose(b, new=False)
    assert pair.run_until(pair.playing, 8000)
    assert pair.agree()


def test_a_player_back_in_the_lobby_while_the_cable_is_out_is_taken_back_into_the_same_game():
    # The player leaves and chooses linked play again (the same game) while
    # the cable is still out: the other handheld never heard the leave, and
    # takes them back into the match, in the pause, once the cable is back.
    pair, a, b = left_while_the_cable_was_out(3, 5000)
    choose(a, nonce=0x2345)
    assert pair.run_until(
        lambda: all(d.app.mode == PAUSED and d.app.pause_why == "cable back" for d in pair.devices), 8000
    )
    assert pair.agree()
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    assert pair.playing() and pair.agree()


def test_the_lobby_says_which_match_the_other_has_going_and_joins_it_only_on_a_key():
    # As above, but the player chooses Speed: their lobby offers the other's
    # Spit match; the other handheld's pause says the other chose another
    # game; nothing joins until the player goes on (any key); then both are
    # in the Spit match.
    pair, a, b = left_while_the_cable_was_out(5, 5000)
    choose(a, kind=1, nonce=0x3456)  # Speed
    pair.run(5000)
    assert a.app.mode == LOBBY and a.app.game is None
    said = " ".join(" ".join(a.app.screen.lines).split())
    assert "the other has Spit going" in said and "any key: join" in said, said
    assert b.app.mode == PAUSED and b.app.pause_why == OTHER_GAME
    assert "chose another game" in b.app.screen.lines
    a.press(STOCK_0)  # go on into the other's match
    assert pair.run_until(
        lambda: all(d.app.mode == PAUSED and d.app.pause_why == "cable back" for d in pair.devices), 5000
    )
    assert a.app.game.kind == 0 and pair.agree()


def test_a_player_who_declines_the_other_match_leaves_the_other_told():
    # The lobby's offer declined (pile 2): the other handheld hears the
    # player left, and says so.
    pair, a, b = left_while_the_cable_was_out(5, 5000)
    choose(a, kind=1, nonce=0x3456)
    assert pair.run_until(lambda: b.app.pause_why == OTHER_GAME and a.app.linked.offer >= 0, 6000)
    a.press(PILE_0 + 1)  # pile 2, the offer read: back to the menu
    assert pair.run_until(lambda: b.app.pause_why == OTHER_LEFT, 2500), b.app.pause_why
    assert a.app.mode == MENU


@pytest.mark.parametrize("after_ms", [2400, 2700, 3000, 3300, 3600])
def test_a_follower_that_leaves_and_comes_back_with_a_new_number_never_takes_old_frames(after_ms):
    # On a 30 ms cable: the referee deals, the follower leaves a few
    # seconds in and chooses linked play again at once, with a new number;
    # frames of the old session still on their way are not taken for the
    # new one. Nothing raises: the referee says the player left, the
    # follower looks; the referee's player chooses again, and both play.
    pair = Pair(PICO, quiet(), seed=9, cable=Cable(9, delay_us=30000, jitter_us=5000))
    assert pair.start()
    ref, fol = referee_follower(pair)
    pair.run(after_ms - 2000)
    fol.press(PILE_0, hold_us=1300000)  # the pause chord
    fol.press(PILE_0 + 1, hold_us=1300000)
    pair.run(1400)
    fol.press(PILE_0 + 1)  # leave
    assert pair.run_until(lambda: fol.app.mode == MENU, 1000)
    choose(fol, nonce=0x0777)
    assert pair.run_until(lambda: ref.app.pause_why == OTHER_LEFT, 3000)
    assert fol.app.mode == LOBBY
    ref.press(STOCK_0)  # any key: the menu
    pair.run(200)
    choose(ref, nonce=0x9999)
    assert pair.run_until(pair.playing, 8000) and pair.agree()


@pytest.mark.parametrize("seed", range(6))
def test_churn_strands_nobody_and_takes_nobody_into_a_game_they_did_not_choose(seed):
    # People changing their minds at random for 30 s (leaving in every
    # phase, choosing again with either game, restarting, the cable out for
    # 1 to 5 s), then 12 s of calm in which they go on when asked.
    pair = Pair(PICO, quiet(), seed=seed, cable=Cable(seed))
    churn = Churn(pair, seed)
    for i in range(2):
        churn.choose(i)
    churn.play(30000)
    churn.calm()
    assert churn.ended() in ("match", "out", "alone"), (churn.ended(), churn.log)
    assert not churn.wrong
