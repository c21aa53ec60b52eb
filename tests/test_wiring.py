"""docs/build.md's wiring pictures say what hardware/profiles.py says
(tools/wiring.py draws them from it)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import wiring  # noqa: E402

from hardware import keymaps, profiles  # noqa: E402


@pytest.mark.parametrize("name", wiring.PICTURES)
def test_every_pin_the_profile_uses_is_wired_in_its_picture_and_no_other(name):
    profile = profiles.get(name)
    wires = wiring.connections(profile)
    pins = [pin for pin, _, _ in wires if pin.startswith("GP")]
    want = list(profile["buttons"]) + [profile["display_pins"][k] for k in profile["display_pins"] if k != "address"]
    want.append(profile["sound"][1])
    assert sorted(pins) == sorted(want)
    assert all(pin in wiring.PICO_PINS for pin in pins)
    # Each button is its key map's player and action.
    for number, pin in enumerate(profile["buttons"]):
        code = profile["keymap"][number]
        ((part, line),) = [(part, line) for p, part, line in wires if p == pin]
        assert part == "player %d" % (code >> 4)
        action = code & 15
        assert line == ("stock %d" % (action + 1) if action < keymaps.PILE_0 else "pile %d" % (action - 4))
    assert ("3V3", "power") in [(p, part) for p, part, _ in wires]


def test_a_linked_handheld_wires_one_player_and_the_cable():
    profile = profiles.get(profiles.DEFAULT)
    wires = wiring.connections(profile, linked=True)
    tx, rx = profile["link"]
    assert [p for p, part, _ in wires if part == "cable"] == [tx, rx]
    assert {part for _, part, _ in wires} == {"player 0", "cable", "display", "buzzer", "power"}
    assert len([p for p, part, _ in wires if part == "player 0"]) == 7


def test_the_committed_pictures_are_what_the_tool_draws_now():
    # A picture that disagrees with the profiles fails here: make wiring.
    from PIL import Image

    for name, img in wiring.pictures().items():
        with Image.open(os.path.join(ROOT, "docs", name)) as committed:
            assert committed.size == img.size and committed.convert("RGB").tobytes() == img.tobytes(), name
