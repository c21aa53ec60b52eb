"""The board VM's stand-ins refuse what the firmware refuses, and scan keys as it does.

Scans: the stamps of a switch's events as the stand-ins scan it (every 5
ticks of 1/1024 s, not every 5 ms); make soak measures the firmware's alike
(tests/soak/test_soak_firmware.py).

tests/board_vm/conformance.py prints, for each call the firmware refuses
(TileGrid and Palette values, nvm slices and sizes) and for keypad.Event()'s
default timestamp, what happened. FIRMWARE is what CircuitPython 10.2.1's own
Pico build printed for it in the emulated Pico (tools/picoemu.py); where that
firmware is on this machine the test runs it again and compares too."""
import os
import sys

import pytest

from test_vm import ROOT, run_vm

STAND_INS = os.path.join(ROOT, "tests", "board_vm")
FIRMWARE = """tilegrid of a palette TypeError
tilegrid shaded by a bitmap TypeError
tile width not dividing ValueError
tile 1 of 2 ok
tile 2 of 2 ValueError
tile -1 ValueError
tile place 2 of 2 IndexError
palette entry 1 ok
palette entry 2 IndexError
palette read 2 IndexError
palette transparent 2 ValueError
colour past 0xffffff TypeError
nvm size 4096
nvm slice shorter ValueError
nvm slice step 2 NotImplementedError
nvm list NotImplementedError
nvm byte 256 ValueError
nvm past the end IndexError
event 0 True True
conformance end""".splitlines()


def on_the_vm(script, tmp_path):
    drive = tmp_path / "drive"
    drive.mkdir()
    (drive / "run.py").write_text(open(os.path.join(STAND_INS, script)).read())
    return run_vm(os.path.join(STAND_INS, "runfile.py"), "/drive/run.py", pkgs=(), drive=str(drive)).splitlines()


def test_the_stand_ins_refuse_what_the_firmware_refuses(tmp_path):
    assert on_the_vm("conformance.py", tmp_path) == FIRMWARE


def test_the_recorded_firmware_lines_are_the_firmware_s(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import picoemu

    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        pytest.skip(str(e))
    run = picoemu.emulate(code_py=os.path.join(STAND_INS, "conformance.py"), mark="conformance end", until_ms=10,
                          work=str(tmp_path / "emu"))
    lines = run.text().splitlines()
    start = lines.index("code.py output:") + 1
    assert lines[start : start + len(FIRMWARE)] == FIRMWARE


PRESS_EVERY_MS = 37  # the switch changes this often: 7.6 scans of 4.88 ms


def whole_scans(stamps):
    # How many gaps between the events are 34 or 39 ms: 7 or 8 scans of
    # 4.88 ms, which a 5 ms grid of scans (35 or 40 ms) never gives.
    return sum(1 for a, b in zip(stamps, stamps[1:]) if (b - a) % (1 << 29) in (34, 39))


def test_the_stand_in_scanners_scan_when_the_firmware_s_does():
    # The same switch changes through the desktop's scanner (the board VM's
    # driver scans at the same times, hardware/scan_times.py).
    from fake_keypad import Event, Keys, run

    keys = Keys(1)
    run(keys, [(100 + i * PRESS_EVERY_MS, 0, i % 2 == 0) for i in range(20)], 900)
    stamps = []
    e = Event()
    while keys.events.get_into(e):
        stamps.append(e.timestamp)
    assert len(stamps) == 20 and whole_scans(stamps) >= 15, stamps


def test_the_pybadge_nvm_is_8_kb(tmp_path):
    sys.path.insert(0, STAND_INS)
    from nvm_flash import FlashNvm

    assert len(FlashNvm("samd51")) == 8192 and len(FlashNvm("rp2040")) == 4096


def test_keypad_starts_and_debounces_as_the_firmware(tmp_path):
    # keypad_debounce() in shared-module/keypad/__init__.c: a counter per key
    # from 0 (unknown), a press at +threshold, a release at -threshold.
    assert on_the_vm("keypad_check.py", tmp_path) == [
        "held at power-on -",  # no press: only its release will be reported
        "its release 0-",
        "a press, one scan -",
        "a press, two scans 1+",
        "a one-scan bounce -",  # released for one scan: no event, and no new press after it
        "reset while held -",
        "after reset, a scan 1+",  # reset(): all keys released, so a held key is pressed anew
    ]
