"""The README's pictures: each profile mid-game, from a replay through code.py.

    python tools/screenshots.py      (make screenshots)

For each board profile a whole match is written as a replay
(tools/make_replay.py), played headless through code.py with its frames
saved, and a frame early in the first rounds (a sixteenth of the way) is kept, twice
the board's size, as tools/screenshots/PROFILE.png. Run it again when the art
or the screen changes.
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
    replay = os.path.join(tmp, profile + ".txt")
    frames = os.path.join(tmp, profile)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    for cmd, extra in (
        ([os.path.join(ROOT, "tools", "make_replay.py"), replay, "--profile", profile, "--seed", str(SEED)], {}),
        ([os.path.join(ROOT, "code.py")], {"SPIT_PROFILE": profile, "SPIT_REPLAY": replay, "SPIT_FRAMES": frames,
                                            "SPIT_SEED": str(SEED)}),
    ):
        out = subprocess.run([sys.executable] + cmd, capture_output=True, text=True, env=dict(env, **extra), cwd=ROOT)
        if out.returncode:
            sys.exit("screenshots: %s failed\n%s" % (" ".join(cmd), out.stderr))
    names = sorted(os.listdir(frames))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    image = pygame.image.load(os.path.join(frames, names[len(names) // 16]))
    big = pygame.transform.scale(image, (image.get_width() * 2, image.get_height() * 2))
    path = os.path.join(OUT, profile + ".png")
    pygame.image.save(big, path)
    return path


def main():
    from hardware import profiles

    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp()
    try:
        for name in sorted(profiles.PROFILES):
            print("wrote " + os.path.relpath(shoot(name, tmp), ROOT))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
