"""Text as tiles of the firmware's font against adafruit_display_text's
bitmap_label, on the real firmware in the emulated Pico (docs/text.md).

    python tools/bench_text.py [--profile NAME] [--seconds 40]

Runs tools/bench_pico.py's measures twice on the same firmware and profile:
with the drive make flash writes (hardware/text.py: tiles of the font), and
with only the text changed: tools/text_bitmap_label.py in its place, with
adafruit_display_text and adafruit_ticks in the drive's lib/, compiled to
.mpy as make flash compiles the game. Prints start-up, the heap kept, a menu
press, a card press and a refused press side by side. Needs the firmware
(tools/picoemu.py says where); without it, says so and exits 0.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_pico  # noqa: E402
import picoemu  # noqa: E402
from flash import compiled, library_files  # noqa: E402

SHOWN = (
    "start-up to the menu drawn",
    "start-up to a match's table drawn",
    "heap kept after start-up, menu (collected)",
    "heap kept 30 s into a match (collected)",
    "lowest heap free between passes, match",
    "bytes allocated per ordinary move",
    "menu press to its last pixel",
    "card press to last pixel, median / worst",
    "refused press to its mark's last pixel",
)
LIBRARY = (
    "lib/adafruit_display_text/__init__.py",
    "lib/adafruit_display_text/bitmap_label.py",
    "lib/adafruit_ticks.py",
)


def label_drive(work):
    """(files, without) that put bitmap_label text in place of the tiles."""
    here = os.path.dirname(os.path.abspath(__file__))
    writes = [("hardware/text.py", os.path.join(here, "text_bitmap_label.py"))]
    writes += [w for w in library_files(["adafruit_display_text", "adafruit_ticks"]) if w[0] in LIBRARY]
    files = {}
    for rel, src in compiled(writes, work):
        with open(src, "rb") as f:
            files[rel] = f.read()
    return files, ("hardware/text",)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="pico-st7789-240")
    ap.add_argument("--seconds", type=int, default=40)
    args = ap.parse_args(argv)
    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("bench_text: %s" % e)
        return 0
    work = tempfile.mkdtemp(prefix="bench-text-")
    tiles = dict(bench_pico.measure(args.profile, args.seconds, os.path.join(work, "tiles")))
    files, without = label_drive(work)
    label = dict(bench_pico.measure(args.profile, args.seconds, os.path.join(work, "label"), files, without))
    print("Text on %s, CircuitPython's firmware in rp2040js: only hardware/text.py differs" % args.profile)
    print("%-44s %-34s %s" % ("", "tiles of the font (shipped)", "bitmap_label"))
    for row in SHOWN:
        print("%-44s %-34s %s" % (row, tiles.get(row, "-"), label.get(row, "-")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
