"""Stand-in for CircuitPython's digitalio: an output pin."""


class DigitalInOut:
    def __init__(self, pin):
        import board

        board.claim(pin)
        self.pin = pin
        self.value = False

    def switch_to_output(self, value=False):
        self.value = value
