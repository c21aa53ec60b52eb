"""Stand-in for CircuitPython's keypad_demux: DemuxKeyMatrix, a key matrix whose
rows a demultiplexer drives (the Cardputer's keyboard), scanned as keypad's
stand-in scans (keypad.py beside this file). Key numbers are row *
len(column_pins) + column; every pin is claimed, as the firmware's are."""

import keypad


class DemuxKeyMatrix(keypad._Scanner):
    def __init__(
        self,
        row_addr_pins,
        column_pins,
        columns_to_anodes=True,
        transpose=False,
        interval=0.02,
        max_events=64,
        debounce_threshold=1,
    ):
        import board

        pins = tuple(row_addr_pins) + tuple(column_pins)
        for pin in pins:
            if pin is None:
                raise ValueError("a pin is missing")
            if pin in board._claimed:
                raise ValueError("%s in use" % pin.name)
        for pin in pins:
            board.claim(pin)
        rows = 1 << len(row_addr_pins)  # (3 address pins: 8 rows)
        keypad._Scanner.__init__(self, rows * len(column_pins), max_events, debounce_threshold, interval)
