# What displayio's composition costs by kind of layer: the code.py that
# tools/bench_compose.py runs on the emulated Pico (never on a board's drive).
#
# Each case changes the same area of the profile's ST7789 panel (W x H, the
# 240 panel's card) and times display.refresh() alone, R times; it prints one line a case:
# "compose <name> <pixels> <ms> <ms> ...". The cases differ in one thing
# each: what draws the area (nothing, a TileGrid of one tile or of strips,
# 1 or 4 bits a pixel, vectorio shapes), and what else lies in the group
# (layers that miss the area, a mostly clear layer over it).

import os
import time

import displayio
import vectorio

from hardware import profiles
from hardware.board_setup import open_board

W = 36
H = 50
R = 4
X = 20
Y = 20

io = open_board(profiles.get(os.getenv("SPIT_PROFILE")))
display = io.display
root = displayio.Group()
display.root_group = root
palette = displayio.Palette(3)
palette[0] = 0xF0F0E0
palette[1] = 0x2040C0
palette[2] = 0x000000


def sheet(bits):
    # Two tiles side by side, W x H: paper (0), then a back's blue (1).
    b = displayio.Bitmap(2 * W, H, 1 << bits)
    for x in range(W, 2 * W):
        for y in range(H):
            b[x, y] = 1
    return b


def grid(bitmap, strip=W):
    g = displayio.TileGrid(
        bitmap, pixel_shader=palette, width=W // strip, height=1, tile_width=strip, tile_height=H, x=X, y=Y
    )
    root.append(g)
    return g


def flip(g):
    # Every tile of g to the other picture: the whole area changes.
    n = g.width

    def change(i):
        base = 0 if g[0] >= n else n
        for c in range(n):
            g[c] = base + c

    return change


def case(name, change):
    display.refresh()
    got = []
    for i in range(R):
        change(i)
        t0 = time.monotonic_ns()
        display.refresh()
        got.append((time.monotonic_ns() - t0) / 1e6)
    print("compose %s %d %s" % (name, W * H, " ".join("%.2f" % ms for ms in got)))


def hide(layer):
    # layer shown (untimed), then hidden: the area drawn by what is below.
    def change(i):
        layer.hidden = False
        display.refresh()
        layer.hidden = True

    return change


def clear():
    while len(root):
        root.pop()


four = sheet(4)
one = sheet(1)
g = grid(four)
case("nothing", hide(g))  # the area with no layer: the floor
g.hidden = False
case("tilegrid-4bit", flip(g))
clear()
case("tilegrid-1bit", flip(grid(one)))
clear()
case("tilegrid-6-strips", flip(grid(four, 6)))
clear()
g = grid(four)
for k in range(56):  # beside the card, each missing its area
    root.insert(0, displayio.TileGrid(four, pixel_shader=palette, tile_width=W, tile_height=H, x=120 + k, y=150))
case("tilegrid-56-beside", flip(g))
clear()
g = grid(four)
over = displayio.Bitmap(W, H, 2)  # clear but for a 12 x 12 corner
for x in range(12):
    for y in range(12):
        over[x, y] = 1
clear_palette = displayio.Palette(2)
clear_palette.make_transparent(0)
clear_palette[1] = 0xC00000
root.append(displayio.TileGrid(over, pixel_shader=clear_palette, x=X, y=Y))
case("tilegrid-under-clear", flip(g))
clear()
fill = displayio.Palette(1)
fill[0] = 0xF0F0E0
rect = vectorio.Rectangle(pixel_shader=fill, width=W, height=H, x=X, y=Y)
root.append(rect)


def recolour(i):
    fill[0] = 0x2040C0 if i % 2 == 0 else 0xF0F0E0


case("vectorio-rect", recolour)
clear()
# A card's cut corners: two rectangles, one a pixel narrower, one shorter.
root.append(vectorio.Rectangle(pixel_shader=fill, width=W, height=H - 2, x=X, y=Y + 1))
root.append(vectorio.Rectangle(pixel_shader=fill, width=W - 2, height=H, x=X + 1, y=Y))
case("vectorio-two-rects", recolour)
print("compose done")
