# Board profiles: screen, buttons and pins of each supported board.
#
# Chosen by SPIT_PROFILE in settings.toml (os.getenv on the board, the
# environment on a desktop); DEFAULT when it is not set. Pure data and a
# lookup: no hardware import, so the desktop simulator uses the same table.
#
# Raspberry Pi Pico (RP2040) handheld, pins:
#   buttons (to GND, internal pull-ups): player 0 stocks 0..4 GP0..GP4, piles
#     GP5, GP6; player 1 stocks 0..4 GP7..GP11, piles GP12, GP13
#   ST7789 SPI TFT: SCK GP18, MOSI GP19, CS GP17, DC GP20, RST GP21, BL GP22
#   SSD1306 I2C OLED (address 0x3C): SDA GP26, SCL GP27
#   optional piezo buzzer: GP15 to GND (sound; nothing happens without one)
#   linked play (SPIT_LINK = 1 in settings.toml): the cable on UART0, TX GP12
#     and RX GP13, which are player 1's pile buttons on a handheld for two;
#     a linked handheld has one player's seven buttons, GP0..GP6
# PyBadge: the built-in speaker (synthio) and five NeoPixels; linked play on
# the TX and RX pins of its Feather header. (A PyGamer is refused: its
# directions are an analog joystick, not buttons.)
# M5Stack Cardputer (ESP32-S3): the built-in 240x135 display, the keyboard the
# firmware scans (its cardputer_keyboard module: hardware/esp32_parts.py), the
# speaker on I2S, one NeoPixel; saves in nvm, which the ESP32 ports keep in
# the flash's NVS (hardware/storage.py); linked play on the TX and RX pins of
# its Grove port (Port A, G1 and G2), or by radio (ESP-NOW).

from .keymaps import HANDHELD_14, PYBADGE

_PICO_BUTTONS = ("GP0", "GP1", "GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP8", "GP9", "GP10", "GP11", "GP12", "GP13")
_PICO_LINK = ("GP12", "GP13")  # TX, RX: UART0 (no pin left free by the buttons and the display can be an RX)
LINK_BAUD = 115200  # a frame of 19 bytes in 1.6 ms
_ST7789_PINS = {"sck": "GP18", "mosi": "GP19", "cs": "GP17", "dc": "GP20", "reset": "GP21", "backlight": "GP22"}

PROFILES = {
    "pico-st7789-240": {
        "title": "Raspberry Pi Pico, 240x240 ST7789 TFT, 14 buttons",
        "width": 240,
        "height": 240,
        "colour": True,
        "display": "st7789",
        "display_pins": _ST7789_PINS,
        "rowstart": 80,
        "sprites": "large",
        "keymap": HANDHELD_14,
        "cursor": False,
        "buttons": _PICO_BUTTONS,
        "libraries": (),
        "sound": ("buzzer", "GP15"),
        "link": _PICO_LINK,
    },
    "pico-st7789-320": {
        "title": "Raspberry Pi Pico, 320x240 ST7789 TFT, 14 buttons",
        "width": 320,
        "height": 240,
        "colour": True,
        "display": "st7789",
        "display_pins": _ST7789_PINS,
        "rowstart": 0,
        "sprites": "large",
        "keymap": HANDHELD_14,
        "cursor": False,
        "buttons": _PICO_BUTTONS,
        "libraries": (),
        "sound": ("buzzer", "GP15"),
        "link": _PICO_LINK,
    },
    "pico-ssd1306": {
        "title": "Raspberry Pi Pico, 128x64 SSD1306 OLED, 14 buttons",
        "width": 128,
        "height": 64,
        "colour": False,
        "display": "ssd1306",
        "display_pins": {"sda": "GP26", "scl": "GP27", "address": 0x3C},
        "sprites": "small",
        "keymap": HANDHELD_14,
        "cursor": False,
        "buttons": _PICO_BUTTONS,
        "libraries": ("adafruit_displayio_ssd1306",),
        "sound": ("buzzer", "GP15"),
        "link": _PICO_LINK,
    },
    "pybadge": {
        "title": "Adafruit PyBadge, 160x128 TFT, built-in buttons",
        "width": 160,
        "height": 128,
        "colour": True,
        "display": "builtin",
        "sprites": "medium",
        "keymap": PYBADGE,
        "cursor": True,
        "buttons": "shift-register",
        "libraries": ("neopixel",),
        "flash": "samd51",  # every nvm write erases its 8 KB block (hardware/storage.py)
        "sound": ("synth", "SPEAKER", "SPEAKER_ENABLE"),
        "pixels": ("NEOPIXEL", 5),
        "link": ("TX", "RX"),
    },
    "cardputer": {
        "title": "M5Stack Cardputer, 240x135 TFT, its keyboard",
        "width": 240,
        "height": 135,
        "colour": True,
        "display": "builtin",
        "sprites": "medium",
        # Its keyboard's key numbers (row * 7 + column, as the firmware's
        # cardputer_keymap.h numbers them), HANDHELD_14's keys: A S D F G are
        # player 0's stocks (keys 36, 8, 37, 9, 38), Z X their piles (1, 30);
        # H J K L ; player 1's (10, 39, 11, 40, 12), N M (32, 4); the rest unused.
        "keymap": b"\xff\x05\xff\xff\x16"
        + b"\xff" * 3
        + b"\x01\x03\x10\x12\x14"
        + b"\xff" * 17
        + b"\x06\xff\x15\xff\xff\xff\x00\x02\x04\x11\x13"
        + b"\xff" * 15,
        "cursor": False,
        "buttons": "firmware_keyboard",
        # The firmware's own scanner of the keyboard (cardputer_keyboard.KEYBOARD,
        # made at boot): interval (s), debounce threshold, queue length.
        # (The Cardputer's keys are strings of 11 letters or more: a shorter one,
        # in every board's code, would be interned on every board: hardware/esp32_parts.py.)
        "keypad_scan": (0.01, 2, 20),
        "two_people_sit": "side_by_side",  # two people share the keyboard, both facing the screen
        "menu_key_words": ("move: A/S or H/J", "Z/N change, X/M go"),  # (the menu's help, in its keys)
        "pile_2_words": ("X or M: leave match", "X or M: back"),  # (the pause's and the lobby's)
        "first_round_keys": ("keys ASDFG\npiles ZX", "keys HJKL;\npiles NM"),  # beside each player's cards
        "libraries": ("neopixel",),
        "flash": "esp32s3_nvs",  # nvm is a blob in the flash's NVS, written whole (hardware/storage.py)
        "sound": ("i2s_amplifier", "I2S_BIT_CLOCK", "I2S_WORD_SELECT", "I2S_DATA"),
        "pixels": ("NEOPIXEL", 1),
        "link": ("TX", "RX"),
        "espnow_radio": True,  # linked play by radio too (SPIT_LINK = "espnow": hardware/radio.py)
    },
}
DEFAULT = "pico-st7789-240"


class SetupError(Exception):
    # Something the maker can fix: an unknown profile, a missing library.
    pass


def get(name, source="settings.toml"):
    # source: where the name came from, for the message.
    if not name:
        name = DEFAULT
    profile = PROFILES.get(name)
    if profile is None:
        raise SetupError(
            "Unknown SPIT_PROFILE %r (from %s). Set it to one of: %s" % (name, source, ", ".join(sorted(PROFILES)))
        )
    profile = dict(profile)
    profile["name"] = name
    return profile
