"""Stand-in for CircuitPython's audioio: AudioOut plays a sample source (the synthesizer) in the background."""


class AudioOut:
    def __init__(self, left_channel, *, right_channel=None, quiescent_value=0x8000):
        import board

        board.claim(left_channel)
        self.pin = left_channel
        self.playing = None

    def play(self, sample, *, loop=False):
        self.playing = sample
