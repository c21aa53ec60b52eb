"""Stand-in for the adafruit_displayio_ssd1306 driver library: a display of the asked size."""

import displayio


def SSD1306(bus, *, width, height, **kw):
    return displayio.StandInDisplay(width, height, bus)
