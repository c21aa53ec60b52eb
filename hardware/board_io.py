# The board's display, buttons and clock for a profile (CircuitPython only).
#
# Every library a profile needs is imported here, inside open_board(), so a
# missing one becomes a SetupError with what to do, shown on the console and,
# where a display exists already (PyBadge), on the screen.

from .profiles import SetupError


def _need(module):
    try:
        return __import__(module)
    except ImportError:
        raise SetupError("Library %s is missing from CIRCUITPY/lib. Install it with: make flash" % module)


def _pin(board, name):
    pin = getattr(board, name, None)
    if pin is None:
        raise SetupError("This board has no pin %s: is SPIT_PROFILE right for it?" % name)
    return pin


class BoardIO:
    def __init__(self, profile):
        import board
        import displayio
        import keypad
        import supervisor

        from .buttons import keys_on_pins, keys_on_shift_register

        self.profile = profile
        self.running = True
        self.ticks_ms = supervisor.ticks_ms
        kind = profile["display"]
        if kind == "builtin":
            self.display = getattr(board, "DISPLAY", None)
            if self.display is None:
                raise SetupError("This board has no built-in display: is SPIT_PROFILE right for it?")
        else:
            displayio.release_displays()
            pins = profile["display_pins"]
            if kind == "st7789":
                self.display = self._st7789(board, profile, pins)
            elif kind == "ssd1306":
                self.display = self._ssd1306(board, profile, pins)
            else:
                raise SetupError("Unknown display kind %r in the profile" % kind)
        self.display.auto_refresh = False
        if profile["buttons"] == "shift-register":
            self.keys = keys_on_shift_register(
                _pin(board, "BUTTON_CLOCK"), _pin(board, "BUTTON_OUT"), _pin(board, "BUTTON_LATCH"), 8
            )
        else:
            self.keys = keys_on_pins(tuple(_pin(board, name) for name in profile["buttons"]))
        self.event = keypad.Event()
        self.feedback = self._feedback(board, profile)
        self.store = None
        try:
            import microcontroller

            from .storage import Store

            self.store = Store(microcontroller.nvm)
        except (ImportError, ValueError, TypeError) as e:
            print("nothing will be saved: %s" % e)

    def _feedback(self, board, profile):
        # Sound (a buzzer on a PWM pin, or synthio on a speaker) and lights
        # (NeoPixels), where the profile has them.
        from .feedback import Buzzer, Feedback, Synth

        out = None
        sound = profile.get("sound")
        if sound is not None and sound[0] == "buzzer":
            out = Buzzer(_pin(board, sound[1]))
        elif sound is not None:
            out = Synth(_pin(board, sound[1]), getattr(board, sound[2], None))
        pixels = None
        if profile.get("pixels"):
            neopixel = _need("neopixel")
            name, count = profile["pixels"]
            pixels = neopixel.NeoPixel(_pin(board, name), count, brightness=0.05, auto_write=False)
        return Feedback(out, pixels)

    def _st7789(self, board, profile, pins):
        import busio

        st7789 = _need("adafruit_st7789")
        try:
            from fourwire import FourWire  # CircuitPython 9
        except ImportError:
            from displayio import FourWire  # CircuitPython 8
        spi = busio.SPI(_pin(board, pins["sck"]), MOSI=_pin(board, pins["mosi"]))
        bus = FourWire(
            spi,
            command=_pin(board, pins["dc"]),
            chip_select=_pin(board, pins["cs"]),
            reset=_pin(board, pins["reset"]),
            baudrate=62500000,
        )
        return st7789.ST7789(
            bus,
            width=profile["width"],
            height=profile["height"],
            rowstart=profile.get("rowstart", 0),
            rotation=0 if profile["width"] == profile["height"] else 90,
            backlight_pin=_pin(board, pins["backlight"]),
        )

    def _ssd1306(self, board, profile, pins):
        import busio

        ssd1306 = _need("adafruit_displayio_ssd1306")
        try:
            from i2cdisplaybus import I2CDisplayBus  # CircuitPython 9
        except ImportError:
            from displayio import I2CDisplay as I2CDisplayBus  # CircuitPython 8
        i2c = busio.I2C(_pin(board, pins["scl"]), _pin(board, pins["sda"]))
        bus = I2CDisplayBus(i2c, device_address=pins["address"])
        return ssd1306.SSD1306(bus, width=profile["width"], height=profile["height"])

    def pump(self):
        pass  # the keypad scans in the background

    def refresh(self):
        self.display.refresh()

    def show_error(self, message):
        print(message)
        try:
            import terminalio
            from adafruit_display_text import bitmap_label

            self.display.root_group = bitmap_label.Label(terminalio.FONT, text=message[:60], x=2, y=8)
            self.display.refresh()
        except Exception:  # the console has it already
            pass
