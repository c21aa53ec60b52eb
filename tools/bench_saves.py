"""Saves benchmark: flash erases, scanner stalls and wear of the saved records.

    python tools/bench_saves.py [--saves 1000] [--per-hour 150]

Saves a realistic mix of records (a match record a round, now and then the
tally, the settings, a finished match cleared) through hardware/storage.py
onto the flash model of each board (hardware/nvm_flash.py: a Pico's RP2040,
a PyBadge's SAMD51), and prints:

- erases and pages programmed per 1,000 saves, and how many saves erase (the
  only ones a power cut can make lose every record, between the erase and
  the end of the first page);
- the keypad scanner's longest stand-still around a save on a Pico, by the
  firmware's code path: interrupts are off while each page is programmed and
  while the sector is erased, at the Pico flash's datasheet times (Winbond
  W25Q16JV: page program 0.4 ms typical, 3 ms at most; 4 KB sector erase
  45 ms typical, 400 ms at most). The emulated Pico cannot show it: rp2040js
  does not emulate flash writes.
- wear: erases of the one nvm block per hour of play (--per-hour saves), and
  over ten years of an hour a day, against the W25Q16JV's 100,000 cycles
  (Pico) and the 10,000 planned for the SAMD51 (PyBadge: storage.RATED_ERASES
  says why; its saves the App writes at most once in storage.SPARE_MS of
  play from power-on, and when a player leaves a match).
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from desktop.nvm_flash import PICO_ERASE_MS, PICO_PAGE_MS, SAMD_ERASE_MS, SAMD_PAGE_MS, FlashNvm  # noqa: E402
from hardware.storage import MATCH, RATED_ERASES, SETTINGS, SPARE_MS, TALLY, Store  # noqa: E402

PICO_RATED_ERASES = 100000


def mix(count, seed=1):
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        roll = rnd.randrange(20)
        if roll < 16:
            out.append((MATCH, bytes(rnd.randrange(256) for _ in range(68)), False))
        elif roll < 17:
            out.append((MATCH, b"", True))
        elif roll < 19:
            out.append((TALLY, bytes(rnd.randrange(256) for _ in range(20)), False))
        else:
            out.append((SETTINGS, bytes(rnd.randrange(256) for _ in range(6)), False))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--saves", type=int, default=1000)
    ap.add_argument("--per-hour", type=int, default=150, help="saves in an hour of play (a round is one)")
    args = ap.parse_args(argv)
    saves = mix(args.saves)
    for chip, always in (("rp2040", False), ("samd51", True)):
        flash = FlashNvm(chip)
        store = Store(flash, say=lambda m: None, erases_always=always)
        worst_pages = 0
        flushed = 0  # (power-on counts as a write)
        for i, (kind, payload, cleared) in enumerate(saves):
            pages, erases = flash.pages, flash.erases
            store.save(kind, payload, cleared=cleared)
            if always:  # the App's rule: held back, written at most once in SPARE_MS of play
                now = i * 3600000 // args.per_hour
                if now - flushed >= SPARE_MS:
                    store.flush()
                    flushed = now
            if flash.erases == erases:
                worst_pages = max(worst_pages, flash.pages - pages)
        per_k = 1000.0 / args.saves
        print(
            "%s (%s): %d saves, %.0f erases and %.0f pages programmed per 1,000 saves"
            % (chip, "Pico" if chip == "rp2040" else "PyBadge", args.saves, flash.erases * per_k, flash.pages * per_k)
        )
        print(
            "  saves that erase (a cut there can lose every record): %d in %d (one in %.0f)"
            % (flash.erases, args.saves, args.saves / max(flash.erases, 1))
        )
        hours = 10 * 365
        per_hour = args.per_hour * flash.erases / float(args.saves)
        print("  wear: %.1f erases an hour of play, %.0f in ten years of an hour a day" % (per_hour, per_hour * hours))
        if chip == "rp2040":
            print(
                "  scanner stalls: an ordinary save programs at most %d pages: %.1f ms typical, %.0f ms at most"
                % (worst_pages, worst_pages * PICO_PAGE_MS[0], worst_pages * PICO_PAGE_MS[1])
            )
            pages = flash.block // flash.page
            print(
                "  a save that erases: %.0f ms typical, %.0f ms at most (the erase and %d pages)"
                % (PICO_ERASE_MS[0] + pages * PICO_PAGE_MS[0], PICO_ERASE_MS[1] + pages * PICO_PAGE_MS[1], pages)
            )
            print(
                "  rated %d erases: %.1f %% used in ten years"
                % (PICO_RATED_ERASES, 100.0 * per_hour * hours / PICO_RATED_ERASES)
            )
        else:
            print(
                "  every write erases the 8 KB block: saves are held back and written at most once in %d min"
                " of play (and when a player leaves a match)" % (SPARE_MS // 60000)
            )
            print(
                "  planned for %d erases: %.1f %% used in ten years of play; a power cut loses at most %d min of play"
                % (RATED_ERASES, 100.0 * per_hour * hours / RATED_ERASES, SPARE_MS // 60000)
            )
            day = 3600000 // SPARE_MS + 1  # an hour's held-back writes, and one when a player leaves a match
            print(
                "  an hour a day, leaving a match each day: %d erases a day, %d in ten years, %.0f %% of %d"
                % (day, day * 3650, 100.0 * day * 3650 / RATED_ERASES, RATED_ERASES)
            )
            pages = flash.block // flash.page
            print(
                "  a write (the erase and %d pages): %.0f ms typical, %.0f ms at most, only when nobody races"
                % (pages, SAMD_ERASE_MS[0] + pages * SAMD_PAGE_MS[0], SAMD_ERASE_MS[1] + pages * SAMD_PAGE_MS[1])
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
