# Two linked handhelds' Apps on the MicroPython VM, their UARTs joined by a
# preallocated ring each way: every pass of a linked match (presses into
# the order, its events out and applied, pings, hashes, acks and resends)
# is stepped with the heap locked (tests/test_linked_vm.py). The players'
# key presses are made between the passes, outside the lock, as a keypad's
# scanner makes them outside the program. Arguments: seed, passes.
import sys

import micropython
from locked import lock_refuses_allocation

from desktop.keys import DesktopKeys, Event
from desktop.linked_pair import QuietScreen
from engine.cards import Rng
from engine.spit import GAME_OVER
from hardware import profiles
from hardware.app import App
from hardware.keymaps import PILE_0, key_numbers
from hardware.modes import LINKED, MATCH
from hardware.plan import keys_for_move

N = 2048


class Ring:
    def __init__(self):
        self.buf = bytearray(N)
        self.r = 0
        self.w = 0


class End:
    # busio.UART over two rings: write copies in, readinto copies out (no allocation).
    def __init__(self, tx, rx):
        self.tx = tx
        self.rx = rx

    def write(self, data):
        tx = self.tx
        for i in range(len(data)):
            tx.buf[tx.w] = data[i]
            tx.w = (tx.w + 1) % N
        return len(data)

    def readinto(self, buf):
        rx = self.rx
        n = 0
        while n < len(buf) and rx.r != rx.w:
            buf[n] = rx.buf[rx.r]
            rx.r = (rx.r + 1) % N
            n += 1
        return n or None


clock = [0x1FFEF000]


def ticks():
    return clock[0]


def main(seed, passes):
    p = profiles.get("pico-st7789-240")
    rings = (Ring(), Ring())
    ends = (End(rings[0], rings[1]), End(rings[1], rings[0]))
    apps = []
    for i in range(2):
        keys = DesktopKeys(len(p["keymap"]), ticks)
        app = App(QuietScreen(p), keys, Event(), p, ticks, seed=seed + i, link=(lambda e=ends[i]: e))
        app.players = LINKED
        app.nonce = 0x9000 - i * 0x8000
        apps.append((app, keys))
    numbers = key_numbers(p["keymap"])
    for app, _ in apps:
        app.press(0, PILE_0 + 1)  # linked play: go
    rng = Rng(seed)
    moves = bytearray(64)
    plan = bytearray(16)
    todo = [[], []]  # each player's keys still to press: [when, key]
    up = [[], []]
    locked = 0
    events = 0
    for step in range(passes):
        clock[0] = (clock[0] + 1) & ((1 << 29) - 1)
        now = clock[0]
        for i in range(2):  # the players, outside the lock: their keys down and up
            app, keys = apps[i]
            for k in up[i]:
                keys.set(k, False, now)
            up[i] = []
            if todo[i]:
                if todo[i][0][0] <= now:
                    k = todo[i].pop(0)[1]
                    keys.set(k, True, now)
                    up[i].append(k)
            elif app.mode == MATCH and app.linked is not None and rng.below(150) == 0:
                g = app.game
                n = g.moves(app.linked.seat, moves)
                if n:
                    m = keys_for_move(g, app.controls, app.linked.seat, moves[rng.below(n)], plan)
                    todo[i] = [[now + 45 * j, numbers[plan[j]]] for j in range(m)]
        for app, _ in apps:
            if app.mode == MATCH and app.game.phase != GAME_OVER:
                before = app.linked.count
                micropython.heap_lock()
                try:
                    app.step(now)
                except MemoryError:
                    micropython.heap_unlock()
                    if app.game.phase == GAME_OVER or app.mode != MATCH:
                        print("over at pass", step)  # (the game over scene is loaded: not a move's)
                    else:
                        print("ALLOCATED at pass", step, "phase", app.game.phase, "events", app.linked.count)
                    print("locked passes", locked, "with events", events)
                    return
                micropython.heap_unlock()
                locked += 1
                events += app.linked.count != before
            else:
                app.step(now)
    print("locked passes", locked, "with events", events)
    print("agree", apps[0][0].game.text() == apps[1][0].game.text())


print("refuses", lock_refuses_allocation())
main(int(sys.argv[1]), int(sys.argv[2]))
