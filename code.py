# Spit for two players: the program the board runs, and the desktop simulator.
#
# Picks the board profile (SPIT_PROFILE in settings.toml, or the environment on
# a desktop), opens the display and the buttons, builds the game and runs the
# loop. Nothing here blocks: each pass reads the buttons, moves the game on and
# refreshes what changed on the screen.
#
# ON_BOARD: every interpreter but CPython is a board (CircuitPython, and the
# MicroPython VM the tests run this file on); the tests that run the board
# path on CPython set it themselves.

import os
import sys

from hardware import forget

ON_BOARD = sys.implementation.name != "cpython"


def setting(name):
    value = os.getenv(name)
    if value is None and not ON_BOARD:
        from hardware.desktop import file_setting

        value = file_setting(name)
    return value


def seed_setting():
    # SPIT_SEED fixes the deal (settings.toml may hold an int or a str of one).
    value = setting("SPIT_SEED")
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        from hardware.profiles import SetupError

        raise SetupError("SPIT_SEED must be a whole number, not %r" % (value,))


def fail(message, io=None):
    # A message a maker can act on, on the console and the screen; no
    # traceback. On a board the screen is the one the program opened (a
    # failure inside BoardIO shows it there itself), else a built-in one.
    print("Spit cannot start: " + message)
    if ON_BOARD:
        try:
            import board

            from hardware.board_io import show_message

            display = io.display if io is not None else getattr(board, "DISPLAY", None)
            if display is not None:
                show_message(display, message)
        except Exception as e:  # the console has the message
            print("(not shown on the screen: %r)" % (e,))
        hold()
    sys.exit(1)


def hold():
    # The board keeps the message on the screen until it is reset.
    while True:
        pass


def open_io(profile):
    if ON_BOARD:
        from hardware.board_setup import open_board

        return open_board(profile)
    from hardware.desktop import DesktopIO

    return DesktopIO(profile)


def start():
    # The display, buttons and game of the chosen profile: (io, app). Then
    # the modules only start-up needs are forgotten: their heap is the
    # game's (hardware.forget; on a board only).
    from hardware import profiles

    io = None
    try:
        source = "settings.toml" if ON_BOARD or os.getenv("SPIT_PROFILE") is None else "the environment"
        profile = profiles.get(setting("SPIT_PROFILE"), source)
        io = open_io(profile)
        seed = seed_setting()
        from hardware.app import App
        from hardware.screen import Screen

        screen = Screen(io.display, profile)
        app = App(screen, io.keys, io.event, profile, io.ticks_ms, seed, io.store, io.feedback)
        if not ON_BOARD:
            io.app = app  # a fast replay asks it when something is due
        position = setting("SPIT_START")
        if position:
            app.begin(start_position(position), io.ticks_ms())
    except profiles.SetupError as e:
        fail(str(e), io)
    except ImportError as e:
        fail("a library is missing (%s). On a board: make flash. On a desktop: make install." % e, io)
    for name in ("hardware.board_setup", "hardware.screen_build", "hardware.profiles", "hardware.sprites",
                 "hardware.keymaps", "engine.spit_text", "engine.speed_text", "engine.notation"):
        forget(name)
    return io, app


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
    game = line.split(" ", 1)[0]
    try:
        if game == "spit":
            from engine import spit

            return spit.Game.from_text(line)
        if game == "speed":
            from engine import speed

            return speed.Game.from_text(line)
        raise ValueError("a position starts with spit or speed, not %r" % game)
    except ValueError as e:
        from hardware.profiles import SetupError

        raise SetupError("SPIT_START: %s" % e)


def run(io, app):
    while io.running:
        io.pump()
        app.step(io.ticks_ms())
        io.refresh()


def main():
    io, app = start()
    try:
        run(io, app)
    except KeyboardInterrupt:
        if ON_BOARD:
            raise  # the board's console: Ctrl-C stops the program as ever
        print("interrupted")
    if app.game is not None:
        print(app.game.text())
    if not ON_BOARD:
        io.finish()


# CircuitPython runs code.py as __main__; the guard keeps a desktop import of the
# standard library's `code` module (pdb does one) from starting the game.
if __name__ == "__main__":
    main()
