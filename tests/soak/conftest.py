import os
import sys

# The soak reuses the helpers of the ordinary tests beside it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# (The flashed drives, `drives`, come from tests/conftest.py.)
