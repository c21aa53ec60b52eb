"""Run a Python file (on the VM: one copied in with the drive) with the stand-ins on sys.path."""

import sys

exec(open(sys.argv[1]).read())
