# The M5Stack Cardputer firmware's own module (ports/espressif/module/
# cardputer_keyboard.c in CircuitPython), which circuitpython-stubs leaves
# out: the keyboard the firmware scans from boot, and whether its keys type
# into the console.
import keypad_demux

KEYBOARD: keypad_demux.DemuxKeyMatrix

def attach_serial() -> None: ...
def detach_serial() -> None: ...
def key_to_char(key: int, shifted: bool) -> str | None: ...
