"""Stand-in for CircuitPython's audiobusio: I2SOut plays a sample (a synthio
MidiTrack) in the background; play() starts it from its beginning, stop()
ends it."""


class I2SOut:
    def __init__(self, bit_clock, word_select, data, *, main_clock=None, left_justified=False):
        import board

        for pin in (bit_clock, word_select, data):
            if pin is None:
                raise ValueError("a pin is missing")
        for pin in (bit_clock, word_select, data):
            board.claim(pin)
        self.playing = None

    def play(self, sample, *, loop=False):
        sample.played()  # (what it sounds is heard; a deinitialised sample raises, as on the firmware)
        self.playing = sample

    def stop(self):
        self.playing = None
