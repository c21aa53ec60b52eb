"""Stand-in for the adafruit_st7789 driver library: a display of the asked size."""
import displayio


def ST7789(bus, *, width, height, rowstart=0, colstart=0, rotation=0, backlight_pin=None, **kw):
    return displayio.StandInDisplay(width, height, bus)
