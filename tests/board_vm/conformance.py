# What the firmware refuses and how, printed a line a check: run as code.py
# on the emulated Pico's real firmware, and on the MicroPython VM with the
# stand-ins beside this file; the two must print the same lines
# (tests/test_stand_ins.py). Only the exception's type is compared: the
# firmware's messages are compressed text.
import displayio
import keypad
import microcontroller
import supervisor


def check(name, f):
    try:
        f()
        print(name, "ok")
    except Exception as e:  # noqa: BLE001 (which one is the point)
        print(name, type(e).__name__)


bitmap = displayio.Bitmap(8, 4, 2)
palette = displayio.Palette(2)
grid = displayio.TileGrid(bitmap, pixel_shader=palette, width=2, height=1, tile_width=4, tile_height=4)


def set_tile(i, v):
    grid[i] = v


def set_colour(i, v):
    palette[i] = v


def get_colour(i):
    return palette[i]


def set_nvm(i, v):
    microcontroller.nvm[i] = v


def set_nvm_slice(start, stop, step, v):
    microcontroller.nvm[start:stop:step] = v


check("tilegrid of a palette", lambda: displayio.TileGrid(palette, pixel_shader=palette))
check("tilegrid shaded by a bitmap", lambda: displayio.TileGrid(bitmap, pixel_shader=bitmap))
check("tile width not dividing", lambda: displayio.TileGrid(bitmap, pixel_shader=palette, tile_width=3, tile_height=4))
check("tile 1 of 2", lambda: set_tile(0, 1))
check("tile 2 of 2", lambda: set_tile(0, 2))
check("tile -1", lambda: set_tile(1, -1))
check("tile place 2 of 2", lambda: set_tile(2, 0))
check("palette entry 1", lambda: set_colour(1, 0xFFFFFF))
check("palette entry 2", lambda: set_colour(2, 0))
check("palette read 2", lambda: get_colour(2))
check("palette transparent 2", lambda: palette.make_transparent(2))
check("colour past 0xffffff", lambda: set_colour(0, 0x1000000))
print("nvm size", len(microcontroller.nvm))
check("nvm slice shorter", lambda: set_nvm_slice(0, 4, None, b"ab"))
check("nvm slice step 2", lambda: set_nvm_slice(0, 4, 2, b"ab"))
check("nvm list", lambda: set_nvm_slice(0, 2, None, [1, 2]))
check("nvm byte 256", lambda: set_nvm(0, 256))
check("nvm past the end", lambda: set_nvm(len(microcontroller.nvm), 0))
before = supervisor.ticks_ms()
event = keypad.Event()
print("event", event.key_number, event.pressed, 0 <= (event.timestamp - before) & 0x1FFFFFFF < 1000)
print("conformance end")
