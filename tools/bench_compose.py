"""What displayio's composition costs a pixel, by kind of layer, on the real
firmware in the emulated Pico (docs/firmware.md: the table's redraws).

    python tools/bench_compose.py [--profile NAME]   (an ST7789 profile)

Runs tools/compose_probe.py as code.py on the profile's panel: each case
redraws one card-sized area (36 x 50) four times and times display.refresh()
alone. Prints each case's median ms and its cost a pixel, and the same less
the floor (the area with no layer: clearing the buffer, the SPI writes, the
refresh's own work). The cases: a TileGrid of one tile (4 and 1 bits a
pixel), of six strips, with 56 layers beside it, under a mostly clear layer;
a vectorio Rectangle; a card's cut corners as two Rectangles. Needs the
firmware (tools/picoemu.py says where); without it, says so and exits 0.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import picoemu  # noqa: E402


def measure(profile, work):
    """{case: (pixels, median ms)} from one emulated run of the probe."""
    here = os.path.dirname(os.path.abspath(__file__))
    run = picoemu.emulate(profile, code_py=os.path.join(here, "compose_probe.py"), until_ms=8000, work=work)
    text = run.text()
    if "compose done" not in text:
        raise RuntimeError("the probe did not finish:\n%s" % text[-2000:])
    got = {}
    for line in text.splitlines():
        part = line.split()
        if len(part) > 3 and part[0] == "compose":
            got[part[1]] = (int(part[2]), statistics.median(float(ms) for ms in part[3:]))
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="pico-st7789-240")
    args = ap.parse_args(argv)
    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("bench_compose: %s" % e)
        return 0
    if picoemu.profiles.get(args.profile)["display"] != "st7789":
        print("bench_compose: the card-sized area (36 x 50) needs an ST7789 profile, not %s" % args.profile)
        return 2
    got = measure(args.profile, tempfile.mkdtemp(prefix="bench-compose-"))
    floor = got["nothing"][1]
    print("displayio composing a 36 x 50 area on %s, CircuitPython's firmware in rp2040js" % args.profile)
    print("%-22s %9s %9s %16s" % ("what draws it", "ms", "us a px", "us a px, less floor"))
    for name, (px, ms) in got.items():
        print("%-22s %9.2f %9.2f %16.2f" % (name, ms, 1000 * ms / px, 1000 * (ms - floor) / px))
    return 0


if __name__ == "__main__":
    sys.exit(main())
