# Finding each other on the cable: the hellos of linked play.
# Loaded while the lobby looks for the other handheld, and in a match only
# when a hello comes (the other device restarted); forgotten once the match
# starts, or the other device has joined it again (hardware/linked.py).
#
# Both devices send a hello every _HELLO_MS: the protocol's version, the game,
# its rules, a number drawn at start-up (the nonce), the other's nonce last
# heard, where this device is (looking, or in a match; resuming a saved
# match) and that match's hash. A different version, game or rules is a
# message on both screens. Once each has heard the other hear it, the higher
# nonce referees and deals. A device in a match referees a device that comes
# back from a restart (the referee restarted: the follower becomes it).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


from . import forget
from .modes import ELSEWHERE, PLAYING, SEEKING
from .protocol import (
    HELLO,
    HELLO_CONFIRMED,
    HELLO_HASH,
    HELLO_KIND,
    HELLO_NONCE,
    HELLO_RESUMING,
    HELLO_RULES,
    HELLO_SEEN,
    HELLO_SIZE,
    HELLO_STATE,
    HELLO_VERSION,
    SNAP_PAUSED,
    SNAP_START,
    VERSION,
)
from .ticks import ticks_add, ticks_aged, ticks_diff

forget("hardware.protocol")  # (its numbers are ours now)

_HELLO_MS = const(300)  # between hellos in the lobby (by radio, a partner not heard for four is let go)


class Hello:
    def __init__(self, linked, now):
        self.linked = linked  # the session: its nonce, the other's, the link
        self.rejoin = False  # in a match: the other device came back with a new nonce
        self._at = ticks_add(now, -_HELLO_MS)  # when the last hello went (the first goes at once)
        self._buf = bytearray(HELLO_SIZE)

    def step(self, now):
        # Looking for the other device: a hello when one is due.
        linked = self.linked
        linked.heard_at = ticks_aged(now, linked.heard_at)  # (a lobby left for days)
        if linked.pair and ticks_diff(now, linked.heard_at) >= 4 * _HELLO_MS:
            # By radio, a partner silent this long may have paired with another
            # handheld: packets go to all again. Its number is kept: the same
            # handheld heard again goes on with the same session (forgetting it
            # would start our frames again from the first, and not its).
            linked.pair(False)
        if ticks_diff(now, self._at) >= _HELLO_MS:
            self.send(now)

    def send(self, now):
        # Our hello, now.
        linked = self.linked
        self._at = now
        buf = self._buf
        buf[HELLO_VERSION] = VERSION
        g = linked.app.game
        if linked.phase != SEEKING and g is not None:  # (the match it has going)
            kind, rules = g.kind, g.rules
        else:
            kind, rules = _chosen(linked)
        buf[HELLO_KIND] = kind
        buf[HELLO_RULES] = rules
        buf[HELLO_NONCE] = linked.nonce & 255
        buf[HELLO_NONCE + 1] = linked.nonce >> 8
        buf[HELLO_SEEN] = linked.peer & 255
        buf[HELLO_SEEN + 1] = linked.peer >> 8
        buf[HELLO_STATE] = (
            (SEEKING if linked.phase == SEEKING else PLAYING)
            | (HELLO_RESUMING if linked.resume is not None else 0)
            | (HELLO_CONFIRMED if linked.confirmed > 0 else 0)
        )
        h = linked.hash_of(linked.resume) if linked.resume is not None else 0
        buf[HELLO_HASH] = h & 255
        buf[HELLO_HASH + 1] = (h >> 8) & 255
        buf[HELLO_HASH + 2] = h >> 16
        linked.link.send(HELLO, buf, HELLO_SIZE, now)

    def heard(self, p, n, now):
        # The other device's hello (p: its payload, n bytes).
        if n < HELLO_SIZE:
            return
        linked = self.linked
        nonce = p[HELLO_NONCE] | p[HELLO_NONCE + 1] << 8
        seen = p[HELLO_SEEN] | p[HELLO_SEEN + 1] << 8
        if seen and seen != linked.nonce and nonce != linked.peer:
            return  # (it has heard another handheld, not us: another pair's, by radio)
        if seen == linked.nonce and linked.pair:
            linked.pair()  # (it hears us: by radio, the partner)
        if nonce != linked.peer:
            # Another device, or the same one restarted: its frames start
            # again from the first, and so do ours. (A device that joined a
            # match by its snapshot has heard no hello of the other: in a
            # match, a new nonce is a restart all the same.)
            self.rejoin = linked.peer != 0 or linked.phase != SEEKING
            linked.peer = nonce
            linked.confirmed = -1  # (another handheld found: its name to confirm anew)
            linked.restart_link()
        state = p[HELLO_STATE] & 3
        if p[HELLO_VERSION] != VERSION:
            linked.problem = "versions differ: %d here, %d there" % (VERSION, p[HELLO_VERSION])
            return
        if linked.phase != SEEKING:
            # The other device left and chose linked play again, or
            # restarted: back in its lobby. It joins ours (this device
            # referees it, or the referee's follower becomes the referee,
            # from its own position) once it has chosen our match's game and
            # rules, or its player goes on into ours; until then this match
            # stays paused, saying so. Our hello answers it (the session's
            # number is made of both; it says which match we have going).
            if seen != linked.nonce:
                self.send(now)
            if state == SEEKING and self.rejoin:
                g = linked.app.game
                if g is not None and p[HELLO_KIND] == g.kind and p[HELLO_RULES] == g.rules:
                    self.rejoin = False
                    self.rejoined(now)
                else:
                    linked.to(ELSEWHERE, now)  # (until its player goes on into it, or leaves)
            return
        if state == PLAYING:
            # It has a match going: joined (its snapshot comes when our hello
            # says we chose its game and rules) when this player chose them,
            # or goes on into it from the lobby's offer.
            theirs = p[HELLO_KIND] | p[HELLO_RULES] << 1
            kind, rules = _chosen(linked)
            if linked.joining != theirs and (p[HELLO_KIND] != kind or p[HELLO_RULES] != rules):
                linked.offer = theirs
                linked.problem = ""
                return
            linked.offer = -1
            linked.joining = theirs
            linked.problem = ""
            self._at = ticks_add(now, -_HELLO_MS)  # (answer at once: our hello says we heard it)
            return
        linked.offer = -1  # (it looks, as we do: no match of its to join)
        linked.joining = -1
        kind, rules = _chosen(linked)
        g = linked.resume
        if p[HELLO_KIND] != kind or p[HELLO_RULES] != rules:
            linked.problem = _differs(kind, rules, p[HELLO_KIND], p[HELLO_RULES])
            return
        if bool(p[HELLO_STATE] & HELLO_RESUMING) != (g is not None):
            linked.problem = "one resumes, one starts new"
            return
        if g is not None and (p[HELLO_HASH] | p[HELLO_HASH + 1] << 8 | p[HELLO_HASH + 2] << 16) != linked.hash_of(g):
            linked.problem = "saved matches differ"
            return
        linked.problem = ""
        if seen != linked.nonce:
            self._at = ticks_add(now, -_HELLO_MS)  # (let it hear us at once)
            return
        if nonce == linked.nonce:  # (once in 65,536 pairs): another number, from the time now
            linked.nonce = (linked.nonce * 75 + 74 + (now & 0xFFFF)) & 0xFFFF or 1
            linked.restart_link()  # (the session's number is made of it)
            self._at = ticks_add(now, -_HELLO_MS)
            return
        if linked.pair:
            # By radio another pair may be choosing in the same room: each
            # player confirms the handheld found (its name on both screens:
            # hardware/lobby.py) before the match is dealt.
            if linked.confirmed < 0:
                linked.confirmed = 0
            if linked.confirmed == 0 or not p[HELLO_STATE] & HELLO_CONFIRMED:
                return
        if linked.nonce > nonce:  # we referee and deal
            self.deal(now)

    def deal(self, now):
        # This device referees the match starting: a new one dealt here (or
        # the saved one), the countdown on both.
        linked = self.linked
        linked.seat = 0
        linked.be_referee(now)
        linked.to(PLAYING, now)
        linked.heard_at = now
        linked.drop_hello()  # (this part's heap is the snapshot's)
        linked.snapshot_part().deal(linked.resume, now)
        linked.order.send_snapshot(SNAP_START, now)

    def rejoined(self, now):
        # The other device, back in its lobby (its player left, or it
        # restarted), joins our match: this device referees it now (a
        # follower whose referee it was, from our position), in the pause.
        linked = self.linked
        linked.be_referee(now)
        linked.to(PLAYING, now)
        linked.heard_at = now
        linked.order.restart(now)  # (a ping at once: the new device's clock is another)
        linked.order.send_snapshot(SNAP_PAUSED, now)


def _differs(kind, rules, their_kind, their_rules):
    # What the other handheld chose that this one did not, in the menu's words.
    from engine.games import TITLES

    from .modes import OPTIONS

    if their_kind != kind:
        return "the other chose %s, this one %s" % (TITLES[their_kind & 1], TITLES[kind])
    said = [
        "%s: %s" % (label, names[1 if their_rules & flag else 0])
        for label, names, flag in OPTIONS[kind]
        if (their_rules ^ rules) & flag
    ]
    return "the other chose " + (", ".join(said) or "other rules")  # (a flag this version has no line for)


def _chosen(linked):
    # The game and rules this device's hellos offer: the saved match's, the
    # other's match its player goes on into, or the menu's.
    g = linked.resume
    if g is not None:
        return g.kind, g.rules
    if linked.joining >= 0:
        return linked.joining & 1, linked.joining >> 1
    return linked.app.kind, linked.app.rules
