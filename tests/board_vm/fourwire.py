"""Stand-in for CircuitPython 9's fourwire (the SPI display bus): it takes its pins, as the firmware's does."""

import displayio


class FourWire:
    def __init__(self, spi_bus, *, command, chip_select, reset=None, baudrate=24000000, polarity=0, phase=0):
        displayio.claim_display_pins(command, chip_select, reset)
        self.spi_bus = spi_bus
        self.command = command
        self.chip_select = chip_select
