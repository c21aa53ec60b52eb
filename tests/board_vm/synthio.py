"""Stand-in for CircuitPython's synthio: notes pressed and released on a synthesizer."""

import outputs


class Note:
    def __init__(self, *, frequency, amplitude=1.0):
        self.frequency = frequency
        self.amplitude = amplitude


class Synthesizer:
    def __init__(self, *, sample_rate=11025, channel_count=1, waveform=None, envelope=None):
        self.sample_rate = sample_rate
        self.pressed = []

    def press(self, note):
        if note not in self.pressed:
            self.pressed.append(note)
            outputs.heard(note.frequency * 2)

    def release(self, note):
        if note in self.pressed:
            self.pressed.remove(note)
            outputs.heard(note.frequency * 2 + 1)
