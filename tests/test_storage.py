"""Settings and match progress that survive power loss: records, slots, cuts, corruption."""
import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from engine import record  # noqa: E402
from engine.spit import GAME_OVER, READY, Game  # noqa: E402
from hardware.storage import FORMAT, MATCH, SETTINGS, SIZE_NEEDED, FileNvm, Store, crc16  # noqa: E402
from helpers import some_move  # noqa: E402


def dealt_positions(count=40):
    """READY positions as the game deals them, from random play."""
    out = []
    for seed in range(count):
        g = Game(seed, seed % 16)
        rnd = random.Random(seed)
        target = rnd.randint(1, 6)
        while g.phase != GAME_OVER and not (g.phase == READY and g.round >= target and not g.called):
            g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
        if g.phase == READY:
            out.append(g)
    return out


def test_a_dealt_round_round_trips_through_68_bytes():
    from engine import speed

    games = dealt_positions() + [speed.Game(seed, seed % 4, 20 + seed) for seed in range(10)]
    assert len(games) > 30
    for g in games:
        payload = bytearray(record.PAYLOAD)
        record.encode(g, payload)
        assert record.decode(payload).text() == g.text()


def test_only_a_freshly_dealt_round_is_saved():
    g = Game(3)
    g.play(0, 35)  # player 0 has called spit
    with pytest.raises(ValueError):
        record.encode(g, bytearray(record.PAYLOAD))


def test_bad_payloads_are_refused_with_value_error():
    g = Game(8)
    payload = bytearray(record.PAYLOAD)
    record.encode(g, payload)
    for i, value in ((0, 7), (1, 99), (14, 0), (14, 52), (16, 60), (17, payload[16]), (8, 0)):
        bad = bytearray(payload)
        bad[i] = value
        if i == 8:
            bad[9] = 0  # the PRNG state s1 = 0
        with pytest.raises(ValueError):
            record.decode(bad)


class CutNvm(bytearray):
    """An nvm whose power fails after a number of single-byte writes."""

    budget = None

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            for k, v in zip(range(*i.indices(len(self))), value):
                self[k] = v
            return
        if self.budget is not None:
            if self.budget == 0:
                raise PowerCut()
            self.budget -= 1
        bytearray.__setitem__(self, i, value)


class PowerCut(Exception):
    pass


def test_a_power_cut_after_any_byte_leaves_the_old_or_the_new_match():
    games = dealt_positions(6)
    old, new = games[0], games[1]
    payload_old = bytearray(record.PAYLOAD)
    payload_new = bytearray(record.PAYLOAD)
    record.encode(old, payload_old)
    record.encode(new, payload_new)
    for saves_before in range(3):  # the new record goes to either slot
        cut_at = 0
        while True:
            nvm = CutNvm(b"\xff" * SIZE_NEEDED)
            store = Store(nvm, say=lambda s: None)
            for _ in range(saves_before):
                store.save(MATCH, payload_new)
            store.save(MATCH, payload_old)
            nvm.budget = cut_at
            try:
                store.save(MATCH, payload_new)
                finished = True
            except PowerCut:
                finished = False
            nvm.budget = None
            got = Store(nvm, say=lambda s: None).load(MATCH)
            assert got in (bytes(payload_old), bytes(payload_new))
            if finished:
                assert got == bytes(payload_new)
                break
            cut_at += 1
        assert cut_at > record.PAYLOAD  # every byte of the write was cut once


def test_random_corruption_never_raises():
    rnd = random.Random(1)
    nvm = bytearray(b"\xff" * SIZE_NEEDED)
    store = Store(nvm, say=lambda s: None)
    payload = bytearray(record.PAYLOAD)
    record.encode(Game(4), payload)
    store.save(SETTINGS, b"\x00\x05\x00\x00")
    store.save(MATCH, payload)
    store.save(MATCH, payload)
    messages = []
    for trial in range(3000):
        bad = bytearray(nvm)
        for _ in range(rnd.randint(1, 8)):
            bad[rnd.randrange(len(bad))] = rnd.randrange(256)
        if trial % 10 == 0:
            bad = bytearray(rnd.randrange(256) for _ in range(len(bad)))
        s = Store(bad, say=messages.append)
        got = s.load(MATCH)
        if got is not None:
            try:
                record.decode(got)
            except ValueError:
                pass
        s.load(SETTINGS)
    assert any("corrupt" in m for m in messages)


def make_record(version, kind, payload, seq=0):
    buf = bytearray(8 + len(payload))
    buf[0] = 0x53
    buf[1] = version
    buf[2] = kind
    buf[3] = seq
    buf[5] = len(payload)
    buf[6 : 6 + len(payload)] = payload
    crc = crc16(buf, 1, 6 + len(payload))
    buf[-2] = crc & 255
    buf[-1] = crc >> 8
    return buf


@pytest.mark.parametrize("version,says", [(FORMAT - 1, "older game"), (FORMAT + 1, "newer game")])
def test_other_format_versions_are_rejected_clearly(version, says):
    nvm = bytearray(b"\xff" * SIZE_NEEDED)
    nvm[0:12] = make_record(version, SETTINGS, b"\x00\x05\x00\x00")
    messages = []
    assert Store(nvm, say=messages.append).load(SETTINGS) is None
    assert any(says in m and "format %d" % version in m for m in messages)
    nvm[0:12] = make_record(FORMAT, SETTINGS, b"\x00\x05\x00\x00")
    assert Store(nvm, say=messages.append).load(SETTINGS) == b"\x00\x05\x00\x00"


def test_the_newest_of_two_slots_wins_and_a_cleared_match_is_gone():
    nvm = bytearray(b"\xff" * SIZE_NEEDED)
    store = Store(nvm)
    for rules in range(5):
        store.save(SETTINGS, bytes((0, rules, 0, 0)))
        assert store.load(SETTINGS)[1] == rules
    payload = bytearray(record.PAYLOAD)
    record.encode(Game(2), payload)
    store.save(MATCH, payload)
    assert store.load(MATCH) == bytes(payload)
    store.clear(MATCH)
    assert store.load(MATCH) is None
    assert store.load(SETTINGS)[1] == 4  # the other kind is untouched


def test_file_nvm_keeps_records_across_runs(tmp_path):
    path = str(tmp_path / "nvm.bin")
    Store(FileNvm(path)).save(SETTINGS, b"\x00\x07\x00\x00")
    assert Store(FileNvm(path)).load(SETTINGS) == b"\x00\x07\x00\x00"


def test_menu_offers_to_resume_a_saved_match(tmp_path):
    import displayio

    from hardware import profiles
    from hardware.app import MATCH as PLAYING
    from hardware.app import App
    from hardware.desktop import DesktopKeys, Event, _pygame_display_class
    from hardware.screen import Screen

    displayio.release_displays()
    profile = profiles.get("pico-st7789-320")
    display = _pygame_display_class()(width=320, height=240, auto_refresh=False)
    screen = Screen(display, profile)
    nvm = bytearray(b"\xff" * SIZE_NEEDED)
    keys = DesktopKeys(14, lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=5, store=Store(nvm))
    app.rules_of[0] = 1  # Spit, scoring
    app.start_match(0)
    g = app.game
    # Play the first round through to the next deal.
    rnd = random.Random(0)
    while g.round == 1:
        g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
    app.step(100)
    saved_text = g.text()
    # Power off, power on: a new App on the same nvm.
    displayio.release_displays()
    display = _pygame_display_class()(width=320, height=240, auto_refresh=False)
    screen = Screen(display, profile)
    again = App(screen, keys, Event(), profile, lambda: 0, seed=5, store=Store(nvm))
    assert again.saved is not None and again.saved.text() == saved_text
    assert "Resume Spit 2" in screen.text.text
    again.resume_match(0)
    assert again.mode == PLAYING and again.game.text() == saved_text
    assert again.rules == 1
