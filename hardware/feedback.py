# Sound and lights: what happened, without looking at the screen.
#
# Feedback.event(kind, player, now) starts a short tune (and on boards with
# NeoPixels, a light); Feedback.update(now), called every pass, puts lights
# out when their time is up and moves a tune played note by note to its next
# note. Nothing waits and nothing is allocated per sound: tunes are bytes of
# (pitch, 10 ms units), the outputs are made once. Outputs:
#   Buzzer   a piezo on a Pico's pin, a whole tune played by a PIO state
#            machine in the background (hardware/buzzer.py)
#   Speaker  synthio on a speaker (PyBadge: audioio; Cardputer: audiobusio's
#            I2S), a whole tune played as a MIDI track (hardware/speaker.py)
#   Each keeps a note's length however long a pass of the loop takes
#   (play(kind, player), quiet()); each board loads only its own.
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
