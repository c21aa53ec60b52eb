# The board's display, buttons and clock as the game runs on them (CircuitPython
# only). hardware/board_setup.py opens them for a profile; this small class
# stays (the setup's code is freed after start-up).


class BoardIO:
    def __init__(self, profile, ticks_ms, display, keys, event, feedback, store):
        self.profile = profile
        self.running = True
        self.ticks_ms = ticks_ms  # supervisor.ticks_ms
        self.display = display
        self.keys = keys
        self.event = event
        self.feedback = feedback
        self.store = store  # or None: nothing is saved
        self.open_link = None  # linked play: opens the cable's busio.UART (hardware/cable.py), or None: no link
        self.release = None  # gives the buttons back when the game ends (the Cardputer's keyboard, to the console)

    def close(self):
        if self.release is not None:
            self.release()
            self.release = None

    def pump(self):
        pass  # the keypad scans in the background

    def refresh(self):
        self.display.refresh()

    def show_error(self, message):
        from .message import show_message

        show_message(self.display, message)
