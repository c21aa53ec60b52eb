"""Find calls CPython allows and MicroPython/CircuitPython refuse, in the files the board loads.

    python tools/lint_board.py [FILE...]

Without files it checks what tools/flash.py puts on a board (code.py, engine/,
hardware/ but the desktop module). Prints one line per finding,
``path:line: what``, and exits 1 when there is any. The traps (each proven on
the MicroPython VM by tests/test_board_lint.py):

- ``bytes.index(int)``, ``.find``, ``.rfind``, ``.count`` of an int: a search
  in bytes takes bytes only. Flagged when the argument is a number or
  arithmetic, or the receiver is a byte buffer by name (keymap, cards, counts,
  buf, nvm, payload, data).
- str and int methods the ports lack: ljust, rjust, zfill, title, casefold,
  removeprefix, removesuffix, expandtabs, swapcase, bit_length.
- keyword arguments to split/rsplit (``maxsplit=``): builtins take none.
- a slice with a step (``s[::-1]``): str and bytes slice with step 1 only.
- the ``!a`` conversion in a format string or f-string.
- ``int.to_bytes``/``int.from_bytes`` without length and byte order:
  CircuitPython needs both.
- iterating a dict (``.items()``, ``.keys()``, ``.values()``): the order is not
  the insertion order there. Mark a line whose result does not depend on the
  order with the comment ``# any order``.
- modules the ports do not have: dataclasses, enum, typing (outside a
  try/except ImportError), abc, functools, itertools, copy, string, textwrap,
  pathlib, argparse, logging, tomllib.
"""

import ast
import os
import string
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISSING_METHODS = {
    "ljust",
    "rjust",
    "zfill",
    "title",
    "casefold",
    "removeprefix",
    "removesuffix",
    "expandtabs",
    "swapcase",
    "bit_length",
}
SEARCHES = {"index", "find", "rfind", "count"}
BYTE_BUFFERS = ("keymap", "cards", "counts", "buf", "nvm", "payload", "data")
MISSING_MODULES = {
    "dataclasses",
    "enum",
    "typing",
    "abc",
    "functools",
    "itertools",
    "copy",
    "string",
    "textwrap",
    "pathlib",
    "argparse",
    "logging",
    "tomllib",
}
ORDER_FREE = "# any order"


def board_files():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from flash import game_files

    return [src for _, src in game_files() if src.endswith(".py")]


def _name(node):
    # The last name of a receiver: keymap, self.keymap, profile["keymap"] -> "keymap".
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    return ""


def _numeric(node):
    return (isinstance(node, ast.Constant) and isinstance(node.value, int)) or isinstance(
        node, (ast.BinOp, ast.UnaryOp)
    )


def _format_conversions(text):
    try:
        return [conv for _, _, _, conv in string.Formatter().parse(text) if conv]
    except ValueError:
        return []


class Lint(ast.NodeVisitor):
    def __init__(self, path, source):
        self.path = path
        self.lines = source.splitlines()
        self.found = []
        self._guarded = 0  # inside try/except ImportError

    def say(self, node, what):
        self.found.append("%s:%d: %s" % (self.path, node.lineno, what))

    def visit_Try(self, node):
        guards = any(h.type is not None and "ImportError" in ast.dump(h.type) for h in node.handlers)
        self._guarded += guards
        for child in node.body:
            self.visit(child)
        self._guarded -= guards
        for child in node.handlers + node.orelse + node.finalbody:
            self.visit(child)

    def _module(self, node, name):
        if name.split(".")[0] in MISSING_MODULES and not self._guarded:
            self.say(node, "module %s is not on MicroPython/CircuitPython" % name)

    def visit_Import(self, node):
        for alias in node.names:
            self._module(node, alias.name)

    def visit_ImportFrom(self, node):
        if node.module and node.level == 0:
            self._module(node, node.module)

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in MISSING_METHODS:
                self.say(node, ".%s() is not on MicroPython/CircuitPython" % f.attr)
            elif f.attr in SEARCHES and node.args:
                literal = isinstance(f.value, (ast.Tuple, ast.List))
                if (_numeric(node.args[0]) and not literal) or _name(f.value).lower().endswith(BYTE_BUFFERS):
                    self.say(node, ".%s() of an int in bytes works on CPython only (keep a reverse table)" % f.attr)
            elif f.attr in ("split", "rsplit") and node.keywords:
                self.say(node, ".%s() takes no keyword arguments there" % f.attr)
            elif f.attr in ("to_bytes", "from_bytes") and len(node.args) < 2:
                self.say(node, ".%s() needs length and byte order on CircuitPython" % f.attr)
            elif f.attr == "format" and isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
                if "a" in _format_conversions(f.value.value):
                    self.say(node, "the !a conversion is not there")
            elif f.attr in ("items", "keys", "values") and not node.args and self._iterated(node):
                if ORDER_FREE not in self.lines[node.lineno - 1]:
                    self.say(node, "a dict's order is not its insertion order there (or mark '%s')" % ORDER_FREE)
        self.generic_visit(node)

    def _iterated(self, node):
        return getattr(node, "_iterated", False)

    def visit_For(self, node):
        node.iter._iterated = True
        self.generic_visit(node)

    def visit_comprehension(self, node):
        node.iter._iterated = True
        self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.slice, ast.Slice) and node.slice.step is not None:
            self.say(node, "slices with a step are refused for str and bytes")
        self.generic_visit(node)

    def visit_FormattedValue(self, node):
        if node.conversion == ord("a"):
            self.say(node, "the !a conversion is not there")
        self.generic_visit(node)


def lint(path):
    with open(path) as f:
        source = f.read()
    checker = Lint(os.path.relpath(path, ROOT), source)
    checker.visit(ast.parse(source, path))
    return checker.found


def main(argv):
    paths = argv[1:] or board_files()
    found = [line for p in paths for line in lint(p)]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
