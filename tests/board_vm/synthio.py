"""Stand-in for CircuitPython's synthio, as the game uses it: a MidiTrack
played by an audio output, read as the firmware reads it
(shared-module/synthio/MidiTrack.c): the buffer read where it lies when
play() starts, a wait (a varint) before each event, note on 0x9n and off
0x8n with two data bytes, 0xFn the end; an event it cannot read ends the
track. What a play sounds is heard (outputs.py), note by note."""

import outputs


class Envelope:
    def __init__(self, *, attack_time=0.1, decay_time=0.05, release_time=0.2, attack_level=1.0, sustain_level=0.8):
        for v in (attack_time, decay_time, release_time, attack_level, sustain_level):
            if not 0 <= v:
                raise ValueError("an envelope's times and levels are at least 0")
        self.attack_level = attack_level
        self.sustain_level = sustain_level


class MidiTrack:
    def __init__(self, buffer, tempo, *, sample_rate=11025, waveform=None, envelope=None):
        memoryview(buffer)  # (a buffer, or the firmware's TypeError)
        if tempo < 1:
            raise ValueError("tempo must be >= 1")
        if envelope is not None and not isinstance(envelope, Envelope):
            raise TypeError("envelope must be an Envelope")
        self.buffer = buffer  # (the firmware keeps where it lies: its bytes are read as it plays)
        self.tempo = tempo
        self.sample_rate = sample_rate
        self.envelope = envelope
        self.deinited = False
        self.error_location = -1

    def deinit(self):
        self.deinited = True

    def played(self, into=None):
        # The firmware's reading, without allocating: each note heard as it
        # ends, its MIDI number and length in ticks (into: a list to take
        # (note, start, length) instead); error_location where an event
        # could not be read (-1: none).
        if self.deinited:
            raise ValueError("Object has been deinitialized.")
        buf = self.buffer
        n = len(buf)
        pos = 0
        t = 0
        on = -1  # the note sounding, and since when
        on_at = 0
        self.error_location = -1
        while pos < n:
            wait = 0
            while True:
                c = buf[pos]
                pos += 1
                wait = wait << 7 | c & 0x7F
                if not c & 0x80 or pos >= n:
                    break
            t += wait
            if pos >= n:
                break
            kind = buf[pos] >> 4
            pos += 1
            if kind == 15:
                break
            if kind in (8, 9):
                if pos + 1 >= n or buf[pos] > 127 or buf[pos + 1] > 127:
                    self.error_location = pos
                    break
                note = buf[pos]
                pos += 2
                if kind == 9:
                    on, on_at = note, t
                elif note == on:
                    if into is not None:
                        into.append((on, on_at, t - on_at))
                    else:
                        outputs.heard(on << 12 | (t - on_at) << 4)
                    on = -1
            else:
                self.error_location = pos
                break
        return self.error_location == -1


def notes(track):
    """(MIDI note, start tick, length in ticks) of each note the track plays
    as its buffer stands (for tests: this allocates)."""
    heard = []
    assert track.played(heard), "an event the firmware cannot read at byte %d" % track.error_location
    return heard
