# The .py files an earlier copy of the game left beside the shipped .mpy
# files of the same name: CircuitPython imports a .py first, so the old code
# would run. code.py asks before it imports any other module of the game
# (this one is compiled like them: code.py itself is compiled at every start).
import os

# An earlier copy has every module as .py: three are looked up (0.4 ms each
# on a Pico), the folders listed (9 ms) only when one is there.
# hardware.launch is the first module start-up imports; app and spit the largest.
SENTINELS = ("hardware/launch.py", "hardware/app.py", "engine/spit.py")


def stale_files(top):
    # top: the drive's folder ("" on a board, whose current folder it is).
    top = top + "/" if top else ""
    for name in SENTINELS:
        try:
            os.stat(top + name)
            break
        except OSError:
            pass
    else:
        return []
    found = []
    for folder in ("engine", "hardware"):
        try:
            names = os.listdir(top + folder)
        except OSError:
            continue
        for name in names:
            if name.endswith(".py") and name[:-2] + "mpy" in names:
                found.append(folder + "/" + name)
    return found


def message(top):
    # What to tell the maker, or None when no earlier copy is in the way.
    found = stale_files(top)
    if not found:
        return None
    more = " and %d more" % (len(found) - 1) if len(found) > 1 else ""
    return (
        "An earlier copy of the game left %s%s beside the new .mpy files: CircuitPython would run the old "
        "code. Delete the .py files in engine and hardware (not code.py), then reset the board." % (found[0], more)
    )
