"""Stand-in for CircuitPython's audioio: AudioOut plays a sample source (the synthesizer) in the background."""


class AudioOut:
    def __init__(self, pin):
        import board

        board.claim(pin)
        self.pin = pin
        self.playing = None

    def play(self, sample, *, loop=False):
        self.playing = sample
