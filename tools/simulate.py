"""Bot-versus-bot simulation of Spit and Speed: statistics nobody has published.

    python tools/simulate.py [--games N] [--out DIR] [--quick]

Plays N games for every pairing of the computer levels and random play
(engine/bot.py), seats swapped every other game, for both games and each
variation, on all cores. Time is simulated: each player acts when its sampled
reaction time has passed (a change on the table does not reset a reaction
already under way; the move is chosen when the time comes). Prints the tables
and writes PNG plots to DIR (default out/simulation).
"""

import argparse
import os
import sys
from multiprocessing import Pool

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import (
    speed,  # noqa: E402
    spit,  # noqa: E402
)
from engine.bot import LEVEL_NAMES, RANDOM, Bot  # noqa: E402

CONFIGS = (
    ("Spit", False, 0),
    ("Spit V-1 four stocks", False, spit.FOUR_STOCKS),
    ("Spit V-2 no slap", False, spit.NO_SLAP),
    ("Spit V-3 colours", False, spit.ALT_COLOURS),
    ("Spit 100 points", False, spit.SCORING),
    ("Speed", True, 0),
    ("Speed SD-2b", True, speed.SHORT_SIDES),
    ("Speed to 50", True, speed.SCORING),
)
PLAYERS = (RANDOM, 0, 1, 2, 3)
NAMES = {RANDOM: "Random", 0: LEVEL_NAMES[0], 1: LEVEL_NAMES[1], 2: LEVEL_NAMES[2], 3: LEVEL_NAMES[3]}
_NEVER = 1 << 60


def duel(game, bots, max_moves=200000):
    """Play a game out in simulated time; return its figures as a dict."""
    due = [None, None]
    waits = [[], []]
    t = 0
    moves = stalemates = 0
    buf = bytearray(64)
    tie = 0
    while game.phase != spit.GAME_OVER and moves < max_moves:
        for p in range(2):
            if game.moves(p, buf):
                if due[p] is None:
                    r = bots[p].reaction_ms()
                    waits[p].append(r)
                    due[p] = t + r
            else:
                due[p] = None
        a = due[0] if due[0] is not None else _NEVER
        b = due[1] if due[1] is not None else _NEVER
        p = 0 if a < b else 1 if b < a else tie
        if a == b:
            tie ^= 1  # D-5: a tie favours neither in the long run
        t = due[p]
        due[p] = None
        if bots[p].hesitates():
            continue
        before = game.phase
        r = game.play(p, bots[p].choose(game))
        if r:
            raise AssertionError("a bot's move was refused: %d" % r)
        moves += 1
        if game.phase == spit.STALEMATE and before != spit.STALEMATE:
            stalemates += 1
    mean = [sum(w) / len(w) if w else 0 for w in waits]
    return {
        "winner": game.winner,
        "ms": t,
        "moves": moves,
        "stalemates": stalemates,
        "rounds": game.round,
        "faster": 0 if mean[0] < mean[1] else 1,
    }


def one_game(job):
    config, seat0, seat1, seed = job
    name, is_speed, rules = CONFIGS[config]
    make = speed.Game if is_speed else spit.Game
    g = make(seed, rules)
    bots = [Bot(0, seat0, seed * 2 + 1, is_speed), Bot(1, seat1, seed * 2 + 2, is_speed)]
    out = duel(g, bots)
    out.update(config=config, levels=(seat0, seat1))
    return out


def jobs(games):
    seed = 1
    out = []
    for config in range(len(CONFIGS)):
        for i, a in enumerate(PLAYERS):
            for b in PLAYERS[i:]:
                for n in range(games):
                    out.append((config, a, b, seed) if n % 2 == 0 else (config, b, a, seed))
                    seed += 1
    return out


def summarise(results):
    by_config = {}
    for r in results:
        by_config.setdefault(r["config"], []).append(r)
    rows = []
    for config, rs in sorted(by_config.items()):
        rounds = sum(r["rounds"] for r in rs)
        same = [r for r in rs if r["levels"][0] == r["levels"][1]]
        rows.append(
            {
                "name": CONFIGS[config][0],
                "games": len(rs),
                "rounds_per_game": rounds / len(rs),
                "moves_per_round": sum(r["moves"] for r in rs) / rounds,
                "stalemates_per_round": sum(r["stalemates"] for r in rs) / rounds,
                "faster_wins": sum(1 for r in same if r["winner"] == r["faster"]) / max(1, len(same)),
                "minutes": {lv: _mean([r["ms"] / 60000 for r in rs if r["levels"] == (lv, lv)]) for lv in PLAYERS},
            }
        )
    return rows


def _mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def win_matrix(results, config_ids):
    """wins[a][b]: share of games player a won against b, over the given configs."""
    won = {}
    played = {}
    for r in results:
        if r["config"] not in config_ids:
            continue
        a, b = r["levels"]
        if a == b:
            continue
        for me, other, seat in ((a, b, 0), (b, a, 1)):
            played[me, other] = played.get((me, other), 0) + 1
            won[me, other] = won.get((me, other), 0) + (r["winner"] == seat)
    return {k: won[k] / played[k] for k in played}


def plot(rows, spit_wins, speed_wins, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(out, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for ax, wins, title in ((axes[0], spit_wins, "Spit"), (axes[1], speed_wins, "Speed")):
        grid = [[wins.get((a, b), float("nan")) * 100 for b in PLAYERS] for a in PLAYERS]
        im = ax.imshow(grid, vmin=0, vmax=100, cmap="RdYlGn")
        ax.set_xticks(range(len(PLAYERS)), [NAMES[p] for p in PLAYERS])
        ax.set_yticks(range(len(PLAYERS)), [NAMES[p] for p in PLAYERS])
        for i in range(len(PLAYERS)):
            for j in range(len(PLAYERS)):
                if i != j:
                    ax.text(j, i, "%.0f" % grid[i][j], ha="center", va="center")
        ax.set_title("%s: %% of games the row player wins" % title)
    fig.colorbar(im, ax=axes)
    fig.savefig(os.path.join(out, "strength.png"), dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.15
    for k, lv in enumerate(PLAYERS):
        ax.bar([i + k * width for i in range(len(rows))], [r["minutes"][lv] for r in rows], width, label=NAMES[lv])
    ax.set_xticks([i + 2 * width for i in range(len(rows))], [r["name"] for r in rows], rotation=20, ha="right")
    ax.set_ylabel("minutes (simulated)")
    ax.set_title("Game length when both players play at the same level")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "length.png"), dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(11, 4))
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [r["moves_per_round"] for r in rows], 0.4, label="moves per round")
    ax.bar([i + 0.2 for i in x], [r["stalemates_per_round"] * 10 for r in rows], 0.4, label="stalemates per round x 10")
    ax.set_xticks(list(x), [r["name"] for r in rows], rotation=20, ha="right")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rounds.png"), dpi=90)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per pairing and configuration")
    ap.add_argument("--out", default=os.path.join("out", "simulation"))
    ap.add_argument("--quick", action="store_true", help="one process, no plots (tests)")
    args = ap.parse_args(argv)
    work = jobs(args.games)
    if args.quick:
        results = [one_game(j) for j in work]
    else:
        with Pool(os.cpu_count()) as pool:
            results = pool.map(one_game, work, chunksize=8)
    rows = summarise(results)
    spit_ids = {i for i, c in enumerate(CONFIGS) if not c[1]}
    speed_ids = {i for i, c in enumerate(CONFIGS) if c[1]}
    spit_wins = win_matrix(results, spit_ids)
    speed_wins = win_matrix(results, speed_ids)
    print("%d games (%d per pairing of Random and the four levels, per configuration)\n" % (len(results), args.games))
    print(
        "| configuration | games | rounds/game | moves/round | stalemates/round | faster player wins |"
        + "".join(" min, %s |" % NAMES[lv] for lv in PLAYERS)
    )
    print("|---|---|---|---|---|---|" + "---|" * len(PLAYERS))
    for r in rows:
        print(
            "| %s | %d | %.1f | %.0f | %.2f | %.0f %% |"
            % (
                r["name"],
                r["games"],
                r["rounds_per_game"],
                r["moves_per_round"],
                r["stalemates_per_round"],
                r["faster_wins"] * 100,
            )
            + "".join(" %.1f |" % r["minutes"][lv] for lv in PLAYERS)
        )
    for title, wins in (("Spit", spit_wins), ("Speed", speed_wins)):
        print("\n%s: %% of games the row player wins against the column player\n" % title)
        print("| | " + " | ".join(NAMES[p] for p in PLAYERS) + " |")
        print("|---|" + "---|" * len(PLAYERS))
        for a in PLAYERS:
            print(
                "| %s | " % NAMES[a]
                + " | ".join("-" if a == b else "%.0f" % (wins.get((a, b), 0) * 100) for b in PLAYERS)
                + " |"
            )
    if not args.quick:
        plot(rows, spit_wins, speed_wins, args.out)
        print(
            "\nplots: %s" % ", ".join(os.path.join(args.out, f) for f in ("strength.png", "length.png", "rounds.png"))
        )
    return results


if __name__ == "__main__":
    main()
