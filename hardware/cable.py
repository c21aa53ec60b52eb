# Linked play's cable: the UART on the profile's link pins, made
# when a linked match is chosen (and let go in the menu). board_setup makes a
# Cable when SPIT_LINK is set, and the App calls it (its open_link) as it
# calls the desktop's socket opener. A module of its own: a board without a
# link never loads it, and a Cable holds nothing of board_setup, which
# code.py forgets after start-up (a closure there kept that whole module in
# the heap of every linked match).


class Cable:
    def __init__(self, tx, rx, baud):
        self.tx = tx  # the board's pins (board.GP12, ...)
        self.rx = rx
        self.baud = baud

    def __call__(self):
        # Never waiting (timeout 0: read and readinto give None when nothing
        # came), a buffer for a pass's frames.
        import busio

        return busio.UART(self.tx, self.rx, baudrate=self.baud, timeout=0, receiver_buffer_size=512)
