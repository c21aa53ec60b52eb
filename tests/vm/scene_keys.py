"""A scene's keys with the heap locked: a menu, the pause, the lobby and game
over read their keys each pass through Buttons.poll(None, scene), and the
presses reach scene.press without anything allocated (a bound method passed
each pass would be 16 bytes of garbage a pass, and a stale copy on the C stack
kept a forgotten scene's whole module in the heap).

    scene_keys.py COUNT

COUNT key events of a two-player keymap (a key down, then up) over twice as
many passes, one waiting every other pass. Prints "ok PASSES PRESSES PLAYER0
PLAYER1" (how many presses of each player reached the scene) or "alloc PASS".
"""

import gc
import sys

from locked import run_locked

from hardware.buttons import Buttons
from hardware.controls import Controls
from hardware.keymaps import HANDHELD_14


class Event:
    # keypad.Event as get_into fills it.
    def __init__(self):
        self.key_number = 0
        self.pressed = False
        self.timestamp = 0


class Events:
    # keypad's EventQueue: a list of (key, pressed, time) read from the front.
    def __init__(self, keys, pressed, times):
        self.keys = keys
        self.pressed = pressed
        self.times = times
        self.at = 0
        self.ready = 0  # events that have come in by now
        self.overflowed = False

    def get_into(self, event):
        i = self.at
        if i >= self.ready:
            return False
        event.key_number = self.keys[i]
        event.pressed = self.pressed[i] == 1
        event.timestamp = self.times[i]
        self.at = i + 1
        return True


class Keys:
    def __init__(self, events):
        self.events = events


class Scene:
    # What a menu does with a press, minus the drawing: counts it.
    def __init__(self):
        self.counts = bytearray(2)

    def press(self, player, action):
        self.counts[player] = (self.counts[player] + 1) & 0xFF


def step(state):
    buttons = state[0]
    scene = state[1]
    events = state[2]
    n = state[3]
    if n >= len(events.keys) * 2:
        return False
    if n & 1:
        events.ready += 1  # an event now and then, none on the other passes
    buttons.poll(None, scene)
    state[3] = n + 1
    return True


def main():
    count = int(sys.argv[1])
    keys = bytearray(count)
    pressed = bytearray(count)
    times = [0] * count
    t = 1000
    for i in range(count):
        keys[i] = (i // 2 * 5) % len(HANDHELD_14)  # a key down, then the same key up
        pressed[i] = 1 - (i & 1)
        t += 40
        times[i] = t
    events = Events(keys, pressed, times)
    controls = Controls(HANDHELD_14)
    buttons = Buttons(Keys(events), controls, Event(), lambda: t)
    scene = Scene()
    state = [buttons, scene, events, 0]
    gc.collect()
    if run_locked(step, state):
        print("ok %d %d %d %d" % (state[3], controls.presses, scene.counts[0], scene.counts[1]))
    else:
        print("alloc %d" % state[3])


main()
