# Linked play's protocol in one place: a frame's header, the frame kinds two
# handhelds send each other, and where each field lies in a payload. The link
# (hardware/link.py) delivers kinds below UNRELIABLE once each and in order,
# and the others when they arrive whole. Both devices must speak the same
# VERSION (the hellos compare it). Multi-byte numbers are little-endian; a
# time is a ticks_ms value (4 bytes: hardware/link.py's put32, get32); a
# position's hash is state_hash's, 24 bits. The modules that send and read frames
# import these numbers once (they are constants there after), and a match
# forgets this module.

from .keymaps import NEXT, PILE_0
from .modes import EV_FOLLOW, EV_LET_GO, EV_PAUSE, GO_ON, LEAVE, PLAYING, SEEKING

VERSION = 5  # the protocol's (hardware/hello.py: both devices must speak the same)

# -- a frame: 0xA5 0x5A kind seq ack n session, the payload (n bytes), a CRC-16 over kind..payload --
FRAME_MAGIC0 = 0xA5
FRAME_MAGIC1 = 0x5A
FRAME_KIND = 2
FRAME_SEQ = 3  # a reliable frame's number
FRAME_ACK = 4  # the last number received in order
FRAME_SIZE = 5  # the payload's length
FRAME_SESSION = 6  # the session's number (0: a hello's)
FRAME_HEAD = 7  # the bytes before the payload
MAX_PAYLOAD = 16
UNRELIABLE = 0x40  # kinds from this one up are not acknowledged
ACK = 0x7F  # a frame that only acknowledges (no payload)

# -- reliable: delivered once each, in order --
EVENT = 0x01  # referee to follower: one event of the order
EVENT_NUMBER = 0  # the order's number (2)
EVENT_PLAYER = 2  # whose press, or whose key a scene answered
EVENT_ACTION = 3  # a key's action, or EV_PAUSE, EV_LET_GO + k, EV_FOLLOW + what (hardware/modes.py)
EVENT_TIME = 4  # its time on the referee's clock (4)
EVENT_SIZE = 8

PRESS = 0x02  # follower to referee: a press of its player (or its pause chord)
PRESS_ACTION = 0
PRESS_TIME = 1  # its keypad's time (4)
PRESS_TAKEN = 5  # the snapshots it has taken up (a press made before the latest one is stale)
PRESS_SEEN = 6  # the order's number it had applied (2): a press made before a scene's event is not its key
PRESS_SIZE = 8

SNAP = 0x03  # referee to follower: a snapshot's first frame (hardware/snapshot.py)
SNAP_HOW = 0  # how the follower takes it up:
SNAP_START = 0  # a new match: the countdown
SNAP_PAUSED = 1  # the link came back, or a device restarted: the pause
SNAP_ON = 2  # the positions differed: play on from the referee's
SNAP_SEAT = 1  # the follower's seat
SNAP_COUNT = 2  # the order's number it is at (2)
SNAP_LENGTH = 4  # the position line's length (2)
SNAP_NUMBER = 6  # the snapshot's number (its low byte)
SNAP_LINE = 7  # the line's first bytes, to the frame's end
SNAP_MAX = 320  # the longest position line

MORE = 0x04  # referee to follower: the snapshot line's next bytes: the snapshot's
# number (its low byte, 1), where in the line they go (2), then the bytes
# (hardware/snapshot.py writes and reads it, its offsets its own: no names kept)

ASK = 0x05  # follower to referee: its position, please
ASK_WHY = 0  # 1: the positions differ; 0: the link came back
ASK_TAKEN = 1  # the snapshots it has taken up (one on its way is not sent again)
ASK_SIZE = 2

BYE = 0x06  # either way: this device's player left the match (no payload)
ALIVE = 0x07  # either way, when nothing else reliable is on its way: an acknowledgement
# is asked for, so a device that hears the other but is not heard finds out (no payload)

# -- unreliable (from UNRELIABLE up): delivered when they arrive whole --
HELLO = 0x41  # both, finding each other (hardware/hello.py)
HELLO_VERSION = 0
HELLO_KIND = 1  # the game
HELLO_RULES = 2  # its rule flags
HELLO_NONCE = 3  # this device's number (2)
HELLO_SEEN = 5  # the other's number last heard (2)
HELLO_STATE = 7  # SEEKING or PLAYING (hardware/modes.py), | HELLO_RESUMING
HELLO_HASH = 8  # the saved match's hash (3)
HELLO_SIZE = 11
HELLO_RESUMING = 4  # the state byte's bit: resuming a saved match
HELLO_CONFIRMED = 8  # the state byte's bit: by radio, this player confirmed the handheld found (its name)

PING = 0x42  # referee to follower: t1 (4)
PONG = 0x43  # follower to referee: t1, t2, t3 (4 each)
PONG_SIZE = 12

TICK = 0x44  # follower to referee: how far its presses have gone
TICK_TIME = 0  # all sent up to this time (4)
TICK_NEXT = 4  # the number of its next reliable frame (none before it is still to come)
TICK_SIZE = 5

HASH = 0x45  # referee to follower: the position's hash after an event
HASH_NUMBER = 0  # the event's number (2)
HASH_VALUE = 2  # the hash (3)
HASH_SIZE = 5

WANT = 0x46  # referee to follower: a press of its own player waits for a tick (no payload)


def fits(kind, p, n):
    # Whether a payload (p[0:n]) of this kind is one this protocol sends: its
    # length, and every field read from it within its range (hardware/link.py
    # refuses and counts one that is not, before anything reads it; by radio
    # anyone in range can send). The order's actions: a key's (STOCK_0 ..
    # NEXT), a pile key let go, the pause chord, a scene going on or left.
    if kind == EVENT:
        return n == EVENT_SIZE and p[EVENT_PLAYER] < 2 and _action(p[EVENT_ACTION], True)
    if kind == PRESS:
        return n == PRESS_SIZE and _action(p[PRESS_ACTION], False)
    if kind == TICK:
        return n == TICK_SIZE
    if kind == HASH:
        return n == HASH_SIZE
    if kind == PING:
        return n == 4
    if kind == PONG:
        return n == PONG_SIZE
    if kind == SNAP:
        if n < SNAP_LINE:
            return False
        length = p[SNAP_LENGTH] | p[SNAP_LENGTH + 1] << 8
        return p[SNAP_HOW] <= SNAP_ON and p[SNAP_SEAT] < 2 and 0 < length <= SNAP_MAX and n - SNAP_LINE <= length
    if kind == MORE:
        return n > 3 and (p[1] | p[2] << 8) < SNAP_MAX  # (its number, where its bytes go: snapshot.py's)
    if kind == ASK:
        return n == ASK_SIZE and p[ASK_WHY] < 2
    if kind == HELLO:
        return n >= HELLO_SIZE and p[HELLO_KIND] < 2 and p[HELLO_STATE] & 3 in (SEEKING, PLAYING)
    return n == 0 and (kind == BYE or kind == ALIVE or kind == WANT)


def _action(a, go):
    # An action the order carries (go: a scene's answer too, which only the referee sends).
    return (
        a <= NEXT
        or a == EV_LET_GO + PILE_0
        or a == EV_LET_GO + PILE_0 + 1
        or a == EV_PAUSE
        or (go and (a == EV_FOLLOW + GO_ON or a == EV_FOLLOW + LEAVE))
    )


def state_hash(game, controls):
    # 24 bits of the position (every pile's size and top card, the phase,
    # the round, the points, the generator) and the half-made moves: two
    # devices that diverged differ here at once. Small ints only (each step
    # masked: below 2**29), and the piles' loop without a call a step (a
    # call is 36 us on a Pico, and the hash is on the way to each draw).
    h = game.phase * 7 + game.called
    counts = game.counts
    for j in range(len(counts)):
        h = (((h * 31 + counts[j]) & 0xFFFFFF) * 31 + game.top(j)) & 0xFFFFFF
    rng = game.rng
    h = _mix(_mix(_mix(h, game.round), game.scores[0]), game.scores[1])
    h = _mix(_mix(_mix(_mix(h, rng.s1), rng.s2), rng.s3), game.winner + 1)
    for p in range(2):
        h = (((h * 31 + controls.chosen[p]) & 0xFFFFFF) * 31 + controls.slot[p]) & 0xFFFFFF
    return h


def _mix(h, v):
    return (h * 31 + v) & 0xFFFFFF  # (below 2**29: a small int on the board)
