"""Screen benchmark: pixels pushed per move, from displayio's dirty areas.

    python tools/bench_screen.py [MOVES]

For each board profile, a random match is played through the buttons
(hardware/plan.py -> Controls -> Game) and drawn by hardware/screen.py on
Blinka's displayio, refreshing only dirty areas as a board does. An ordinary
move is a card played from a stock in PLAY that leaves the phase as it was;
its cost is every pixel its key presses made displayio push. Target: at most
5 % of the screen per ordinary move.
"""

import os
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import displayio  # noqa: E402

from desktop.window import pygame_display_class  # noqa: E402
from engine.cards import Rng  # noqa: E402
from engine.spit import GAME_OVER, PLAY, Game  # noqa: E402
from hardware import profiles  # noqa: E402
from hardware.controls import Controls  # noqa: E402
from hardware.keymaps import key_numbers  # noqa: E402
from hardware.plan import keys_for_move  # noqa: E402
from hardware.screen import Screen  # noqa: E402


def measure(name, moves, seed=1):
    displayio.release_displays()
    profile = profiles.get(name)
    w, h = profile["width"], profile["height"]
    display = pygame_display_class()(width=w, height=h, auto_refresh=False)
    screen = Screen(display, profile)
    controls = Controls(profile["keymap"], profile["cursor"])
    numbers = key_numbers(profile["keymap"])
    g = Game(seed)
    screen.show_game(g, controls, 0)
    display.refresh()
    display.refresh()  # Blinka leaves the first full refresh's groups dirty once
    pick = Rng(seed)
    out = bytearray(16)
    b0 = bytearray(64)
    b1 = bytearray(64)
    t = 1000
    costs = []
    while len(costs) < moves and g.phase != GAME_OVER:
        n0 = g.moves(0, b0)
        n1 = g.moves(1, b1)
        i = pick.below(n0 + n1)
        player, move = (0, b0[i]) if i < n0 else (1, b1[i - n0])
        phase = g.phase
        before = display.pixels_pushed
        for j in range(keys_for_move(g, controls, player, move, out)):
            k = numbers[player * 16 + out[j]]
            controls.feed(g, k, True, t)
            controls.feed(g, k, False, t + 60)
            controls.apply(g)
            screen.show_game(g, controls, t)
            display.refresh()
            t += 300
        screen.show_game(g, controls, t)  # the refused-move flash, if any, goes out
        display.refresh()
        if move < 10 and phase == PLAY and g.phase == PLAY:
            costs.append(display.pixels_pushed - before)
    full = w * h
    costs.sort()
    mean = sum(costs) / len(costs)
    return profile, len(costs), mean * 100 / full, costs[len(costs) * 95 // 100] * 100 / full, costs[-1] * 100 / full


def main():
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print("Pixels pushed per ordinary move, %% of the screen (target: at most 5 %%), %d moves each" % moves)
    print("%-17s %9s %7s %7s %7s %7s" % ("profile", "screen", "moves", "mean", "p95", "max"))
    for name in sorted(profiles.PROFILES):
        profile, n, mean, p95, worst = measure(name, moves)
        size = "%dx%d" % (profile["width"], profile["height"])
        print("%-17s %9s %7d %6.2f%% %6.2f%% %6.2f%%" % (name, size, n, mean, p95, worst))


if __name__ == "__main__":
    main()
