"""Two linked handhelds on the real firmware: CircuitPython's own
Pico build in two emulated RP2040s in one process, each UART's TX wired to
the other's RX at the baud rate's byte time, in lockstep emulated time
(tools/picoemu.py emulate_pair). Skipped, saying so, where the firmware and
the bootrom are absent (CI)."""

import pytest
from test_firmware import ABSENT, picoemu

from desktop.link_model import Clock
from desktop.linked_pair import Pair, QuietScreen
from desktop.replay import read_replay
from engine.spit import PLAY, READY, STALEMATE
from hardware import profiles
from hardware.keymaps import STOCK_0

pytestmark = pytest.mark.skipif(
    ABSENT is not None, reason=ABSENT or ""
)  # (test_firmware.py: the firmware's here, or why not)

PROFILE = "pico-st7789-240"
# Each handheld flashed for linked play: its menu at "Players: linked", down to
# that line, "go" (the second a quarter of a second later); device 0 referees (SPIT_NONCE).
MENU = ["200 p0.stock1"]
NONCES = (0x9000, 0x1000)
PRESSES = 16
UNTIL_MS = 6000 + 150 * PRESSES + 1500


def model(profile):
    # Two Apps on the link model as the two emulated Picos start: the same
    # clocks, seeds and numbers, both menus at linked play (as a board's with a link starts).
    pair = Pair(
        profile,
        (QuietScreen(profile), QuietScreen(profile)),
        seed=7,
        nonces=NONCES,
        clocks=(Clock(0x1FFF0000), Clock(0x1FFF0000)),
        seeds=(7, 7),
    )
    return pair


def planned(tmp_path, profile):
    """Each device's replay: the menu to a linked match, then, 150 ms apart
    and in turn, a stock whose card fits one pile only (a move at once, never
    a refusal), as the model sees the match at that moment; and the model's
    final position."""
    pair = model(profile)
    lines = [MENU + ["%d p0.pile1" % (1600 + 250 * i)] for i in range(2)]
    paths = []
    for i in range(2):
        path = tmp_path / ("keys%d.txt" % i)
        path.write_text("\n".join(lines[i]) + "\n")
        paths.append(str(path))
    pair.play_replays([read_replay(p, profile["keymap"])[0] for p in paths], 6000)
    for k in range(PRESSES):
        d = pair.devices[k % 2]
        g = d.app.game
        seat = d.app.linked.seat
        if g.phase != PLAY:  # (the deal, a stalemate: any key calls spit, once a player)
            if not g.called >> seat & 1 and g.phase in (READY, STALEMATE):
                d.press(STOCK_0)
                lines[k % 2].append("%d p0.stock0" % (6000 + 150 * k))
            pair.run(150)
            continue
        for s_ in range(g.stocks):
            if (g.check(seat, 2 * s_) == 0) != (g.check(seat, 2 * s_ + 1) == 0):
                d.press(STOCK_0 + s_)
                lines[k % 2].append("%d p0.stock%d" % (6000 + 150 * k, s_))
                break
        pair.run(150)
    pair.run(UNTIL_MS - 6000 - 150 * PRESSES)
    assert pair.agree()
    for i in range(2):
        (tmp_path / ("keys%d.txt" % i)).write_text("\n".join(lines[i]) + "\n")
    return paths, len(lines[0]) + len(lines[1]) - len(MENU) * 2 - 2, pair.devices[0].app.game.text()


def test_a_linked_match_on_two_emulated_picos_ends_where_the_model_predicts(tmp_path):
    profile = profiles.get(PROFILE)
    paths, moves, want = planned(tmp_path, profile)
    assert moves >= 8
    settings = {"SPIT_SEED": 7, "SPIT_PROBE_KEPT_MS": UNTIL_MS - 500, "SPIT_PROBE_ALLOC": 1, "SPIT_PROBE_MODULES": 1}
    each = [{"SPIT_NONCE": n} for n in NONCES]
    runs = picoemu.emulate_pair(PROFILE, paths, settings, until_ms=UNTIL_MS, work=str(tmp_path / "emu"), each=each)
    linked = [(r.probe("linked") or "").split() for r in runs]
    assert all(len(words) >= 5 for words in linked), [r.text()[-800:] for r in runs]
    assert [int(w[0]) for w in linked] == [0, 1] and [int(w[1]) for w in linked] == [1, 0]
    assert all(int(w[3]) == 0 for w in linked)  # no divergence
    # In the match each keeps only what it plays with: no hellos, no
    # snapshot's code, and the follower none of the referee's.
    kept = [set(r.probe("modules").split()) for r in runs]
    assert {"hardware.linked", "hardware.clock_sync", "hardware.referee"} <= kept[0]
    assert "hardware.linked" in kept[1] and not {"hardware.clock_sync", "hardware.referee"} & kept[1]
    assert not {"hardware.hello", "hardware.snapshot", "hardware.lobby"} & (kept[0] | kept[1])
    assert not {"hardware.storage"} & (kept[0] | kept[1])  # (a linked match is never saved: App._park_store)
    positions = [r.probe("position") for r in runs]
    assert positions[0] == positions[1] == want  # where the model says
    # Every press was a move, and no move allocated: link traffic included
    # (the probe counts each pass that applied one move in play; the
    # follower's come over the cable).
    for r in runs:
        counted, allocating = (int(w) for w in r.probe("alloc").split()[:2])
        assert counted >= moves // 2 and allocating == 0, r.probe("alloc")
    # Each press is on both screens: the first frame each draws after it.
    for r in runs:
        for t, _, level in r.presses:
            if level == 0 and t > 5000:  # (the match's presses, after the countdown)
                for e in runs:
                    assert picoemu.first_frame_after(e, t) is not None
