import os
import sys

# The soak reuses the helpers of the ordinary tests beside it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from test_board_vm import drives  # noqa: E402, F401  (the ordinary tests' fixture: the flashed drives)
