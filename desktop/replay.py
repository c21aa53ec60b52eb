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
