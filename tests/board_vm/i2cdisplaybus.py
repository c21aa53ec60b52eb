"""Stand-in for CircuitPython 9's i2cdisplaybus."""


class I2CDisplayBus:
    def __init__(self, i2c_bus, *, device_address, reset=None):
        self.i2c_bus = i2c_bus
        self.device_address = device_address
