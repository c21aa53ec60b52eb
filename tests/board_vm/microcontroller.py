"""Stand-in for CircuitPython's microcontroller: nvm is flash as the board's
firmware writes it (hardware/nvm_flash.py, linked here): a Pico's 4 KB sector,
or a PyBadge's 8 KB block once the driver calls use("samd51")."""
from nvm_flash import FlashNvm

nvm = FlashNvm("rp2040")


def use(chip):
    global nvm
    nvm = FlashNvm(chip)
