"""Stand-in for CircuitPython's board module: pins by name, and the PyBadge's and Cardputer's DISPLAY.

The test driver calls use("pico"), use("pybadge"), use("pygamer") or use("cardputer") before the program starts;
a board has only its own pins, so a wrong profile meets a missing pin.
"""

import sys

# The Pico's wiring, which a test may change before the program starts: the
# I2C lines' pull-up resistors, and the addresses that answer on the bus.
pull_ups = True
i2c_devices = (0x3C,)
_claimed = []  # pins in use, as the firmware keeps them (a second user is refused)


class Pin:
    def __init__(self, name, number=-1):
        self.name = name
        self.number = number  # the RP2040's GPIO number (its bus rules are by number)

    def __repr__(self):
        return "board." + self.name


def claim(pin):
    # The firmware's assert_pin_free: one user per pin ("GP18 in use").
    if pin is None:
        return
    if pin in _claimed:
        raise ValueError("%s in use" % pin.name)
    _claimed.append(pin)


def release(pin):
    if pin in _claimed:
        _claimed.remove(pin)


def use(kind):
    me = sys.modules[__name__]
    if kind == "pico":
        for i in range(29):
            setattr(me, "GP%d" % i, Pin("GP%d" % i, i))
    elif kind in ("pybadge", "pygamer"):
        import displayio

        names = ["BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "SPEAKER", "SPEAKER_ENABLE", "NEOPIXEL", "LIGHT"]
        if kind == "pygamer":  # the same shift register for A, B, Select, Start; the directions are a joystick
            names += ["JOYSTICK_X", "JOYSTICK_Y"]
        for name in names:
            setattr(me, name, Pin(name))
        me.DISPLAY = displayio.StandInDisplay(160, 128, None)
    elif kind == "cardputer":  # (ports/espressif/boards/m5stack_cardputer/pins.c: the pins the game could meet)
        import displayio

        names = ["TX", "RX", "NEOPIXEL", "I2S_BIT_CLOCK", "I2S_DATA", "I2S_WORD_SELECT", "BUTTON"]
        names += ["KB_COL_%d" % i for i in range(7)] + ["KB_A_%d" % i for i in range(3)]
        for name in names:
            setattr(me, name, Pin(name))
        me.DISPLAY = displayio.StandInDisplay(240, 135, None)
    else:
        raise ValueError("no stand-in board %r" % kind)
