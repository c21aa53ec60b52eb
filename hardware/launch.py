# Start-up, as code.py runs it: the board profile from the settings, the
# display and buttons, the Screen and the App, and a match from SPIT_START.
# code.py forgets this module once the game is built (hardware.forget): its
# code is not kept in the heap while the game runs.
#
# code.py says where it runs: on_board, the board's way (a message on the
# screen when start-up fails), else the desktop's; open_io(profile), what
# opens the display, buttons and saves (hardware/board_setup.py, or the
# desktop's window: desktop/io.py); setting(name), where SPIT_* settings are
# read (settings.toml on the board; the environment, then settings.toml, on a
# desktop). hold: what the board does after such a message (code.py waits
# until the board is reset).

import os

from . import profiles


def start(on_board, open_io, setting, hold, name="settings.toml"):
    # The display, buttons and game of the chosen profile: (io, app). Every
    # setting is checked before anything opens (a window, the sound); name:
    # the settings file.
    io = None
    checked = False
    try:
        unreadable(name, on_board)
        source = "settings.toml" if on_board or os.getenv("SPIT_PROFILE") is None else "the environment"
        profile = profiles.get(setting("SPIT_PROFILE"), source)
        seed = _seed(setting)
        position = setting("SPIT_START")
        start = start_position(position) if position else None  # (a bad one: a message before the App is built)
        nonce = _nonce(setting)
        checked = True
        io = open_io(profile, setting("SPIT_LINK"))  # (linked play's cable: docs/linked.md)
        if not on_board:
            seed = _seed(setting)  # (a desktop recording fixes the seed as its window opens)
        # The heap collected before the game's biggest modules load: on the
        # emulated CircuitPython 10.2.1 a collection forced by a new pool of
        # names while a .mpy loads lost names of a module loaded before it
        # (hardware.storage printed as <module ''>, without SETTINGS), at
        # start-up, for some counts of names only (docs/firmware.md).
        import gc

        gc.collect()
        if on_board:
            heap_start(setting, gc)
        from .app import App
        from .screen import Screen

        screen = Screen(io.display, profile)
        app = App(screen, io.keys, io.event, profile, io.ticks_ms, seed, io.store, io.feedback, start, io.open_link)
        app.nonce = getattr(io, "nonce", None) or nonce  # (a linked session's number: replayed, or fixed)
        io.store = None  # (the App's now: a linked match lets it go, App._park_store)
        if on_board:
            app.collect = gc.collect  # (a match's start; the desktop's collector needs no help)
        else:
            io.app = app  # a fast replay asks it when something is due
    except profiles.SetupError as e:
        if on_board and not checked:  # (a setting's fault: the display is not open yet)
            refuse(str(e), open_io, setting, hold)
        fail(str(e), on_board, hold, io)
    except ImportError as e:
        fail("a library is missing (%s). On a board: make flash. On a desktop: make install." % e, on_board, hold, io)
    return io, app


def heap_start(setting, gc):
    # A CIRCUITPY_HEAP_START_SIZE larger than the board has is dropped by the
    # firmware without a word: the heap then grows in areas, which can free a
    # live object (docs/firmware.md). Said on the console.
    wanted = setting("CIRCUITPY_HEAP_START_SIZE")
    if not hasattr(gc, "mem_free"):
        return True  # (CPython running the board's path: no such heap)
    try:
        wanted = int(wanted or 0)
    except ValueError:
        wanted = 0
    heap = gc.mem_free() + gc.mem_alloc()
    if heap < wanted * 9 // 10:
        print("CIRCUITPY_HEAP_START_SIZE = %d is more than this board has: the heap is %d B" % (wanted, heap))
        return False
    return True


def unreadable(name, on_board):
    # A SPIT_* line of settings.toml that CircuitPython cannot read (a bare
    # word, an unclosed quote) would be taken as no setting at all: say which.
    try:
        with open(name) as f:
            text = f.read()
    except (OSError, ValueError):
        return
    for line in text.split("\n"):
        key, eq, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key.startswith("SPIT_") or (not on_board and os.getenv(key) is not None):
            continue
        if not value:
            raise profiles.SetupError("settings.toml: %s has no value: a word goes in quotes, a number without" % key)
        if value[:1] == '"':
            end = value.find('"', 1)
            if end > 0 and value[end + 1 :].strip()[:1] in ("", "#"):
                continue
            if end > 0:
                raise profiles.SetupError("settings.toml: %s = %s cannot be read: one word in quotes" % (key, value))
            raise profiles.SetupError(
                'settings.toml: %s = %s cannot be read: write %s = %s"' % (key, value, key, value)
            )
        word = value.split("#")[0].strip()
        if not (word.lstrip("-").isdigit() or word in ("true", "false")):
            raise profiles.SetupError(
                'settings.toml: %s = %s cannot be read: write %s = "%s"' % (key, value, key, word)
            )


def _seed(setting):
    # SPIT_SEED fixes the deal (settings.toml may hold an int or a str of one).
    value = setting("SPIT_SEED")
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise profiles.SetupError("SPIT_SEED must be a whole number, not %r" % (value,))


def _nonce(setting):
    # SPIT_NONCE: the number a linked session uses instead of a drawn one.
    value = setting("SPIT_NONCE")
    if value is None or value == "":
        return None
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not 0 < n < 65536:
        raise profiles.SetupError("SPIT_NONCE must be a whole number from 1 to 65535, not %r" % (value,))
    return n


def refuse(message, open_io, setting, hold):
    # A message before the game is built, on the screen of the profile's board
    # when it can be opened, else on the console alone.
    io = None
    try:
        io = open_io(profiles.get(setting("SPIT_PROFILE"), "settings.toml"), None)
    except Exception:  # (profiles.SetupError, a wiring fault: the console has the message)
        pass
    fail(message, True, hold, io)


def fail(message, on_board, hold, io=None):
    # A message a maker can act on, on the console and the screen; no
    # traceback. On a board the screen is the one the program opened (a
    # failure inside BoardIO shows it there itself), else a built-in one.
    import sys

    print("Spit cannot start: " + message)
    if on_board:
        try:
            import board

            from .message import show_message

            display = io.display if io is not None else getattr(board, "DISPLAY", None)
            if display is not None:
                show_message(display, message)
        except Exception as e:  # the console has the message
            print("(not shown on the screen: %r)" % (e,))
        hold()
    sys.exit(1)


def start_position(value):
    # SPIT_START: a position line, or a file holding one (the first line that
    # is not a comment); a bad one is a message saying what is wrong.
    line = value
    try:
        with open(value) as f:
            line = ""
            for text in f:
                if text.strip() and not text.startswith("#"):
                    line = text.strip()
                    break
    except OSError:
        pass
    from engine import games

    try:
        return games.from_text(line)
    except ValueError as e:
        raise profiles.SetupError("SPIT_START: %s" % e)
