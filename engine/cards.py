# Cards as small ints, the corner-turning rank adjacency, and a portable PRNG.
#
# Shared by every game on the device (Spit, Speed). A card is an int 0..51:
# ``rank = card % 13`` (0 = Ace, 1 = 2, ... 9 = 10, 10 = J, 11 = Q, 12 = K) and
# ``suit = card // 13`` (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades).
# Diamonds and hearts are red. ``NO_CARD`` (255) marks "nothing here" in a byte.
# The text form of cards lives in ``engine.notation``, off the board's hot path.
#
# The PRNG is L'Ecuyer's combined multiplicative generator for 16-bit machines
# (CACM 31(6), 1988): three small Lehmer generators whose products stay below
# 2**23, so it never makes a long int on a 32-bit board and gives the same
# numbers on CPython, MicroPython and CircuitPython. Its state is three ints.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


NO_CARD = const(255)

_M1 = const(32363)
_M2 = const(31727)
_M3 = const(31657)
_A1 = const(157)
_A2 = const(146)
_A3 = const(142)
_Z_RANGE = const(32362)  # the combined output lies in 1.._Z_RANGE
_WARM_UP = const(10)


def fits(card, top, alternate):
    # True when card may go on top (SP-4, SD-4): ranks one apart, the Ace next
    # to both 2 and K; with alternate (V-3) also one red and one black card.
    d = card % 13 - top % 13
    if d != 1 and d != -1 and d != 12 and d != -12:
        return False
    # Diamonds (1) and hearts (2) are red: (suit + 1) & 2 is 2 for red, 0 for black.
    return not alternate or (card // 13 + 1) & 2 != (top // 13 + 1) & 2


class Rng:
    # Deterministic PRNG with small-int arithmetic only; the same on every port.
    #
    # Its whole state is the three ints s1, s2, s3 (1 <= s1 < 32363,
    # 1 <= s2 < 31727, 1 <= s3 < 31657).

    def __init__(self, seed=0):
        seed &= 0x3FFFFFFF
        lo = seed & 0x7FFF
        hi = seed >> 15
        self.s1 = 1 + (lo + hi * 7) % (_M1 - 1)
        self.s2 = 1 + (hi + lo * 3) % (_M2 - 1)
        self.s3 = 1 + (lo ^ hi) % (_M3 - 1)
        # Neighbouring seeds start on neighbouring states; a few steps spread them apart.
        for _ in range(_WARM_UP):
            self.next()

    def next(self):
        # Next value in 1..32362.
        s1 = self.s1 = _A1 * self.s1 % _M1
        s2 = self.s2 = _A2 * self.s2 % _M2
        s3 = self.s3 = _A3 * self.s3 % _M3
        z = s1 - s2
        if z > 706:
            z -= _Z_RANGE
        z += s3
        if z < 1:
            z += _Z_RANGE
        return z

    def below(self, n):
        # A value in 0..n-1 for 0 < n <= 32362 (products stay below 2**30).
        return (self.next() - 1) * n // _Z_RANGE

    def shuffle(self, buf, start, count):
        # Fisher-Yates shuffle of buf[start:start+count] in place; allocates nothing.
        i = count - 1
        while i > 0:
            j = self.below(i + 1)
            a = start + i
            b = start + j
            t = buf[a]
            buf[a] = buf[b]
            buf[b] = t
            i -= 1
