# Opening the board's display, buttons, sound, lights and saves for a profile
# (CircuitPython only): open_board() gives the BoardIO the game runs on. Used
# at start-up only: code.py forgets this module then (hardware.forget).
#
# Every library a profile needs is imported here, so a missing one becomes a
# SetupError with what to do, shown on the console and, once a display is
# open, on the screen.
#
# The ST7789 is driven by the firmware's own busdisplay with the init sequence
# below (no library): the adafruit_st7789 library's sequence waits 1.17 s
# (500 ms after sleep out, 500 ms after display on), where the panel needs 5
# ms after sleep out (ST7789 datasheet, 9.1.12) and Adafruit's Arduino driver
# waits 10 ms after each; it sends the same commands and MADCTL otherwise.

from .board_io import BoardIO
from .profiles import SetupError

_ST7789_INIT = (
    b"\x01\x80\x96"  # SWRESET, then 150 ms
    b"\x11\x80\x0a"  # SLPOUT, then 10 ms
    b"\x3a\x81\x55\x0a"  # COLMOD: 16 bits a pixel, then 10 ms
    b"\x36\x01\xc0"  # MADCTL: rows and columns mirrored, RGB (as adafruit_st7789's default)
    b"\x21\x00"  # INVON: the IPS panels' colours
    b"\x13\x80\x0a"  # NORON, then 10 ms
    b"\x29\x80\x0a"  # DISPON, then 10 ms
)


def _need(module):
    try:
        return __import__(module)
    except ImportError:
        raise SetupError("Library %s is missing from CIRCUITPY/lib. Install it with: make flash" % module)


# An ESP32 board's parts (the Cardputer's keyboard, I2S amplifier, radio) are
# hardware/esp32_parts.py's, reached by strings of 11 letters or more
# (getattr, not a dot: a name of 10 or fewer, and every name after a dot, in
# this module's code is interned for good on every board, and a Pico has few
# to spare: that module says why).


def _pin(board, name):
    pin = getattr(board, name, None)
    if pin is None:
        raise SetupError("This board has no pin %s: is SPIT_PROFILE right for it?" % name)
    return pin


def open_board(profile, linked=False):
    # The display, then the buttons, sound, lights and saves of profile: a
    # BoardIO, or a SetupError (shown on the display once it is open).
    # linked (SPIT_LINK): the cable's pins are the link's, not buttons.
    import board
    import displayio
    import supervisor

    kind = profile["display"]
    if kind == "builtin":
        display = getattr(board, "DISPLAY", None)
        if display is None:
            raise SetupError("This board has no built-in display: is SPIT_PROFILE right for it?")
    else:
        displayio.release_displays()
        pins = profile["display_pins"]
        if kind == "st7789":
            display = _st7789(board, profile, pins)
        elif kind == "ssd1306":
            display = _ssd1306(board, profile, pins)
        else:
            raise SetupError("Unknown display kind %r in the profile" % kind)
    display.auto_refresh = False
    try:
        return _open_rest(display, board, profile, supervisor.ticks_ms, linked)
    except SetupError as e:
        from .message import show_message

        show_message(display, str(e))  # a display is open: the maker sees what to do
        raise


def _open_rest(display, board, profile, ticks_ms, linked):
    import keypad

    # Linked play by radio: SPIT_LINK = "espnow" (any SPIT_LINK but 1, which
    # hardware/esp32_parts.py then checks: its name is not interned on a Pico).
    radio = bool(linked) and linked is not True and len(str(linked)) > 1  # (1 or True: the cable)
    if radio and not profile.get("espnow_radio"):
        raise SetupError(
            'SPIT_LINK is %r: on profile %s, whose link is a cable, SPIT_LINK = 1 ("espnow", the radio, is an '
            "ESP32-S2 or S3 board's)" % (linked, profile["name"])
        )
    link = profile.get("link") if linked and not radio else None
    if linked and not radio and link is None:
        raise SetupError("SPIT_LINK is set, but profile %s names no pins for a link" % profile["name"])
    try:
        keys, release = _open_buttons(board, profile, link or ())
    except ValueError as e:  # the firmware's "GP18 in use": a pin of the profile has two users
        raise SetupError(
            "A pin of the profile is refused (%s): two parts share it. Set the pins in hardware/profiles.py" % e
        )
    feedback = _feedback(board, profile)
    store = None
    try:
        import microcontroller

        from .storage import Store

        store = Store(microcontroller.nvm, erases_always=profile.get("flash") is not None)  # (samd51, esp32)
    except (ImportError, ValueError, TypeError) as e:
        print("nothing will be saved: %s" % e)
    io = BoardIO(profile, ticks_ms, display, keys, keypad.Event(), feedback, store)
    io.release = release
    if radio:
        parts = getattr(_need("hardware.esp32_parts"), "esp32_parts")  # noqa: B009
        io.open_link = getattr(parts, "open_espnow_radio_link")(linked)  # noqa: B009
    elif link is not None:
        from .cable import Cable
        from .profiles import LINK_BAUD

        io.open_link = Cable(_pin(board, link[0]), _pin(board, link[1]), LINK_BAUD)
    return io


def buttons_of(profile, link=()):
    # The pins of the profile's buttons less the link's (they are the last:
    # the other buttons keep their key numbers).
    names = profile["buttons"]
    n = len(names)
    while n and names[n - 1] in link:
        n -= 1
    for name in names[:n]:
        if name in link:
            raise SetupError("pin %s is both a button and the link's" % name)
    return names[:n]


def _open_buttons(board, profile, link=()):
    # (the scanner, what gives it back when the game ends, or None)
    from .buttons import keys_on_pins, keys_on_shift_register

    if profile["buttons"] == "firmware_keyboard":
        return getattr(getattr(_need("hardware.esp32_parts"), "esp32_parts"), "open_firmware_keyboard")()  # noqa: B009
    if profile["buttons"] == "shift-register":
        if getattr(board, "JOYSTICK_X", None) is not None:
            raise SetupError(
                "This is a PyGamer: its left player's directions are a joystick, which the game "
                "does not read, so that player would have no buttons. It runs on a PyBadge."
            )
        keys = keys_on_shift_register(
            _pin(board, "BUTTON_CLOCK"), _pin(board, "BUTTON_OUT"), _pin(board, "BUTTON_LATCH"), 8
        )
        return keys, None
    return keys_on_pins(tuple(_pin(board, name) for name in buttons_of(profile, link))), None


def _feedback(board, profile):
    # Sound (a piezo played by a PIO state machine, or synthio on a speaker)
    # and lights (NeoPixels), where the profile has them.
    from .feedback import Feedback

    out = None  # type: object  # a Buzzer, a Speaker or None
    sound = profile.get("sound")
    if sound is not None and sound[0] == "buzzer":
        from .buzzer import Buzzer

        out = Buzzer(_pin(board, sound[1]))
    elif sound is not None:
        from .speaker import Speaker

        if sound[0] == "i2s_amplifier":  # (the Cardputer's)
            parts = getattr(_need("hardware.esp32_parts"), "esp32_parts")  # noqa: B009
            out = Speaker(getattr(parts, "open_i2s_amplifier")([_pin(board, n) for n in sound[1:]]))  # noqa: B009
        else:
            import audioio

            out = Speaker(audioio.AudioOut(_pin(board, sound[1])), getattr(board, sound[2], None))
    pixels = None
    if profile.get("pixels"):
        neopixel = _need("neopixel")
        name, count = profile["pixels"]
        pixels = neopixel.NeoPixel(_pin(board, name), count, brightness=0.05, auto_write=False)
    return Feedback(out, pixels)


def _st7789(board, profile, pins):
    import busio
    from busdisplay import BusDisplay
    from fourwire import FourWire

    try:
        spi = busio.SPI(_pin(board, pins["sck"]), MOSI=_pin(board, pins["mosi"]))
    except ValueError as e:  # the firmware's "Invalid pins", or "GP18 in use"
        raise SetupError(
            "The display's SPI pins SCK %s, MOSI %s are refused (%s): on a Pico SCK is GP2, 6, 10, "
            "14, 18, 22 or 26 and MOSI the pin after it. Set them in hardware/profiles.py"
            % (pins["sck"], pins["mosi"], e)
        )
    bus = FourWire(
        spi,
        command=_pin(board, pins["dc"]),
        chip_select=_pin(board, pins["cs"]),
        reset=_pin(board, pins["reset"]),
        baudrate=62500000,
    )
    return BusDisplay(
        bus,
        _ST7789_INIT,
        width=profile["width"],
        height=profile["height"],
        rowstart=profile.get("rowstart", 0),
        rotation=0 if profile["width"] == profile["height"] else 90,
        backlight_pin=_pin(board, pins["backlight"]),
    )


def _ssd1306(board, profile, pins):
    import busio

    ssd1306 = _need("adafruit_displayio_ssd1306")
    from i2cdisplaybus import I2CDisplayBus

    scl, sda = pins["scl"], pins["sda"]
    try:
        # 400 kHz, which the SSD1306 takes: a whole frame in about a quarter of 100 kHz's 92 ms.
        i2c = busio.I2C(_pin(board, scl), _pin(board, sda), frequency=400000)
    except ValueError as e:  # the firmware's "Invalid pins", or "GP26 in use"
        raise SetupError(
            "The OLED's I2C pins SDA %s, SCL %s are refused (%s): on a Pico SDA is an even GP "
            "pin and SCL the pin after it. Set them in hardware/profiles.py" % (sda, scl, e)
        )
    except RuntimeError as e:  # the firmware's "No pull up found on SDA or SCL"
        raise SetupError(
            "The OLED's I2C bus does not answer on SDA %s, SCL %s (%s): check the wiring "
            "and the pull-up resistors (most OLED boards have them)" % (sda, scl, e)
        )
    address = pins["address"]
    try:
        bus = I2CDisplayBus(i2c, device_address=address)
    except ValueError:  # the firmware's "Unable to find I2C Display at 3c"
        i2c.deinit()
        raise SetupError(
            "No OLED answers at I2C address 0x%02X on SDA %s, SCL %s: check the wiring, or the "
            "address (0x3D is the other common one; set it in hardware/profiles.py)" % (address, sda, scl)
        )
    return ssd1306.SSD1306(bus, width=profile["width"], height=profile["height"])
