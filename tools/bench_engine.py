"""Engine benchmark: speed on CPython and on the MicroPython VM, and the VM heap.

    python tools/bench_engine.py [GAMES]

Prints one table. A "full move" is what one real-time step costs: both
players' legal moves generated and one of them applied. The floor is one pass
of a loop that only reads and writes each byte of a 52-byte bytearray: the
least any per-move work over the deck can cost. The ratio is floor passes per
second over full moves per second (target: at most 20). The heap is
gc.mem_alloc() for the imported engine plus one Game (target: at most 8 KB).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "tools", "bench_core.py")
VM = os.path.join(ROOT, "tools", "mpvm.mjs")


def figures(text):
    return {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", text, re.M)}


def run(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode:
        sys.exit("benchmark failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return figures(out.stdout)


def table(game, games):
    cpython = run([sys.executable, CORE, str(games), game], env=dict(os.environ, PYTHONPATH=ROOT))
    vm = run(["node", VM, "--pkg", "engine", CORE, str(games), game])
    heap = run(
        ["node", VM, "--pkg", "engine", "--steps", "vm_step", os.path.join(ROOT, "tests", "vm", "memory.py"), game]
    )
    heap = heap["engine_and_game"]
    print("%s engine, %d random games per interpreter (every rule set in turn)" % (game.capitalize(), games))
    print("%-36s %14s %14s" % ("", "CPython", "MicroPython VM"))
    rows = [
        ("full moves per second", "full_moves_per_s"),
        ("full games per second", "games_per_s"),
        ("moves per game (mean)", "moves_per_game"),
        ("floor passes per second", "floor_per_s"),
    ]
    for label, key in rows:
        print("%-36s %14d %14d" % (label, cpython[key], vm[key]))
    for name, f in (("CPython", cpython), ("MicroPython VM", vm)):
        print(
            "%-36s %14.1f   (target <= 20)"
            % ("full move / floor pass, " + name, f["floor_per_s"] / f["full_moves_per_s"])
        )
    print("%-36s %14d   (target <= 8192)" % ("VM heap: engine + one Game, bytes", heap))
    print()


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for game in ("spit", "speed"):
        table(game, games)


if __name__ == "__main__":
    main()
