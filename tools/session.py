"""A session of six matches in a row on one handheld, without a restart, back
to the menu between each (the menu's keys as a person presses them): two
people at Spit, then at Speed, Speed and Spit against the computer, then a
linked match of Spit and one of Speed with a second handheld. Each match is
played for a while (a key every PLAY_GAP_MS, its player's or, for two people,
either's), paused with the chord and left; a linked match is left by one
player, and the other's then leaves too ("the other player left").

    replays()  the two handhelds' replays (tools/bench_pico.py --session runs
               them on two emulated Picos; tests/test_session.py checks on the
               desktop that they reach each match)

The timeline (ms from each program's loop) leaves room for an emulated Pico's
start of a match or a lobby (a third of a second) and its handshake.
"""

MATCH_MS = 9000  # each match's play
PLAY_GAP_MS = 300
GAP_MS = 600  # between the menu's keys
CHORD_MS = 1300  # both pile keys held: the pause
# What the six matches are: (game, who plays), in the order played.
MATCHES = (
    ("Spit", "two"),
    ("Speed", "two"),
    ("Speed", "vs Easy"),
    ("Spit", "vs Easy"),
    ("Spit", "linked"),
    ("Speed", "linked"),
)
_KEYS = ["stock%d" % i for i in range(5)] + ["pile0", "pile1"]


class _Script:
    def __init__(self):
        self.lines = []
        self.t = 1000
        self._n = 0

    def key(self, name, gap=GAP_MS):
        self.lines.append("%d %s" % (self.t, name))
        self.t += gap

    def play(self, players, ms=MATCH_MS):
        # Keys in the match (stray ones too, as people press), then the pause and leaving.
        end = self.t + ms
        while self.t < end:
            self._n += 1
            player = players[self._n % len(players)]
            key = _KEYS[(self._n * 7 + self._n // 3) % len(_KEYS)]
            self.key("p%d.%s" % (player, key), PLAY_GAP_MS)
        self.t += 500
        self.pause_and_leave()

    def pause_and_leave(self):
        self.lines.append("%d p0.pile0 down" % self.t)
        self.lines.append("%d p0.pile1 down" % self.t)
        self.lines.append("%d p0.pile0 up" % (self.t + CHORD_MS))
        self.lines.append("%d p0.pile1 up" % (self.t + CHORD_MS))
        self.t += CHORD_MS + 800
        self.key("p0.pile1", 1500)  # pile 2: leave


def replays(rounds=1):
    """Two replays' lines (device 0 plays all six matches, device 1 the two
    linked ones), the six again for each further round, and the ms by which
    the session is over."""
    a = _Script()
    b = _Script()
    for r in range(rounds):
        _round(a, b, r)
    end = max(a.t, b.t) + 3000
    return a.lines, b.lines, end


def _round(a, b, r):
    # The six matches from the menu as the last round left it (r > 0: linked
    # Speed offered, the cursor on it, on both handhelds).
    # 1. Two people, Spit: the menu as it starts (the cursor on "Game", a
    # handheld with a link at "Players: linked").
    if r:
        a.key("p0.stock1")  # down: Game
        a.key("p0.pile0")  # Spit
    a.key("p0.stock1")  # Players
    a.key("p0.pile0")  # round from linked to two
    a.key("p0.pile1", 1500)  # go
    a.play((0, 1))
    # 2. Two people, Speed: the cursor is on the match left ("Resume"), the game's line next.
    a.key("p0.stock1")  # down: Game
    a.key("p0.pile0")  # Speed
    a.key("p0.pile1", 1500)  # go
    a.play((0, 1))
    # 3. Speed against the computer.
    a.key("p0.stock1")  # Game
    a.key("p0.stock1")  # Players
    a.key("p0.pile0")  # vs Easy
    a.key("p0.pile1", 1500)
    a.play((0,))
    # 4. Spit against the computer.
    a.key("p0.stock1")  # Game
    a.key("p0.pile0")  # Spit
    a.key("p0.pile1", 1500)
    a.play((0,))
    # 5. Linked Spit: Players round to "linked" (the match offered goes: linked resumes only linked).
    a.key("p0.stock1")  # Game
    a.key("p0.stock1")  # Players
    for _ in range(5):
        a.key("p0.pile0")  # vs Medium, vs Hard, vs Expert, demo, linked
    b.t = max(a.t, b.t)
    if r:
        b.key("p0.stock1")  # Game (the cursor on the linked Speed offered)
        b.key("p0.pile0")  # Spit
        b.key("p0.stock1")  # Players: linked still
    else:
        b.key("p0.stock1")  # Players: linked, as a handheld with a link starts
    a.t = b.t = max(a.t, b.t)
    a.key("p0.pile1", 4000)  # go: the lobby, the handshake, the countdown
    b.key("p0.pile1", 4000)
    a.play((0,))  # (device 0's player leaves)
    b.t = a.t
    b.key("p0.stock0", 1500)  # "the other player left": any key, the menu
    # 6. Linked Speed: both on the linked match offered; the game's line next.
    a.t = b.t = max(a.t, b.t)
    for s in (a, b):
        s.key("p0.stock1")  # Game
        s.key("p0.pile0")  # Speed
        s.key("p0.pile1", 4000)
    b.t = a.t
    b.play((0,))  # (device 1's player leaves this time)
    a.t = b.t
    a.key("p0.stock0", 1500)
