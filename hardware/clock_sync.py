# One clock for two linked devices: how far the other device's
# ticks_ms is from ours, and how fast it drifts, from pings. A ping carries
# NTP's four timestamps: t1 we send, t2 they receive, t3 they answer, t4 we
# receive (each in its own device's ticks_ms). Its round trip is
# (t4 - t1) - (t3 - t2) and its offset ((t2 - t1) + (t3 - t4)) / 2: exact
# when the two ways took as long, off by half their difference when not, so
# the pings with the lowest round trips are trusted most. Offsets are kept in
# half milliseconds (no rounding), drift in parts per million; ints only, and
# a ping allocates nothing. Offsets are kept relative to the first ping's
# (base: their ticks minus ours then, wrapped as ticks are), and base is added
# back with ticks_add: two clocks may lie anywhere in the 2**29 ms of their
# range apart, and an offset near 2**28 must not turn into one near -2**28
# halfway through a sum (each half of a ping's offset wraps on its own).
#
# The last RECENT pings are kept: the offset is the mean of those whose round
# trip is within a millisecond of their lowest, each carried to now by the
# drift (the mean smooths the millisecond steps of the ticks); until the drift
# is known, only the pings of the last YOUNG_MS count. Every WINDOW_MS the
# window's lowest round trip is kept as a sample for the drift, the
# slope from the best of the oldest samples to the best of the newest, once
# they lie SPAN_MS apart. The link pings fast (FAST_MS apart) until the drift
# is known, then every SLOW_MS.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from .ticks import ticks_add, ticks_diff

RECENT = 32  # pings kept for the offset
WINDOW_MS = 30000  # the time a drift sample spans (its pings' best)
SAMPLES = 16  # drift samples kept (8 minutes)
SPAN_MS = 60000  # the least time between the drift's two ends
FAST_MS = 250  # between pings until the drift is known
SLOW_MS = 1000  # between pings after
YOUNG_MS = 8000  # until the drift is known, pings older than this are not carried forward
CACHE_MS = 1000  # offset2 is worked out again this long after the last time, without a ping
_LIMIT_PPM = const(1000)  # a crystal is within 100 ppm: a wilder slope is noise
_HALF2 = 1 << 29  # half the ticks' range, in half milliseconds


def _carried(ms, ppm):
    # What ppm of drift adds to an offset in ms, in half ms, rounded. (The
    # age is capped at 15 minutes, a link silent that long: the product stays
    # a small int, which allocates nothing on the board.)
    if ms > 900000:
        ms = 900000
    elif ms < -900000:
        ms = -900000
    return (ms * ppm + 250000) // 500000


class ClockSync:
    def __init__(self):
        self.pings = 0  # pings taken
        self.base = 0  # their ticks minus ours at the first ping, in ms, wrapped (the offsets are kept from it)
        self.ppm = 0  # their clock runs this much faster than ours (parts per million)
        self._off2 = [0] * RECENT  # each recent ping's offset (half ms)
        self._at = [0] * RECENT  # its t4 (our ticks)
        self._rtt = [0] * RECENT  # its round trip (ms)
        self._w_rtt = -1  # this window's lowest round trip, -1: none yet
        self._w_start = 0  # when it began (our ticks)
        self._w_off2 = 0
        self._w_at = 0
        self._s_off2 = [0] * SAMPLES  # the drift samples: offset, when, round trip
        self._s_at = [0] * SAMPLES
        self._s_rtt = [0] * SAMPLES
        self._samples = 0
        self.drift_known = False
        self._c_pings = -1  # offset2's last answer: the pings it had, when, what
        self._c_at = 0
        self._c_off2 = 0

    def restart(self):
        # The other device started again: its clock is another, and nothing
        # the pings said of the last one holds. (In place: the arrays are
        # read only as far as the pings since.)
        self.pings = 0
        self.ppm = 0
        self._w_rtt = -1
        self._samples = 0
        self.drift_known = False
        self._c_pings = -1

    def ping(self, t1, t2, t3, t4):
        # One ping's timestamps; False for one that cannot be (a negative round trip).
        rtt = ticks_diff(t4, t1) - ticks_diff(t3, t2)
        if rtt < 0:
            return False
        if not self.pings:
            self.base = ticks_diff(t2, t1)
        base = self.base
        off2 = ticks_diff(t2, ticks_add(t1, base)) + ticks_diff(t3, ticks_add(t4, base))
        i = self.pings % RECENT
        self._off2[i] = off2
        self._at[i] = t4
        self._rtt[i] = rtt
        self.pings += 1
        if self._w_rtt >= 0 and ticks_diff(t4, self._w_start) >= WINDOW_MS:
            self._sample()  # (the window closed before this ping)
        if self._w_rtt < 0:
            self._w_start = t4
        if self._w_rtt < 0 or rtt < self._w_rtt:
            self._w_rtt = rtt
            self._w_off2 = off2
            self._w_at = t4
        return True

    def _sample(self):
        # The window's best becomes a drift sample; the drift from the best of
        # the oldest quarter of the samples to the best of the newest quarter.
        j = self._samples % SAMPLES
        self._s_off2[j] = self._w_off2
        self._s_at[j] = self._w_at
        self._s_rtt[j] = self._w_rtt
        self._samples += 1
        self._w_rtt = -1
        n = self._samples if self._samples < SAMPLES else SAMPLES
        q = (n + 3) // 4
        first = self._samples - n  # (the oldest kept, counted from the first ever)
        old = self._best(first, first + q)
        new = self._best(self._samples - q, self._samples)
        span = ticks_diff(self._s_at[new], self._s_at[old])
        if span >= SPAN_MS:
            ppm = (self._s_off2[new] - self._s_off2[old]) * 500000 // span
            if -_LIMIT_PPM <= ppm <= _LIMIT_PPM:
                self.ppm = ppm
                self.drift_known = True

    def _best(self, start, end):
        # The drift sample of lowest round trip among those counted start..end-1.
        best = start % SAMPLES
        for k in range(start, end):
            j = k % SAMPLES
            if self._s_rtt[j] < self._s_rtt[best]:
                best = j
        return best

    def round_trip(self):
        # The lowest round trip of the recent pings, in ms (0: no ping yet).
        n = self.pings if self.pings < RECENT else RECENT
        low = 0
        for i in range(n):
            if i == 0 or self._rtt[i] < low:
                low = self._rtt[i]
        return low

    def known(self):
        # A ping at least: an offset to go by.
        return self.pings > 0

    def offset2(self, now):
        # Their ticks minus ours at our time now, in half milliseconds, as
        # ticks_diff gives it (-2**29 to 2**29 - 1: the base added back).
        off2 = self._relative2(now) + 2 * self.base
        if off2 >= _HALF2:  # (each step a small int on the board: 2**30 is not one)
            off2 = off2 - _HALF2 - _HALF2
        elif off2 < -_HALF2:
            off2 = off2 + _HALF2 + _HALF2
        return off2

    def _relative2(self, now):
        # The offset at our time now from base, in half milliseconds. (Worked
        # out again after each ping, or CACHE_MS on without one; in between
        # the last answer is carried by the drift: the mean over the recent
        # pings takes a Pico milliseconds, and a linked match asks at every
        # frame of the other device's.)
        if self.pings == self._c_pings and 0 <= ticks_diff(now, self._c_at) < CACHE_MS:
            return self._c_off2 + _carried(ticks_diff(now, self._c_at), self.ppm)
        self._c_pings = self.pings
        self._c_at = now
        self._c_off2 = self._offset2(now)
        return self._c_off2

    def _offset2(self, now):
        # The mean of the usable pings whose round trip is within a ms of
        # their lowest, each carried to now by the drift. A ping is usable
        # when the drift carries it, or it is young (or the newest). (One
        # loop each, no call a ping where none is needed.)
        n = self.pings if self.pings < RECENT else RECENT
        if not n:
            return 0
        newest = (self.pings - 1) % RECENT
        rtt = self._rtt
        at = self._at
        known = self.drift_known
        low = -1
        for i in range(n):
            if (known or i == newest or ticks_diff(now, at[i]) <= YOUNG_MS) and (low < 0 or rtt[i] < low):
                low = rtt[i]
        off2 = self._off2
        ppm = self.ppm
        total = 0
        count = 0
        for i in range(n):
            if rtt[i] <= low + 1 and (known or i == newest or ticks_diff(now, at[i]) <= YOUNG_MS):
                total += off2[i]
                if ppm:
                    total += _carried(ticks_diff(now, at[i]), ppm)
                count += 1
        return (2 * total + count) // (2 * count)  # (rounded: a floor would lean one way)

    def to_ours(self, theirs, now):
        # A time of their clock (a keypad timestamp) as ours, now being our time
        # near it. Before any ping (a device just restarted: its clock is new)
        # nothing says how their clock lies: now, as near as is known.
        if not self.pings:
            return now
        return ticks_add(ticks_add(theirs, -self.base), -((self._relative2(now) + 1) >> 1))
