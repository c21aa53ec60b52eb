# synthio on a board's speaker (a PyBadge's, a Cardputer's), each tune played
# whole as a MIDI track (hardware/feedback.py says what plays when).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .feedback import TICK, TUNES

# feedback.PITCHES as MIDI notes (A4 440 Hz is 69), for synthio's tracks: C5 E5 G5 C6 E6 E4 B3 A5 G6.
_MIDI = const(b"\x00\x48\x4c\x4f\x54\x58\x40\x3b\x51\x5b")
_TEMPO = const(100)  # MIDI ticks a second: a tune's unit, 10 ms


class Speaker:
    # synthio on the board's speaker (an audioio.AudioOut, an audiobusio.I2SOut):
    # each tune a MIDI track (synthio.MidiTrack, 100 ticks a second: a tick
    # 10 ms) that the firmware plays whole in the background, so each note
    # keeps its length however long a pass takes. One track over one buffer:
    # a tune's events are written into it as it starts (nothing allocated);
    # the track is made again when the volume changes (its envelope's level).
    def __init__(self, audio, enable=None):
        if enable is not None:
            import digitalio

            self._enable = digitalio.DigitalInOut(enable)
            self._enable.switch_to_output(value=True)
        self.audio = audio
        self.track = None
        # 8 bytes a note (on, its length, off, the rest after it), a wait before
        # the first and the end: the longest tune's.
        self.events = bytearray(2 + 4 * max(len(t) for t in TUNES))
        self.events[1] = 0xFF  # (an empty track until a tune is written)

    def set_volume(self, volume):
        import synthio

        self.quiet()
        if self.track is not None:
            self.track.deinit()
        level = 0.3 if volume == 1 else 1.0
        shape = synthio.Envelope(
            attack_time=0.002, decay_time=0.0, release_time=0.004, attack_level=level, sustain_level=level
        )
        self.track = synthio.MidiTrack(self.events, _TEMPO, sample_rate=22050, envelope=shape)

    def play(self, kind, player):
        self.audio.stop()
        tune = TUNES[kind]
        up = 1 if kind == TICK and player == 1 else 0
        ev = self.events
        ev[0] = 0  # the wait before the first event, in ticks
        at = 1
        for i in range(0, len(tune), 2):
            if not tune[i]:
                ev[at - 1] += tune[i + 1]  # a rest: the wait before the next note
                continue
            note = _MIDI[tune[i] + up]
            ev[at] = 0x90  # note on
            ev[at + 1] = note
            ev[at + 2] = 127
            ev[at + 3] = tune[i + 1]  # its length
            ev[at + 4] = 0x80  # note off
            ev[at + 5] = note
            ev[at + 6] = 0
            ev[at + 7] = 0  # the wait after it
            at += 8
        ev[at] = 0xFF  # the end of the track
        self.audio.play(self.track)

    def quiet(self):
        self.audio.stop()
