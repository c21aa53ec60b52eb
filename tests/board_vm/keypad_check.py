# The keypad stand-in's start-up and debounce, as the firmware's C code has
# them (tests/test_stand_ins.py): prints what each scan reports.
import keypad


class Pin:
    pass


def events(scanner):
    out = []
    e = keypad.Event()
    while scanner.events.get_into(e):
        out.append("%d%s" % (e.key_number, "+" if e.pressed else "-"))
    return " ".join(out) or "-"


keypad.hold_at_start((0,))  # key 0 held since power-on
keys = keypad.Keys((Pin(), Pin()), value_when_pressed=False, debounce_threshold=2)
keys.scan(100)
keys.scan(105)
print("held at power-on", events(keys))
keys.press(0, False)
keys.scan(110)
keys.scan(115)
print("its release", events(keys))
keys.press(1, True)
keys.scan(120)
print("a press, one scan", events(keys))
keys.scan(125)
print("a press, two scans", events(keys))
keys.press(1, False)
keys.scan(130)
keys.press(1, True)
keys.scan(135)
keys.scan(140)
print("a one-scan bounce", events(keys))
keys.reset()
print("reset while held", events(keys))
keys.scan(145)
print("after reset, a scan", events(keys))
