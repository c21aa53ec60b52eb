import os
import subprocess
import sys

import pytest

# Every test is headless: SDL (pygame, under Blinka's displayio) draws into
# memory and plays no sound.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Appended, not prepended: the repository's code.py must not shadow the
# standard library's `code` module (pdb imports it).
if ROOT not in sys.path:
    sys.path.append(ROOT)

# tests/soak/ runs only when asked for (make soak): many more games, minutes long.
collect_ignore = [] if os.environ.get("SPIT_SOAK") else ["soak"]


from hardware.profiles import PROFILES  # noqa: E402  (after the path is set)


@pytest.fixture(params=sorted(PROFILES))
def rig(request):
    # A profile, its display (headless) and a Screen on it: the screen tests' table.
    import displayio

    from desktop.window import pygame_display_class
    from hardware import profiles
    from hardware.screen import Screen

    displayio.release_displays()
    profile = profiles.get(request.param)
    display = pygame_display_class()(width=profile["width"], height=profile["height"], auto_refresh=False)
    return profile, display, Screen(display, profile)


@pytest.fixture(scope="module")
def drives(tmp_path_factory):
    """profile -> a CIRCUITPY folder flashed for it (offline: the pinned libraries)."""
    made = {}
    for profile in sorted(PROFILES):
        drive = tmp_path_factory.mktemp(profile)
        (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 (stand-in)\n")
        # Source files: the same drive runs on CPython too (the .mpy drive: below).
        out = subprocess.run(
            [
                sys.executable,
                os.path.join(ROOT, "tools", "flash.py"),
                str(drive),
                "--profile",
                profile,
                "--offline",
                "--source",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        made[profile] = drive
    return made
