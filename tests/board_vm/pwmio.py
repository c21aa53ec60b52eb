"""Stand-in for CircuitPython's pwmio: a PWM output whose frequency and duty cycle can be set."""

import outputs


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        if pin is None:
            raise ValueError("no pin")
        import board

        board.claim(pin)
        self._duty = duty_cycle
        self.frequency = frequency

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        # The sound changes: a tone at the frequency (duty on), or silence.
        self._duty = value
        outputs.heard(self.frequency * 4 + (value >> 14) if value else 1)
