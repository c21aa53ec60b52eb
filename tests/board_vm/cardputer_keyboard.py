"""Stand-in for the Cardputer firmware's cardputer_keyboard module
(ports/espressif/module/cardputer_keyboard.c): KEYBOARD, the DemuxKeyMatrix the
firmware makes at boot (interval 0.01 s, 20 events, debounce 2), and
attach_serial()/detach_serial(). Attached (as at boot), the console takes
every event from its queue as it comes: a program that reads the keys must
detach it first, or sees none."""

import board
import keypad
import keypad_demux

if getattr(board, "KB_A_0", None) is None:  # only the Cardputer's firmware has the module
    raise ImportError("no module named 'cardputer_keyboard'")

KEYBOARD = keypad_demux.DemuxKeyMatrix(
    [board.KB_A_0, board.KB_A_1, board.KB_A_2],
    [getattr(board, "KB_COL_%d" % i) for i in range(7)],
    columns_to_anodes=True,
    transpose=False,
    interval=0.01,
    max_events=20,
    debounce_threshold=2,
)
attached = True
typed = 0  # key events the console took


def attach_serial():
    global attached
    attached = True


def detach_serial():
    global attached
    attached = False


def _console_reads():
    # The firmware's event handler: while attached, every event goes to the console.
    global typed
    if attached:
        while KEYBOARD.events.get_into(_event):
            typed += 1


_event = keypad.Event(0, False, 0)
KEYBOARD.after_scan = _console_reads
