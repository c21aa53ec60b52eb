"""The README's pictures: each profile mid-game, from a replay through code.py.

    python tools/screenshots.py      (make screenshots)

For each board profile a whole match is written as a replay
(tools/make_replay.py) and played headless through code.py up to a
sixteenth of its keys (early in the first rounds) and a quarter second more,
so the screen has settled; its last frame is kept, twice the board's size,
as tools/screenshots/PROFILE.png. Then the scenes the README
and docs/build.md explain, drawn by the game's own Screen on 240x240: seats
facing (the middle's words and the pause screen twice, one copy turned), a
refused move, the menu a handheld shows when it is first switched on, a
Cardputer's first round with its keys' legend (and its menu, that round and
its pause side by side), and a setup fault as a board with a working screen
shows it (a PyBadge's, a library missing) (tools/screenshots/facing.png,
refused.png, menu.png, keys.png, cardputer-scenes.png, fault.png).
Run it again when the art or the screen changes.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(ROOT)
OUT = os.path.join(ROOT, "tools", "screenshots")
SEED = 3


def shoot(profile, tmp):
    # A sixteenth of the way through the match: its replay cut 250 ms after
    # that key (the screen settled: what a press's frame leaves, the game
    # draws a pass later), its last frame saved (SPIT_SHOT).
    replay = os.path.join(tmp, profile + ".txt")
    cut = os.path.join(tmp, profile + "-cut.txt")
    shot = os.path.join(tmp, profile + ".png")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")

    def run(cmd, extra):
        out = subprocess.run([sys.executable] + cmd, capture_output=True, text=True, env=dict(env, **extra), cwd=ROOT)
        if out.returncode:
            sys.exit("screenshots: %s failed\n%s" % (" ".join(cmd), out.stderr))

    run([os.path.join(ROOT, "tools", "make_replay.py"), replay, "--profile", profile, "--seed", str(SEED)], {})
    with open(replay) as f:
        lines = f.read().splitlines()
    keys = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    last = keys[len(keys) // 16]
    with open(cut, "w") as f:
        f.write("\n".join(lines[: last + 1]) + "\n%d end\n" % (int(lines[last].split()[0]) + 250))
    run(
        [os.path.join(ROOT, "code.py")],
        {"SPIT_PROFILE": profile, "SPIT_REPLAY": cut, "SPIT_SHOT": shot, "SPIT_SEED": str(SEED)},
    )
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    image = pygame.image.load(shot)
    big = pygame.transform.scale(image, (image.get_width() * 2, image.get_height() * 2))
    path = os.path.join(OUT, profile + ".png")
    pygame.image.save(big, path)
    return path


def scenes():
    # The facing seats and a refused move, side by side with what follows.
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import displayio
    import pygame

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from engine.spit import Game
    from hardware import profiles
    from hardware.app import App
    from hardware.keymaps import STOCK_0
    from hardware.modes import FACING
    from hardware.screen import Screen

    profile = profiles.get("pico-st7789-240")
    keymap = profile["keymap"]

    def frame(display):
        display.refresh()
        image = display._pygame_screen.copy()
        return pygame.transform.scale(image, (image.get_width() * 2, image.get_height() * 2))

    def app_on_a_display():
        displayio.release_displays()
        display = pygame_display_class()(width=240, height=240, auto_refresh=False)
        screen = Screen(display, profile)
        return display, App(screen, DesktopKeys(len(keymap), lambda: 0), Event(), profile, lambda: 0, seed=SEED)

    def save(name, images):
        out = pygame.Surface((sum(i.get_width() for i in images) + 16 * (len(images) - 1), images[0].get_height()))
        out.fill((60, 60, 60))
        x = 0
        for image in images:
            out.blit(image, (x, 0))
            x += image.get_width() + 16
        path = os.path.join(OUT, name)
        pygame.image.save(out, path)
        return path

    display, app = app_on_a_display()
    app.style = FACING
    app.apply_style()
    app.start_match(0)
    app.step(5)  # (the counts and words a pass after the cards)
    table = frame(display)
    app.pause(0)
    yield save("facing.png", [table, frame(display)])

    display, app = app_on_a_display()
    app.start_match(0)
    g = app.game = Game.from_text(  # player 0's 2D fits neither 7C nor 9C
        "spit play - 1 0:0 1.1.1 8D/9h,2C/2D/2H/2S 3c 6H/9s,10S/5H/5S/4C 3d AC,5C,6C,8C,10C,JC,QC,KC,AD,4D,5D,6D,"
        "7D,9D,10D,JD,QD,KD,AH,3H,4H,7H,8H,10H,JH,QH,KH,AS,3S,4S,6S,7S,8S,JS,QS,KS,7C 9C"
    )
    for t, key in ((100, STOCK_0 + 2), (400, None)):
        if key is not None:
            k = keymap.index(key)
            app.controls.feed(g, k, True, t)
            app.controls.apply(g)
            app.controls.feed(g, k, False, t + 1)
        app.step(t)
    refused = frame(display)
    yield save("refused.png", [refused])

    display, app = app_on_a_display()
    app.step(0)
    yield save("menu.png", [frame(display)])

    # A Cardputer's first round: which keys are whose, beside their cards.
    profile = profiles.get("cardputer")
    displayio.release_displays()
    display = pygame_display_class()(width=240, height=135, auto_refresh=False)
    keyboard = App(Screen(display, profile), DesktopKeys(56, lambda: 0), Event(), profile, lambda: 0, seed=SEED)
    keyboard.step(0)
    menu = frame(display)  # (two people side by side: the menu's help in its keys)
    keyboard.start_match(0)
    keyboard.step(100)
    first = frame(display)
    yield save("keys.png", [first])
    keyboard.pause(0)
    keyboard.step(200)
    yield save("cardputer-scenes.png", [menu, first, frame(display)])

    from hardware.message import show_message

    displayio.release_displays()
    display = pygame_display_class()(width=160, height=128, auto_refresh=False)
    show_message(display, "Library neopixel is missing from CIRCUITPY/lib. Install it with: make flash")
    yield save("fault.png", [frame(display)])


def main():
    from hardware import profiles

    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp()
    try:
        for name in sorted(profiles.PROFILES):
            print("wrote " + os.path.relpath(shoot(name, tmp), ROOT))
    finally:
        shutil.rmtree(tmp)
    for path in scenes():
        print("wrote " + os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
