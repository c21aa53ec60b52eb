"""The desktop window as a new player meets it."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import displayio  # noqa: E402
import pytest  # noqa: E402

from hardware import profiles  # noqa: E402
from hardware.desktop import KEYBOARD, DesktopIO, key_legend  # noqa: E402


@pytest.mark.parametrize("name", sorted(profiles.PROFILES))
def test_the_window_title_says_whose_keys_are_which(tmp_path, name):
    # Issue 34, item 11: the window did not say which keyboard keys are whose.
    profile = profiles.get(name)
    legend = key_legend(profile)
    bottom, top = legend.split("; ")
    assert bottom.startswith("bottom: ") and top.startswith("top: ")
    layout = KEYBOARD["cursor" if profile["cursor"] else "handheld14"]
    for (player, _), letter in layout.items():
        assert (" %s " % letter) in " %s " % (bottom, top)[player].replace(",", " "), (letter, legend)
    replay = tmp_path / "r.txt"
    replay.write_text("100 end\n")
    displayio.release_displays()
    io = DesktopIO(profile, {"SPIT_REPLAY": str(replay)})
    try:
        assert legend in io.caption
    finally:
        io.close()
