"""Stand-in for CircuitPython's board module: pins by name, and the PyBadge's DISPLAY.

The test driver calls use("pico"), use("pybadge") or use("pygamer") before the program starts;
a board has only its own pins, so a wrong profile meets a missing pin.
"""
import sys

# The Pico's wiring, which a test may change before the program starts: the
# I2C lines' pull-up resistors, and the addresses that answer on the bus.
pull_ups = True
i2c_devices = (0x3C,)


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


def use(kind):
    me = sys.modules[__name__]
    if kind == "pico":
        for i in range(29):
            setattr(me, "GP%d" % i, Pin("GP%d" % i))
    elif kind in ("pybadge", "pygamer"):
        import displayio

        names = ["BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "SPEAKER", "SPEAKER_ENABLE", "NEOPIXEL", "LIGHT"]
        if kind == "pygamer":  # the same shift register for A, B, Select, Start; the directions are a joystick
            names += ["JOYSTICK_X", "JOYSTICK_Y"]
        for name in names:
            setattr(me, name, Pin(name))
        me.DISPLAY = displayio.StandInDisplay(160, 128, None)
    else:
        raise ValueError("no stand-in board %r" % kind)
