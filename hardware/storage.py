# Settings and match progress that survive power loss.
#
# Records live in a small non-volatile byte area: microcontroller.nvm on the
# board, a file on the desktop (FileNvm). Each kind of record (settings, match,
# tally)
# has two slots written alternately, so a cut during a write leaves the
# previous good copy. A slot:
#
#   0  'S'      commit byte, written last: a slot cut short has none
#   1  version  FORMAT
#   2  kind     SETTINGS, MATCH or CLEARED
#   3  seq      2 bytes, one more than the last record of that kind
#   5  length   payload length
#   6  payload
#   .. CRC-16/CCITT of bytes 1 .. end of payload, 2 bytes
#
# A record that is cut short, corrupt, foreign or of another format version is
# ignored with a message, and the game starts fresh; nothing here raises for
# bad stored bytes.

FORMAT = 1
COMMIT = 0x53  # 'S'
SETTINGS = 1
MATCH = 2
CLEARED = 3
TALLY = 4
_HEADER = 6
# Where each kind's two slots start, and a slot's size.
_LAYOUT = {SETTINGS: (0, 16), MATCH: (32, 80), TALLY: (192, 32)}
SIZE_NEEDED = 256


def crc16(data, start, end):
    crc = 0xFFFF
    for i in range(start, end):
        crc ^= data[i] << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


class Store:
    def __init__(self, nvm, say=print):
        # nvm: a bytearray-like area (microcontroller.nvm, FileNvm, a bytearray).
        if nvm is None or len(nvm) < SIZE_NEEDED:
            raise ValueError("need %d bytes of non-volatile memory" % SIZE_NEEDED)
        self.nvm = nvm
        self.say = say

    def _slots(self, kind):
        base, size = _LAYOUT[kind]
        return base, base + size, size

    def _read(self, at, size, want):
        # (seq, kind, payload) of a valid slot, or None; says why when it is not.
        nvm = self.nvm
        raw = bytes(nvm[at : at + size])
        if raw[0] != COMMIT:
            if raw[0] not in (0x00, 0xFF) or any(b not in (0x00, 0xFF) for b in raw[1:8]):
                self.say("saved data at %d is incomplete or foreign: ignored" % at)
            return None
        version, kind, length = raw[1], raw[2], raw[5]
        if version != FORMAT:
            self.say(
                "saved data at %d is format %d, this game reads format %d: ignored (%s)"
                % (at, version, FORMAT, "from a newer game" if version > FORMAT else "from an older game")
            )
            return None
        end = _HEADER + length
        if end + 2 > size or kind not in (want, CLEARED):
            self.say("saved data at %d is not a record of this kind: ignored" % at)
            return None
        if crc16(raw, 1, end) != raw[end] | raw[end + 1] << 8:
            self.say("saved data at %d is corrupt (checksum): ignored" % at)
            return None
        return raw[3] | raw[4] << 8, kind, raw[_HEADER:end]

    def _latest(self, kind):
        a, b, size = self._slots(kind)
        ra = self._read(a, size, kind)
        rb = self._read(b, size, kind)
        if ra is None and rb is None:
            return None, a
        if ra is None or rb is not None and ((rb[0] - ra[0]) & 0xFFFF) < 0x8000:
            return rb, a  # b is newer: the next write goes to a
        return ra, b

    def load(self, kind):
        # The newest valid payload of kind (bytes), or None.
        rec, _ = self._latest(kind)
        if rec is None or rec[1] == CLEARED:
            return None
        return rec[2]

    def save(self, kind, payload, cleared=False):
        rec, at = self._latest(kind)
        size = self._slots(kind)[2]
        if _HEADER + len(payload) + 2 > size:
            raise ValueError("record too long")
        seq = ((rec[0] + 1) if rec else 0) & 0xFFFF
        buf = bytearray(_HEADER + len(payload) + 2)
        buf[1] = FORMAT
        buf[2] = CLEARED if cleared else kind
        buf[3] = seq & 255
        buf[4] = seq >> 8
        buf[5] = len(payload)
        buf[_HEADER : _HEADER + len(payload)] = payload
        crc = crc16(buf, 1, _HEADER + len(payload))
        buf[-2] = crc & 255
        buf[-1] = crc >> 8
        nvm = self.nvm
        nvm[at] = 0  # the slot is invalid until its commit byte is back
        nvm[at + 1 : at + len(buf)] = buf[1:]
        nvm[at] = COMMIT

    def clear(self, kind):
        # Forget the record of kind (a finished match): a new record that says so.
        self.save(kind, b"", cleared=True)


class FileNvm:
    # A file standing in for microcontroller.nvm on the desktop: every write
    # goes to disk at once, as nvm writes go to flash.

    def __init__(self, path, size=1024):
        self.path = path
        self._data = bytearray(b"\xff" * size)
        try:
            with open(path, "rb") as f:
                stored = f.read(size)
            self._data[: len(stored)] = stored
        except OSError:
            pass

    def __len__(self):
        return len(self._data)

    def __getitem__(self, i):
        return self._data[i]

    def __setitem__(self, i, value):
        import os

        self._data[i] = value
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self._data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
