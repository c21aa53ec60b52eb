# One order of presses for two linked devices (issue 36). One device is the
# referee: both players' presses come to it stamped with the time each
# device's keypad saw them, the other device's converted to the referee's
# clock (hardware/clock_sync.py), and it lets a press go only HOLD_MS after
# that time, in the order of the times: a press made earlier on the other
# device, on its way over the cable, is still in time to go first. Presses at
# the same millisecond by both players are a tie, which goes to each player
# in turn (D-5). The referee then sends the order to the other device, so
# both engines apply the same moves in the same order.
#
# A fixed queue; adding and releasing allocate nothing.

from .ticks import ticks_diff

HOLD_MS = 16  # the one-way delay the order waits for: 5 +- 3 ms, a frame's bytes, a pass of each loop
SIZE = 16  # presses waiting at most (both players' hands together press fewer in 16 ms)


class Referee:
    def __init__(self):
        self._t = [0] * SIZE  # each waiting press's time (the referee's ticks), in order
        self._player = bytearray(SIZE)
        self._action = bytearray(SIZE)
        self._n = 0
        self.tie_to = 0  # who gets the next tie (D-5: then the other)
        self.dropped = 0  # presses refused for a full queue

    def waiting(self):
        return self._n

    def add(self, player, action, t):
        # A press at time t; False (and counted) when the queue is full.
        n = self._n
        if n >= SIZE:
            self.dropped += 1
            return False
        i = n
        while i > 0:
            d = ticks_diff(self._t[i - 1], t)
            if d < 0 or d == 0 and not self._before(player, self._player[i - 1]):
                break
            self._t[i] = self._t[i - 1]
            self._player[i] = self._player[i - 1]
            self._action[i] = self._action[i - 1]
            i -= 1
        self._t[i] = t
        self._player[i] = player
        self._action[i] = action
        self._n = n + 1
        return True

    def _before(self, player, other):
        # At the same time: player goes before other when the tie is theirs.
        return player != other and player == self.tie_to

    def release(self, now, take):
        """Hand the presses whose hold is over to take(player, action, t), in
        order; a tie, once released, passes the next one to the other player."""
        released = 0
        while self._n and ticks_diff(now, self._t[0]) >= HOLD_MS:
            t = self._t[0]
            player = self._player[0]
            action = self._action[0]
            if self._n > 1 and self._t[1] == t and self._player[1] != player:
                self.tie_to = 1 - player  # this tie went to player
            n = self._n - 1
            for i in range(n):
                self._t[i] = self._t[i + 1]
                self._player[i] = self._player[i + 1]
                self._action[i] = self._action[i + 1]
            self._n = n
            take(player, action, t)
            released += 1
        return released
