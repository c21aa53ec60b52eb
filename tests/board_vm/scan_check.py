# When the firmware's keypad scans (tests/test_stand_ins.py): one button,
# pressed and released by the emulator at times the test chooses; prints the
# timestamp of every event, which is the ticks_ms() of the scan that saw it.
import board
import keypad

keys = keypad.Keys((board.GP0,), value_when_pressed=False, pull=True, interval=0.001, debounce_threshold=1)
event = keypad.Event()
print("scan check ready")
seen = 0
while seen < 20:
    if keys.events.get_into(event):
        print("stamp", event.timestamp)
        seen += 1
print("scan check end")
