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
from test_vm import ROOT, STAND_IN_PKGS, run_vm

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
    return run_vm(
        os.path.join(STAND_INS, "runfile.py"), "/drive/run.py", pkgs=STAND_IN_PKGS, drive=str(drive)
    ).splitlines()


def test_the_stand_ins_refuse_what_the_firmware_refuses(tmp_path):
    assert on_the_vm("conformance.py", tmp_path) == FIRMWARE


def test_the_recorded_firmware_lines_are_the_firmware_s(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import picoemu

    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        pytest.skip(str(e))
    run = picoemu.emulate(
        code_py=os.path.join(STAND_INS, "conformance.py"),
        mark="conformance end",
        until_ms=10,
        work=str(tmp_path / "emu"),
    )
    lines = run.text().splitlines()
    start = lines.index("code.py output:") + 1
    assert lines[start : start + len(FIRMWARE)] == FIRMWARE


PRESS_EVERY_MS = 37  # the switch changes this often: 37.9 scans of 977 us


def gaps(stamps):
    # ms between the events, wrap-safe.
    return [(b - a) % (1 << 29) for a, b in zip(stamps, stamps[1:])]


def test_the_stand_ins_take_only_the_firmware_s_arguments():
    # Every stand-in class whose firmware module has a stub takes its
    # arguments as the firmware does (circuitpython-stubs): its positional
    # parameters are the first of the firmware's, in order, and each of its
    # keyword-only ones is keyword-only there too; so a call the stand-in
    # takes, the firmware takes. (fontio.BuiltinFont is skipped: the firmware
    # lets no program make one, "Creation not supported"; the stand-in
    # terminalio makes its FONT as the firmware's build does.)
    import ast
    import glob
    import sysconfig

    site = sysconfig.get_paths()["purelib"]

    def init(tree, name):
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        return item
        return None

    def parameters(fn):
        a = fn.args
        return [p.arg for p in a.posonlyargs + a.args][1:], [p.arg for p in a.kwonlyargs]

    checked = []
    for path in sorted(glob.glob(os.path.join(STAND_INS, "*.py"))):
        module = os.path.basename(path)[:-3]
        stub = os.path.join(site, module + "-stubs", "__init__.pyi")
        if not os.path.exists(stub):
            continue
        with open(path) as f:
            mine = ast.parse(f.read())
        with open(stub) as f:
            theirs = ast.parse(f.read())
        for node in mine.body:
            if not isinstance(node, ast.ClassDef) or init(theirs, node.name) is None or init(mine, node.name) is None:
                continue
            if module + "." + node.name == "fontio.BuiltinFont":
                continue
            pos, kw = parameters(init(mine, node.name))
            their_pos, their_kw = parameters(init(theirs, node.name))
            assert pos == their_pos[: len(pos)], (module, node.name, pos, their_pos)
            assert set(kw) <= set(their_kw), (module, node.name, kw, their_kw)
            checked.append(module + "." + node.name)
    assert {"keypad.Keys", "keypad_demux.DemuxKeyMatrix", "audiobusio.I2SOut", "synthio.MidiTrack"} <= set(checked)


def test_the_scan_interval_is_the_boards():
    # The stand-ins' ticks are the firmware's conversion of the board's interval.
    from desktop.scan_times import SCAN_TICKS
    from hardware.buttons import SCAN_INTERVAL

    assert SCAN_TICKS == int(SCAN_INTERVAL * 1024) == 1


def test_the_stand_in_scanners_scan_when_the_firmware_s_does():
    # The same switch changes through the desktop's scanner (the board VM's
    # driver scans at the same times): every stamp is a scan's, 0 or 1 ms
    # apart (desktop/scan_times.py), and events 37 ms apart land 36 to 38 ms
    # apart (37 or 38 scans); a 2-tick scanner would give 35 too, a 5-tick
    # one 34 or 39.
    from fake_keypad import Event, Keys, run

    from desktop.keys import POWER_ON_TICKS
    from desktop.scan_times import first_scan, scan_ms

    keys = Keys(1)
    run(keys, [(100 + i * PRESS_EVERY_MS, 0, i % 2 == 0) for i in range(20)], 900)
    stamps = []
    e = Event()
    while keys.events.get_into(e):
        stamps.append(e.timestamp)
    assert len(stamps) == 20
    for stamp in stamps:
        ms = (stamp - POWER_ON_TICKS) % (1 << 29)
        assert scan_ms(first_scan(ms)) == ms
    assert set(gaps(stamps)) <= {36, 37, 38}, gaps(stamps)


def test_the_pybadge_nvm_is_8_kb(tmp_path):
    sys.path.insert(0, STAND_INS)
    from desktop.nvm_flash import FlashNvm

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
