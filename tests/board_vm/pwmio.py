"""Stand-in for CircuitPython's pwmio: a PWM output whose frequency and duty cycle can be set."""


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        if pin is None:
            raise ValueError("no pin")
        self.duty_cycle = duty_cycle
        self.frequency = frequency
        self.changes = 0
