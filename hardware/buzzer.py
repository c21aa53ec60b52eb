# A piezo on a Pico's pin (a Pico handheld), each tune played whole by a PIO
# state machine (hardware/feedback.py says what plays when).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .feedback import PITCHES, TICK, TUNES

# The Buzzer's PIO program, _PROGRAM. A note is one 32-bit word, taken from the right:
# 10 bits the periods less 1, 11 the cycles high less 3, 11 the cycles low
# less 4, at _PIO_HZ; an even count high keeps the pin low (a rest).
#   0 pull block; 1 out y, 10; 2 out isr, 11
#   3 mov pins, isr; 4 mov x, isr; 5 jmp x-- 5      (high: H + 3 cycles)
#   6 mov pins, null; 7 mov x, osr; 8 jmp x-- 8     (low: L + 4 cycles)
#   9 jmp y-- 3                                     (the next period)
_PROGRAM = const(b"\xa0\x80\x4a\x60\xcb\x60\x06\xa0\x26\xa0\x45\x00\x03\xa0\x27\xa0\x48\x00\x83\x00")  # (little-endian)
# 8 x pull noblock, run while the machine is stopped: the FIFO emptied.
_DRAIN = const(b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80")
_PIO_HZ = const(500000)  # 2 us a cycle: every pitch within 0.2 %, 247 Hz within 11 bits
_REST_CYCLES = const(1000)  # a rest's period: 2 ms


class Buzzer:
    # A piezo on a Pico's pin (a Pico handheld), each tune played whole by a
    # PIO state machine fed by DMA: the loop only starts it. The volume is
    # the duty cycle, 1/16 or 1/2.
    def __init__(self, pin):
        import rp2pio

        self.audio = rp2pio.StateMachine(
            _PROGRAM,
            frequency=_PIO_HZ,
            first_out_pin=pin,
            initial_out_pin_state=0,
            wait_for_txstall=False,
        )
        self.volume = 1
        self.notes = []  # a tune's words a kind, and player 1's tick (one pitch up) last, at self.volume

    def set_volume(self, volume):
        # The words are made at the first tune played at this volume (a menu
        # press, as a rule), not at start-up: 5 ms of a Pico's start-up.
        self.volume = volume
        self.notes = []

    def _words(self):
        # Each note's word: its period in whole cycles, high for 1/2 of it
        # (volume 2) or 1/16, as many periods as its length takes.
        import array

        volume = self.volume
        for tune, up in [(t, 0) for t in TUNES] + [(TUNES[TICK], 1)]:
            words = array.array("I", [0] * (len(tune) // 2))  # ("I": 4 bytes on a board and a desktop alike)
            for i in range(0, len(tune), 2):
                hz = PITCHES[tune[i] + up] if tune[i] else 0
                ms = tune[i + 1] * 10
                if not hz:
                    words[i // 2] = max(1, ms * _PIO_HZ // 1000 // _REST_CYCLES) - 1 | (_REST_CYCLES - 7) << 21
                    continue
                period = (_PIO_HZ + hz // 2) // hz
                high = ((period // 2 if volume == 2 else (period + 8) // 16) - 3) | 1
                words[i // 2] = max(1, (ms * hz + 500) // 1000) - 1 | high << 10 | (period - high - 7) << 21
            self.notes.append(words)

    def play(self, kind, player):
        self.quiet()
        if not self.notes:
            self._words()
        self.audio.background_write(self.notes[len(TUNES) if kind == TICK and player == 1 else kind])

    def quiet(self):
        # The tune that plays stops at once: its words left in the FIFO taken
        # out, the pin low.
        sm = self.audio
        sm.stop_background_write()
        sm.stop()
        sm.run(_DRAIN)
        sm.restart()
