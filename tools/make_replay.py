"""Write a replay file of a whole match played through the buttons.

    python tools/make_replay.py OUT.txt [--profile NAME] [--game spit|speed] [--seed N] [--rules S4NC] [--gap MS]
    python tools/make_replay.py OUT.txt --presses N [--profile NAME] [--seed N]

It plays Game(seed, rules) with random legal moves, as code.py will deal it
with SPIT_SEED=seed, and writes the key taps that make each move on the
profile's buttons (hardware/plan.py): first the menu (rule options, start),
then every move, a tap every --gap ms. Prints the final position; running
code.py on the replay must print the same one.

--presses N writes N random key events instead: any key of either player,
taps, holds and bounces (a switch at the other level for one scan), 5 ms to
0.7 s apart, through whatever the menu, the match,
pauses and game-over screens make of them. No position is known beforehand:
the desktop and the board program (tests/board_vm/boardrun.py) must end alike.
"""

import argparse
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import games, speed  # noqa: E402
from engine.cards import Rng  # noqa: E402
from engine.spit import FILL_BASE, GAME_OVER, PLAY, SLAP_0  # noqa: E402
from engine.spit_text import parse_rules  # noqa: E402
from hardware import profiles  # noqa: E402
from hardware.controls import Controls  # noqa: E402
from hardware.keymaps import NEXT, PILE_0, STOCK_0  # noqa: E402
from hardware.modes import OPTIONS  # noqa: E402
from hardware.plan import keys_for_move  # noqa: E402

NAMES = {PILE_0: "pile0", PILE_0 + 1: "pile1", NEXT: "next"}
NAMES.update({STOCK_0 + s: "stock%d" % s for s in range(5)})


def menu_taps(kind, rules, cursor):
    """Menu: choose the game, move down through its options, change the ones to turn on, start."""
    # On a PyBadge (cursor) the D-pad's Down moves, B changes and A goes.
    down, change, go = ("p0.pile1", "p1.pile0", "p1.pile1") if cursor else ("p0.stock1", "p0.pile0", "p0.pile1")
    taps = [change] if kind else []
    taps.append(down)  # past "Players: two"
    for _, _, flag in OPTIONS[kind]:
        taps.append(down)
        if rules & flag:
            taps.append(change)
    taps.append(go)
    return taps


def match(seed, rules, profile, gap, kind=0, kinds=None):
    # kinds (a list): what each key line does, appended in step with them:
    # "menu", "new round", "turn" (both piles turned: the second spit call,
    # Speed's turn), "phase" (the slap, a choice, a round over, a stalemate),
    # "fill" (SP-6: a card put into an empty stock), "play" (a card moved onto
    # a pile, the phase as it was), "choose" (nothing moved: a card chosen, a
    # call waiting for the other player's).
    g = games.new(kind, seed, rules)
    mirror = games.new(kind, seed, rules)  # what code.py's game should go through
    controls = Controls(profile["keymap"], profile["cursor"])
    controls.call = g.call
    pick = Rng(seed + 99)
    t = 500
    lines = ["# a whole match: profile %s, SPIT_SEED=%d, rules %d" % (profile["name"], seed, rules)]
    for name in menu_taps(kind, rules, profile["cursor"]):
        lines.append("%d %s" % (t, name))
        t += gap
        if kinds is not None:
            kinds.append("menu")
    t += 400  # past the grace after the start
    b0 = bytearray(64)
    b1 = bytearray(64)
    out = bytearray(16)
    while g.phase != GAME_OVER:
        n0 = g.moves(0, b0)
        n1 = g.moves(1, b1)
        i = pick.below(n0 + n1)
        player, move = (0, b0[i]) if i < n0 else (1, b1[i - n0])
        for j in range(keys_for_move(g, controls, player, move, out)):
            action = out[j]
            lines.append("%d p%d.%s" % (t, player, NAMES[action]))
            k = profile["keymap"].index(player * 16 + action)
            before = (g.round, g.phase, bytes(g.counts))
            controls.feed(g, k, True, t)
            controls.feed(g, k, False, t + 60)
            controls.apply(g)
            t += gap
            if kinds is not None:
                kinds.append(
                    "new round"
                    if g.round != before[0]
                    else ("turn" if g.phase == PLAY else "phase")
                    if g.phase != before[1]
                    else ("fill" if not kind and FILL_BASE <= move < SLAP_0 else "play")
                    if bytes(g.counts) != before[2]
                    else "choose"
                )
        mirror.play(player, move)
        if g.text() != mirror.text():
            raise SystemExit("the planned keys did not make move %d for player %d" % (move, player))
    return lines, g


def presses(count, seed, profile):
    """count random key events (a tap, or a key going down or up) on the profile's keys."""
    pick = Rng(seed + 7)
    actions = ["pile0", "pile1"] + (["prev", "next"] if profile["cursor"] else ["stock%d" % s for s in range(5)])
    gaps = (5, 10, 20, 40, 80, 150, 300, 700)
    held = set()
    t = 300
    lines = ["# %d random presses: profile %s, SPIT_SEED=%d" % (count, profile["name"], seed)]
    for _ in range(count):
        t += gaps[pick.below(len(gaps))]
        name = "p%d.%s" % (pick.below(2), actions[pick.below(len(actions))])
        kind = pick.below(8)
        if kind == 0:  # a bounce: one scan at the other level, which the debounce drops
            first, then = ("up", "down") if name in held else ("down", "up")
            lines.append("%d %s %s  # bounce" % (t, name, first))
            t += 5
            lines.append("%d %s %s" % (t, name, then))
        elif kind == 1:  # down, or up if it is held
            lines.append("%d %s %s" % (t, name, "up" if name in held else "down"))
            held ^= {name}
        else:
            lines.append("%d %s" % (t, name))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--profile", default=profiles.DEFAULT)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="-", help="Spit: S4NC letters; Speed: S (scoring) and 5 (SD-2b)")
    ap.add_argument("--game", choices=games.NAMES, default="spit")
    ap.add_argument("--gap", type=int, default=300, help="ms between taps (more than the 250 ms spit grace)")
    ap.add_argument("--presses", type=int, help="write this many random key events instead of a match")
    args = ap.parse_args()
    profile = profiles.get(args.profile)
    if args.presses is not None:
        with open(args.out, "w") as f:
            f.write("\n".join(presses(args.presses, args.seed, profile)) + "\n")
        return
    kind = games.kind_of(args.game)
    if kind:
        rules = (speed.SCORING if "S" in args.rules else 0) | (speed.SHORT_SIDES if "5" in args.rules else 0)
    else:
        rules = parse_rules(args.rules)
    lines, g = match(args.seed, rules, profile, args.gap, kind)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(g.text())


if __name__ == "__main__":
    main()
