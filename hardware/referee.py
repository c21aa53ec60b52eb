# One order of presses for two linked devices. One device is the
# referee: both players' presses come to it stamped with the time each
# device's keypad saw them, the other device's converted to the referee's
# clock (hardware/clock_sync.py), and it lets a press go, in the order of the
# times, only once no earlier press of the other device can still be on its
# way: when the other device has said its presses are all sent up to a later
# time (or, the other device silent, HOLD_MAX_MS after it: not while it is
# heard saying a frame of its is still to come). Presses at
# the same millisecond by both players are a tie, which goes to each player
# in turn (D-5). The referee then sends the order to the other device, so
# both engines apply the same moves in the same order.
#
# A fixed queue; adding and releasing allocate nothing.

from .ticks import ticks_diff

# The other device's word of how far its presses have come (its ticks,
# hardware/linked.py): a press goes once that is SYNC_MS past it (the
# clocks' error), and at the latest HOLD_MAX_MS after it (the other device silent).
SYNC_MS = 2
HOLD_MAX_MS = 100
SIZE = (
    64  # presses waiting at most (both players' presses and let-gos while the link is slow: the harsh level reached 33)
)


class Referee:
    def __init__(self):
        self._t = [0] * SIZE  # each waiting press's time (the referee's ticks), in order
        self._player = bytearray(SIZE)
        self._action = bytearray(SIZE)
        self._n = 0
        self.tie_to = 0  # who gets the next tie (D-5: then the other)
        self.remote = 1  # the player whose presses come over the cable (the other is this device's)
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

    def clear(self):
        # Every press waiting is let go unplayed (a snapshot replaced the
        # position they were made on); how many.
        n = self._n
        self._n = 0
        return n

    def _before(self, player, other):
        # At the same time: player goes before other when the tie is theirs.
        return player != other and player == self.tie_to

    def release(self, now, take, upto, read=None, most=SIZE, held=False):
        """Hand the presses whose hold is over to take(player, action, t), in
        order, at most most of them (what the link has room to send); a tie,
        once released, passes the next one to the other player.
        upto: the other device's time (on this clock) up to which all its
        presses are known to be here: a press at t is released once upto is
        SYNC_MS past t (nothing earlier can come), or HOLD_MAX_MS after t
        when the other device is not heard.
        read: this device's own presses are all read up to this time (the
        moment its keys were last read): a press of the remote player at t goes once
        read is past t, its own millisecond included (a tie is seen), with no
        word from the other device to wait for.
        held: the other device is heard, but its word counts for nothing
        until a frame of its, lost on the way, comes again (it may be a
        press earlier than ours): no press goes by HOLD_MAX_MS meanwhile."""
        released = 0
        while self._n and released < most and self._due(now, upto, read, held):
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

    def _due(self, now, upto, read, held):
        t = self._t[0]
        if read is not None and self._player[0] == self.remote:
            return ticks_diff(read, t) > 0
        return ticks_diff(upto, t) >= SYNC_MS or not held and ticks_diff(now, t) >= HOLD_MAX_MS
