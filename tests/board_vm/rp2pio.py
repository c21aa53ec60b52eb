"""Stand-in for CircuitPython's rp2pio on the RP2040, as strict as the
firmware where the game uses it (ports/raspberrypi/bindings/rp2pio/ and
common-hal/rp2pio/StateMachine.c): a program of 16-bit instructions, at most
32, that writes pins only with first_out_pin; a frequency the clock divider
can make; buffers of the element size the first background write used; run()
executing instructions at once. What a background write sends is heard
(outputs.py): the tune it starts."""

import sys

import outputs

_SYS_HZ = 125000000


class StateMachine:
    def __init__(
        self,
        program,
        frequency,
        *,
        first_out_pin=None,
        initial_out_pin_state=0,
        wait_for_txstall=True,
        **others,
    ):
        for name in others:
            if name not in ("out_pin_count", "initial_out_pin_direction", "auto_pull", "out_shift_right"):
                raise TypeError("unexpected keyword argument '%s'" % name)
        raw = bytes(program)  # (a buffer of little-endian 16-bit instructions, as the firmware reads it)
        if len(raw) % 2 or not 0 < len(raw) <= 64:
            raise ValueError("program must be 1 to 32 16-bit instructions")
        for i in range(len(raw) // 2):
            ins = raw[2 * i] | raw[2 * i + 1] << 8
            writes_pins = (ins >> 13 == 5 and (ins >> 5) & 7 == 0) or (ins >> 13 == 3 and (ins >> 5) & 7 == 0)
            if writes_pins and first_out_pin is None:
                raise ValueError("Missing first_out_pin. program[%d] writes pin(s)" % i)
        if not _SYS_HZ // 65536 < frequency <= _SYS_HZ:
            raise ValueError("frequency out of range")
        if first_out_pin is not None:
            import board

            board.claim(first_out_pin)
        self.frequency = frequency
        self._stride = None
        self._seen = [None] * 32  # the buffers written so far, each checked once (room made now: no allocation later)
        self.running = True

    def background_write(self, once=None, *, loop=None, loop2=None, swap=False):
        n = 0
        while self._seen[n] is not None and self._seen[n] is not once:
            n += 1
        if self._seen[n] is None:
            self._seen[n] = once
            if sys.implementation.name == "cpython":  # (bytes() allocates: the VM counts a move's bytes)
                stride = len(bytes(once)) // len(once)
                if stride > 4:
                    raise ValueError("Buffer elements must be 4 bytes long or less")
                if self._stride is not None and stride != self._stride:
                    raise ValueError("Mismatched data size")
                self._stride = stride
        if not self.running:
            raise RuntimeError("the state machine is stopped: nothing would play")
        outputs.heard(n * 64 + len(once))  # (which tune: its words may be past a small int)

    def stop_background_write(self):
        pass

    def stop(self):
        self.running = False

    def restart(self):
        self.running = True
        outputs.heard(1)  # (the pin low: silence)

    def run(self, instructions):
        if len(bytes(instructions)) % 2:
            raise ValueError("Program size invalid")
