"""Stand-in for CircuitPython's audioio: AudioOut plays a sample (a synthio
MidiTrack) in the background; play() starts it from its beginning, stop()
ends it."""


class AudioOut:
    def __init__(self, left_channel, *, right_channel=None, quiescent_value=0x8000):
        import board

        board.claim(left_channel)
        self.pin = left_channel
        self.playing = None

    def play(self, sample, *, loop=False):
        sample.played()  # (what it sounds is heard; a deinitialised sample raises, as on the firmware)
        self.playing = sample

    def stop(self):
        self.playing = None
