"""Pico benchmark: the figures of the real CircuitPython firmware in the emulated Pico.

    python tools/bench_pico.py [--profile pico-st7789-240] [--seconds 40]

Runs tools/picoemu.py five times on the profile's drive as make flash
writes it, and prints, in emulated time and the firmware's own heap:

- heap free at the top of code.py (before the game is imported);
- start-up: code.py's start to the menu drawn, and to a match's table
  drawn (SPIT_START);
- heap kept after a collection: after start-up in the menu, and 30 s into
  the match below (the measuring code.py's own few hundred bytes included);
- the lowest heap free between two passes during the match;
- a card press to the first and to the last pixel of the frame it changed
  (debounce included), median and worst over the presses of the first
  --seconds of a whole two-player match (tools/make_replay.py, seed 3, a tap
  every 300 ms);
- a menu press to its redrawn lines: moving down the list once round
  (MENU_PRESSES: two of them turn the page, which redraws every line);
- a refused press (a card that fits no pile) to the last pixel of its mark;
- the bytes allocated by each ordinary move of that match, press to pixels
  (a run of its own: tools/picoemu_probe.py turns the collector off while a
  pass runs, SPIT_PROBE_ALLOC).

Needs the firmware and bootrom (tools/picoemu.py says where); without them it
says so and exits 0, printing no figures.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import make_replay  # noqa: E402
import picoemu  # noqa: E402
sys.path.insert(0, picoemu.ROOT)
from engine.spit import SPIT, Game  # noqa: E402

SEED = 3
REFUSED_POSITION = ("spit play - 1 0:0 1.1.1 8D/9h,2C/2D/2H/2S 3c 6H/9s,10S/5H/5S/4C 3d AC,5C,6C,8C,10C,JC,QC,KC,"
                    "AD,4D,5D,6D,7D,9D,10D,JD,QD,KD,AH,3H,4H,7H,8H,10H,JH,QH,KH,AS,3S,4S,6S,7S,8S,JS,QS,KS,7C 9C")
GAP_MS = 300
MENU_PRESSES = 10  # the two-player menu's lines: once round the list
KEPT_MS = 30000  # when the match's heap is collected and read


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if v else None


def timings(run, skip=0):
    # (first, last) ms of the presses that drew something, after the first skip presses.
    return [(a, b) for _, a, b in run.press_to_pixels()[skip:] if a is not None]


def line(name, values):
    if not values:
        return "%-44s (nothing drawn)" % name
    return "%-44s median %6.1f ms, worst %6.1f ms (%d presses)" % (name, median(values), max(values), len(values))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="pico-st7789-240")
    ap.add_argument("--seconds", type=int, default=40, help="seconds of the match to play")
    args = ap.parse_args(argv)
    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("bench_pico: %s" % e)
        return 0
    profile = picoemu.profiles.get(args.profile)
    work = tempfile.mkdtemp(prefix="bench-pico-")

    menu_replay = os.path.join(work, "menu.txt")
    with open(menu_replay, "w") as f:
        f.write("".join("%d p0.stock1\n" % (1000 + 600 * i) for i in range(MENU_PRESSES))
                + "%d end\n" % (1000 + 600 * MENU_PRESSES))
    menu = picoemu.emulate(args.profile, menu_replay, {"SPIT_SEED": SEED}, work=os.path.join(work, "menu"))

    g = Game(SEED)
    g.play(0, SPIT)
    g.play(1, SPIT)
    table = picoemu.emulate(args.profile, None, {"SPIT_SEED": SEED, "SPIT_START": "/start.txt"},
                            {"start.txt": g.text() + "\n"}, until_ms=1000, work=os.path.join(work, "table"))

    lines, _ = make_replay.match(SEED, 0, profile, GAP_MS)
    end = args.seconds * 1000
    kept = [ln for ln in lines[1:] if int(ln.split()[0]) < end]
    match_replay = os.path.join(work, "match.txt")
    with open(match_replay, "w") as f:
        f.write("\n".join(kept) + "\n%d end\n" % end)
    match = picoemu.emulate(args.profile, match_replay, {"SPIT_SEED": SEED, "SPIT_PROBE_KEPT_MS": KEPT_MS},
                            work=os.path.join(work, "match"))
    counted = picoemu.emulate(args.profile, match_replay, {"SPIT_SEED": SEED, "SPIT_PROBE_ALLOC": "1"},
                              work=os.path.join(work, "alloc"))
    # Refused presses: player 0's 2D fits neither 7C nor 9C, pressed every 1.5 s.
    refused_replay = os.path.join(work, "refused.txt")
    with open(refused_replay, "w") as f:
        f.write("".join("%d p0.stock2\n" % (1500 + 1500 * i) for i in range(6)) + "10500 end\n")  # (after the first draw)
    refused = picoemu.emulate(args.profile, refused_replay, {"SPIT_SEED": SEED, "SPIT_START": "/refused.txt"},
                              {"refused.txt": REFUSED_POSITION + "\n"}, work=os.path.join(work, "refused"))

    def probe(run, what, i):
        words = (run.probe(what) or "").split()
        return int(words[i]) if len(words) > i else None

    top = probe(menu, "top", 1)
    t0 = probe(menu, "top", 0)
    print("CircuitPython Pico firmware in rp2040js, profile %s" % args.profile)
    print("%-44s %d B" % ("heap free at the top of code.py", top))
    print("%-44s %d ms" % ("start-up to the menu drawn", probe(menu, "drawn", 0) - t0))
    print("%-44s %d ms" % ("start-up to a match's table drawn", probe(table, "drawn", 0) - probe(table, "top", 0)))
    for name, run, left in (("after start-up, menu", menu, probe(menu, "ready", 2)),
                            ("%d s into a match" % (KEPT_MS // 1000), match, probe(match, "kept", 1))):
        print("%-44s %.1f KB kept, %.1f KB free" % ("heap %s (collected)" % name, (top - left) / 1024, left / 1024))
    print("%-44s %.1f KB" % ("lowest heap free between passes, match", probe(counted, "end", 1) / 1024))
    moves, allocating, total, most = (probe(counted, "alloc", i) for i in range(4))
    print("%-44s %d of %d moves allocated, %d B in all, %d B at most"
          % ("bytes allocated per ordinary move, match", allocating, moves, total, most))
    skip = len(make_replay.menu_taps(0, 0, profile["cursor"]))
    card = timings(match, skip)
    print(line("card press to first pixel", [a for a, _ in card]))
    print(line("card press to last pixel", [b for _, b in card]))
    print(line("menu press to its last pixel", [b for _, b in timings(menu)]))
    print(line("refused press to its mark's last pixel", [b for _, b in timings(refused)]))
    same = match.probe("position")
    print("match position after %d s: %s" % (args.seconds, same))
    return 0


if __name__ == "__main__":
    sys.exit(main())
