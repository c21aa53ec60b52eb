"""What the emulated Pico's heap holds in a match: which modules' code is live, and the names.

    python tools/heap_map.py [--linked] [--profile NAME]

The game runs on CircuitPython's own Pico build in the emulator
(tools/picoemu.py; the firmware must be in ~/.cache/spit-pico/): a match
from its replay (one device, as tools/bench_pico.py plays it), or with
--linked a linked match on two emulated Picos (tools/bench_linked.py's). When
the probe prints "probe kept" (the heap just collected) the chip's RAM is
read, the collector's live blocks are found from its allocation tables
(py/gc.c: each area of the split heap, two bits a 16-byte block), and each
compiled module of the drive is looked for in them: the share of its code
and constants (its .mpy past the names) found in live blocks. A module the
match has forgotten (not in sys.modules) whose code is live is held by
something the game keeps: a function or a closure of it (board_setup's
UART opener was one, 4 KB a linked match), a class, a bound method. Rarely
a word the collector takes for a pointer holds one (the collector is
conservative): a change elsewhere then lets it go.

Then the names: every name a module loaded from a file used is interned
for good in the heap (py/qstr.c: pools that double as they grow, the text
in chunks), even when its module is gone. The pools are found among the
live blocks by their header; the report gives their count and room, and
the names no loaded module uses (those of start-up, the menu, the lobby).

A figure to read, not a test: the shares are a few per cent for a module
whose code is gone (its constants' words can match the kept ones'), a half
or more for one that is loaded.
"""

import argparse
import glob
import os
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import picoemu  # noqa: E402

sys.path.insert(0, picoemu.ROOT)
from hardware import profiles  # noqa: E402

SRAM = 0x20000000
SRAM_END = 0x20042000
BLOCK = 16
WINDOW = 12  # bytes of a module's code looked for at a time
KEPT_MS = 20000


def _word(ram, addr):
    return struct.unpack_from("<I", ram, addr - SRAM)[0]


def gc_areas(ram):
    """The collector's areas, [(alloc table, its bytes, pool start)]: found
    by their mp_state_mem_area_t (next, the alloc table, its length, the
    finaliser table just after it, the collect table, the pool, its end)."""
    found = {}
    for at in range(SRAM, SRAM + len(ram) - 28, 4):
        atb, n = _word(ram, at + 4), _word(ram, at + 8)
        if not (SRAM <= atb < SRAM_END and 0 < n < 0x10000):
            continue
        ftb, ctb, pool, end = (_word(ram, at + 4 * i) for i in range(3, 7))
        if ftb == atb + n + 1 and ctb > ftb and pool >= ctb and end == pool + 4 * n * BLOCK:
            found[atb] = (atb, n, pool)
    return sorted(found.values())


def live_blocks(ram):
    """[(address, bytes)] of every allocated block of the heap."""
    out = []
    for atb, n, pool in gc_areas(ram):
        table = ram[atb - SRAM : atb - SRAM + n]
        kinds = [(table[b >> 2] >> (2 * (b & 3))) & 3 for b in range(4 * n)]  # free, head, tail, mark
        b = 0
        while b < len(kinds):
            if kinds[b] == 1:
                size = 1
                while b + size < len(kinds) and kinds[b + size] == 2:
                    size += 1
                out.append((pool + BLOCK * b, BLOCK * size))
                b += size
            else:
                b += 1
    return out


def _vuint(data, i):
    v = 0
    while True:
        c = data[i]
        i += 1
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i


def _name_table(mpy):
    """An .mpy file's names that are not the firmware's own (odd entries name
    one of those by its number), and where the table ends."""
    i = 4
    count, i = _vuint(mpy, i)
    _, i = _vuint(mpy, i)  # (the constants: they die with the module, and are looked for)
    names = []
    for _ in range(count):
        v, i = _vuint(mpy, i)
        if not v & 1:
            names.append(bytes(mpy[i : i + (v >> 1)]))
            i += (v >> 1) + 1
    return names, i


def code_of(mpy):
    """An .mpy file's bytes past its header and its names (a name stays
    interned when its module is gone: it says nothing of the code)."""
    return mpy[_name_table(mpy)[1] :]


def names_of(mpy):
    """The names an .mpy file interns when loaded (not the firmware's own)."""
    return _name_table(mpy)[0]


def _modules(drive):
    """[(module name, its .mpy file's path)] of a drive's compiled modules."""
    out = []
    for path in sorted(glob.glob(os.path.join(drive, "*", "*.mpy"))):
        rel = os.path.relpath(path, drive)[: -len(".mpy")].replace(os.sep, ".")
        out.append((rel[: -len(".__init__")] if rel.endswith(".__init__") else rel, path))
    return out


def name_pools(ram, blocks):
    """The interned names in the heap: [(pool address, bytes, its names)]
    for every live block that is a qstr_pool_t (py/qstr.h: prev, the count
    before it, alloc, len, then the hashes' and lengths' addresses just past
    its alloc pointers)."""
    out = []
    for a, n in blocks:
        if n < 24:
            continue
        alloc, used, hashes, lengths = (_word(ram, a + 4 * i) for i in range(2, 6))
        if not (0 < alloc and used <= alloc and hashes == a + 24 + 4 * alloc and lengths == hashes + alloc):
            continue
        names = []
        for i in range(used):
            at, length = _word(ram, a + 24 + 4 * i), ram[lengths - SRAM + i]
            names.append((at, bytes(ram[at - SRAM : at - SRAM + length]) if SRAM <= at < SRAM_END else b""))
        out.append((a, n, names))
    return out


def names_report(ram, blocks, drive, loaded):
    """One line: the names the firmware interned in its heap, the room their
    pools and texts take, and those only forgotten modules used."""
    pools = name_pools(ram, blocks)
    texts = set()
    for _, _, names in pools:
        for at, _ in names:
            for a, n in blocks:
                if a <= at < a + n:
                    texts.add((a, n))
                    break
    users = {}
    for name, path in _modules(drive):
        with open(path, "rb") as f:
            for q in names_of(f.read()):
                users.setdefault(q, set()).add(name)
    interned = [q for _, _, names in pools for _, q in names]
    gone = [q for q in interned if q in users and not users[q] & loaded]
    return (
        "  names interned: %d in pools of %d (%.1f KB), their text %.1f KB;"
        " %d of them (%.1f KB) only forgotten modules use"
        % (
            len(interned),
            sum(_word(ram, a + 8) for a, _, _ in pools),
            sum(n for _, n, _ in pools) / 1024,
            sum(n for _, n in texts) / 1024,
            len(gone),
            sum(len(q) + 7 for q in gone) / 1024,
        )
    )


def shares(ram, blocks, drive):
    """{module: (.mpy bytes, share of its code's windows in the live blocks)}."""
    live = b"\0\0".join(ram[a - SRAM : a - SRAM + n] for a, n in blocks)
    out = {}
    for name, path in _modules(drive):
        with open(path, "rb") as f:
            mpy = f.read()
        code = code_of(mpy)
        windows = [code[i : i + WINDOW] for i in range(0, len(code) - WINDOW, WINDOW)]
        windows = [w for w in windows if len(set(w)) > WINDOW // 2]  # (not runs of zeros and the like)
        if not windows:
            continue
        out[name] = (len(mpy), sum(1 for w in windows if w in live) / len(windows))
    return out


def _one(profile, work):
    import make_replay

    lines, _ = make_replay.match(3, 0, profile, 300)
    kept = [ln for ln in lines[1:] if int(ln.split()[0]) < KEPT_MS + 1000]
    replay = os.path.join(work, "match.txt")
    with open(replay, "w") as f:
        f.write("\n".join(kept) + "\n%d end\n" % (KEPT_MS + 1000))
    settings = {"SPIT_SEED": 3, "SPIT_PROBE_KEPT_MS": KEPT_MS, "SPIT_PROBE_MODULES": 1}
    run = picoemu.emulate(profile["name"], replay, settings, work=work, sram_at="probe kept")
    return [(run, os.path.join(work, "drive"))]


def _linked(profile, work):
    from bench_linked import pico_match

    paths, until, settings, each = pico_match(work, 20)
    settings["SPIT_PROBE_MODULES"] = 1
    runs = picoemu.emulate_pair(
        profile["name"], paths, settings, until_ms=until, work=work, each=each, sram_at="probe kept"
    )
    return [(r, os.path.join(work, "device%d" % d, "drive")) for d, r in enumerate(runs)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="pico-st7789-240")
    ap.add_argument("--linked", action="store_true", help="a linked match on two emulated Picos")
    args = ap.parse_args(argv)
    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("heap map: skipped (%s)" % e)
        return 0
    profile = profiles.get(args.profile)
    work = tempfile.mkdtemp(prefix="heap-map-")
    for d, (run, drive) in enumerate((_linked if args.linked else _one)(profile, work)):
        if run.sram is None:
            print("device %d: the probe never printed 'probe kept'\n%s" % (d, run.text()[-1500:]))
            return 1
        with open(run.sram, "rb") as f:
            ram = f.read()
        blocks = live_blocks(ram)
        loaded = set((run.probe("modules") or "").split())
        top = int(run.probe("top").split()[1])
        free = int(run.probe("kept").split()[1])
        print(
            "%s%s: heap kept %.1f KB; the collector's live blocks %d, %.1f KB"
            % (
                args.profile,
                " device %d" % d if args.linked else "",
                (top - free) / 1024,
                len(blocks),
                sum(n for _, n in blocks) / 1024,
            )
        )
        held = []
        for name, (size, share) in sorted(shares(ram, blocks, drive).items(), key=lambda kv: -kv[1][1]):
            state = "loaded" if name in loaded else "forgotten"
            if state == "forgotten" and share >= 0.2:
                held.append(name)
            print("  %-24s %6d B  %-9s %3.0f %% of its code live" % (name, size, state, 100 * share))
        print("  forgotten but live: %s" % (", ".join(held) or "none"))
        print(names_report(ram, blocks, drive, loaded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
