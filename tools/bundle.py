"""The game as a project bundle: one zip a profile, to unzip onto CIRCUITPY.

    python tools/bundle.py [--profile NAME ...] [--out DIR]
    make bundle

Writes DIR/spit-<profile>.zip (DIR is dist/ by default) in the shape of
Adafruit's project bundles: a folder spit-<profile>/ holding README.txt (true
to that bundle), LICENSE, the build guide with its pictures (docs/, tools/
screenshots/, at the places its links name), the rules (docs/rules.md), and a
folder a CircuitPython major, "CircuitPython 9.x" and "CircuitPython 10.x",
each the whole CIRCUITPY drive for that major: code.py, engine/ and
hardware/ compiled to .mpy, the profile's sprite sheets, lib/ with the
libraries the profile needs compiled for that major, and a settings.toml
naming the profile. The files are the ones make flash writes, made by the
same functions (tools/flash.py), from the pinned packages only: no network.

Both majors load .mpy version 6 (CircuitPython 9.2 on), so their folders
hold the same bytes; a folder a major is what makers and circup expect.

The zip is the same bytes every time it is built from the same inputs:
files in sorted order, one fixed date (SOURCE_DATE_EPOCH when it is set),
the same permissions, deflated at one level.
"""

import argparse
import os
import sys
import tempfile
import textwrap
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))

from flash import BOARDS, HEAP_START, FlashError, compiled, game_files, library_files  # noqa: E402

from hardware import profiles  # noqa: E402

MAJORS = (9, 10)  # a folder a major (the .mpy files load from 9.2 on)
DATE = (2025, 1, 1, 0, 0, 0)  # the files' date in the zip when SOURCE_DATE_EPOCH is not set
README = """Spit, the card game for two on one handheld: {title}

This bundle is the game for the profile {name}, and nothing else: the
board's program and its settings in a folder for each CircuitPython major,
the build guide with its pictures (docs/build.md), and the licence (LICENSE).

    CircuitPython 10.x/   for CircuitPython 10 (recommended)
    CircuitPython 9.x/    for CircuitPython 9.2 or later

{contents}

1. Put CircuitPython on the board (circuitpython.org, board "{board}").
   Its drive, CIRCUITPY, shows up; its boot_out.txt names the version.
2. If the drive has an earlier copy of this game, delete its folders engine
   and hardware first: CircuitPython runs a hardware/app.py of an older
   copy instead of the new hardware/app.mpy beside it (the game says so on
   its screen when it finds one).
3. Its code.py replaces yours: to keep your own, rename it first (say, to
   my_code.py).
4. Copy everything inside the folder that matches your CircuitPython onto
   CIRCUITPY.{lib_step}
5. The board restarts and shows the game's menu.

settings.toml: if the drive already has one you want to keep (Wi-Fi and
the like), do not copy ours over it; add this line to yours instead:

    SPIT_PROFILE = "{name}"

{link}

Building the handheld, its wiring and the first power-on: docs/build.md in
this bundle (open it in a browser or any text editor), with its pictures.
The rules of Spit and Speed: docs/rules.md. The game is MIT-licensed (LICENSE).
"""
SETTINGS = """# Read by CircuitPython at start (os.getenv): this bundle's board profile.
# A word in quotes; a line CircuitPython cannot read is named on the screen.
SPIT_PROFILE = "{name}"
{link}"""
LINKS = {
    "cable": (
        "Two handhelds linked by a cable: add SPIT_LINK = 1 to settings.toml on\n"
        "both, and wire TX to the other's RX and GND to GND (docs/build.md)."
    ),
    "radio": (
        'Two Cardputers linked by radio: add SPIT_LINK = "espnow" to settings.toml\n'
        "on both (no wires); or by a cable on the Grove port: SPIT_LINK = 1 on both,\n"
        "each G1 to the other's G2, GND to GND (docs/build.md)."
    ),
}


def guide_files():
    """(path in the bundle, source) for docs/build.md and every picture it shows,
    at the same places relative to it, so its links work from the bundle."""
    import re

    doc = os.path.join(ROOT, "docs", "build.md")
    with open(doc) as f:
        text = f.read()
    out = [("docs/build.md", doc)]
    for link in sorted(set(re.findall(r"\]\(([^)#:]+\.png)\)", text))):
        src = os.path.normpath(os.path.join(ROOT, "docs", link))
        rel = os.path.relpath(src, ROOT).replace(os.sep, "/")
        if rel.startswith("..") or not os.path.isfile(src):
            raise FlashError("docs/build.md shows %s, which is not in the repository" % link)
        out.append((rel, src))
    return out + [("docs/rules.md", os.path.join(ROOT, "docs", "rules.md")), ("LICENSE", os.path.join(ROOT, "LICENSE"))]


def folder_files(profile, work):
    """(path on the drive, source file) for the whole drive of a profile:
    the game and its libraries compiled, and the settings.toml."""
    writes = compiled(game_files(profile) + library_files(profile["libraries"]), work)
    settings = os.path.join(work, "settings.toml")
    link = '# Linked play by radio: SPIT_LINK = "espnow"; by a cable: SPIT_LINK = 1\n'
    if not profile.get("espnow_radio"):
        link = "# Linked play by a cable: SPIT_LINK = 1\n"
    if profile["name"] in HEAP_START:  # (the heap in one area: docs/firmware.md)
        link += "CIRCUITPY_HEAP_START_SIZE = %d\n" % HEAP_START[profile["name"]]
    with open(settings, "w") as f:
        f.write(SETTINGS.format(name=profile["name"], link=link))
    return sorted(writes + [("settings.toml", settings)])


def entry(name, date):
    info = zipfile.ZipInfo(name, date_time=date)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix, wherever it is built
    info.external_attr = 0o644 << 16
    return info


def build(profile_name, out_dir, date=None):
    """Write out_dir/spit-<profile>.zip; returns its path."""
    profile = profiles.get(profile_name, "--profile")
    if date is None:
        epoch = os.environ.get("SOURCE_DATE_EPOCH")
        date = time.gmtime(int(epoch))[:6] if epoch else DATE
    top = "spit-%s" % profile_name
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, top + ".zip")
    with tempfile.TemporaryDirectory() as work:
        files = folder_files(profile, work)
        with zipfile.ZipFile(path + ".part", "w") as z:
            lib = any(rel.startswith("lib/") for rel, _ in files)
            readme = README.format(
                title=profile["title"],
                name=profile_name,
                board=BOARDS[profile_name][0],
                contents=textwrap.fill(
                    "Each holds code.py, settings.toml and the folders engine and hardware"
                    + (", and lib: the libraries this board needs." if lib else "."),
                    76,
                ),
                lib_step=(
                    "\n   Merge its lib folder with the one already there: it adds the\n   libraries this board needs."
                    if lib
                    else ""
                ),
                link=LINKS["radio" if profile.get("espnow_radio") else "cable"],
            )
            z.writestr(entry(top + "/README.txt", date), readme, compresslevel=9)
            for rel, src in guide_files():
                with open(src, "rb") as f:
                    z.writestr(entry("%s/%s" % (top, rel), date), f.read(), compresslevel=9)
            for major in MAJORS:
                for rel, src in files:
                    with open(src, "rb") as f:
                        data = f.read()
                    z.writestr(entry("%s/CircuitPython %d.x/%s" % (top, major, rel), date), data, compresslevel=9)
    os.replace(path + ".part", path)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", action="append", help="a profile (default: every one)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist"), help="the folder for the zips (default: dist/)")
    args = ap.parse_args(argv)
    try:
        for name in args.profile or sorted(profiles.PROFILES):
            path = build(name, args.out)
            print("%s: %d bytes" % (os.path.relpath(path), os.path.getsize(path)))
    except (FlashError, profiles.SetupError) as e:
        print("bundle: " + str(e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
