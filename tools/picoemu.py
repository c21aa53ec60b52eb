"""The game on the real CircuitPython firmware, in an emulated Raspberry Pi Pico.

    .venv/bin/python tools/picoemu.py [--profile NAME] [--replay FILE] [--start POSITION]
        [--set NAME=VALUE] [--shot FILE] [--frames MS,MS,...] [--until MS] [--console]

Writes the drive `make flash` writes for the profile (and a measuring code.py
that runs the shipped one: tools/picoemu_probe.py) into a FAT image at the
Pico's CIRCUITPY offset, boots CircuitPython's own Pico firmware in rp2040js
(tools/picoemu.mjs), presses the keys of a replay on the GPIOs of the
profile's pinout at the replay's times (counted from the moment the program
enters its loop), decodes the ST7789 into the picture a player sees, and
prints the figures: heap, start-up, and the time from each press to the
first and last pixel it changed.

The firmware and the RP2040 bootrom are not in this repository (both are
built from other projects' sources, which this project may not commit):
SPIT_PICO_FIRMWARE names the UF2 (CircuitPython 10 for raspberry_pi_pico),
SPIT_PICO_BOOTROM the 16 KB bootrom image; by default both are looked for in
~/.cache/spit-pico/ as firmware.uf2 and bootrom.bin. Without them the tests
that need them are skipped, saying why.
"""

import argparse
import bisect
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))

from hardware import profiles  # noqa: E402

CACHE = os.path.join(os.path.expanduser("~"), ".cache", "spit-pico")
DRIVE_OFFSET = 0x100000  # CIRCUITPY_CIRCUITPY_DRIVE_START_ADDR: 1020 KB firmware + 4 KB nvm
DRIVE_BYTES = 0x100000  # the rest of the Pico's 2 MB flash
RAM_W, RAM_H = 240, 320  # the ST7789's frame memory
PROBE_PIN = 28  # a GPIO no Pico profile uses: high while the probe's io.refresh() runs
BOOT_MS = 30000  # emulated time allowed from reset to the program's loop


class Missing(Exception):
    """The firmware or the bootrom is not on this machine."""


def firmware():
    """(uf2, bootrom) paths, or Missing saying what is absent."""
    uf2 = os.environ.get("SPIT_PICO_FIRMWARE") or os.path.join(CACHE, "firmware.uf2")
    rom = os.environ.get("SPIT_PICO_BOOTROM") or os.path.join(CACHE, "bootrom.bin")
    absent = [p for p in (uf2, rom) if not os.path.isfile(p)]
    if absent:
        raise Missing("no CircuitPython Pico firmware or bootrom here (%s): see tools/picoemu.py" % ", ".join(absent))
    return uf2, rom


def firmware_banner(uf2):
    """The first line the firmware writes to boot_out.txt ("Adafruit
    CircuitPython 10.2.1 on 2025-10-21"), read out of the UF2's payload."""
    with open(uf2, "rb") as f:
        data = f.read()
    payload = b"".join(
        data[i + 32 : i + 32 + int.from_bytes(data[i + 16 : i + 20], "little")] for i in range(0, len(data) - 511, 512)
    )
    at = payload.find(b"Adafruit CircuitPython ")
    if at < 0:
        raise Missing("%s holds no CircuitPython version" % uf2)
    return payload[at : payload.index(b";", at)].decode()


def gpio(name):
    # "GP12" -> 12
    if not name.startswith("GP"):
        raise ValueError("%r is not a Pico GPIO" % name)
    return int(name[2:])


def write_drive(
    folder, profile_name, banner, settings=None, files=None, probe=True, without=(), source=False, bundle=None
):
    """The drive make flash writes for the profile onto a board whose
    boot_out.txt starts with banner, into folder; settings are more
    settings.toml lines, files more (path, text) to write; with probe, the
    measuring code.py runs the shipped one (spit_main.py); without names
    what to leave out of the drive (paths in it; a module path stands for its
    .py or .mpy file, or its package folder); source: .py files even where
    make flash would compile them; bundle: a folder to copy onto the drive
    instead (a project bundle's, as a maker unzips it)."""
    from flash import flash

    with open(os.path.join(folder, "boot_out.txt"), "w") as f:
        f.write(banner + "; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    if bundle is not None:
        shutil.copytree(bundle, folder, dirs_exist_ok=True)
    else:
        flash(folder, profile_name, offline=True, say=lambda m: None, source=source)
    for name in without:
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        for p in (path, path + ".py", path + ".mpy"):
            if os.path.isfile(p):
                os.remove(p)
    toml = os.path.join(folder, "settings.toml")
    with open(toml) as f:  # (a setting given replaces make flash's: the firmware reads a name's first line)
        kept = [line for line in f if line.split("=")[0].strip() not in (settings or {})]
    with open(toml, "w") as f:
        f.writelines(kept)
        for name, value in (settings or {}).items():
            f.write("%s = %s\n" % (name, json.dumps(value)))
    for path, text in (files or {}).items():  # (bytes: a compiled module)
        os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
        with open(os.path.join(folder, path), "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
    if probe:
        os.replace(os.path.join(folder, "code.py"), os.path.join(folder, "spit_main.py"))
        shutil.copyfile(os.path.join(ROOT, "tools", "picoemu_probe.py"), os.path.join(folder, "code.py"))


def fat_image(folder, image):
    """A FAT12 file system of the drive's size holding folder, as CircuitPython
    formats CIRCUITPY (512-byte sectors, no partition table)."""
    import fs.path
    from pyfatfs.PyFat import PyFat
    from pyfatfs.PyFatFS import PyFatFS

    with open(image, "wb") as f:
        f.truncate(DRIVE_BYTES)
    fat = PyFat()
    fat.mkfs(image, PyFat.FAT_TYPE_FAT12, size=DRIVE_BYTES, label="CIRCUITPY")
    fat.close()
    disk = PyFatFS(image, encoding="utf-8")
    try:
        for top, dirs, names in os.walk(folder):
            rel = os.path.relpath(top, folder)
            where = "/" if rel == "." else "/" + rel.replace(os.sep, "/")
            for d in sorted(dirs):
                disk.makedir(fs.path.join(where, d))
            for n in sorted(names):
                with open(os.path.join(top, n), "rb") as src:
                    disk.writebytes(fs.path.join(where, n), src.read())
    finally:
        disk.close()


def replay_events(path, profile):
    """The replay's key changes as (ms, gpio, level) for the profile's button
    pins (pressed pulls a pin low), and the replay's end in ms."""
    from desktop.replay import read_replay

    buttons = profile["buttons"]
    if not isinstance(buttons, tuple):
        raise ValueError("profile %s reads its buttons through a shift register: not emulated" % profile["name"])
    events, end_ms, _ = read_replay(path, profile["keymap"])
    return [(ms, gpio(buttons[k]), 0 if pressed else 1) for ms, k, pressed in events], end_ms


class Run:
    """What one emulated run printed: console lines, presses, display writes, frames."""

    def __init__(self, lines):
        self.console = []
        self.presses = []
        self.writes = []
        self.refreshes = []  # (start, end, pixels) of each io.refresh() that drew
        self.frames = []
        self.errors = []  # what an emulated part refused (an SSD1306 command it does not know)
        self.mark = None
        self.end = None
        self.sram = None  # sram_at: the file of the chip's SRAM then
        self.pins = []  # (t, gpio, level) of each change of a recorded pin (the piezo's)
        for obj in lines:
            t = obj["t"]
            if "console" in obj:
                self.console.append((t, obj["console"]))
            elif "mark" in obj:
                self.mark = t
            elif "press" in obj:
                self.presses.append((t, obj["press"][0], obj["press"][1]))
            elif "write" in obj:
                self.writes.append((t, obj["write"]))
            elif "refresh" in obj:
                self.refreshes.append((obj["refresh"][0], t, obj["refresh"][1]))
            elif "error" in obj:
                self.errors.append((t, obj["error"]))
            elif "frame" in obj:
                self.frames.append((t, obj["frame"]))
            elif "end" in obj:
                self.end = obj["end"]
            elif "sram" in obj:
                self.sram = obj["sram"]
            elif "pin" in obj:
                self.pins.append((t, obj["pin"][0], obj["pin"][1]))

    def text(self):
        # What the board printed since the harness's soft reload (the run
        # before it is interrupted by the harness as soon as USB is up).
        lines = [line for _, line in self.console]
        if "soft reboot" in lines:
            lines = lines[lines.index("soft reboot") + 1 :]
        return "\n".join(lines)

    def notes(self):
        """The piezo's notes from its recorded pin: (start ms, length ms, Hz,
        duty) of each run of periods of one length (within 2 %); a silence
        between two runs is a rest, or the end of a tune."""
        rises = [t for t, _, level in self.pins if level == 1]
        falls = [t for t, _, level in self.pins if level == 0]
        found = []
        run = []  # the rising edges of the note being read

        def close():
            if len(run) > 1:
                period = (run[-1] - run[0]) / (len(run) - 1)
                high = [
                    falls[bisect.bisect_right(falls, r)] - r for r in run if bisect.bisect_right(falls, r) < len(falls)
                ]
                found.append((run[0], period * len(run), 1000 / period, sum(high) / len(high) / period))

        for t in rises:
            if len(run) >= 2:
                period = (run[-1] - run[0]) / (len(run) - 1)
                if abs((t - run[-1]) - period) > 0.02 * period:
                    close()
                    run = []
            elif len(run) == 1 and t - run[0] > 5:  # (no pitch of the game is below 200 Hz)
                run = []
            run.append(t)
        close()
        return found

    def probe(self, what):
        # The words after "probe WHAT" on the console, or None.
        for _, line in self.console:
            if line.startswith("probe " + what + " "):
                return line[len("probe " + what) + 1 :]
        return None

    def _press_windows(self):
        # (when, when the next press came) of each press (a pin going low).
        downs = [t for t, _, level in self.presses if level == 0]
        return list(zip(downs, downs[1:] + [float("inf")]))

    def press_frames(self):
        """For each press (a pin going low): the first frame drawn after it,
        (start, end, pixels written), or None when no frame drew before the
        next press."""
        return [
            next(((a, b, n) for a, b, n in self.refreshes if t <= a < nxt), None) for t, nxt in self._press_windows()
        ]

    def press_to_settled(self, gap_ms=100):
        """For each press (a pin going low): ms from it to the last pixel of
        the last frame of its change: the first frame drawn after it and
        each that starts within gap_ms of the one before (the counts and
        words the game draws a pass after the cards; a new round's save, some
        60 ms of flash, comes between), before the next press; None when no
        frame drew."""
        out = []
        for t, nxt in self._press_windows():
            end = None
            for a, b, _ in self.refreshes:
                if a < t or a >= nxt:
                    continue
                if end is not None and a - end > gap_ms:
                    break
                end = b
            if end is None:
                out.append(None)
                continue
            drawn = [last for last, w in self.writes if t <= w[4] <= end]
            out.append(drawn[-1] - t if drawn else None)
        return out

    def press_to_pixels(self):
        """For each press (a pin going low): ms from it to the first and to the
        last pixel of the first frame drawn after it (None, None when no
        frame drew before the next press)."""
        out = []
        for (t, _), frame in zip(self._press_windows(), self.press_frames()):
            if frame is None:
                out.append((t, None, None))
                continue
            drawn = [(w[4], last) for last, w in self.writes if frame[0] <= w[4] <= frame[1]]
            out.append((t, drawn[0][0] - t, drawn[-1][1] - t))
        return out


def emulate(
    profile_name="pico-st7789-240",
    replay=None,
    settings=None,
    files=None,
    frames=(),
    until_ms=None,
    probe=True,
    without=(),
    work=None,
    mark=None,
    source=False,
    pull_ups=True,
    oled=True,
    code_py=None,
    sram_at=None,
    bundle=None,
):
    """Run the game on the emulated Pico; returns a Run. The replay's times,
    frames (ms at which to save the panel: Run.frames lists the raw RAM
    files) and until_ms count from the mark, the first console line that
    starts with it (by default the probe's "probe ready"). An I2C profile's
    lines are pulled high unless pull_ups is false (rp2040js has no pull
    resistors), and an SSD1306 answers at its address unless oled is false.
    code_py: a file to run as code.py instead of the game (probe is off).
    sram_at: a console line's start ("probe kept"): the chip's SRAM is written
    to a file when the board prints it (Run.sram). bundle: a folder to copy
    onto the drive instead of what make flash writes."""
    profile = profiles.get(profile_name)
    work = work or tempfile.mkdtemp(prefix="picoemu-")
    events, end_ms = replay_events(replay, profile) if replay else ([], 0)
    if until_ms is None:
        until_ms = end_ms or 1000
    job = _job(
        profile,
        work,
        settings,
        files,
        events,
        until_ms,
        frames,
        probe,
        without,
        mark,
        source,
        pull_ups,
        oled,
        code_py,
        bundle,
    )
    if sram_at:
        job["sram"] = {"at": sram_at, "path": os.path.join(work, "sram.bin")}
    return _run(job, work)[0]


def _job(
    profile,
    work,
    settings,
    files,
    events,
    until_ms,
    frames,
    probe,
    without,
    mark,
    source,
    pull_ups,
    oled,
    code_py,
    bundle=None,
):
    # One emulated Pico's job for picoemu.mjs: its drive image written in work.
    uf2, rom = firmware()
    profile_name = profile["name"]
    drive = os.path.join(work, "drive")
    os.makedirs(drive, exist_ok=True)
    s = {"SPIT_PROFILE": profile_name}
    s.update(settings or {})
    if probe:
        s.setdefault("SPIT_PROBE_MS", until_ms)
        s.setdefault("SPIT_PROBE_PIN", "GP%d" % PROBE_PIN)
    if code_py is not None:
        probe = False
    write_drive(drive, profile_name, firmware_banner(uf2), s, files, probe, without, source, bundle)
    if code_py is not None:
        shutil.copyfile(code_py, os.path.join(drive, "code.py"))
    image = os.path.join(work, "drive.img")
    fat_image(drive, image)
    pins = profile["display_pins"] if profile["display"] == "st7789" else None
    i2c = profile["display_pins"] if profile["display"] == "ssd1306" else None
    pull_ups = pull_ups and i2c is not None
    job = {
        "bootrom": rom,
        "firmware": uf2,
        "drive": image,
        "drive_offset": DRIVE_OFFSET,
        "held_high": [gpio(b) for b in profile["buttons"]]
        + ([gpio(profile["display_pins"][p]) for p in ("sda", "scl")] if pull_ups else []),
        "spi": pins and {"bus": 0, "dc": gpio(pins["dc"]), "cs": gpio(pins["cs"]), "hz": 62500000},
        "i2c": i2c
        and {
            "sda": gpio(i2c["sda"]),
            "scl": gpio(i2c["scl"]),
            "pulled": pull_ups,
            "address": i2c["address"] if oled else None,
        },
        "mark": mark or ("probe ready" if probe else None),
        "refresh_pin": PROBE_PIN if probe else None,
        "record_pins": [gpio(profile["sound"][1])] if profile.get("sound") else [],
        "events": events,
        "frames": [[ms, os.path.join(work, "frame-%d.raw" % ms)] for ms in frames],
        "until_ms": until_ms + 2000,
        "stop": "Code done running." if probe else None,
        "max_ms": BOOT_MS + until_ms + 3000,
    }
    return job


def _run(job, work):
    # picoemu.mjs on the job: a Run for each device.
    path = os.path.join(work, "job.json")
    with open(path, "w") as f:
        json.dump(job, f)
    done = subprocess.run(
        ["node", os.path.join(ROOT, "tools", "picoemu.mjs"), path], capture_output=True, text=True, cwd=ROOT
    )
    if done.returncode != 0:
        raise RuntimeError("the emulator failed: %s" % done.stderr[-2000:])
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if "devices" not in job:
        return [Run(lines)]
    return [Run(obj for obj in lines if obj.get("d") == d) for d in range(len(job["devices"]))]


def emulate_pair(profile_name, replays, settings=None, until_ms=None, pulled=(), work=None, each=None, sram_at=None):
    """Two linked handhelds: the game on two emulated Picos, each
    with SPIT_LINK set and its replay's keys (each device's player's, the
    replay's player 0), their UARTs wired to each other in lockstep emulated
    time; pulled: (from, to) ms after device 0's mark when the cable is out;
    each: settings for each device alone; sram_at as emulate's. Returns the
    two Runs."""
    profile = profiles.get(profile_name)
    link = profile["link"]
    work = work or tempfile.mkdtemp(prefix="picoemu-pair-")
    jobs = []
    ends = []
    for d, replay in enumerate(replays):
        events, end_ms = replay_events(replay, profile) if replay else ([], 0)
        ends.append(end_ms)
        mine = os.path.join(work, "device%d" % d)
        os.makedirs(mine, exist_ok=True)
        s = {"SPIT_LINK": 1}
        s.update(settings or {})
        s.update((each or ({}, {}))[d])
        jobs.append((mine, s, events))
    until = until_ms if until_ms is not None else max(ends) or 1000
    devices = []
    for mine, s, events in jobs:
        job = _job(profile, mine, s, None, events, until, (), True, (), None, False, True, True, None)
        job["held_high"] = [g for g in job["held_high"] if g not in (gpio(link[0]), gpio(link[1]))]
        if sram_at:
            job["sram"] = {"at": sram_at, "path": os.path.join(mine, "sram.bin")}
        devices.append(job)
    job = {"devices": devices, "link": {"uart": 0, "baud": profiles.LINK_BAUD, "pulled": [list(p) for p in pulled]}}
    return _run(job, work)


def first_frame_after(run, t):
    """The first frame run drew from emulated time t on: (start, its last
    pixel's time), or None (a linked press's result on either screen)."""
    for start, end, _ in run.refreshes:
        if start >= t:
            drawn = [last for last, w in run.writes if start <= w[4] <= end]
            return start, (drawn[-1] if drawn else end)
    return None


OLED_W, OLED_H = 128, 64


def picture(raw_path, profile):
    """The panel as the player sees it, a PIL image of the profile's size,
    from a frame picoemu.mjs saved: the SSD1306's glass (128 x 64 bytes, 1
    lit: white), or the ST7789's RAM (picture_st7789)."""
    if profile["display"] != "ssd1306":
        return picture_st7789(raw_path, profile)
    from PIL import Image

    data = open(raw_path, "rb").read()
    return Image.frombytes("L", (OLED_W, OLED_H), bytes(255 if v else 0 for v in data)).convert("RGB")


def picture_st7789(raw_path, profile):
    """The panel's RAM (raw RGB565, 240x320, as picoemu.mjs saves it) as the
    player sees it: a PIL image of the profile's size. The glass shows RAM
    rows from 0 (240 of them on a 240x240 panel); the picture is turned to the
    way the panel is mounted so the game reads upright: half a turn (the
    ST7789 driver's MADCTL mirrors both axes), and a quarter more for the
    320x240 panel (displayio's rotation=90 of a portrait panel)."""
    from PIL import Image

    data = open(raw_path, "rb").read()
    w, h = profile["width"], profile["height"]
    rows = max(w, h)
    img = Image.new("RGB", (RAM_W, rows))
    px = img.load()
    for y in range(rows):
        base = y * RAM_W * 2
        for x in range(RAM_W):
            v = data[base + 2 * x] | (data[base + 2 * x + 1] << 8)
            px[x, y] = (((v >> 11) & 31) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31)
    return img.transpose(Image.Transpose.ROTATE_180 if w == h else Image.Transpose.ROTATE_270)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="pico-st7789-240")
    ap.add_argument("--replay", help="a replay file: its keys pressed on the GPIOs")
    ap.add_argument("--start", help="SPIT_START: a position line (written to the drive as start.txt)")
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE for settings.toml")
    ap.add_argument("--shot", help="save the picture at the end as this PNG")
    ap.add_argument("--until", type=int, help="ms of the loop to run (default: the replay's end)")
    ap.add_argument("--console", action="store_true", help="print what the board printed")
    args = ap.parse_args(argv)
    settings = {}
    for item in args.set:
        name, _, value = item.partition("=")
        settings[name] = int(value) if value.isdigit() else value
    files = {}
    if args.start:
        files["start.txt"] = args.start + "\n"
        settings["SPIT_START"] = "/start.txt"
    try:
        work = tempfile.mkdtemp(prefix="picoemu-")
        end = None
        if args.shot:
            events, end_ms = replay_events(args.replay, profiles.get(args.profile)) if args.replay else ([], 0)
            end = args.until or end_ms or 1000
        run = emulate(
            args.profile, args.replay, settings, files, frames=(end,) if end else (), until_ms=args.until, work=work
        )
    except (Missing, ValueError, OSError) as e:
        print("picoemu: %s" % e)
        return 2
    if args.console:
        print(run.text())
    for what in ("top", "ready", "drawn", "end", "position"):
        print(what, run.probe(what))
    for t, first, last in run.press_to_pixels():
        print("press at %.1f ms: first pixel %s ms, last %s ms" % (t, first, last))
    if args.shot and run.frames:
        picture(run.frames[-1][1], profiles.get(args.profile)).save(args.shot)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
