# The replay format: one key event a line (docs/simulator.md says how it is
# written), read into timed events for the desktop's scanner.

from .keys import TAP_MS, key_number

REPLAY_MAX_MS = 24 * 3600 * 1000


def read_replay(path, keymap):
    """Parse a replay file: a sorted list of (ms, key number, pressed), when
    it ends (its end line, or 2 s after its last event), and the saved data
    it starts from (its nvm line's bytes), or None."""
    events = []
    end = None
    nvm = None
    last = 0  # the latest line's time
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("%s line %d: not UTF-8 text" % (path, lineno))
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                if words[0] == "nonce" or len(words) == 3 and words[1] == "link":
                    continue  # (linked play's: read_link)
                if words[0] == "nvm":
                    if len(words) != 2 or nvm is not None or events:
                        raise ValueError("one nvm line, before the events: 'nvm HEX'")
                    nvm = bytes.fromhex(words[1])
                    continue
                if end is not None:
                    raise ValueError("nothing may follow the end line")
                if len(words) == 2 and words[1] == "end":
                    end = _replay_ms(words[0])
                    if end < last:
                        raise ValueError("the end comes before an event")
                    continue
                if len(words) not in (2, 3) or (len(words) == 3 and words[2] not in ("down", "up")):
                    raise ValueError("expected 'MS KEY [down|up]'")
                ms = _replay_ms(words[0])
                k = key_number(keymap, words[1])
                last = max(last, ms)
            except ValueError as e:
                raise ValueError("%s line %d: %s: %r" % (path, lineno, e, line.strip()))
            if len(words) == 2:
                events.append((ms, k, True))
                events.append((ms + TAP_MS, k, False))
            else:
                events.append((ms, k, words[2] == "down"))
    events.sort(key=lambda e: e[0])
    if end is None:
        end = (events[-1][0] if events else 0) + 2000
    return events, end, nvm


def _replay_ms(word):
    ms = int(word)
    if ms < 0:
        raise ValueError("negative time")
    if ms > REPLAY_MAX_MS:
        raise ValueError("%d ms is past a replay's longest, %d ms (24 hours)" % (ms, REPLAY_MAX_MS))
    return ms


def read_link(path):
    """A linked device's replay: the number its session drew (its
    nonce line), or None when the recording was not linked, and the bytes
    the cable brought, as a sorted list of (ms, bytes) from its
    'MS link HEX' lines."""
    nonce = None
    got = []
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            words = raw.decode("utf-8", "replace").split("#", 1)[0].split()
            try:
                if words and words[0] == "nonce":
                    if len(words) != 2 or nonce is not None:
                        raise ValueError("one nonce line: 'nonce N'")
                    nonce = int(words[1])
                    if not 0 < nonce < 65536:
                        raise ValueError("a nonce is 1 to 65535")
                elif len(words) == 3 and words[1] == "link":
                    got.append((_replay_ms(words[0]), bytes.fromhex(words[2])))
            except ValueError as e:
                raise ValueError("%s line %d: %s: %r" % (path, lineno, e, raw.decode("utf-8", "replace").strip()))
    if got and nonce is None:
        raise ValueError("%s: link lines need the nonce line of their session" % path)
    got.sort(key=lambda e: e[0])
    return nonce, got


class ReplayUart:
    """The cable of a replayed linked device: the bytes it brought, each
    when its recording says (ms, from io.now_ms); what the device writes
    goes nowhere (the other device is in the recording already)."""

    def __init__(self, got, io):
        self._got = list(got)
        self._io = io
        self._left = b""

    def write(self, buf):
        return len(buf)

    def readinto(self, buf):
        while not self._left and self._got and self._got[0][0] <= self._io.now_ms:
            self._left = self._got.pop(0)[1]
        if not self._left:
            return None
        n = min(len(buf), len(self._left))
        buf[:n] = self._left[:n]
        self._left = self._left[n:]
        return n

    def deinit(self):
        pass


class RecordingUart:
    """A window's cable, recorded: each read's bytes written to the
    recording as 'MS link HEX' (io.now_ms), so its replay brings them again."""

    def __init__(self, uart, io):
        self._uart = uart
        self._io = io

    def write(self, buf):
        return self._uart.write(buf)

    def readinto(self, buf):
        n = self._uart.readinto(buf)
        if n:
            self._io.record.write("%d link %s\n" % (self._io.now_ms, bytes(buf[:n]).hex()))
            self._io.record.flush()
        return n

    def deinit(self):
        self._uart.deinit()
