"""Linked play on the desktop: two code.py processes joined by a
loopback socket (make linked), and a linked device's recording replayed
alone (its keys and the bytes its cable brought)."""

import os
import socket
import subprocess
import sys

import pytest

from desktop.link_model import Clock
from desktop.linked_pair import Pair, QuietScreen, Racer
from desktop.replay import RecordingUart, ReplayUart, read_link
from hardware import profiles
from hardware.keymaps import PILE_0

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICO = profiles.get("pico-st7789-240")

# A window opened for linked play: its menu at "Players: linked" (a fresh
# save), so "go"; by radio a key or two in the lobby (the handheld found is
# the other window's: its name played); then taps once the countdown is over.
_MENU = ["1600 p0.pile1"]
_FOUND = ["2300 p0.stock0", "2800 p0.stock0", "3300 p0.stock0"]


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize("link", ["cable", "radio"])
def test_two_windows_in_two_processes_play_one_match_over_a_loopback_socket(tmp_path, link):
    # make linked, and make linked RADIO=1: two Cardputers' radios (a
    # datagram a packet, through hardware/radio.py).
    port = _free_port()
    procs = []
    for i in range(2):
        later = 0 if link == "cable" else 1500
        taps = ["%d p0.stock%d" % (6000 + later + 300 * k + 150 * i, (k + i) % 5) for k in range(8)]
        replay = tmp_path / ("keys%d.txt" % i)
        found = _FOUND if link == "radio" else []
        replay.write_text("\n".join(_MENU + found + taps + ["%d end" % (10000 + later)]) + "\n")
        env = dict(
            os.environ,
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
            SPIT_PROFILE="pico-st7789-240" if link == "cable" else "cardputer",
            SPIT_REPLAY=str(replay),
            SPIT_LINK=str(port) if link == "cable" else "espnow",
            SPIT_RADIO_PORT=str(port),
            SPIT_SPEED="1",  # (in real time: the other process is live)
            SPIT_FAST="0",
            SPIT_SEED=str(3 + i),
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, "code.py"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (_, err) in zip(procs, outs):
        assert p.returncode == 0, err
    lines = [out.strip().splitlines()[-1] for out, _ in outs]
    assert lines[0].startswith("spit ") and lines[0] == lines[1]  # one match, the same position on both
    assert lines[0].split()[1] != "ready" or lines[0].split()[3] != "1"  # (cards were played: not the deal)


class _Io:
    # What RecordingUart and ReplayUart ask of the desktop's IO: the ms since the start, the recording.
    def __init__(self, pair, record=None):
        self.pair = pair
        self.record = record

    @property
    def now_ms(self):
        return self.pair.t_us[0] // 1000


def test_a_linked_devices_recording_replays_alone_to_the_same_position(tmp_path):
    # Device 1's keys and the cable's bytes to it, recorded; then device 1
    # alone, its keys pressed again and the bytes brought again: the same
    # match, to the same position (a linked device is its keys, its cable
    # and its clock).
    clocks = (Clock(0x1FFF0000, 0), Clock(0x1FFF0000, 0))
    pair = Pair(PICO, (QuietScreen(PICO), QuietScreen(PICO)), seed=12, clocks=clocks)
    path = tmp_path / "device1.txt"
    record = open(path, "w")
    record.write("nonce %d\n" % 0x1000)
    io = _Io(pair, record)
    dev = pair.devices[1]
    dev.app.open_link = lambda: RecordingUart(dev.open_link(), io)
    pressed = []
    real_press = dev.press

    def press(action, hold_us=60000):
        if real_press(action, hold_us):
            pressed.append((pair.t_us[0], action))
            return True
        return False

    dev.press = press
    assert pair.start()
    racers = [Racer(d, 120 + i) for i, d in enumerate(pair.devices)]
    for _ in range(8000):
        for r in racers:
            r.step()
        pair.run(1)
    record.close()
    want = dev.app.game.text()
    assert len(pressed) > 20

    nonce, got = read_link(str(path))
    assert nonce == 0x1000 and got
    alone = Pair(PICO, (QuietScreen(PICO), QuietScreen(PICO)), seed=12, clocks=clocks)
    solo = alone.devices[1]
    solo.app.open_link = lambda: ReplayUart(got, _Io(alone))
    alone.devices[0].step = lambda: None  # (device 0 is in the recording, not here)
    script = list(pressed)
    solo.app.press(0, PILE_0 + 1)  # "go", as pair.start pressed it
    while alone.t_us[0] < pair.t_us[0]:
        while script and script[0][0] <= alone.t_us[0]:
            solo.press(script.pop(0)[1])
        alone.run(1)
    assert solo.app.game.text() == want


@pytest.mark.parametrize(
    "args,windows",
    [(["linked"], "ab"), (["linked-a"], "a"), (["linked-b"], "b"), (["linked", "WINDOW=b"], "b")],
)
def test_one_linked_window_starts_alone_with_its_own_command(args, windows):
    # Restarting one window (the way to rejoin) needed its command line
    # copied out of the Makefile: make linked-a, make linked-b.
    out = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    started = [
        w
        for w in "ab"
        if "SPIT_SAVE=%s" % os.path.join(os.path.expanduser("~"), ".spit", "linked-%s.bin" % w) in out.stdout
    ]
    assert "".join(started) == windows and out.stdout.count("SPIT_LINK=7700 ") == len(windows), out.stdout
    bad = subprocess.run(["make", "-n", "linked", "WINDOW=c"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode != 0 and "WINDOW is a or b" in bad.stderr


def test_make_linked_radio_starts_two_cardputers_on_the_radio():
    out = subprocess.run(["make", "-n", "linked", "RADIO=1"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("SPIT_LINK=espnow SPIT_PROFILE=cardputer ") == 2, out.stdout
