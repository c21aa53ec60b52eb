"""A linked session's phases (hardware/linked.py's state machine): each phase
against each frame kind, on the referee and on the follower, taken up or
ignored (and counted) as the table below says, by name; and each phase
against the local events (a key, a leave, silence), by name."""

import pytest
from test_linked import PICO, quiet, referee_follower

from desktop.link_model import Link as Cable
from desktop.linked_pair import Pair
from hardware import modes, protocol
from hardware.keymaps import STOCK_0
from hardware.linked import LEAVE_MS, LOST_MS
from hardware.modes import (
    AWAITING,
    CLOSED,
    ELSEWHERE,
    GONE,
    LEAVING,
    LOST,
    MATCH,
    MENU,
    PAUSED,
    PLAYING,
    SEEKING,
)
from hardware.protocol import (
    ALIVE,
    ASK,
    BYE,
    EVENT,
    HASH,
    HELLO,
    MORE,
    PING,
    PONG,
    PRESS,
    SNAP,
    TICK,
    WANT,
)

KINDS = {
    "EVENT": EVENT,
    "PRESS": PRESS,
    "SNAP": SNAP,
    "MORE": MORE,
    "ASK": ASK,
    "ALIVE": ALIVE,
    "PING": PING,
    "PONG": PONG,
    "TICK": TICK,
    "HASH": HASH,
    "WANT": WANT,
    "BYE": BYE,  # (these two last: they may end the session, or change who referees)
    "HELLO": HELLO,
}
PHASES = {
    "CLOSED": CLOSED,
    "SEEKING": SEEKING,
    "PLAYING": PLAYING,
    "LOST": LOST,
    "AWAITING": AWAITING,
    "ELSEWHERE": ELSEWHERE,
    "GONE": GONE,
    "LEAVING": LEAVING,
}
# What each role takes up in each phase (every other kind is ignored).
REFEREE = {
    "CLOSED": "",
    "SEEKING": "BYE ALIVE HELLO",
    "PLAYING": "PRESS ASK BYE ALIVE HELLO PONG TICK",
    "LOST": "PRESS BYE ALIVE HELLO PONG TICK",  # (a press then is counted stale by the order)
    "AWAITING": "BYE ALIVE HELLO",  # (a follower's phase)
    "ELSEWHERE": "BYE ALIVE HELLO PONG TICK",
    "GONE": "",
    "LEAVING": "",
}
FOLLOWER = {
    "CLOSED": "",
    "SEEKING": "SNAP MORE BYE ALIVE HELLO",
    "PLAYING": "EVENT SNAP MORE BYE ALIVE HELLO PING HASH WANT",
    "LOST": "SNAP MORE BYE ALIVE HELLO PING WANT",
    "AWAITING": "SNAP MORE BYE ALIVE HELLO PING WANT",
    "ELSEWHERE": "BYE ALIVE HELLO PING",
    "GONE": "",
    "LEAVING": "",
}


def test_the_phases_are_named_once_and_the_tables_name_every_phase():
    assert sorted(PHASES.values()) == list(range(len(PHASES)))
    assert all(getattr(modes, name) == v for name, v in PHASES.items())
    assert set(REFEREE) == set(FOLLOWER) == set(PHASES)
    kinds = {n for n, v in vars(protocol).items() if n.isupper() and "_" not in n and n != "VERSION"}
    # (ACK never reaches the session: the link takes it; UNRELIABLE is where such kinds begin)
    assert set(KINDS) == {n for n in kinds if not hasattr(modes, n)} - {"NEXT", "PILE", "ACK", "UNRELIABLE"}


def _payload(kind):
    # A payload of this kind that the protocol sends (protocol.fits).
    p = bytearray(16)
    n = {EVENT: 8, PRESS: 8, SNAP: 8, MORE: 5, ASK: 2, HELLO: 11, PING: 4, PONG: 12, TICK: 5, HASH: 5}.get(kind, 0)
    if kind == SNAP:
        p[protocol.SNAP_LENGTH] = 1  # (a line of one byte: not a position, a divergence to mend)
    if kind == HELLO:
        p[protocol.HELLO_VERSION] = protocol.VERSION
        p[protocol.HELLO_STATE] = SEEKING
    assert protocol.fits(kind, p, n), kind
    return p, n


@pytest.fixture(scope="module")
def pairs():
    # (a started pair, its referee, its follower) made anew for each case.
    def make():
        pair = Pair(PICO, quiet(), seed=3, cable=Cable(3))
        assert pair.start()
        pair.run(500)
        return (pair,) + referee_follower(pair)

    return make


@pytest.mark.parametrize("phase", sorted(PHASES))
@pytest.mark.parametrize("role", ["referee", "follower"])
def test_each_phase_takes_up_the_frames_its_table_names_and_counts_the_rest(pairs, phase, role):
    table = REFEREE if role == "referee" else FOLLOWER
    pair, ref, fol = pairs()
    linked = (ref if role == "referee" else fol).app.linked
    for name, kind in KINDS.items():
        assert linked.is_referee == (role == "referee")
        linked.phase = PHASES[phase]  # (again: a frame taken up may move it on)
        p, n = _payload(kind)
        before = linked.ignored
        linked.link.on_frame(kind, p, n)  # (nothing raises, whatever the phase)
        taken = linked.ignored == before
        assert taken == (name in table[phase].split()), (phase, role, name)


def test_the_local_events_in_each_phase():
    # A key of the match: sent in PLAYING; refused on the screen and counted
    # when the link is lost or the position awaited; counted in the lobby.
    pair = Pair(PICO, quiet(), seed=3, cable=Cable(3))
    assert pair.start()
    pair.run(3500)  # (the countdown over)
    ref, fol = referee_follower(pair)
    linked = fol.app.linked
    assert linked.phase == PLAYING and fol.app.mode == MATCH
    seq = linked.link.next_seq()
    fol.press(STOCK_0)
    pair.run(5)
    assert linked.link.next_seq() != seq and linked.unsent == 0  # (a PRESS frame went)
    pair.run(200)
    for phase in (LOST, AWAITING):
        linked.phase = phase
        linked.press(0, STOCK_0, fol.ticks_ms())
        assert linked.unsent == (1 if phase == LOST else 2) and fol.app.controls.result[linked.seat] == 2  # (wait)
    linked.phase = SEEKING
    linked.press(0, STOCK_0, fol.ticks_ms())
    assert linked.unsent == 3
    linked.phase = PLAYING
    # Silence: PLAYING to LOST on both, and back.
    linked.phase = AWAITING
    linked.follower.ask(0, fol.ticks_ms())
    assert pair.run_until(lambda: linked.phase == PLAYING, 1000)
    t = pair.t_us[0]
    pair.cable.pull(t, t + (LOST_MS + 500) * 1000)
    assert pair.run_until(lambda: ref.app.linked.phase == LOST and linked.phase == LOST, LOST_MS + 400)
    assert ref.app.mode == fol.app.mode == PAUSED
    assert pair.run_until(lambda: ref.app.linked.phase == PLAYING and linked.phase == PLAYING, 3000)
    # A leave: LEAVING here, GONE there; the leaver's session CLOSED once heard.
    fol.press(STOCK_0 + 2)  # (any key but pile 2: ready)
    pair.run(50)
    from hardware.keymaps import PILE_0

    fol.press(PILE_0 + 1)  # pile 2 in the pause: leave (through the order: the referee hears it at once)
    assert pair.run_until(lambda: fol.app.mode == MENU, 500)
    assert linked.phase in (LEAVING, CLOSED)
    assert pair.run_until(lambda: ref.app.linked.phase == GONE and linked.phase == CLOSED, 2000)
    assert ref.app.mode == PAUSED
    # The other's leave, the other's UART let go: ours is told too, the UART
    # kept open while its BYE goes out (a chip's UART reset drops what it has
    # not sent), and let go within LEAVE_MS though nobody answers.
    gone = ref.app.linked
    ref.press(STOCK_0)  # (any key: the menu)
    assert pair.run_until(lambda: ref.app.mode == MENU, 200)
    assert gone.phase == LEAVING and gone.link.waiting() == 1 and ref.app.leaving is gone  # (BYE on its way)
    pair.run(LEAVE_MS - 200)
    assert gone.phase == LEAVING
    assert pair.run_until(lambda: gone.phase == CLOSED, 200)


def test_the_session_reads_in_one_sitting():
    # The state machine and its table in one module a reader takes in at once:
    # the referee's and follower's halves, the hellos and the snapshot apart.
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "linked.py")
    with open(path) as f:
        assert len(f.readlines()) < 450
