# The keypad, as the desktop and the tests have it: a scanner with the
# board's semantics (keypad.Keys: debounced at the firmware's scan times,
# events stamped in ticks_ms, a full queue drops the new event), and which
# keyboard key, or which replay word, is which player's button.

from collections import deque

from hardware.controls import Controls
from hardware.keymaps import NEXT, PILE_0, PREV, STOCK_0, UNUSED, key, key_numbers

TICKS_PERIOD = 1 << 29
POWER_ON_TICKS = 0x1FFF0000  # supervisor.ticks_ms() at power-on: the board's clock wraps 65.5 s in
TAP_MS = 60
# A press of a key from the keyboard at least this long after its last change:
# the Controls' bounce lockout (from the last press or release), and room for
# the two scans of debounce at each edge.
TAP_SPACING_MS = Controls.LOCKOUT_MS + 10

# Keyboard layouts for both players on one keyboard, per key map.
KEYBOARD = {
    "handheld14": {
        (0, STOCK_0 + 0): "a",
        (0, STOCK_0 + 1): "s",
        (0, STOCK_0 + 2): "d",
        (0, STOCK_0 + 3): "f",
        (0, STOCK_0 + 4): "g",
        (0, PILE_0): "z",
        (0, PILE_0 + 1): "x",
        (1, STOCK_0 + 0): "h",
        (1, STOCK_0 + 1): "j",
        (1, STOCK_0 + 2): "k",
        (1, STOCK_0 + 3): "l",
        (1, STOCK_0 + 4): ";",
        (1, PILE_0): "n",
        (1, PILE_0 + 1): "m",
    },
    "cursor": {
        (0, PREV): "a",
        (0, NEXT): "d",
        (0, PILE_0): "w",
        (0, PILE_0 + 1): "s",
        (1, PREV): "j",
        (1, NEXT): "l",
        (1, PILE_0): "k",
        (1, PILE_0 + 1): "i",
    },
}
ACTION_NAMES = {"prev": PREV, "next": NEXT, "pile0": PILE_0, "pile1": PILE_0 + 1}
ACTION_NAMES.update({"stock%d" % s: STOCK_0 + s for s in range(5)})


class Event:
    """keypad.Event's fields, filled by EventQueue.get_into()."""

    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    """keypad.EventQueue's semantics: a full queue drops the new event and sets overflowed."""

    def __init__(self, max_events=64):
        self._q = deque((), max_events)  # (the arguments MicroPython needs too)
        self._max = max_events
        self.overflowed = False

    def get_into(self, event):
        if not self._q:
            return False
        event.key_number, event.pressed, event.timestamp = self._q.popleft()
        return True

    def clear(self):
        self._q.clear()
        self.overflowed = False

    def __len__(self):
        return len(self._q)

    def put(self, key_number, pressed, timestamp):
        if len(self._q) >= self._max:
            self.overflowed = True
            return
        self._q.append((key_number, pressed, timestamp))


class DesktopKeys:
    """A keypad scanner with the board's semantics, for the desktop and the tests.

    The switches (level) move when the keyboard or a replay says; scan(ms),
    called at the firmware's scan times (desktop/scan_times.py), reports a new level once debounce_threshold
    scans in a row have seen it (the board's scanner uses buttons.DEBOUNCE_SCANS),
    with that scan's timestamp, in key-number order. A full queue drops the
    new event and sets overflowed; reset() forgets what was reported, so keys
    still held are reported pressed again by the next scans. set() is a
    switch moved and seen at once (threshold 1), for tests that step an App
    without a scanner."""

    def __init__(self, key_count, ticks_ms, debounce_threshold=1, max_events=64):
        self.key_count = key_count
        self.events = EventQueue(max_events)
        self.level = [False] * key_count  # the switches as they are
        self.down = [False] * key_count  # as last reported
        self._seen = [0] * key_count  # scans in a row that saw a new level
        self.threshold = debounce_threshold
        self._ticks_ms = ticks_ms

    def set(self, key_number, pressed, timestamp):
        self.level[key_number] = pressed
        if self.down[key_number] != pressed:
            self.down[key_number] = pressed
            self._seen[key_number] = 0
            self.events.put(key_number, pressed, timestamp % TICKS_PERIOD)

    def scan(self, timestamp):
        for k in range(self.key_count):
            if self.level[k] != self.down[k]:
                self._seen[k] += 1
                if self._seen[k] >= self.threshold:
                    self.down[k] = self.level[k]
                    self._seen[k] = 0
                    self.events.put(k, self.level[k], timestamp % TICKS_PERIOD)
            else:
                self._seen[k] = 0

    def busy(self):
        # True while a scan can change anything (a switch moved, not yet reported or settled).
        return self.level != self.down or any(self._seen)

    def reset(self):
        self.down = [False] * self.key_count
        self._seen = [0] * self.key_count


# The buttons of a board whose buttons have names of their own, by (player, action).
BUTTON_NAMES = {
    "pybadge": {
        (0, PREV): "Left",
        (0, NEXT): "Right",
        (0, PILE_0): "Up",
        (0, PILE_0 + 1): "Down",
        (1, PREV): "Select",
        (1, NEXT): "Start",
        (1, PILE_0): "B",
        (1, PILE_0 + 1): "A",
    }
}


def key_legend(profile, linked=False):
    """Whose keyboard keys are which, in the words of the buttons, for the
    window's title: "bottom: stocks a s d f g, piles z x; top: ...". A
    linked window plays one player, player 0's keys ("you: ..."). A board
    whose buttons have names says which key is which button ("A i")."""
    layout = KEYBOARD["cursor" if profile["cursor"] else "handheld14"]
    numbers = key_numbers(profile["keymap"])
    buttons = BUTTON_NAMES.get(profile["name"])

    def keys(player, actions):
        return " ".join(
            ("%s %s" % (buttons[player, a], layout[player, a])) if buttons else layout[player, a]
            for a in actions
            if numbers[key(player, a)] != UNUSED
        )

    piles = (PILE_0, PILE_0 + 1)
    said = []
    for player, name in ((0, "you"),) if linked else ((0, "bottom"), (1, "top")):
        if profile["cursor"]:
            said.append("%s: %s move, %s piles" % (name, keys(player, (PREV, NEXT)), keys(player, piles)))
        else:
            said.append(
                "%s: stocks %s, piles %s" % (name, keys(player, range(STOCK_0, STOCK_0 + 5)), keys(player, piles))
            )
    return "; ".join(said)


def key_name(keymap, k):
    """The replay name of keypad key k: ``p0.stock2``."""
    code = keymap[k]
    action = [name for name, a in ACTION_NAMES.items() if a == code & 15][0]
    return "p%d.%s" % (code >> 4, action)


def key_number(keymap, name):
    """``p0.stock2`` (or a plain key number) -> the keypad key number of keymap."""
    if name.isdigit():
        k = int(name)
        if k >= len(keymap):
            raise ValueError("key number %d: this board has %d keys" % (k, len(keymap)))
        return k
    player, _, action = name.partition(".")
    if player not in ("p0", "p1") or action not in ACTION_NAMES:
        raise ValueError("unknown key %r (like p0.stock2, p1.pile0, p0.next, or a key number)" % name)
    k = key_numbers(keymap)[key(int(player[1]), ACTION_NAMES[action])]
    if k == UNUSED:
        raise ValueError("key %r is not on this board" % name)
    return k
