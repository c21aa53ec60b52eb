"""make bundle: the project bundles a maker unzips onto CIRCUITPY."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from drives import drive  # noqa: E402
from flash import flash  # noqa: E402


def test_a_drive_unzipped_from_the_bundle_flashes_without_a_word_of_conflict(tmp_path):
    # The same bytes are no maker's files: a bundle's drive, then make flash.
    import zipfile

    import bundle

    d = drive(tmp_path, version="10.2.1")
    prefix = "spit-pico-ssd1306/CircuitPython 10.x/"
    with zipfile.ZipFile(bundle.build("pico-ssd1306", str(tmp_path / "dist"))) as z:
        for name in z.namelist():
            if name.startswith(prefix):
                (d / name[len(prefix) :]).parent.mkdir(parents=True, exist_ok=True)
                (d / name[len(prefix) :]).write_bytes(z.read(name))
    lines = []
    flash(str(d), offline=True, say=lines.append)
    assert lines[0].startswith("profile pico-ssd1306:")  # (the bundle's settings.toml names it)
    assert not any("code.py.bak" in t or "--force" in t or "warning" in t for t in lines), lines
    assert not (d / "code.py.bak").exists()


@pytest.mark.parametrize("profile", ["pico-st7789-240", "pico-ssd1306", "cardputer"])
def test_a_bundle_carries_what_a_maker_needs_with_no_repository_at_hand(tmp_path, profile):
    import re
    import zipfile

    import bundle

    from hardware import profiles

    with zipfile.ZipFile(bundle.build(profile, str(tmp_path))) as z:
        names = set(z.namelist())
        top = "spit-%s/" % profile
        readme = z.read(top + "README.txt").decode()
        guide = z.read(top + "docs/build.md").decode()
        settings = z.read(top + "CircuitPython 10.x/settings.toml").decode()
        assert top + "LICENSE" in names and top + "docs/rules.md" in names
    for link in re.findall(r"\]\(([^)#:]+\.png)\)", guide):  # every picture the guide shows, where it looks
        assert os.path.normpath(top + "docs/" + link) in names, link
    has_lib = any(n.startswith(top + "CircuitPython 10.x/lib/") for n in names)
    assert ("lib" in readme.split("Each holds")[1].split("\n\n")[0]) == has_lib
    assert "delete its folders engine\nand hardware first" in readme.replace("\n   ", "\n")
    assert "code.py replaces yours" in readme and "in the game's repository" not in readme
    assert ('SPIT_LINK = "espnow"' in readme) == (profile == "cardputer")
    others = [n for n in profiles.PROFILES if n != profile]
    assert not any(n in settings for n in others), settings
    assert 'SPIT_PROFILE = "%s"' % profile in settings
    assert ("CIRCUITPY_HEAP_START_SIZE = 168000" in settings) == profile.startswith("pico-")  # (one heap area)
