"""Board benchmark: the whole program's heap and its allocation per move, on the MicroPython VM.

    python tools/bench_board.py [PROFILE...]

For each board profile, a drive is written by tools/flash.py (.py files,
which the VM runs as CircuitPython would) and code.py's board
branch runs from it on the VM with stand-ins for the hardware only
(tests/board_vm/): a whole two-player Spit match from key events
(tools/make_replay.py) and a whole computer-against-computer Speed match.
Figures (gc.mem_alloc() after a collection; the stand-in modules are not
counted, the displayio objects they make are):

- kept after start-up: the program in the menu;
- highest in use: the most between two passes of the loop during the match;
- allocated per ordinary move: bytes allocated from the key event to the
  screen update by a pass that applied one move and left the round in play.

Targets: highest in use at most 64 KB; no allocation per ordinary move.
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VM = os.path.join(ROOT, "tools", "mpvm.mjs")
DRIVER = os.path.join(ROOT, "tests", "board_vm", "boardrun.py")
PROFILES = ("pico-st7789-240", "pico-st7789-320", "pico-ssd1306", "pybadge", "cardputer")
BOARDS = {"pybadge": "pybadge", "cardputer": "cardputer"}  # the stand-in board of a profile (else a Pico)
DEMO_SPEED = ["p0.pile0", "p0.stock1"] + ["p0.pile0"] * 5 + ["p0.pile1"]


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        sys.exit("benchmark failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return out.stdout


def vm(drive, board, *args):
    out = run(
        [
            "node",
            VM,
            "--pkg",
            os.path.join(ROOT, "desktop"),
            "--heap",
            "163840",
            "--drive",
            drive,
            "--steps",
            "vm_step",
            DRIVER,
            "/drive",
            board,
            "--memory",
            "--alloc",
        ]
        + list(args)
    )
    figures = dict(re.findall(r"^(startup|peak) (\d+)$", out, re.M))
    m = re.search(r"^moves (\d+) allocating (\d+) bytes (\d+) max (\d+)$", out, re.M)
    if m:
        figures.update(zip(("moves", "allocating", "bytes", "max"), m.groups()))
    return {k: int(v) for k, v in figures.items()}


def measure(profile, tmp):
    drive = os.path.join(tmp, profile)
    os.makedirs(drive)
    run([sys.executable, os.path.join(ROOT, "tools", "flash.py"), drive, "--profile", profile, "--offline", "--force"])
    board = BOARDS.get(profile, "pico")
    run(
        [
            sys.executable,
            os.path.join(ROOT, "tools", "make_replay.py"),
            os.path.join(drive, "spit.txt"),
            "--profile",
            profile,
            "--seed",
            "3",
            "--gap",
            "260",
        ]
    )
    taps = [t.replace("stock1", "next") if profile == "pybadge" else t for t in DEMO_SPEED]
    with open(os.path.join(drive, "demo.txt"), "w") as f:
        f.write("".join("%d %s\n" % (500 + 300 * i, t) for i, t in enumerate(taps)))
    spit = ("--replay", "/drive/spit.txt", "--set", "SPIT_SEED=3")
    demo = ("--replay", "/drive/demo.txt", "--set", "SPIT_SEED=9", "--stop", "over", "--until", "3600000")
    return vm(drive, board, *spit), vm(drive, board, *demo)


def kb(n):
    return "%.1f" % (n / 1024)


def main(argv):
    names = argv[1:] or PROFILES
    print("Board program on the MicroPython VM: heap (KB) and bytes allocated per ordinary move")
    print()
    print(
        "| profile | kept after start-up | highest, Spit 2 players | highest, Speed demo "
        "| per move, Spit: mean / max / moves allocating | per move, Speed demo |"
    )
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            heap, heap_demo = measure(name, tmp)
            alloc, alloc_demo = heap, heap_demo

            def per_move(a):
                return "%d / %d / %d of %d" % (a["bytes"] // max(a["moves"], 1), a["max"], a["allocating"], a["moves"])

            print(
                "| %s | %s | %s | %s | %s | %s |"
                % (
                    name,
                    kb(heap["startup"]),
                    kb(heap["peak"]),
                    kb(heap_demo["peak"]),
                    per_move(alloc),
                    per_move(alloc_demo),
                )
            )
    print()
    print("Targets: highest in use at most 64 KB; no allocation per ordinary move.")
    print()
    print("Sound and lights on the VM: microseconds per loop pass (Feedback.update), per event, and the")
    print("heap their objects keep (the 5 ms keypad scan is 5000 us)")
    print()
    print("| board | output | idle | while a tune plays | an event | heap, B |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for profile, board, output in (
            ("pico-st7789-240", "pico", "piezo (PIO)"),
            ("pybadge", "pybadge", "synthio track + NeoPixels"),
        ):
            drive = os.path.join(tmp, profile)
            os.makedirs(drive)
            run(
                [
                    sys.executable,
                    os.path.join(ROOT, "tools", "flash.py"),
                    drive,
                    "--profile",
                    profile,
                    "--offline",
                    "--force",
                ]
            )
            out = run(
                [
                    "node",
                    VM,
                    "--pkg",
                    os.path.join(ROOT, "desktop"),
                    "--heap",
                    "163840",
                    "--drive",
                    drive,
                    "--steps",
                    "vm_step",
                    os.path.join(ROOT, "tests", "board_vm", "feedback_bench.py"),
                    "/drive",
                    board,
                ]
            )
            f = dict(re.findall(r"^(\w+) ([\d.]+)$", out, re.M))
            print("| %s | %s | %s | %s | %s | %s |" % (board, output, f["idle"], f["playing"], f["event"], f["heap"]))


if __name__ == "__main__":
    main(sys.argv)
