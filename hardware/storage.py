# Settings and match progress that survive power loss.
#
# Records live in microcontroller.nvm on the board, in a file standing for it
# on the desktop (nvm_flash.FileNvm), as a log: each save appends a record after the
# last one, into erased bytes (0xFF). On a Pico that is a program-only flash
# write: no erase, nothing else touched, the records before it safe whatever
# happens to this one (hardware/nvm_flash.py says how each board writes). A
# record:
#
#   0  length   n, the payload's length
#   1  kind     SETTINGS, MATCH or TALLY, + CLEARED for "none any more"
#   2  version  FORMAT
#   3  payload  n bytes
#   .. CRC-16/CCITT of bytes 0 .. 2+n, 2 bytes
#   .. 'S'      the commit byte: a record cut short lacks it or fails the CRC
#
# The newest valid record of each kind is the one that counts. When the next
# record would not fit, the log is compacted: the newest record of each kind
# first, then the new one, written over the whole area in one write. That
# write erases the flash (the Pico's one 4 KB sector), so a power cut between
# its erase and the programming of its first page loses every record; on a
# Pico that window comes once in about 50 saves, and nowhere else.
#
# Where every nvm write erases (a PyBadge's SAMD51, an ESP32's NVS:
# erases_always), every write is such a compaction, and the flash is rated
# for far fewer erases than a save a round would make. There save() only holds the record back
# (pending), and flush() writes every held-back record in one erase: the App
# flushes at most once in SPARE_MS of play (power-on counting as a write),
# and at once when a player leaves a match. A power cut loses what was held
# back: at most SPARE_MS of play.
#
# The budget: the SAMD51's NVM is planned for 10,000 erases (the FlashStorage
# library for the SAMD21 and SAMD51 warns of about that many; the SAM D5x
# datasheet's own figure was not found here). An hour a day for ten years is
# 3,650 hours: at most one held-back write in such an hour, and one more when
# a player leaves a match, is 7,300 erases, 73 % of it.
#
# On the ESP32 ports (the Cardputer) nvm is not flash the game writes: the
# firmware keeps it as one 8 KB blob in the flash's NVS store, and each write
# reads the blob, erases it (nvs_erase_all), then writes it whole again
# (ports/espressif/common-hal/nvm/ByteArray.c). A blob never written, or lost
# to a power cut between that erase and the end of the new blob, reads as
# zeros: an area of zeros is one with nothing saved. Every write there takes
# tens of ms and a cut in it loses every record, so the writes are held back
# as on the SAMD51.
#
# A record that is cut short, corrupt, foreign or of another format version
# is ignored with a message, and the game starts fresh; nothing here raises
# for bad stored bytes.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


FORMAT = 2
COMMIT = 0x53  # 'S'
SETTINGS = 1
MATCH = 2
TALLY = 4
CLEARED = 0x80  # with a kind: the record says there is none (a finished match)
KINDS = (SETTINGS, MATCH, TALLY)
_EXTRA = const(6)  # bytes of a record besides its payload
SIZE_NEEDED = 256
SPARE_MS = 40 * 60 * 1000  # erases_always: at most one write in this much play (1.5 an hour)
RATED_ERASES = 10000  # erases_always: what the SAMD51's nvm block is planned for (see above)


def crc16(data, start, end):
    crc = 0xFFFF
    for i in range(start, end):
        crc ^= data[i] << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _record(kind, payload):
    n = len(payload)
    buf = bytearray(n + _EXTRA)
    buf[0] = n
    buf[1] = kind
    buf[2] = FORMAT
    buf[3 : 3 + n] = payload
    crc = crc16(buf, 0, 3 + n)
    buf[3 + n] = crc & 255
    buf[4 + n] = crc >> 8
    buf[5 + n] = COMMIT
    return buf


class Store:
    def __init__(self, nvm, say=print, erases_always=False):
        # nvm: a bytearray-like area (microcontroller.nvm, nvm_flash.FileNvm, a bytearray).
        if nvm is None or len(nvm) < SIZE_NEEDED:
            raise ValueError("need %d bytes of non-volatile memory" % SIZE_NEEDED)
        self.nvm = nvm
        self.say = say
        self.erases_always = erases_always
        self.pending = None  # erases_always: {kind: record} saved, not yet written (flush() writes them)
        self.compactions = 0  # writes that erased the area (counted for the tests and the benchmark)
        self._scan()

    def _scan(self):
        # The newest valid record of each kind, as (at, length), and where the log ends.
        raw = bytes(self.nvm[0 : len(self.nvm)])
        self._newest = {}
        at = 0
        size = len(raw)
        bad = 0
        first = None  # what was wrong with the first record ignored
        while at < size and raw[at] != 0xFF:
            if not raw[at] and not any(raw[at:]):
                break  # zeros to the end: an ESP32's nvm with nothing saved
            n = raw[at]
            end = at + n + _EXTRA
            why = None
            if end > size:
                why = "runs past the end"
                end = size
            elif raw[end - 1] != COMMIT:
                why = "is incomplete or foreign"
            elif raw[at + 2] != FORMAT:
                version = raw[at + 2]
                why = "is format %d, this game reads format %d (%s)" % (
                    version,
                    FORMAT,
                    "from a newer game" if version > FORMAT else "from an older game",
                )
            elif raw[at + 1] & ~CLEARED not in KINDS:
                why = "is not a record of this game"
            elif crc16(raw, at, at + 3 + n) != raw[at + 3 + n] | raw[at + 4 + n] << 8:
                why = "is corrupt (checksum)"
            else:
                self._newest[raw[at + 1] & ~CLEARED] = (at, n, raw[at + 1] & CLEARED)
            if why is not None:
                bad += 1
                if first is None:
                    first = "saved data at %d %s" % (at, why)
            at = end
        self._end = at
        if first is not None:  # one line, however much was wrong
            self.say("%s: ignored%s" % (first, " (and %d more records)" % (bad - 1) if bad > 1 else ""))

    def load(self, kind):
        # The newest valid payload of kind (bytes), or None.
        found = self._newest.get(kind)
        if found is None or found[2]:
            return None
        at, n, _ = found
        return bytes(self.nvm[at + 3 : at + 3 + n])

    def save(self, kind, payload, cleared=False):
        buf = _record(kind | (CLEARED if cleared else 0), payload)
        if self.erases_always:  # held back for flush()
            if self.pending is None:
                self.pending = {}
            self.pending[kind] = buf
            return
        nvm = self.nvm
        at = self._end
        end = at + len(buf)
        if end <= len(nvm) and all(b == 0xFF for b in nvm[at:end]):
            nvm[at:end] = buf  # program-only: nothing before it is touched
            self._newest[kind] = (at, len(payload), CLEARED if cleared else 0)
            self._end = end
            return
        self._compact({kind: buf})

    def flush(self):
        # Write every record held back (erases_always), in one erase.
        if self.pending:
            self._compact(self.pending)
        self.pending = None

    def _compact(self, new):
        # The newest record of every kind not in new, then the new ones
        # ({kind: record}), and erased space after them: one write over the
        # whole area.
        nvm = self.nvm
        image = bytearray(b"\xff" * len(nvm))
        at = 0
        newest = {}
        for kind in KINDS:
            found = self._newest.get(kind)
            if kind in new or found is None:
                continue
            start, n, cleared = found
            image[at : at + n + _EXTRA] = nvm[start : start + n + _EXTRA]
            newest[kind] = (at, n, cleared)
            at += n + _EXTRA
        for kind in KINDS:  # in this order, whatever new's
            buf = new.get(kind)
            if buf is None:
                continue
            if at + len(buf) > len(image):
                raise ValueError("record too long")
            image[at : at + len(buf)] = buf
            newest[kind] = (at, buf[0], buf[1] & CLEARED)
            at += len(buf)
        self.compactions += 1
        nvm[0 : len(nvm)] = image
        self._newest = newest
        self._end = at

    def clear(self, kind):
        # Forget the record of kind (a finished match): a new record that
        # says so, where one is kept (none is written for nothing).
        found = self._newest.get(kind)
        if found is None or found[2]:  # nothing written, or written cleared
            if self.pending:
                self.pending.pop(kind, None)  # (a held-back one is dropped)
            return
        self.save(kind, b"", cleared=True)
