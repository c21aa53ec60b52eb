# The parts only the ESP32 boards have (the M5Stack Cardputer's): its
# keyboard, its I2S amplifier, its radio. Loaded by hardware/board_setup.py
# on such a board only, by a name it never interns: every name a module uses
# is interned for good when it loads (a Pico's firmware has only a few names
# to spare in a long session before its next pool of names takes 7 KB at
# once: docs/firmware.md, tests/test_heap_map.py's budget), so what a Pico
# never runs is not in a module it loads.

from .profiles import SetupError


def open_firmware_keyboard():
    # The Cardputer's keyboard: the firmware scans it from boot
    # (cardputer_keyboard.KEYBOARD, a keypad_demux.DemuxKeyMatrix on pins it
    # keeps) and types its keys into the console. The game takes its events
    # from the console while it runs, and gives them back when it ends:
    # (the scanner, what gives it back).
    try:
        import cardputer_keyboard
    except ImportError:
        raise SetupError(
            "This firmware does not scan a Cardputer's keyboard: is SPIT_PROFILE right for the board? "
            "On a Cardputer, install CircuitPython 9.2 or later"
        )
    cardputer_keyboard.detach_serial()
    keys = cardputer_keyboard.KEYBOARD
    keys.events.clear()  # (what was typed before the game started)
    return keys, cardputer_keyboard.attach_serial


def open_i2s_amplifier(pins):
    # An amplifier on I2S (bit clock, word select, data): what plays the synthesizer.
    import audiobusio

    return audiobusio.I2SOut(pins[0], pins[1], pins[2])


def open_espnow_radio_link(link):
    # Linked play by radio (link: SPIT_LINK, "espnow"): what opens ESP-NOW
    # when linked play is chosen (hardware/radio.py).
    if link != "espnow":
        raise SetupError('SPIT_LINK is %r: 1 for a cable, "espnow" for the radio' % (link,))
    from .radio import Radio

    return Radio()
