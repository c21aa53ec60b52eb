"""No CPython-only code in what the board loads (tools/lint_board.py), and each
trap it knows is proven real on the MicroPython VM."""

import os
import sys

import pytest
from test_vm import ROOT, run_vm

sys.path.insert(0, os.path.join(ROOT, "tools"))
import lint_board  # noqa: E402

# (a trap, a line of code that falls into it on MicroPython, and the word the lint says)
TRAPS = [
    ("bytes.index(int)", "bytes((1, 2)).index(1 + 0)", ".index() of an int"),
    ("bytes.find(int) on a buffer", "buf = bytearray(3)\nbuf.find(0)", ".find() of an int"),
    ("str.ljust", "'a'.ljust(3)", ".ljust() is not"),
    ("int.bit_length", "(5).bit_length()", ".bit_length() is not"),
    ("split(maxsplit=)", "'a b'.split(maxsplit=1)", "no keyword arguments"),
    ("a slice with a step", "'abc'[::-1]", "slices with a step"),
    ("!a in a format string", "'{!a}'.format(1)", "!a conversion"),
    (
        "dict order",
        "d = {}\nfor k in (9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 20, 11, 33, 17):\n    d[k] = 1\n"
        "assert [k for k in d.keys()] == [9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 20, 11, 33, 17]",
        "insertion order",
    ),
    ("dataclasses", "import dataclasses", "module dataclasses"),
    ("enum", "import enum", "module enum"),
    ("typing", "from typing import Optional", "module typing"),
]


def test_the_board_files_have_none_of_the_traps():
    files = lint_board.board_files()
    assert any(f.endswith("code.py") for f in files) and not any(f.endswith("desktop.py") for f in files)
    found = [line for path in files for line in lint_board.lint(path)]
    assert found == []


@pytest.mark.parametrize("name,code,says", TRAPS, ids=[t[0] for t in TRAPS])
def test_the_lint_finds_each_trap(tmp_path, name, code, says):
    path = tmp_path / "trap.py"
    path.write_text(code + "\n")
    found = lint_board.lint(str(path))
    assert len(found) == 1 and says in found[0], found


def test_each_trap_really_fails_on_micropython(tmp_path):
    # Each trap's line runs on CPython and raises on the VM.
    script = tmp_path / "traps.py"
    body = []
    for name, code, _ in TRAPS:
        exec(compile(code, name, "exec"), {})  # fine on CPython
        body.append(
            "try:\n%s\n    print('ran %s')\nexcept Exception as e:\n    print('refused %s')\n"
            % ("\n".join("    " + line for line in code.splitlines()), name, name)
        )
    script.write_text("".join(body))
    out = run_vm(str(script), pkgs=()).splitlines()
    assert out == ["refused " + name for name, _, _ in TRAPS]


def test_marked_order_free_lines_and_guarded_imports_pass(tmp_path):
    path = tmp_path / "fine.py"
    path.write_text(
        "try:\n    from typing import Optional\nexcept ImportError:\n    pass\n"
        "d = {1: 2}\nfirst = [k for k, v in d.items() if v == 2]  # any order: one matches\n"
        "'abc'.index('b')\nparts = (1, 2).index(2)\n"
    )
    assert lint_board.lint(str(path)) == []
