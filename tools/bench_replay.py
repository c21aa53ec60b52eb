"""Replay benchmark: seconds for a whole match replayed headless through code.py.

    python tools/bench_replay.py [--seed N] [--runs N]

Writes the replay of a whole Spit match (tools/make_replay.py, a tap every
260 ms, seed 3 by default: 1,213 taps), then times code.py on it, the wall
time of the whole process (Python's start included), the best of --runs:
  fast          the default: jumps over idle scans, draws the last frame only
  fast, frames  SPIT_FRAMES: every frame that changed drawn and saved as PNG
  every scan    SPIT_FAST=0: a pass every 5 ms, every frame drawn
Each run must print the final position the replay was made for. Target (issue
12): the default at most 2 s on the development machine.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(env, expected, runs):
    best = None
    for _ in range(runs):
        e = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        e.update(env)
        t0 = time.monotonic()
        out = subprocess.run(
            [sys.executable, os.path.join(ROOT, "code.py")], capture_output=True, text=True, cwd=ROOT, env=e
        )
        spent = time.monotonic() - t0
        if out.returncode != 0 or out.stdout.strip().splitlines()[-1] != expected:
            sys.exit("the replay did not end as made:\n" + out.stdout + out.stderr)
        best = spent if best is None else min(best, spent)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        replay = os.path.join(tmp, "match.txt")
        made = subprocess.run(
            [
                sys.executable,
                os.path.join(ROOT, "tools", "make_replay.py"),
                replay,
                "--seed",
                str(args.seed),
                "--gap",
                "260",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        expected = made.stdout.strip().splitlines()[-1]
        taps = sum(1 for line in open(replay) if line.split("#")[0].strip())
        base = {"SPIT_REPLAY": replay, "SPIT_SEED": str(args.seed)}
        print("whole Spit match, seed %d: %d taps, %s" % (args.seed, taps, expected.split()[0]))
        print("%-14s %8s" % ("replay", "seconds"))
        print("%-14s %8.2f" % ("fast", timed(base, expected, args.runs)))
        frames = dict(base, SPIT_FRAMES=os.path.join(tmp, "frames"))
        print("%-14s %8.2f" % ("fast, frames", timed(frames, expected, 1)))
        print("%-14s %8.2f" % ("every scan", timed(dict(base, SPIT_FAST="0"), expected, 1)))


if __name__ == "__main__":
    main()
