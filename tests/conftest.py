import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Appended, not prepended: the repository's code.py must not shadow the
# standard library's `code` module (pdb imports it).
if ROOT not in sys.path:
    sys.path.append(ROOT)

# tests/soak/ runs only when asked for (make soak): many more games, minutes long.
collect_ignore = [] if os.environ.get("SPIT_SOAK") else ["soak"]
