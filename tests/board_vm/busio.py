"""Stand-in for CircuitPython's busio: the buses check their pins, and I2C its
pull-ups, as the firmware does (board.pull_ups says whether the board has them)."""
import board


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):
        self.clock = clock
        self.MOSI = MOSI

    def deinit(self):
        pass


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        # The RP2040 port lets the lines float for 3 us and reads them: low means no pull-up.
        if not board.pull_ups:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        self.scl = scl
        self.sda = sda
        self.frequency = frequency

    def probe(self, address):
        return address in board.i2c_devices

    def deinit(self):
        pass
