"""The board's code type-checked against the firmware's own signatures.

mypy reads CircuitPython's signatures from the pinned `circuitpython-stubs`
(a `*-stubs` package wins over Blinka's desktop modules of the same name), over
exactly the .py files `make flash` puts on a drive. Desktop-only modules are
not followed (tools/mypy-board.ini)."""

import os
import sys

from mypy import api

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "tools", "mypy-board.ini")
sys.path.insert(0, os.path.join(ROOT, "tools"))

from flash import game_files  # noqa: E402


def mypy(paths, cwd):
    here = os.getcwd()
    os.chdir(cwd)  # the config's module names are relative to the repository
    try:
        out, err, status = api.run(["--config-file", CONFIG, "--no-error-summary"] + paths)
    finally:
        os.chdir(here)
    return out + err, status


def test_the_board_code_type_checks_against_the_firmware_stubs():
    board = [rel for rel, _ in game_files() if rel.endswith(".py")]
    assert "code.py" in board and "hardware/app.py" in board and not any(rel.startswith("desktop/") for rel in board)
    out, status = mypy(board, ROOT)
    assert status == 0 and out == "", out


def test_the_check_reads_the_firmware_api_not_the_desktop_stand_ins(tmp_path):
    # Misuses CPython and Blinka would let through, each one the firmware's
    # signatures refuse: the check must name every one.
    (tmp_path / "misuse.py").write_text(
        "import displayio\n"
        "import keypad\n"
        "import supervisor\n"
        "\n"
        "\n"
        "def run():\n"
        "    sheet = displayio.Bitmap(8, 8, 2)\n"
        "    displayio.TileGrid(sheet, pixel_shader=displayio.Palette(2), tile_width='4')\n"
        "    keys = keypad.Keys((), value_when_pressed=False)\n"
        "    keys.events.get_into(3)\n"
        "    return supervisor.ticks_ms(1)\n"
    )
    out, status = mypy(["misuse.py"], str(tmp_path))
    assert status == 1
    for line in (8, 10, 11):
        assert "misuse.py:%d: error" % line in out, out
