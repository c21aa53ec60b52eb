"""Stand-in for CircuitPython 9's i2cdisplaybus: the display must answer at its address."""


class I2CDisplayBus:
    def __init__(self, i2c_bus, *, device_address, reset=None):
        if not i2c_bus.probe(device_address):
            raise ValueError("Unable to find I2C Display at %x" % device_address)
        self.i2c_bus = i2c_bus
        self.device_address = device_address
