"""Run code with the MicroPython heap locked: shared by the VM scripts beside it.

Under micropython.heap_lock() any allocation raises MemoryError, so a run that
finishes proves the code allocated nothing. A new global name allocates too:
the locked code runs inside step(), never at module level.
"""

import micropython


def lock_refuses_allocation():
    micropython.heap_lock()
    try:
        bytearray(8)
        refused = False
    except MemoryError:
        refused = True
    micropython.heap_unlock()
    return refused


def run_locked(step, state):
    # Call step(state) with the heap locked until it returns False. True when
    # nothing allocated, False when something did.
    micropython.heap_lock()
    try:
        while step(state):
            pass
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return ok
