"""The unchanged engine/ package on a real MicroPython VM (WebAssembly, under Node.js)."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VM = os.path.join(ROOT, "tools", "mpvm.mjs")
SCRIPTS = os.path.join(ROOT, "tests", "vm")
# What the board VM's stand-ins (tests/board_vm) load beside the drive: the
# flash model of nvm and the keypad's scan times.
STAND_IN_PKGS = ("desktop",)


def run_vm(script, *args, pkgs=("engine",), drive=None, steps=None, heap=None):
    """Run a script of tests/vm (or any path) on the VM with the packages copied
    in, a drive folder as /drive when given, and its function steps called from
    the host until it returns False (mpvm.mjs --steps). A small heap (it grows
    by itself) keeps the collections and gc.mem_alloc() of such steps quick."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the MicroPython VM tests"
    assert os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython")), "run 'make install' first"
    out = subprocess.run(
        [
            node,
            VM,
            *[a for p in pkgs for a in ("--pkg", os.path.join(ROOT, p))],
            *(("--drive", drive) if drive else ()),
            *(("--steps", steps) if steps else ()),
            *(("--heap", str(heap)) if heap else ()),
            os.path.join(SCRIPTS, script),
        ]
        + [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def run_cpython(script, *args, env=None):
    env = dict(os.environ, PYTHONPATH=ROOT) if env is None else env
    out = subprocess.run(
        [sys.executable, os.path.join(SCRIPTS, script), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_vm_is_micropython(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\nprint(sys.implementation.name)\n")
    assert run_vm(str(probe)).strip() == "micropython"


@pytest.mark.parametrize("first", [0, 100])  # 200 games, in two halves that run side by side
def test_200_random_games_to_game_over_same_on_cpython_and_vm(first):
    vm = run_vm("playout.py", first, 100).splitlines()
    assert len(vm) == 100
    for line in vm:
        seed, moves, rounds, winner = line.split()[:4]
        assert winner in ("0", "1") and " over:" + winner + " " in line
    # Same seed and same moves: same position after every move (the running
    # checksum) and the same final position, on both interpreters.
    assert run_cpython("playout.py", first, 100).splitlines() == vm


def test_no_allocation_in_moves_play_or_redeal_under_heap_lock():
    out = run_vm("heaplock.py", 0, 64).splitlines()
    assert out[0] == "heap_lock works"
    games = out[1:]
    assert len(games) == 64
    bad = [line for line in games if not line.startswith("ok ")]
    assert not bad, bad
    assert sum(int(line.split()[3]) for line in games) > 10000  # moves played locked


def test_engine_plus_one_game_heap_is_reported():
    out = run_vm("memory.py", steps="vm_step")
    m = re.match(r"engine_and_game (\d+)$", out.strip())
    assert m, out
    used = int(m.group(1))
    print("VM heap, engine + one Game:", used, "bytes")
    # The target is 8 KB (see the benchmark); this guards against regressions.
    assert 0 < used < 11000


def test_key_events_become_moves_without_allocation():
    out = run_vm("controls.py", 3, 5000, pkgs=("engine", "hardware")).splitlines()
    assert [line.split()[:2] for line in out] == [["ok", "handheld14"], ["ok", "pybadge"]]
    for line in out:
        attempts, applied = map(int, line.split()[2:])
        assert applied > 20 and attempts >= applied  # the locked run really played


def test_a_scene_reads_its_keys_without_allocation():
    # A menu's pass: Buttons.poll(None, scene), the presses to scene.press (D-5's order).
    out = run_vm("scene_keys.py", 200, pkgs=("engine", "hardware")).split()
    assert out[0] == "ok", out
    passes, presses, player0, player1 = map(int, out[1:])
    assert passes == 400 and presses == 100  # every press reached the scene (the releases do not)
    assert player0 + player1 == 100 and player0 > 30 and player1 > 30  # each to its player


def test_saving_and_loading_a_round_on_micropython():
    out = run_vm("storage.py", pkgs=("engine", "hardware"))
    assert out.strip() == "ok 20"


@pytest.mark.parametrize("first", [0, 100])
def test_speed_200_random_games_same_on_cpython_and_vm(first):
    vm = run_vm("playout.py", first, 100, "speed").splitlines()
    assert len(vm) == 100
    assert all(line.split()[3] in ("0", "1") for line in vm)
    assert run_cpython("playout.py", first, 100, "speed").splitlines() == vm


def test_speed_no_allocation_under_heap_lock():
    out = run_vm("heaplock.py", 0, 64, "speed").splitlines()
    assert out[0] == "heap_lock works"
    assert all(line.startswith("ok ") for line in out[1:]) and len(out) == 65


def test_speed_engine_plus_one_game_heap_is_reported():
    m = re.match(r"engine_and_game (\d+)$", run_vm("memory.py", "speed", steps="vm_step").strip())
    assert m
    print("VM heap, Speed engine + one Game:", m.group(1), "bytes")
    assert 0 < int(m.group(1)) < 11000


def test_bot_decides_without_allocating_on_micropython():
    lines = run_vm("bot.py", 5).splitlines()
    assert [line.split()[:2] for line in lines] == [["ok", "spit"], ["ok", "speed"]]
    for line in lines:
        decisions, us = map(int, line.split()[2:])
        print("VM bot decision + move, %s: %d us" % (line.split()[1], us))
        assert decisions > 100
