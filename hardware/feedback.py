# Sound and lights: what happened, without looking at the screen.
#
# Feedback.event(kind, player, now) starts a short tune (and on boards with
# NeoPixels, a light); Feedback.update(now), called every pass, puts lights
# out when their time is up and moves a tune played note by note to its next
# note. Nothing waits and nothing is allocated per sound: tunes are bytes of
# (pitch, 10 ms units), the outputs are made once. Outputs:
#   Buzzer   a piezo on a Pico's pin, a whole tune played by a PIO state
#            machine in the background: each note keeps its length however
#            long a pass of the loop takes (play(kind, player), quiet())
#   Synth    synthio on a speaker (PyBadge: audioio; Cardputer: audiobusio's
#            I2S), a whole tune played as a MIDI track in the background
#            (play(kind, player), quiet())
#   and the desktop's (pygame's mixer, or a log when there is no sound device).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .ticks import ticks_add, ticks_diff

TICK = const(0)  # a card played (player 0 lower, player 1 higher)
REFUSED = const(1)
SPIT = const(2)  # spit called and the cards turned (Speed: turn)
STALEMATE = const(3)
SLAP_NOW = const(4)  # the round is over: slap (or choose)
SLAP_WON = const(5)
MATCH_WON = const(6)
MENU = const(7)
NAMES = ("tick", "refused", "spit", "stalemate", "slap now", "slap won", "match won", "menu")

# Pitches in Hz; a tune plays pitch indices. 0 is a rest.
PITCHES = (0, 523, 659, 784, 1047, 1319, 330, 247, 880, 1568)
# The same as MIDI notes (A4 440 Hz is 69), for synthio's tracks: C5 E5 G5 C6 E6 E4 B3 A5 G6.
_MIDI = const(b"\x00\x48\x4c\x4f\x54\x58\x40\x3b\x51\x5b")
_TEMPO = const(100)  # MIDI ticks a second: a tune's unit, 10 ms
TUNES = (
    bytes((4, 3)),  # tick (player 1: one pitch up, see _pitch)
    bytes((7, 8, 0, 2, 7, 12)),  # refused: low, low
    bytes((1, 5, 3, 5, 4, 8)),  # spit: up
    bytes((6, 10, 7, 14)),  # stalemate: down
    bytes((8, 6, 0, 4, 8, 6, 0, 4, 8, 6)),  # slap now: three quick
    bytes((3, 6, 4, 6, 9, 12)),  # slap won
    bytes((1, 10, 2, 10, 3, 10, 4, 30)),  # match won
    bytes((2, 2)),  # menu
)

# Lights (NeoPixels): each player's side, and colours at low brightness.
_OFF = (0, 0, 0)
_FLASH = (40, 0, 0)
_SLAP = (0, 30, 0)
_WIN = ((0, 0, 40), (40, 20, 0))  # player 0 blue, player 1 orange
_LIGHT_MS = const(600)


class Feedback:
    def __init__(self, out=None, pixels=None, log=None):
        self.out = out  # None: no sound on this board
        self.pixels = pixels  # a NeoPixel strip, or None
        self.log = log  # a list: (ms, sound name, player) of each event (the desktop's headless runs)
        self.volume = 1
        self.lights = True
        self._tune = None
        self._player = 0
        self._at = 0  # the next byte of the tune
        self._next = 0  # when the next note starts
        self._light_until = 0
        self._lit = False

    def set(self, volume, lights):
        # The menu's settings: volume 0 (off), 1 or 2; lights on or off.
        self.off()  # (the note that sounds stops at once, at the volume it began)
        self.volume = volume
        self.lights = lights
        if self.out is not None and volume:
            self.out.set_volume(volume)

    def event(self, kind, player, now):
        if self.log is not None:
            self.log.append((now, NAMES[kind], player))
        if self.out is not None and self.volume and hasattr(self.out, "play"):
            self.out.play(kind, player)  # (the whole tune, in the background)
        elif self.out is not None and self.volume:
            self._tune = TUNES[kind]
            self._player = player
            self._at = 0
            self._next = now
            self.update(now)
        if self.pixels is not None and self.lights:
            if kind == REFUSED:
                self._light(player, _FLASH, now)
            elif kind == SLAP_WON:
                self._light(player, _SLAP, now)
            elif kind == MATCH_WON:
                self._light(player, _WIN[player], now)

    def _light(self, player, colour, now):
        px = self.pixels
        half = max(1, len(px) // 2)  # (one pixel lights for either player)
        for i in range(len(px)):
            mine = i < half if player == 0 else i >= len(px) - half
            px[i] = colour if mine else _OFF
        px.show()
        self._light_until = ticks_add(now, _LIGHT_MS)
        self._lit = True

    def update(self, now):
        if self._lit and ticks_diff(now, self._light_until) >= 0:
            self._lit = False
            self.pixels.fill(_OFF)
            self.pixels.show()
        tune = self._tune
        if tune is None or ticks_diff(now, self._next) < 0:
            return
        if self._at >= len(tune):
            self._tune = None
            self.out.quiet()
            return
        pitch = tune[self._at]
        if pitch and self._player == 1 and tune is TUNES[TICK]:
            pitch += 1  # player 1's cards tick higher
        if pitch:
            self.out.tone(pitch)
        else:
            self.out.quiet()
        self._next = ticks_add(self._next, tune[self._at + 1] * 10)
        self._at += 2

    def next_due(self, now):
        # ms until update() next changes a note or a light; None when nothing
        # is playing or lit (a fast replay jumps no further than this).
        due = None
        if self._lit:
            due = ticks_diff(self._light_until, now)
        if self._tune is not None:
            d = ticks_diff(self._next, now)
            if due is None or d < due:
                due = d
        return None if due is None else max(due, 0)

    def off(self):
        # Sound and lights out at once (a setting turned off, a scene change).
        self._tune = None
        if self.out is not None:
            self.out.quiet()
        if self.pixels is not None and self._lit:
            self._lit = False
            self.pixels.fill(_OFF)
            self.pixels.show()


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
    # the duty cycle, 1/16 or 1/2 (the tunes' words are made when it is set).
    def __init__(self, pin):
        import rp2pio

        self.audio = rp2pio.StateMachine(
            _PROGRAM,
            frequency=_PIO_HZ,
            first_out_pin=pin,
            initial_out_pin_state=0,
            wait_for_txstall=False,
        )
        self.notes = []  # a tune's words a kind, and player 1's tick (one pitch up) last: set_volume's

    def set_volume(self, volume):
        # Each note's word: its period in whole cycles, high for 1/2 of it
        # (volume 2) or 1/16, as many periods as its length takes.
        import array

        self.notes = []
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
        self.audio.background_write(self.notes[len(TUNES) if kind == TICK and player == 1 else kind])

    def quiet(self):
        # The tune that plays stops at once: its words left in the FIFO taken
        # out, the pin low.
        sm = self.audio
        sm.stop_background_write()
        sm.stop()
        sm.run(_DRAIN)
        sm.restart()


class Synth:
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
