# Spit for two players: the program the board runs, and the desktop simulator.
#
# Start-up (hardware/launch.py) picks the board profile (SPIT_PROFILE in
# settings.toml, or the environment on a desktop), opens the display and the
# buttons and builds the game; then this file runs the loop. Nothing here
# blocks: each pass reads the buttons, moves the game on and refreshes what
# changed on the screen.
#
# ON_BOARD: every interpreter but CPython is a board (CircuitPython, and the
# MicroPython VM the tests run this file on); the tests that run the board
# path on CPython set it themselves.

import sys

from hardware import forget

ON_BOARD = sys.implementation.name != "cpython"


def _folder():
    # The folder this file runs from: "" on a board (the drive's root is the
    # current folder), the drive's path when a test imports it from there.
    return globals().get("__file__", "").rpartition("/")[0]


def start():
    # The display, buttons and game of the chosen profile: (io, app), built
    # by hardware/launch.py (a message, not a traceback, when it cannot be).
    # Then that module and the others only start-up needs are forgotten: their
    # heap is the game's (hardware.forget; on a board only).
    stale = None
    if ON_BOARD:  # (an earlier copy's .py files first: the next import could be one)
        from hardware.leftovers import message

        stale = message(_folder())
        forget("hardware.leftovers")
    from hardware import launch

    if ON_BOARD:
        import os

        from hardware.board_setup import open_board

        top = _folder()
        opened = (open_board, os.getenv, top + "/settings.toml" if top else "settings.toml")
    else:
        from desktop import io, settings

        opened = (io.open_io, io.setting, settings.FILE)  # the window; the environment, then settings.toml
    try:
        if stale:
            launch.refuse(stale, opened[0], opened[1], hold)
        return launch.start(ON_BOARD, opened[0], opened[1], hold, opened[2])
    finally:
        for name in (
            "hardware.launch",
            "hardware.board_setup",
            "hardware.screen_build",
            "hardware.profiles",
            "hardware.sprites",
            "hardware.keymaps",
            "engine.spit_text",
            "engine.speed_text",
            "engine.notation",
            "engine.games",
        ):
            forget(name)


def hold():
    # The board keeps a start-up message on the screen until it is reset.
    while True:
        pass


def run(io, app):
    while io.running:
        io.pump()
        app.step(io.ticks_ms())
        io.refresh()


def main():
    io, app = start()
    play(io, app)


def play(io, app):
    # The loop until it stops (Ctrl-C on a board, the window closed or the
    # replay over on a desktop); a board's buttons then go back to whoever
    # had them (a Cardputer's keyboard types into the console again).
    try:
        run(io, app)
    except KeyboardInterrupt:
        if ON_BOARD:
            raise  # the board's console: Ctrl-C stops the program as ever
        print("interrupted")
    finally:
        if ON_BOARD:
            io.close()
    if app.game is not None:
        print(app.game.text())
    if not ON_BOARD:
        io.finish()


# CircuitPython runs code.py as __main__; the guard keeps a desktop import of the
# standard library's `code` module (pdb does one) from starting the game.
if __name__ == "__main__":
    main()
