"""Stand-in for CircuitPython's busio: the buses check their pins, and I2C its
pull-ups, as the firmware does (board.pull_ups says whether the board has them).

The RP2040 port's rules (ports/raspberrypi/common-hal/busio): SPI's clock is
a GPIO n with n % 4 == 2, its MOSI n % 4 == 3 of the same SPI (n // 8 % 2);
I2C's SDA is even and its SCL odd, of the same I2C (n // 2 % 2). Other pins
are "Invalid pins"; a pin already in use is "GPn in use"."""

import board


def _free(*pins):
    for pin in pins:
        if pin is not None and pin in board._claimed:
            raise ValueError("%s in use" % pin.name)


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):
        if clock.number >= 0:  # a Pico's pin
            spi = clock.number // 8 % 2
            if (
                clock.number % 4 != 2
                or MOSI is not None
                and (MOSI.number % 4 != 3 or MOSI.number // 8 % 2 != spi)
                or MISO is not None
                and (MISO.number % 4 != 0 or MISO.number // 8 % 2 != spi)
            ):
                raise ValueError("Invalid pins")
        _free(clock, MOSI, MISO)
        self._pins = (clock, MOSI, MISO)
        for pin in self._pins:
            board.claim(pin)
        self.clock = clock
        self.MOSI = MOSI

    def deinit(self):
        for pin in self._pins:
            board.release(pin)


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        if scl.number >= 0 and not (
            scl.number % 2 == 1 and sda.number % 2 == 0 and scl.number // 2 % 2 == sda.number // 2 % 2
        ):
            raise ValueError("Invalid pins")
        _free(scl, sda)
        # The RP2040 port lets the lines float for 3 us and reads them: low means no pull-up.
        if not board.pull_ups:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        board.claim(scl)
        board.claim(sda)
        self.scl = scl
        self.sda = sda
        self.frequency = frequency

    def probe(self, address):
        return address in board.i2c_devices

    def deinit(self):
        board.release(self.scl)
        board.release(self.sda)
