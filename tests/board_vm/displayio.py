"""Stand-in for CircuitPython's displayio: the objects, not the pixels.

As thin as the board program needs: Group, Bitmap, Palette,
TileGrid with the board's attributes, and a display whose refresh() hands the
pass to the test driver (on_refresh). Bitmaps pack their pixels like the board
(bits per value a power of two, rows padded to 32 bits), so the heap they take
is the heap the board's take. Nothing here allocates in what is C on the board
and allocation-free there (pixel and tile writes, flips, hidden, moves).
The pixels are checked on the desktop (Blinka renders the same groups).
"""

on_refresh = None  # the test driver's hook: called at every display refresh
displays = []  # every display made, for the test driver to read


_display_pins = []  # pins the display buses hold until release_displays()


def claim_display_pins(*pins):
    import board

    for pin in pins:
        if pin is not None:
            board.claim(pin)
            _display_pins.append(pin)


def release_displays():
    import board

    for pin in _display_pins:
        board.release(pin)
    _display_pins.clear()


def _field(i, kind=int):
    # A property kept in the object's one small list (an instance's own
    # attributes cost a dict entry each: the board's C objects are smaller).
    def get(self):
        return self._f[i]

    def put(self, value):
        self._f[i] = kind(value)

    return property(get, put)


class Group:
    def __init__(self, *, scale=1, x=0, y=0):
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self._layers = []
        self._f = [scale, int(x), int(y), False]  # scale, x, y, hidden
        self._parent = None

    x = _field(1)
    y = _field(2)
    hidden = _field(3, bool)

    @property
    def scale(self):
        return self._f[0]

    @scale.setter
    def scale(self, value):
        if value < 1:
            raise ValueError("scale must be >= 1")
        self._f[0] = value

    def append(self, layer):
        self.insert(len(self._layers), layer)

    def insert(self, index, layer):
        if not isinstance(layer, (Group, TileGrid)):
            raise TypeError("a Group holds Groups and TileGrids")
        if layer._parent is not None:
            raise ValueError("Layer already in a group")
        layer._parent = self
        self._layers.insert(index, layer)

    def pop(self, index=-1):
        layer = self._layers.pop(index)
        layer._parent = None
        return layer

    def remove(self, layer):
        self.pop(self._layers.index(layer))

    def index(self, layer):
        return self._layers.index(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, index):
        return self._layers[index]


class Bitmap:
    def __init__(self, width, height, value_count):
        if not 1 <= value_count <= 65536:
            raise ValueError("value_count must be 1 to 65536")
        bits = 1
        while (1 << bits) < value_count:
            bits *= 2
        self.width = width
        self.height = height
        self.bits_per_value = bits
        self._mask = (1 << bits) - 1
        self._stride = ((width * bits + 31) // 32) * 4  # bytes per row, padded to 32 bits
        self._data = bytearray(self._stride * height)

    def _xy(self, index):
        # The pixel number of index, an int or an (x, y) tuple, checked.
        if isinstance(index, tuple):
            x = index[0]
            y = index[1]
        else:
            x = index % self.width
            y = index // self.width
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel out of bounds")
        return y * self.width + x

    def get(self, i):
        # Pixel i (y * width + x), unchecked: what bitmaptools reads.
        y = i // self.width
        bit = (i - y * self.width) * self.bits_per_value
        at = y * self._stride + (bit >> 3)
        if self.bits_per_value == 16:
            return self._data[at] | self._data[at + 1] << 8
        return (self._data[at] >> (bit & 7)) & self._mask

    def set(self, i, value):
        # Pixel i = value, unchecked: what bitmaptools writes.
        y = i // self.width
        bit = (i - y * self.width) * self.bits_per_value
        at = y * self._stride + (bit >> 3)
        if self.bits_per_value == 16:
            self._data[at] = value & 255
            self._data[at + 1] = value >> 8
        else:
            shift = bit & 7
            self._data[at] = (self._data[at] & ~(self._mask << shift)) | (value << shift)

    def __getitem__(self, index):
        return self.get(self._xy(index))

    def __setitem__(self, index, value):
        if not 0 <= value <= self._mask:
            raise ValueError("value out of range")
        self.set(self._xy(index), value)

    def fill(self, value):
        if not 0 <= value <= self._mask:
            raise ValueError("value out of range")
        data = self._data
        n = len(data)
        i = 0
        if self.bits_per_value == 16:
            while i < n:
                data[i] = value & 255
                data[i + 1] = value >> 8
                i += 2
            return
        byte = 0
        shift = 0
        while shift < 8:
            byte |= value << shift
            shift += self.bits_per_value
        while i < n:
            data[i] = byte
            i += 1

    def dirty(self, x1=0, y1=0, x2=None, y2=None):
        pass


class Palette:
    def __init__(self, color_count, *, dither=False):
        self._colors = [0] * color_count
        self._transparent = bytearray(color_count)

    def __len__(self):
        return len(self._colors)

    # As the firmware's: an index past the palette is an IndexError to read or
    # write and a ValueError to make transparent; a colour past 0xFFFFFF a TypeError.
    def _at(self, index):
        if not 0 <= index < len(self._colors):
            raise IndexError("index out of range")
        return index

    def __getitem__(self, index):
        return self._colors[self._at(index)]

    def __setitem__(self, index, color):
        if isinstance(color, tuple):
            color = (color[0] << 16) | (color[1] << 8) | color[2]
        if not 0 <= color <= 0xFFFFFF:
            raise TypeError("color must be between 0x000000 and 0xffffff")
        self._colors[self._at(index)] = color

    def _checked(self, index):
        if not 0 <= index < len(self._colors):
            raise ValueError("palette_index must be 0-%d" % (len(self._colors) - 1))
        return index

    def make_transparent(self, index):
        self._transparent[self._checked(index)] = 1

    def make_opaque(self, index):
        self._transparent[self._checked(index)] = 0

    def is_transparent(self, index):
        return self._transparent[index] == 1


class TileGrid:
    def __init__(
        self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None, default_tile=0, x=0, y=0
    ):
        # The firmware's checks: a Bitmap or OnDiskBitmap shaded by a Palette,
        # tiles that divide it, tile values below its tile count.
        if not isinstance(bitmap, (Bitmap, OnDiskBitmap)):
            raise TypeError("unsupported bitmap type")
        if not isinstance(pixel_shader, Palette):
            raise TypeError("unsupported pixel_shader type")
        tile_width = bitmap.width if tile_width is None else tile_width
        tile_height = bitmap.height if tile_height is None else tile_height
        if bitmap.width % tile_width or bitmap.height % tile_height:
            raise ValueError("Tile size must exactly divide the bitmap")
        self._count = (bitmap.width // tile_width) * (bitmap.height // tile_height)
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        # x, y, width, height, tile_width, tile_height, hidden, flip_x, flip_y, transpose_xy
        self._f = [int(x), int(y), width, height, tile_width, tile_height, False, False, False, False]
        self._tiles = (list if self._count > 256 else bytearray)([default_tile] * (width * height))
        self._parent = None

    x = _field(0)
    y = _field(1)
    width = property(lambda self: self._f[2])
    height = property(lambda self: self._f[3])
    tile_width = property(lambda self: self._f[4])
    tile_height = property(lambda self: self._f[5])
    hidden = _field(6, bool)
    flip_x = _field(7, bool)
    flip_y = _field(8, bool)
    transpose_xy = _field(9, bool)

    def __getitem__(self, index):
        if isinstance(index, tuple):
            index = index[1] * self._f[2] + index[0]
        return self._tiles[index]

    def __setitem__(self, index, tile):
        if isinstance(index, tuple):
            index = index[1] * self._f[2] + index[0]
        if not 0 <= index < len(self._tiles):
            raise IndexError("Tile index out of bounds")
        if not 0 <= tile < self._count:
            raise ValueError("tile must be 0-%d" % (self._count - 1))
        self._tiles[index] = tile


class OnDiskBitmap:
    # An indexed BMP left on flash: the header and palette are read, the
    # pixels stay in the file (as on the board; nothing here draws them).
    def __init__(self, file):
        f = open(file, "rb") if isinstance(file, str) else file
        head = f.read(54)
        if len(head) < 54 or head[0:2] != b"BM":
            raise ValueError("Invalid BMP file")
        self._file = f
        self.width = int.from_bytes(head[18:22], "little")
        self.height = int.from_bytes(head[22:26], "little")
        bits = int.from_bytes(head[28:30], "little")
        colours = int.from_bytes(head[46:50], "little") or (1 << bits)
        if bits not in (1, 2, 4, 8) or int.from_bytes(head[30:34], "little"):
            raise ValueError("Only monochrome, indexed 4bpp or 8bpp BMPs supported")
        f.seek(14 + int.from_bytes(head[14:18], "little"))
        table = f.read(4 * colours)
        if len(table) != 4 * colours:
            raise ValueError("Unable to read color palette data")
        self.pixel_shader = Palette(colours)
        for i in range(colours):
            self.pixel_shader[i] = table[4 * i + 2] << 16 | table[4 * i + 1] << 8 | table[4 * i]


class StandInDisplay:
    # What board.DISPLAY and the display drivers give: a root_group to show,
    # refresh() to push it. Not a displayio name; the stand-in drivers make it.

    def __init__(self, width, height, bus):
        self.width = width
        self.height = height
        self.bus = bus
        self.root_group = None
        self.shown = None  # the root_group the last refresh pushed to the panel
        displays.append(self)
        self.auto_refresh = True
        self.brightness = 1.0
        self.rotation = 0
        self.refreshes = 0

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        self.refreshes += 1
        self.shown = self.root_group
        if on_refresh is not None:
            on_refresh()
        return True
