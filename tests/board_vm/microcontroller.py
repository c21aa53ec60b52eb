"""Stand-in for CircuitPython's microcontroller: nvm is a bytearray, as big as a Pico's."""

nvm = bytearray(b"\xff" * 4096)
