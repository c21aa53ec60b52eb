"""Stand-in for CircuitPython's busio: the buses are only checked for their pins."""


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):
        self.clock = clock
        self.MOSI = MOSI


class I2C:
    def __init__(self, scl, sda, frequency=100000):
        self.scl = scl
        self.sda = sda
