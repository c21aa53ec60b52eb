"""Watch a Spit match between two random players in the terminal.

    python tools/terminal_match.py [--seed N] [--rules S4NC] [--delay SECONDS]

Each move is drawn as the table looks after it: player 1 at the top, the two
spit piles in the middle, player 0 at the bottom. A stand-in for the desktop
simulator until the screen exists; the engine is the same one the board runs.
"""

import argparse
import os
import sys
import time

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.cards import Rng
from engine.notation import card_text
from engine.spit import GAME_OVER, SPIT_CARDS, SPIT_PILES, Game
from engine.spit_text import PHASE_NAMES, move_text, parse_rules


def stock_row(g, p):
    cells = []
    for s in range(g.stocks):
        k = g.counts[p * 5 + s]
        cells.append("%4s+%d" % (card_text(g.top(p * 5 + s)), k - 1) if k else "   .  ")
    return " ".join(cells) + "   spit cards %2d" % g.counts[SPIT_CARDS + p]


def table(g, last):
    piles = []
    for k in range(2):
        n = g.counts[SPIT_PILES + k]
        piles.append("%4s (%2d)" % (card_text(g.top(SPIT_PILES + k)), n) if n else "  empty  ")
    return "\n".join(
        [
            "round %d  %-9s scores %d:%d   %s" % (g.round, PHASE_NAMES[g.phase], g.scores[0], g.scores[1], last),
            "P1 " + stock_row(g, 1),
            "      spit piles: %s   %s" % tuple(piles),
            "P0 " + stock_row(g, 0),
            "",
        ]
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=int(time.time()) & 0xFFFF)
    ap.add_argument("--rules", default="-", help="rule letters: S scoring, 4 four stocks, N no slap, C colours")
    ap.add_argument("--delay", type=float, default=0.15, help="seconds between moves (0: as fast as possible)")
    args = ap.parse_args(argv)
    try:
        rules = parse_rules(args.rules)
    except ValueError as e:
        ap.error(str(e))
    g = Game(args.seed, rules)
    pick = Rng(args.seed + 1)
    bufs = (bytearray(64), bytearray(64))
    print("seed %d, rules %s\n" % (args.seed, args.rules))
    print(table(g, "dealt"))
    while g.phase != GAME_OVER:
        n0 = g.moves(0, bufs[0])
        n1 = g.moves(1, bufs[1])
        i = pick.below(n0 + n1)
        p, m = (0, bufs[0][i]) if i < n0 else (1, bufs[1][i - n0])
        g.play(p, m)
        print(table(g, "P%d %s" % (p, move_text(m))))
        sys.stdout.flush()
        if args.delay:
            time.sleep(args.delay)
    print("Player %d wins after %d rounds." % (g.winner, g.round))
    print("Final position: " + g.text())


if __name__ == "__main__":
    main()
