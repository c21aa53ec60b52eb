"""The sound on the real firmware: the piezo's pin (GP15) of the emulated
Pico recorded while a replay plays, decoded into notes, and each event's tune
checked against the tune the game means (hardware/feedback.py), as the
desktop's sound log names the events: every note at its pitch within 1 %
and its length within 10 ms, however long the loop's passes take.

The firmware and the bootrom are not in the repository (see tools/picoemu.py):
where they are absent these tests are skipped, saying so."""

import pytest
from test_code_py import run
from test_firmware import ABSENT, picoemu

from hardware.feedback import NAMES, PITCHES, TICK, TUNES

pytestmark = pytest.mark.skipif(ABSENT is not None, reason=ABSENT or "")

# A second apart, so each tune ends before the next event: the menu (a tick
# each key; the match started), both players' spit, cards played and refused.
KEYS = (
    "".join(
        "%d %s\n" % (1000 * (i + 1), key)
        for i, key in enumerate(
            ["p0.stock1", "p0.stock2", "p0.pile1", "p0.stock1", "p1.stock1", "p0.stock2", "p1.stock3", "p0.stock4"]
            + ["p1.stock4", "p0.stock3"]
        )
    )
    + "11000 end\n"
)


def meant(name, player):
    """(Hz, ms) of each note of the named event's tune, rests as Hz 0."""
    kind = NAMES.index(name)
    tune = TUNES[kind]
    up = 1 if kind == TICK and player == 1 else 0
    return [(PITCHES[tune[i] + up] if tune[i] else 0, tune[i + 1] * 10) for i in range(0, len(tune), 2)]


def test_every_tune_sounds_its_notes_at_their_pitch_and_length_on_the_firmware(tmp_path):
    replay = tmp_path / "r.txt"
    replay.write_text(KEYS)
    log = tmp_path / "sounds.txt"
    env = {"SPIT_PROFILE": "pico-st7789-240", "SPIT_REPLAY": str(replay), "SPIT_SEED": "3", "SPIT_SOUND_LOG": str(log)}
    assert run(["code.py"], env).returncode == 0
    events = []
    for line in log.read_text().splitlines():
        ms, name, player = line.split()
        events.append((int(ms) - desktop_clock(), name, int(player)))
    assert {name for _, name, _ in events} >= {"menu", "spit", "tick", "refused"}, events
    board = picoemu.emulate(
        "pico-st7789-240", replay=str(replay), settings={"SPIT_SEED": 3}, work=str(tmp_path / "emu")
    )
    notes = board.notes()
    assert notes, "the piezo's pin never moved"
    for at, name, player in events:
        # The notes that began in the second after the event (its press, on the board's clock).
        heard = [n for n in notes if board.mark + at <= n[0] < board.mark + at + 900]
        want = meant(name, player)
        sounding = [(hz, ms) for hz, ms in want if hz]
        assert len(heard) == len(sounding), (name, player, heard, want)
        t = heard[0][0]
        i = 0
        for hz, ms in want:
            if not hz:  # a rest: the next note starts its length later
                t += ms
                continue
            start, length, pitch, duty = heard[i]
            assert abs(start - t) <= 10, (name, "note %d starts at %.1f, not %.1f" % (i, start, t))
            assert abs(pitch - hz) <= 0.01 * hz, (name, "note %d at %.1f Hz, not %d" % (i, pitch, hz))
            assert abs(length - ms) <= 10, (name, "note %d lasts %.1f ms, not %d" % (i, length, ms))
            assert 0.04 <= duty <= 0.09, (name, "the low volume's 1/16, not %.3f" % duty)
            t = start + length
            i += 1


def desktop_clock():
    # The desktop's ticks_ms at the start of a replay: its sound log's times count from there.
    from desktop.keys import POWER_ON_TICKS

    return POWER_ON_TICKS
