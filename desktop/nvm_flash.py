# microcontroller.nvm as a board's flash keeps it (desktop and tests only:
# make flash never ships this file).
#
# Flash erases a whole block to 0xFF and programs pages, which only turn bits
# from 1 to 0. CircuitPython 10's nvm writes a slice so:
# - RP2040 (Pico): the nvm is one 4 KB sector, programmed in 256-byte pages
#   (ports/raspberrypi/common-hal/nvm/ByteArray.c). A write onto bytes that are
#   all 0xFF programs just the pages it touches; any other write copies the
#   sector to RAM, erases it and programs all 16 pages again.
# - SAMD51 (PyBadge): the nvm is one 8 KB block of 16 pages of 512 bytes, and
#   every write reads the block, erases it and programs all 16 pages (asf4's
#   _flash_write, through common-hal/nvm/ByteArray.c).
# - ESP32 (the Cardputer): nvm is not written as flash by the game at all:
#   the firmware keeps it as one 8 KB blob in the NVS partition, and every
#   write reads the blob, erases it (nvs_erase_all) and writes the whole blob
#   again (ports/espressif/common-hal/nvm/ByteArray.c); a blob that is not
#   there reads as 8 KB of zeros. NVS writes the blob's data, then its index:
#   a cut before the index is whole leaves no blob. So a write is two steps
#   here (the erase, the new blob), a cut at either leaves zeros, and a
#   fresh board's nvm is zeros. NVS spreads its writes over its 20 KB
#   partition; erases counts the blob's erases, pages its writes.
# Interrupts are off while a page is programmed or a block erased, so the
# keypad does not scan then.
#
# A power cut can fall at any step: cut_at = n makes the write that reaches
# step n raise PowerCut there, leaving the flash as the cut leaves it. The
# steps are an erase, and each half of a page program (a cut part way through
# a page leaves its first half programmed). The counts of erases and pages
# programmed measure the wear and the time the scanner stands still.

_CHIPS = {
    # nvm bytes, erase block, program page
    "rp2040": (4096, 4096, 256),
    "samd51": (8192, 8192, 512),
    "esp32s3_nvs": (8192, 8192, 8192),  # (the blob, erased and written whole)
}
# Typical and longest times of the Pico's flash (Winbond W25Q16JV): a 4 KB
# sector erase 45 ms (400 ms at most), a 256-byte page program 0.4 ms (3 ms).
PICO_ERASE_MS = (45, 400)
PICO_PAGE_MS = (0.4, 3)
# The SAMD51's (datasheet, NVM characteristics): an 8 KB block erase 50 ms
# (200 ms at most), a 512-byte page write 1.5 ms (3 ms).
SAMD_ERASE_MS = (50, 200)
SAMD_PAGE_MS = (1.5, 3)


class PowerCut(Exception):
    pass


class FlashNvm:
    def __init__(self, chip="rp2040", data=None):
        self.size, self.block, self.page = _CHIPS[chip]
        self.chip = chip
        self.flash = bytearray(b"\x00" * self.size if chip == "esp32s3_nvs" else b"\xff" * self.size)
        if data is not None:
            self.flash[: len(data)] = data[: self.size]
        self.erases = 0
        self.pages = 0
        self.steps = 0
        self.cut_at = None
        self.on_write = None  # called after every write (the desktop keeps its file)

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop = self._range(index)
            return bytearray(self.flash[start:stop])
        return self.flash[self._index(index)]

    def __setitem__(self, index, value):
        # As the firmware's nvm.ByteArray: a byte, or a slice of step 1 with as many bytes.
        if isinstance(index, slice):
            start, stop = self._range(index)
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise NotImplementedError("array/bytes required on right side")
            if len(value) != stop - start:
                raise ValueError("Slice and value different lengths.")
            data = bytes(value)
        else:
            start = self._index(index)
            if not 0 <= value <= 255:
                raise ValueError("bytes must be 0-255")
            data = bytes((value,))
        self._write(start, data)
        if self.on_write is not None:
            self.on_write(self.flash)

    def _index(self, index):
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError("bytearray index out of range")
        return index

    def _range(self, s):
        if s.step not in (None, 1):
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        return s.indices(self.size)[:2]

    # -- the firmware's write --

    def _write(self, start, data):
        end = start + len(data)
        if self.chip == "esp32s3_nvs":
            image = self._merged(0, self.size, start, data)
            self._step()
            self.flash[:] = bytes(self.size)  # nvs_erase_all: the blob is gone
            self.erases += 1
            self._step()
            self.flash[:] = image  # nvs_set_blob: whole, or not there at all
            self.pages += 1
            return
        if self.chip == "rp2040" and all(b == 0xFF for b in self.flash[start:end]):
            for page in range(start - start % self.page, end, self.page):
                self._program(page, self._merged(page, self.page, start, data))
            return
        for base in range(start - start % self.block, end, self.block):
            image = self._merged(base, self.block, start, data)
            self._step()
            self.flash[base : base + self.block] = b"\xff" * self.block
            self.erases += 1
            for page in range(base, base + self.block, self.page):
                self._program(page, image[page - base : page - base + self.page])

    def _merged(self, base, length, start, data):
        # The flash from base for length bytes, with data written from start over it.
        image = bytearray(self.flash[base : base + length])
        lo = max(start, base)
        hi = min(start + len(data), base + length)
        image[lo - base : hi - base] = data[lo - start : hi - start]
        return image

    def _program(self, addr, image):
        half = self.page // 2
        for part in (0, half):
            self._step()
            for i in range(part, part + half):
                self.flash[addr + i] &= image[i]  # programming turns bits 1 to 0, never back
        self.pages += 1

    def _step(self):
        if self.cut_at is not None and self.steps >= self.cut_at:
            raise PowerCut()
        self.steps += 1


def looks_saved(data):
    """True for what FileNvm writes: a board's whole nvm (either chip's size),
    erased (or an ESP32's zeros) or starting with a record of hardware/storage.py (its length, a
    kind and a format version; the rest may be cut short by a power cut).
    Anything else (a text, a picture, a replay) is someone else's file."""
    from hardware.storage import CLEARED, FORMAT, KINDS

    if len(data) not in [size for size, _, _ in _CHIPS.values()]:
        return False
    return data[0] == 0xFF or not any(data) or data[1] & ~CLEARED in KINDS and 1 <= data[2] <= FORMAT


class FileNvm:
    """A file standing for a board's nvm on the desktop: FlashNvm (a Pico's
    4 KB by default, written as the RP2040
    port writes it; chip="samd51" for a PyBadge's 8 KB), kept in the file
    after every write. A path that is a folder or cannot be read
    is a SetupError naming it; a write that fails is said once, and the game
    goes on (nothing is left half-written: the file is replaced whole).
    aside: a file that is not a save of the game's is moved aside (the
    window's own default save: nobody named it), not refused."""

    def __init__(self, path, say=print, chip="rp2040", aside=False):
        import os

        from hardware.profiles import SetupError

        self.path = path
        self.say = say
        data = None
        if os.path.isdir(path):
            raise SetupError("SPIT_SAVE %s is a folder: name a file to save in" % path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            pass
        except OSError as e:
            raise SetupError("SPIT_SAVE %s cannot be read (%s)" % (path, e.strerror or e))
        if data and not looks_saved(data) and aside:
            n = 1
            while os.path.exists("%s.corrupt-%d" % (path, n)):
                n += 1
            try:
                os.replace(path, "%s.corrupt-%d" % (path, n))
            except OSError as e:
                raise SetupError("%s is not this game's save file, and cannot be moved aside (%s)" % (path, e))
            say("%s was not this game's save file: moved to %s.corrupt-%d, and a new one started" % (path, path, n))
            data = None
        if data and not looks_saved(data):
            raise SetupError(
                "SPIT_SAVE %s is not this game's save file (%d bytes); it is left as it is: "
                "name a new file, or one the game saved" % (path, len(data))
            )
        self.flash = FlashNvm(chip, data)
        self.flash.on_write = self._keep
        self._failed = False

    def __len__(self):
        return len(self.flash)

    def __getitem__(self, i):
        return self.flash[i]

    def __setitem__(self, i, value):
        self.flash[i] = value

    def _keep(self, data):
        import os

        tmp = self.path + ".tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            if not self._failed:
                self._failed = True
                self.say("%s: not saved (%s)" % (self.path, e.strerror or e))
