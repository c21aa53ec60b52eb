"""The soak (make soak, never run by make test or CI): the checks of the ordinary
suite on many more games and matches (about 6 minutes on 2 cores), and make flash
on a machine with Python only:

- 2,000 more random Spit games and 2,000 Speed games to game over on the
  MicroPython VM, the same position after every move as on CPython
  (test_vm.py's 200 each; seeds 200 to 2199).
- a whole two-player match for every Spit rule set (16) and Speed rule
  set (4), the profiles in turn, through the board program on the VM: the final
  position, no allocation per ordinary move, the heap guard
  (test_board_vm.py's 3).
- the same matches through code.py on the desktop, fast, every scan's
  batch read by a slow loop (SPIT_LOOP_MS=20), and the board driver on CPython
  jumping and stepping every scan: the same final position each way.
- computer-against-computer matches, 8 seeds for each game, on the VM
  and on CPython alike (test_board_vm.py's 4).
- 5,000 random key events on every profile, 3 seeds each: the board program
  on the VM and CPython and the desktop end alike (test_board_vm.py's 2).
"""

import itertools
import os
import shutil
import subprocess
import sys

import pytest
from test_board_vm import (
    PROFILES,
    board_run,
    both,
    demo_replay,
    desktop_final,
    random_presses,
    whole_match_on_the_vm,
)
from test_code_py import run
from test_vm import run_cpython, run_vm

SPIT_RULES = ["".join(c) or "-" for n in range(5) for c in itertools.combinations("S4NC", n)]
SPEED_RULES = ["-", "S", "5", "S5"]
MATCHES = [(PROFILES[i % 4], "spit", 20 + i, r) for i, r in enumerate(SPIT_RULES)]
MATCHES += [(PROFILES[(i + 1) % 4], "speed", 40 + i, r) for i, r in enumerate(SPEED_RULES)]


@pytest.mark.parametrize("game", ["spit", "speed"])
@pytest.mark.parametrize("first", range(200, 2200, 250))
def test_random_games_same_on_cpython_and_vm(game, first):
    vm = run_vm("playout.py", first, 250, game).splitlines()
    assert len(vm) == 250 and all(" over:" in line for line in vm)
    assert run_cpython("playout.py", first, 250, game).splitlines() == vm


@pytest.mark.parametrize("profile,game,seed,rules", MATCHES)
def test_a_whole_match_on_the_vm(drives, profile, game, seed, rules):
    drive = drives[profile]
    replay, expected, _ = whole_match_on_the_vm(drive, profile, game, seed, rules, "soak")
    args = ("--replay", str(replay), "--set", "SPIT_SEED=%d" % seed)
    # The driver on CPython, jumping and stepping every scan, and code.py on
    # the desktop, fast and with a slow loop: the same match each way.
    assert board_run(drive, profile, *args, vm=False)["final"] == expected
    assert board_run(drive, profile, *args, "--every-scan", vm=False)["final"] == expected
    for env in ({}, {"SPIT_LOOP_MS": "20"}):
        out = run(["code.py"], dict(env, SPIT_PROFILE=profile, SPIT_REPLAY=str(replay), SPIT_SEED=str(seed)))
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == expected, env


@pytest.mark.parametrize("game", ["spit", "speed"])
@pytest.mark.parametrize("seed", range(1, 9))
def test_a_computer_against_computer_match(drives, game, seed):
    profile = PROFILES[seed % 4]
    drive = drives[profile]
    path = demo_replay(drive, profile, game)
    run_ = both(
        drive, profile, "--replay", str(path), "--set", "SPIT_SEED=%d" % seed, "--stop", "over", "--until", "3600000"
    )
    assert run_["final"].startswith(game + " over:")


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_random_presses_end_alike(drives, profile, seed):
    drive = drives[profile]
    replay = random_presses(drive, profile, seed, 5000)
    board = both(drive, profile, "--replay", str(replay), "--set", "SPIT_SEED=%d" % seed)
    assert desktop_final(profile, replay, seed) == board["final"]


def test_make_flash_on_a_machine_with_python_only(tmp_path):
    # A fresh virtual environment, and a PATH with no Node.js or npm on it:
    # make flash installs what it needs (requirements-flash.txt) and writes
    # the drive, compiled for the firmware its boot_out.txt names.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("make", "sh", "bash", "env", "touch", "test"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    os.symlink(os.path.realpath(sys.executable), bin_dir / "python3")  # the interpreter, not this venv
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.2.1 on 2025-10-21; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"
    )
    out = subprocess.run(
        ["make", "flash", "VENV=%s" % (tmp_path / "venv"), "CIRCUITPY=%s" % drive, "PROFILE=pico-ssd1306", "LINK=1"],
        cwd=root,
        env={"PATH": str(bin_dir), "HOME": os.environ.get("HOME", str(tmp_path))},
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (drive / "lib" / "adafruit_displayio_ssd1306.mpy").read_bytes()[:2] == b"C\x06"
    assert 'SPIT_PROFILE = "pico-ssd1306"\nSPIT_LINK = 1\n' in (drive / "settings.toml").read_text()
