"""The wiring pictures of docs/build.md, drawn from hardware/profiles.py.

    python tools/wiring.py [--out DIR]
    make wiring

For each Pico profile, docs/wiring-<profile>.png: the Pico's 40 pins as they
lie on the board (USB at the top) and, beside each pin the game uses, the
part and its line (a player's button, the display's, the buzzer's, power and
ground). docs/wiring-buttons.png: where each player's buttons sit on the
handheld, with their pins. docs/wiring-cable.png: two linked handhelds.
Everything drawn comes from connections() and the profiles, so a picture
cannot disagree with the code: tests/test_wiring.py draws them again and
compares them with the committed ones, pixel for pixel.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hardware import keymaps, profiles  # noqa: E402

# The Pico's pins by their number on the board: 1 to 20 down the left side
# (USB at the top), 21 to 40 up the right side.
PICO_PINS = (
    "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15 "
    "GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 GND GP28 ADC_VREF 3V3 3V3_EN GND VSYS VBUS"
).split()
PICTURES = ("pico-st7789-240", "pico-st7789-320", "pico-ssd1306")
# The display modules' own names for their lines.
ST7789_LINES = {"sck": "SCL (SCK)", "mosi": "SDA (MOSI)", "cs": "CS", "dc": "DC", "reset": "RES", "backlight": "BLK"}
SSD1306_LINES = {"sda": "SDA", "scl": "SCL"}
INK = {"player 0": (30, 90, 200), "player 1": (200, 70, 20), "display": (20, 140, 60), "buzzer": (140, 60, 170)}
INK["power"], INK["cable"] = (200, 0, 0), (0, 130, 140)


def button_name(code):
    action = code & 15
    if action < keymaps.PILE_0:
        return "stock %d" % (action + 1)
    return "pile %d" % (action - keymaps.PILE_0 + 1)


def connections(profile, linked=False):
    """[(pin, part, line)]: every Pico pin a handheld of this profile wires,
    in the order they are listed. part is "player 0", "player 1",
    "display", "buzzer", "power" or "cable". A linked handheld wires one
    player's seven buttons and the cable on the pins it takes."""
    wires = []
    link = profile["link"] if linked else ()
    for number, pin in enumerate(profile["buttons"]):
        code = profile["keymap"][number]
        if pin in link or (linked and code >> 4 == 1):
            continue
        wires.append((pin, "player %d" % (code >> 4), button_name(code)))
    if linked:
        wires += [(link[0], "cable", "TX, to the other's RX"), (link[1], "cable", "RX, from the other's TX")]
    title = profile["display"].upper()
    if profile["display"] == "st7789":
        for key, line in ST7789_LINES.items():
            wires.append((profile["display_pins"][key], "display", "%s %s" % (title, line)))
    else:
        for key, line in SSD1306_LINES.items():
            wires.append((profile["display_pins"][key], "display", "%s %s" % (title, line)))
    kind, pin = profile["sound"][:2]
    wires.append((pin, "buzzer", "piezo +"))
    wires.append(("3V3", "power", "%s VCC" % title))
    wires.append(("GND", "power", "GND: %s, piezo -, every button's other leg" % title))
    return wires


def font(size):
    from PIL import ImageFont

    return ImageFont.load_default(size)


def draw_pinout(profile, linked=False):
    """The Pico and what each of its pins is wired to."""
    from PIL import Image, ImageDraw

    wires = connections(profile, linked)
    on_pin = {}
    for pin, part, line in wires:
        on_pin.setdefault(pin, []).append((part, line))
    w, h, pitch, top = 980, 760, 30, 110
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    big, small = font(20), font(14)
    d.text((20, 16), profile["title"] + (" (linked)" if linked else ""), fill=(0, 0, 0), font=big)
    d.text(
        (20, 46), "Buttons: each between its pin and GND (the Pico's pull-ups are used).", fill=(60, 60, 60), font=small
    )
    d.text((20, 66), "Top view, USB at the top. Pins the game leaves free are grey.", fill=(60, 60, 60), font=small)
    bx0, bx1 = 400, 580
    d.rounded_rectangle((bx0, top - 30, bx1, top + 20 * pitch + 30), radius=10, fill=(40, 120, 60), outline=(0, 0, 0))
    d.rectangle((465, top - 45, 515, top - 20), fill=(190, 190, 190), outline=(0, 0, 0))
    d.text((bx0 + 28, top + 20 * pitch + 2), "Raspberry Pi Pico", fill=(255, 255, 255), font=small)
    for i, name in enumerate(PICO_PINS):
        left = i < 20
        y = top + (i if left else 39 - i) * pitch + 6
        x = bx0 + 10 if left else bx1 - 10
        used = on_pin.get(name) if name not in ("GND", "3V3") or i in (2, 35) else None
        d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=(230, 200, 60) if used else (150, 150, 150), outline=(0, 0, 0))
        label = "%d %s" % (i + 1, name)
        tw = d.textlength(label, font=small)
        d.text((x + 12 if left else x - 12 - tw, y - 8), label, fill=(255, 255, 255), font=small)
        if not used:
            continue
        text = "; ".join("%s: %s" % (part, line) if part in ("player 0", "player 1") else line for part, line in used)
        ink = INK[used[0][0]]
        if left:
            d.line((bx0 - 40, y, x - 6, y), fill=ink, width=3)
            d.text((bx0 - 44 - d.textlength(text, font=small), y - 8), text, fill=ink, font=small)
        else:
            d.line((x + 6, y, bx1 + 40, y), fill=ink, width=3)
            d.text((bx1 + 44, y - 8), text, fill=ink, font=small)
    return img


def draw_buttons(profile):
    """Where each player's seven buttons sit, for two people facing each
    other across the handheld (the menu's Seats: facing)."""
    from PIL import Image, ImageDraw

    w, h = 980, 640
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    big, small = font(20), font(14)
    d.text(
        (20, 16), "Where the buttons sit: two players facing each other across the handheld", fill=(0, 0, 0), font=big
    )
    d.text(
        (20, 46),
        "Each player's stock buttons in a row under their own stocks, 1 to 5 from their own left; the pile buttons "
        "at their right hand.",
        fill=(60, 60, 60),
        font=small,
    )
    d.rounded_rectangle((120, 120, 860, 570), radius=24, fill=(235, 235, 235), outline=(0, 0, 0), width=2)
    sw, sh = 300, 300 * profile["height"] // profile["width"]
    sx, sy = (w - sw) // 2, 345 - sh // 2
    d.rectangle((sx, sy, sx + sw, sy + sh), fill=(20, 20, 30), outline=(0, 0, 0))
    d.text(
        (sx + 10, sy + 8),
        "%dx%d %s" % (profile["width"], profile["height"], profile["display"].upper()),
        fill=(200, 200, 200),
        font=small,
    )
    pins = {}
    for number, pin in enumerate(profile["buttons"]):
        code = profile["keymap"][number]
        pins[(code >> 4, code & 15)] = pin
    for player, y, sign in ((0, 520, 1), (1, 170, -1)):
        ink = INK["player %d" % player]
        d.text((400, 590 if player == 0 else 84), "player %d sits here" % player, fill=ink, font=big)
        for slot in range(7):
            # Stocks 1..5 from the player's own left, then pile 1 and pile 2 at their right hand.
            x = w // 2 + sign * ((slot - 2) * 70 + (60 if slot > 4 else 0))
            action = slot if slot < 5 else keymaps.PILE_0 + slot - 5
            d.ellipse((x - 22, y - 22, x + 22, y + 22), fill=ink, outline=(0, 0, 0), width=2)
            name = str(slot + 1) if slot < 5 else "P%d" % (slot - 4)
            d.text((x - d.textlength(name, font=small) / 2, y - 8), name, fill=(255, 255, 255), font=small)
            pin = pins[(player, action)]
            d.text((x - d.textlength(pin, font=small) / 2, y + (26 if player == 0 else -44)), pin, fill=ink, font=small)
    d.text((140, 330), "1-5: stocks\nP1, P2: piles", fill=(60, 60, 60), font=small)
    return img


def draw_cable(profile):
    """Two linked handhelds: the three wires between them."""
    from PIL import Image, ImageDraw

    tx, rx = profile["link"]
    w, h = 980, 380
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    big, small = font(20), font(14)
    d.text((20, 16), "Two handhelds on a cable: three wires, TX to RX both ways, and ground", fill=(0, 0, 0), font=big)
    d.text(
        (20, 46),
        "SPIT_LINK = 1 on both (make flash LINK=1). %s and %s carry the cable instead of player 1's "
        "pile buttons." % (tx, rx),
        fill=(60, 60, 60),
        font=small,
    )
    ink = INK["cable"]
    for n, x in enumerate((120, 620)):
        d.rounded_rectangle((x, 100, x + 240, 340), radius=12, fill=(40, 120, 60), outline=(0, 0, 0))
        d.text((x + 20, 110), "handheld %s" % "AB"[n], fill=(255, 255, 255), font=big)
        for k, (pin, role) in enumerate(((tx, "TX"), (rx, "RX"), ("GND", "GND"))):
            y = 170 + 60 * k
            px = x + 240 if n == 0 else x
            d.ellipse((px - 7, y - 7, px + 7, y + 7), fill=(230, 200, 60), outline=(0, 0, 0))
            label = "%s (%s)" % (pin, role) if role != "GND" else "GND"
            tw = d.textlength(label, font=small)
            d.text((px - 14 - tw if n == 0 else px + 14, y - 8), label, fill=(255, 255, 255), font=small)
    d.line((367, 170, 613, 230), fill=ink, width=4)  # A's TX to B's RX
    d.line((367, 230, 613, 170), fill=ink, width=4)  # A's RX from B's TX
    d.line((367, 290, 613, 290), fill=(0, 0, 0), width=4)
    return img


def pictures():
    """{file name in docs/: image}."""
    made = {}
    for name in PICTURES:
        made["wiring-%s.png" % name] = draw_pinout(profiles.get(name))
    pico = profiles.get(profiles.DEFAULT)
    made["wiring-linked.png"] = draw_pinout(pico, linked=True)
    made["wiring-buttons.png"] = draw_buttons(pico)
    made["wiring-cable.png"] = draw_cable(pico)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"), help="the folder for the PNGs (default: docs/)")
    args = ap.parse_args(argv)
    for name, img in sorted(pictures().items()):
        img.save(os.path.join(args.out, name), optimize=True)
        print(os.path.join(args.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
