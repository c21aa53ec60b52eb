# Key maps: which physical key number is which player's which action.
#
# A key map is a bytes object indexed by the keypad's key number; each byte is
# player * 16 + action, or UNUSED. Pure data: no hardware import, so the input
# logic and its tests run anywhere (CPython, the MicroPython VM, the board).
#
# Actions. On the two-handed handheld each player has five stock buttons and
# two pile buttons; on four-button boards a cursor over the stocks (PREV, NEXT)
# and the two pile buttons.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


STOCK_0 = const(0)  # STOCK_0 + s for stock s (0..4)
PILE_0 = const(5)  # PILE_0 + k for spit pile k
PREV = const(7)
NEXT = const(8)
UNUSED = const(255)


def key(player, action):
    return player * 16 + action


# The default handheld, 14 keys in keypad order: player 0's stocks 0..4 and
# piles 0, 1, then player 1's the same way.
HANDHELD_14 = bytes(
    [key(0, STOCK_0 + s) for s in range(5)]
    + [key(0, PILE_0), key(0, PILE_0 + 1)]
    + [key(1, STOCK_0 + s) for s in range(5)]
    + [key(1, PILE_0), key(1, PILE_0 + 1)]
)

# Adafruit PyBadge: keypad.ShiftRegisterKeys reports the buttons as
# key numbers 0 B, 1 A, 2 Start, 3 Select, 4 Right, 5 Down, 6 Up, 7 Left.
# Player 0 (left) has the D-pad: Left/Right move the cursor, Up is pile 0 and
# Down pile 1. Player 1 (right): Select/Start move the cursor, B is pile 0 and
# A pile 1.
PYBADGE = bytes(
    [
        key(1, PILE_0),  # 0 B
        key(1, PILE_0 + 1),  # 1 A
        key(1, NEXT),  # 2 Start
        key(1, PREV),  # 3 Select
        key(0, NEXT),  # 4 Right
        key(0, PILE_0 + 1),  # 5 Down
        key(0, PILE_0),  # 6 Up
        key(0, PREV),  # 7 Left
    ]
)


# (The M5Stack Cardputer's key map is its profile's: hardware/profiles.py.)


def key_numbers(keymap):
    # The key map the other way round: key_numbers(keymap)[player * 16 + action]
    # is that key's keypad number, or UNUSED. (Searching the bytes for an int
    # works on CPython only: MicroPython's bytes search takes no int.)
    numbers = bytearray(b"\xff" * 32)
    for k in range(len(keymap)):
        if keymap[k] != UNUSED:
            numbers[keymap[k]] = k
    return numbers
