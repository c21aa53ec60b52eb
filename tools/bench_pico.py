"""Pico benchmark: the figures of the real CircuitPython firmware in the emulated Pico.

    python tools/bench_pico.py [--profile NAME ...] [--seconds 40]

Runs tools/picoemu.py five times on each profile's drive as make flash
writes it (by default the 240x240 ST7789 and the SSD1306 OLED, printed side
by side), and prints, in emulated time and the firmware's own heap:

- heap free at the top of code.py (before the game is imported);
- start-up: code.py's start to the menu drawn, and to a match's table
  drawn (SPIT_START);
- heap kept after a collection: after start-up in the menu, and 30 s into
  the match below (the measuring code.py's own few hundred bytes included);
- the lowest heap free between two passes during the match;
- a card press to the first and to the last pixel of the frame it changed
  (debounce included), median and worst over the presses of the first
  --seconds of a whole two-player match (tools/make_replay.py, seed 3, a tap
  every 300 ms), and the same by what the press changed (make_replay's
  kinds: a card played, a card chosen, a phase such as a spit call, a new
  round), against the goals (KINDS); on the OLED the last pixel is the last
  byte on the I2C bus; and to the last pixel of the frames that follow the
  first within 100 ms (a pass on: the counts, the back edges and the middle's
  words, which the game draws after the cards);
- a menu press to its redrawn lines: moving down the list once round
  (MENU_PRESSES: two of them turn the page, which redraws every line: the
  chosen line in the press's own frame, the others a line a pass after
  it), and to the last of those lines;
- a refused press (a card that fits no pile) to the last pixel of its mark,
  and to its word in the middle (a pass on);
- the bytes allocated by each ordinary move of that match, press to pixels
  (a run of its own: tools/picoemu_probe.py turns the collector off while a
  pass runs, SPIT_PROBE_ALLOC);
- on the OLED, the bus time of the match's display writes a byte.

With --session, instead: a session of six matches in a row without a restart
(tools/session.py: two people at Spit and at Speed, Speed and Spit against
the computer, linked Spit and linked Speed with a second emulated Pico), back
to the menu between each: the heap free in the menu after each match (a
collection first) and its growth from the first, the lowest free between
passes in each match and the lowest just after a collection (what lives:
the headroom a MemoryError would meet; the first counts garbage too, as
CircuitPython collects only when an allocation fails), the largest block the
heap gives 4 s into each match
and in the menu, and the names the firmware can still intern at the end.
--rounds N plays the six N times in a row, and prints the menu after each
match of a later round against the same match's in the round before. Like
with like, what the heap keeps in the menu is the same (the match offered
as Resume, and the names interned for good: the first round's linked
matches intern theirs after the four one-device matches have been
measured, so the second round's one-device menus keep them too), so from
the third round on a difference is growth.
Goals: no MemoryError; no growth: with --rounds 3, the menu after each
match of the third round within 1 KB of the same match's in the second;
lowest free at least 56 KB linked, 72 KB on one device; the largest block
at least 24 KB.

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
REFUSED_POSITION = (
    "spit play - 1 0:0 1.1.1 8D/9h,2C/2D/2H/2S 3c 6H/9s,10S/5H/5S/4C 3d AC,5C,6C,8C,10C,JC,QC,KC,"
    "AD,4D,5D,6D,7D,9D,10D,JD,QD,KD,AH,3H,4H,7H,8H,10H,JH,QH,KH,AS,3S,4S,6S,7S,8S,JS,QS,KS,7C 9C"
)
GAP_MS = 300
MENU_PRESSES = 10  # the two-player menu's lines: once round the list
KEPT_MS = 30000  # when the match's heap is collected and read


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if v else None


def timings(run, skip=0):
    # (first, last) ms of the presses that drew something, after the first skip presses.
    return [(a, b) for _, a, b in run.press_to_pixels()[skip:] if a is not None]


# make_replay.match's kinds of a match's presses, and the worst each may take
# to its frame's last pixel on the colour panels and on the OLED (the team's
# goals): a card onto a pile, a card into an empty stock (SP-6), both piles
# turned, a new round's whole table.
KINDS = (
    ("play", 22, 20),
    ("fill", 30, 25),
    ("choose", None, None),
    ("turn", 45, 35),
    ("phase", None, None),
    ("new round", 180, 100),
)
REFUSED_GOAL = (20, 18)  # a refused press to its mark's last pixel
MENU_GOAL = (50, 50)  # a menu press, page turns included


def _met(last, goal):
    # ", worst <= GOAL" or ", worst OVER GOAL" ("" where no goal or no press).
    if goal is None or not last:
        return ""
    return ", worst %s %d" % ("<=" if max(last) <= goal else "OVER", goal)


def spread(values):
    # "median / worst ms (presses)"
    if not values:
        return "(nothing drawn)"
    return "%.1f / %.1f ms (%d)" % (median(values), max(values), len(values))


def measure(name, seconds, work, files=None, without=()):
    """The figures of one profile: (label, text) rows. files and without
    change every drive it runs (picoemu.write_drive: tools/bench_text.py
    swaps the text module so)."""
    profile = picoemu.profiles.get(name)

    def emulate(profile_name, replay, settings, more=None, **kw):
        return picoemu.emulate(profile_name, replay, settings, dict(files or {}, **(more or {})), without=without, **kw)

    work = os.path.join(work, name)
    menu_replay = os.path.join(work, "menu.txt")
    os.makedirs(work)
    with open(menu_replay, "w") as f:
        f.write(
            "".join("%d p0.stock1\n" % (1000 + 600 * i) for i in range(MENU_PRESSES))
            + "%d end\n" % (1000 + 600 * MENU_PRESSES)
        )
    menu = emulate(name, menu_replay, {"SPIT_SEED": SEED}, work=os.path.join(work, "menu"))

    g = Game(SEED)
    g.play(0, SPIT)
    g.play(1, SPIT)
    table = emulate(
        name,
        None,
        {"SPIT_SEED": SEED, "SPIT_START": "/start.txt"},
        {"start.txt": g.text() + "\n"},
        until_ms=1000,
        work=os.path.join(work, "table"),
    )

    kinds = []
    lines, _ = make_replay.match(SEED, 0, profile, GAP_MS, kinds=kinds)
    end = seconds * 1000
    kept = [ln for ln in lines[1:] if int(ln.split()[0]) < end]
    match_replay = os.path.join(work, "match.txt")
    with open(match_replay, "w") as f:
        f.write("\n".join(kept) + "\n%d end\n" % end)
    match = emulate(
        name, match_replay, {"SPIT_SEED": SEED, "SPIT_PROBE_KEPT_MS": KEPT_MS}, work=os.path.join(work, "match")
    )
    counted = emulate(
        name,
        match_replay,
        {"SPIT_SEED": SEED, "SPIT_PROBE_ALLOC": "1", "SPIT_PROBE_NAMES": "1"},
        work=os.path.join(work, "alloc"),
    )
    # Refused presses: player 0's 2D fits neither 7C nor 9C, pressed every 1.5 s.
    refused_replay = os.path.join(work, "refused.txt")
    with open(refused_replay, "w") as f:
        f.write(
            "".join("%d p0.stock2\n" % (1500 + 1500 * i) for i in range(6)) + "10500 end\n"
        )  # (after the first draw)
    refused = emulate(
        name,
        refused_replay,
        {"SPIT_SEED": SEED, "SPIT_START": "/refused.txt"},
        {"refused.txt": REFUSED_POSITION + "\n"},
        work=os.path.join(work, "refused"),
    )

    def probe(run, what, i):
        words = (run.probe(what) or "").split()
        return int(words[i]) if len(words) > i else None

    top = probe(menu, "top", 1)
    t0 = probe(menu, "top", 0)
    rows = [
        ("heap free at the top of code.py", "%d B" % top),
        ("start-up to the menu drawn", "%d ms" % (probe(menu, "drawn", 0) - t0)),
        ("start-up to a match's table drawn", "%d ms" % (probe(table, "drawn", 0) - probe(table, "top", 0))),
    ]
    for what, _, left in (
        ("after start-up, menu", menu, probe(menu, "ready", 2)),
        ("%d s into a match" % (KEPT_MS // 1000), match, probe(match, "kept", 1)),
    ):
        rows.append(("heap kept %s (collected)" % what, "%.1f KB (%.1f KB free)" % ((top - left) / 1024, left / 1024)))
    rows.append(("lowest heap free between passes, match", "%.1f KB" % (probe(counted, "end", 1) / 1024)))
    left, pool = probe(counted, "names", 0), probe(counted, "names", 1)
    rows.append(
        (
            "names the firmware can still intern, match",
            "%d, then a pool of %.1f KB" % (left, pool / 1024) if pool else "- (not read before the run's end)",
        )
    )
    moves, allocating, total, most = (probe(counted, "alloc", i) for i in range(4))
    rows.append(
        ("bytes allocated per ordinary move", "%d of %d moves, %d B, %d B at most" % (allocating, moves, total, most))
    )
    skip = len(make_replay.menu_taps(0, 0, profile["cursor"]))
    card = timings(match, skip)
    rows.append(("card press to first pixel, median / worst", spread([a for a, _ in card])))
    rows.append(("card press to last pixel, median / worst", spread([b for _, b in card])))
    # The same presses by what they changed (the last pixel: on the OLED
    # the last byte on the bus).
    pressed = match.press_to_pixels()
    frames = match.press_frames()
    per_byte = 8 if profile["display"] == "ssd1306" else 0.5  # pixels a byte on the bus (1 bit; RGB565)
    settled = match.press_to_settled()
    oled = 1 if profile["display"] == "ssd1306" else 0
    for kind, *goals in KINDS:
        goal = goals[oled]
        last = [p[2] for p, k in zip(pressed, kinds) if k == kind and p[1] is not None]
        sent = sorted(int(f[2] / per_byte) for f, k in zip(frames, kinds) if k == kind and f is not None)
        rows.append(("  a press that is %s" % kind, spread(last) + _met(last, goal)))
        whole = [s for s, k in zip(settled, kinds) if k == kind and s is not None]
        rows.append(("    to its counts and words drawn (a pass on)", spread(whole)))
        rows.append(
            ("    its bytes to the display, median / most", "%d / %d B" % (median(sent), sent[-1]) if sent else "-")
        )
    last = [b for _, b in timings(menu)]
    rows.append(("menu press to its last pixel", spread(last) + _met(last, MENU_GOAL[oled])))
    whole = [s for s in menu.press_to_settled() if s is not None]
    rows.append(("  to its page drawn (a page turned: a line a pass)", spread(whole)))
    last = [b for _, b in timings(refused)]
    rows.append(("refused press to its mark's last pixel", spread(last) + _met(last, REFUSED_GOAL[oled])))
    whole = [s for s in refused.press_to_settled() if s is not None]
    rows.append(("  to its word drawn (a pass on)", spread(whole)))
    # The I2C's own pace: the display writes' bytes over their time on the
    # wire (a transaction from its first data byte to its stop).
    sent = sum(w[5] for _, w in match.writes) // 8
    wire = sum(last - w[4] for last, w in match.writes)
    rows.append(
        (
            "OLED bus: the match's display bytes, a byte",
            "%d B in %.0f ms: %.1f us" % (sent, wire, 1000 * wire / sent)
            if profile["display"] == "ssd1306" and sent
            else "-",
        )
    )
    rows.append(("match position after %d s" % seconds, match.probe("position") or "(none)"))
    return rows


def session_figures(work, name="pico-st7789-240", rounds=1):
    """The session on two emulated Picos (tools/session.py), its six matches
    played rounds times in a row: printed, and (device 0's menu lines, match
    lines, names) returned."""
    import session

    a_lines, b_lines, end = session.replays(rounds)
    paths = []
    for i, lines in enumerate((a_lines, b_lines)):
        path = os.path.join(work, "session%d.txt" % i)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n%d end\n" % end)
        paths.append(path)
    settings = {"SPIT_SEED": SEED, "SPIT_PROBE_SESSION": "1", "SPIT_PROBE_NAMES": "1", "SPIT_PROBE_MS": end - 500}
    each = ({"SPIT_NONCE": 0x9000}, {"SPIT_NONCE": 0x1000})
    runs = picoemu.emulate_pair(name, paths, settings, until_ms=end, work=os.path.join(work, "session"), each=each)
    print(
        "A session of %d matches in a row on emulated Picos (%s; CircuitPython's own heap):"
        % (len(session.MATCHES) * rounds, name)
    )
    out = None
    for d, run in enumerate(runs):
        lines = [line for _, line in run.console]
        errors = [line for line in lines if "Error" in line]
        menus = [[int(w) for w in line.split()[2:]] for line in lines if line.startswith("probe menu ")]
        matches = [[int(w) for w in line.split()[2:]] for line in lines if line.startswith("probe match ")]
        played = (session.MATCHES if d == 0 else session.MATCHES[4:]) * rounds
        print(
            "device %d: %d matches to the menu of %d%s"
            % (d, len(menus), len(played), (": " + "; ".join(errors)) if errors else "")
        )
        per_round = len(played) // rounds
        for i, (game, who) in enumerate(played):
            m = menus[i] if i < len(menus) else None
            k = matches[i] if i < len(matches) else None
            same = menus[i - per_round] if i >= per_round and m else None  # the same match in the round before
            print(
                "  %-6s %-8s lowest free in it %s (after a collection %s); 4 s in: free %s, largest block %s; "
                "then the menu: free %s (%s%s), largest block %s, the heap's size %s"
                % (
                    game,
                    who,
                    "%.1f KB" % (m[3] / 1024) if m else "-",
                    "%.1f KB" % (m[4] / 1024) if m and len(m) > 4 else "-",
                    "%.1f KB" % (k[1] / 1024) if k else "-",
                    "%.1f KB" % (k[2] / 1024) if k else "-",
                    "%.1f KB" % (m[1] / 1024) if m else "-",
                    "%+d B from the first" % (m[1] - menus[0][1]) if m else "-",
                    "; %+d B from the same match's in the round before" % (m[1] - same[1]) if same else "",
                    "%.1f KB" % (m[2] / 1024) if m else "-",
                    "%d B" % m[5] if m and len(m) > 5 else "-",
                )
            )
        top = (run.probe("top") or "0 0 0").split()
        print(
            "  the heap's size at the start %s B, after the last match %s B"
            % (top[2] if len(top) > 2 else "-", menus[-1][5] if menus and len(menus[-1]) > 5 else "-")
        )
        names = (run.probe("names") or "-1 0").split()
        print("  names it can still intern at the end: %s, then a pool of %.1f KB" % (names[0], int(names[1]) / 1024))
        if d == 0:
            out = (menus, matches, names)
    print(
        "  goals: no MemoryError; no growth: the menu after each match of the third round within 1 KB of the same "
        "match's in the second (--rounds 3: the first interns for good the names the later matches use); lowest "
        "free >= 56 KB linked, >= 72 KB on one device; largest block >= 24 KB"
    )
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--profile",
        action="append",
        help="a Pico profile (again for more; default: pico-st7789-240 and pico-ssd1306, side by side)",
    )
    ap.add_argument("--seconds", type=int, default=40, help="seconds of the match to play")
    ap.add_argument("--session", action="store_true", help="a session of six matches instead (heap over time)")
    ap.add_argument(
        "--rounds", type=int, default=1, help="with --session: its six matches this many times in a row (3: growth)"
    )
    args = ap.parse_args(argv)
    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("bench_pico: %s" % e)
        return 0
    if args.session:
        session_figures(tempfile.mkdtemp(prefix="bench-session-"), rounds=args.rounds)
        return 0
    names = args.profile or ["pico-st7789-240", "pico-ssd1306"]
    work = tempfile.mkdtemp(prefix="bench-pico-")
    columns = [measure(name, args.seconds, work) for name in names]
    print("CircuitPython Pico firmware in rp2040js (emulated time, the firmware's own heap)")
    width = 2 + max(len(rows[i][1]) for rows in columns for i in range(len(rows)) if not rows[i][0].startswith("match"))
    print("%-44s %s" % ("", "".join("%-*s" % (width, name) for name in names)))
    for i, (label, _) in enumerate(columns[0]):
        if label.startswith("match position"):
            for name, rows in zip(names, columns):
                print("%s, %s: %s" % (label, name, rows[i][1]))
            continue
        print("%-44s %s" % (label, "".join("%-*s" % (width, rows[i][1]) for rows in columns)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
