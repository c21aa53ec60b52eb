# The board's world: buttons, screen, sound and light, saves, and the board
# profiles. forget() below frees a module the board needs no more.
import sys


def forget(name):
    # Drop module `name` (loaded for start-up, or for one save) so the heap
    # it takes is free again; an import loads it anew when it is needed. On
    # a board only: the desktop has room, and keeps its modules.
    if sys.implementation.name == "cpython":
        return
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None:
        # Not "if attr in dir(parent)": dir() tries every name the firmware
        # knows (134 ms for three modules on a Pico).
        try:
            delattr(parent, attr)
        except (AttributeError, KeyError):  # (MicroPython: KeyError)
            pass
