"""Stand-in for CircuitPython's microcontroller: nvm is flash as the board's
firmware writes it (desktop/nvm_flash.py, copied in beside the stand-ins): a Pico's 4 KB sector,
or a PyBadge's 8 KB block once the driver calls use("samd51")."""

from desktop.nvm_flash import FlashNvm

nvm = FlashNvm("rp2040")


def use(chip):
    global nvm
    nvm = FlashNvm(chip)
