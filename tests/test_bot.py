"""The computer opponent: legal, deterministic, sensible, and stronger than random play."""

import os
import sys

from helpers import legal, position, speed_position

from engine import speed
from engine.bot import LEVELS, RANDOM, Bot
from engine.spit import SLAP_0, SPIT, Game
from engine.spit_text import play_move

sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import simulate  # noqa: E402

STUCK1 = "5C/5D/5H/5S/4C"


def test_bot_moves_are_legal_and_deterministic():
    for seed in range(20):
        g1, g2 = Game(seed, seed % 16), Game(seed, seed % 16)
        bots1 = [Bot(p, seed % 4, seed + p) for p in range(2)]
        bots2 = [Bot(p, seed % 4, seed + p) for p in range(2)]
        for step in range(300):
            p = step % 2
            m1, m2 = bots1[p].choose(g1), bots2[p].choose(g2)
            assert m1 == m2
            if m1 < 0:
                assert legal(g1, p) == []
                continue
            assert m1 in legal(g1, p)
            g1.play(p, m1)
            g2.play(p, m2)


def test_bot_prefers_a_play_that_turns_up_a_hidden_card():
    g = position("9s,8D/8H/2C/2D/2S", STUCK1, pile0="7C", pile1="9C")  # 8D reveals, 8H does not
    assert Bot(0, 3, 1).choose(g) in (play_move(0, 0), play_move(0, 1))


def test_bot_calls_spit_at_once_and_slaps_the_smaller_pile():
    g = Game(4)
    assert Bot(0, 0, 1).choose(g) == SPIT
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")
    assert Bot(1, 2, 1).choose(g) == SLAP_0 + 1


def test_bot_avoids_giving_the_opponent_a_card():
    # Player 0 can put 8D or 6D on 7C; the opponent holds a 9 and a 10, so 8D
    # would give them the 9: 6D is better.
    g = position("8D/6D/2C/2D/2S", "9H/10S/KS/KH/QC", pile0="7C", pile1="4C")
    assert Bot(0, 3, 1).choose(g) == play_move(1, 0)


def test_speed_bot_turns_and_plays():
    g = speed.Game(3)
    assert Bot(0, 1, 1, speed=True).choose(g) == speed.TURN
    g = speed_position("8D/2C/2D/2H/2S", "6H/9S/JH/JS/10C", pile0="7C", pile1="KD", stock0="3c")
    assert Bot(0, 3, 1, speed=True).choose(g) == 0


def test_levels_react_like_people():
    for level, (fast, slow, miss) in enumerate(LEVELS):
        bot = Bot(0, level, 7)
        times = [bot.reaction_ms() for _ in range(500)]
        assert fast <= min(times) and max(times) <= slow
        misses = sum(bot.hesitates() for _ in range(2000))
        assert abs(misses / 2000 - miss / 100) < 0.04
    assert LEVELS[0][0] >= 2000 and LEVELS[-1][1] <= 750  # easy 2-4 s ... hardest 0.5-0.75 s


def test_the_strongest_level_beats_random_play_nine_times_in_ten():
    for config in (0, 5):  # Spit, Speed
        wins = 0
        for n in range(100):
            seat = n % 2
            levels = (3, RANDOM) if seat == 0 else (RANDOM, 3)
            r = simulate.one_game((config, levels[0], levels[1], 1000 + n))
            wins += r["winner"] == seat
        assert wins >= 90, (config, wins)


def test_simulation_tool_prints_its_tables():
    results = simulate.main(["--games", "1", "--quick"])
    assert len(results) == len(simulate.CONFIGS) * 15
    assert all(r["winner"] in (0, 1) and r["ms"] > 0 for r in results)
