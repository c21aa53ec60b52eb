"""Stand-in for CircuitPython 9's busdisplay: BusDisplay, the displays on a bus."""

import displayio


class BusDisplay(displayio.StandInDisplay):
    def __init__(
        self, display_bus, init_sequence, *, width, height, colstart=0, rowstart=0, rotation=0, backlight_pin=None, **kw
    ):
        # The sequence is commands, each with its argument count (bit 7: a
        # delay byte follows the arguments), as the firmware reads it.
        i = 0
        while i < len(init_sequence):
            count = init_sequence[i + 1]
            i += 2 + (count & 0x7F) + (1 if count & 0x80 else 0)
        if i != len(init_sequence):
            raise ValueError("init_sequence ends inside a command")
        displayio.claim_display_pins(backlight_pin)
        displayio.StandInDisplay.__init__(self, width, height, display_bus)
