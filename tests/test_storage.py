"""Settings and match progress that survive power loss: the log of records on
a model of each board's flash, power cuts at every step, corruption."""

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402
from helpers import some_move  # noqa: E402

from desktop.nvm_flash import (  # noqa: E402
    FileNvm,  # noqa: E402
    FlashNvm,
    PowerCut,
)
from desktop.text_shown import shown  # noqa: E402
from engine import record  # noqa: E402
from engine.spit import GAME_OVER, READY, Game  # noqa: E402
from hardware.storage import FORMAT, MATCH, SETTINGS, SIZE_NEEDED, TALLY, Store, crc16  # noqa: E402


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


def payloads(count, seed=0):
    """(kind, payload, cleared) saves as a match makes them: a match record
    every round, the tally now and then, settings, a finished match cleared."""
    rnd = random.Random(seed)
    games = dealt_positions(6)
    out = []
    for i in range(count):
        roll = rnd.randrange(10)
        if roll < 6:
            payload = bytearray(record.PAYLOAD)
            record.encode(games[i % len(games)], payload)
            out.append((MATCH, bytes(payload), False))
        elif roll < 7:
            out.append((MATCH, b"", True))
        elif roll < 9:
            out.append((TALLY, bytes(rnd.randrange(256) for _ in range(20)), False))
        else:
            out.append((SETTINGS, bytes((rnd.randrange(2), rnd.randrange(16), rnd.randrange(6), 0, 1, 1)), False))
    return out


def state(store):
    return {k: store.load(k) for k in (SETTINGS, MATCH, TALLY)}


def write(store, kind, payload, cleared):
    # A save written at once: on a PyBadge (erases_always) saves are held
    # back until flush(), which the App calls at most once in SPARE_MS.
    store.save(kind, payload, cleared=cleared)
    store.flush()


def cut_every_step(chip, saves):
    """Save each record of saves in turn onto the flash model of chip; before
    each one, try it again with the power cut at every step of its write,
    and read the flash back as a board would after the cut. Returns the cuts
    made and the saves whose cut lost everything (see Store)."""
    always = chip != "rp2040"
    flash = FlashNvm(chip)
    store = Store(flash, say=lambda m: None, erases_always=always)
    before = state(store)
    cuts = 0
    lost = []
    compacted = set()  # the saves that erased
    for i, (kind, payload, cleared) in enumerate(saves):
        after = dict(before)
        after[kind] = None if cleared else payload
        snapshot = bytes(flash.flash)
        step = 0
        while True:
            trial = FlashNvm(chip, snapshot)
            trial.cut_at = step
            try:
                write(Store(trial, say=lambda m: None, erases_always=always), kind, payload, cleared)
                break  # the write has fewer steps: every one was cut
            except PowerCut:
                pass
            cuts += 1
            got = state(Store(trial, say=lambda m: None))  # never a traceback
            if got == {SETTINGS: None, MATCH: None, TALLY: None} != before:
                lost.append((i, step))
            else:
                for k in got:  # never garbage: the record as saved last, or the one before
                    assert got[k] in (before[k], after[k]), (chip, i, step, k)
            step += 1
        erased = flash.erases
        write(store, kind, payload, cleared)
        if flash.erases != erased:
            compacted.add(i)
        assert state(store) == after == state(Store(FlashNvm(chip, flash.flash), say=lambda m: None))
        before = after
    return cuts, lost, compacted, store


@pytest.mark.parametrize("chip,count", [("rp2040", 250), ("samd51", 30), ("esp32s3_nvs", 30)])
def test_a_power_cut_at_any_step_of_any_save_leaves_the_last_save_or_the_one_before(chip, count):
    # Every erase and every half page of every write cut, for settings, tally
    # and match records, on the Pico's flash and the PyBadge's. Only a cut
    # between a compaction's erase and the end of its first page loses the
    # saves, and the game starts fresh then; on a Pico that is one save in
    # about 50 (the log compacts when it is full), on a PyBadge every write
    # erases its one 8 KB block, on a Cardputer (ESP32) every write erases
    # the blob before it writes the new one.
    cuts, lost, compacted, store = cut_every_step(chip, payloads(count))
    assert cuts > count
    for i, step in lost:
        assert i in compacted and step == 1, (i, step)  # erased, its first half page not yet programmed
    assert len({i for i, _ in lost}) >= len(compacted) - 3  # (saves before anything was saved lose nothing)
    if chip == "rp2040":
        assert len(compacted) >= 3
    else:
        assert len(compacted) == count  # one erase a save


def test_erases_per_thousand_saves_on_a_pico():
    # The log erases the Pico's sector only to compact: about 20 times in
    # 1,000 saves (the old two-slot scheme erased it three times a save).
    flash = FlashNvm("rp2040")
    store = Store(flash, say=lambda m: None)
    for kind, payload, cleared in payloads(1000, seed=7):
        store.save(kind, payload, cleared=cleared)
    assert flash.erases == store.compactions
    assert 10 <= flash.erases <= 30, flash.erases
    # Wear: at 150 saves an hour (a round a save, the busiest play), ten
    # years of an hour a day stay within the W25Q16JV's 100,000 cycles.
    assert 150 * flash.erases / 1000.0 * 3650 < 100000


def test_the_flash_model_writes_as_the_firmware_does():
    pico = FlashNvm("rp2040")
    pico[10:14] = b"\x01\x02\x03\x04"  # onto erased bytes: one page programmed, no erase
    assert (pico.erases, pico.pages) == (0, 1) and pico[10:14] == bytearray(b"\x01\x02\x03\x04")
    pico[300:556] = bytes(256)  # two pages touched
    assert (pico.erases, pico.pages) == (0, 3)
    pico[11] = 9  # onto a programmed byte: the whole sector erased and programmed again
    assert (pico.erases, pico.pages) == (1, 19) and pico[10:14] == bytearray(b"\x01\x09\x03\x04")
    badge = FlashNvm("samd51")
    badge[0] = 1  # every write erases the 8 KB block and programs its 16 pages
    assert (len(badge), badge.erases, badge.pages) == (8192, 1, 16)
    for bad, error in (
        ((slice(0, 4), b"ab"), ValueError),
        ((slice(0, 4, 2), b"ab"), NotImplementedError),
        ((slice(0, 2), [1, 2]), NotImplementedError),
        ((4096, 1), IndexError),
        ((0, 256), ValueError),
    ):
        with pytest.raises(error):
            pico[bad[0]] = bad[1]
    assert len(pico) == 4096  # a slice write never resizes it


def test_an_esp32_s_nvm_starts_as_zeros_and_each_write_replaces_the_blob():
    # The ESP32 ports keep nvm as one NVS blob (hardware/storage.py): never
    # written, it reads as 8 KB of zeros, which is nothing saved, said
    # nothing about; a write erases the blob, then writes it whole.
    said = []
    flash = FlashNvm("esp32s3_nvs")
    assert len(flash) == 8192 and not any(flash[0:8192])
    store = Store(flash, say=said.append, erases_always=True)
    assert store.load(SETTINGS) is None and said == []
    store.save(SETTINGS, b"\x01\x02")
    assert (flash.erases, flash.pages) == (0, 0)  # held back
    store.flush()
    assert (flash.erases, flash.pages) == (1, 1)
    again = Store(FlashNvm("esp32s3_nvs", flash.flash), say=said.append)
    assert again.load(SETTINGS) == b"\x01\x02" and said == []
    # A cut after the erase: zeros, nothing saved, and still nothing said.
    cut = FlashNvm("esp32s3_nvs", flash.flash)
    cut.cut_at = 1
    with pytest.raises(PowerCut):
        cut[0:8192] = bytes(8192)
    assert not any(cut.flash)
    assert Store(cut, say=said.append).load(SETTINGS) is None and said == []


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


def make_record(version, kind, payload):
    buf = bytearray(6 + len(payload))
    buf[0] = len(payload)
    buf[1] = kind
    buf[2] = version
    buf[3 : 3 + len(payload)] = payload
    crc = crc16(buf, 0, 3 + len(payload))
    buf[-3] = crc & 255
    buf[-2] = crc >> 8
    buf[-1] = 0x53
    return buf


@pytest.mark.parametrize("version,says", [(FORMAT - 1, "older game"), (FORMAT + 1, "newer game")])
def test_other_format_versions_are_rejected_clearly(version, says):
    nvm = bytearray(b"\xff" * SIZE_NEEDED)
    nvm[0:10] = make_record(version, SETTINGS, b"\x00\x05\x00\x00")
    messages = []
    assert Store(nvm, say=messages.append).load(SETTINGS) is None
    assert len(messages) == 1 and says in messages[0] and "format %d" % version in messages[0]
    nvm[0:10] = make_record(FORMAT, SETTINGS, b"\x00\x05\x00\x00")
    assert Store(nvm, say=messages.append).load(SETTINGS) == b"\x00\x05\x00\x00"


def test_the_newest_record_wins_and_a_cleared_match_is_gone():
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

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from hardware import profiles
    from hardware.app import App
    from hardware.modes import MATCH as PLAYING
    from hardware.screen import Screen

    displayio.release_displays()
    profile = profiles.get("pico-st7789-320")
    display = pygame_display_class()(width=320, height=240, auto_refresh=False)
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
    display = pygame_display_class()(width=320, height=240, auto_refresh=False)
    screen = Screen(display, profile)
    again = App(screen, keys, Event(), profile, lambda: 0, seed=5, store=Store(nvm))
    assert again.saved is not None and again.saved.text() == saved_text
    scores = again.saved.scores
    assert "Resume Spit %d:%d" % (scores[0], scores[1]) in shown(screen.text)  # a scored match: its points
    again.resume_match(0)
    assert again.mode != PLAYING and again.game.text() == saved_text  # counting down
    again.step(3000)
    assert again.mode == PLAYING and again.game.text() == saved_text
    assert again.rules == 1


class RecordingStore(Store):
    """A Store that notes the App's mode and the game's phase at every save."""

    def __init__(self, nvm, app_box):
        Store.__init__(self, nvm, say=lambda m: None)
        self.app_box = app_box
        self.moments = []

    def save(self, kind, payload, cleared=False):
        app = self.app_box[0]
        g = app.game if app is not None else None
        self.moments.append((kind, app.mode if app else None, g.phase if g else None, g.called if g else 0))
        Store.save(self, kind, payload, cleared=cleared)


def recorded_app():
    """(app, screen, store): an App on a Pico's 240 x 240 screen whose saves
    a RecordingStore notes."""
    import displayio

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from hardware import profiles
    from hardware.app import App
    from hardware.screen import Screen

    displayio.release_displays()
    profile = profiles.get("pico-st7789-240")
    screen = Screen(pygame_display_class()(width=240, height=240, auto_refresh=False), profile)
    box = [None]
    store = RecordingStore(FlashNvm("rp2040"), box)
    app = App(screen, DesktopKeys(14, lambda: 0), Event(), profile, lambda: 0, seed=5, store=store)
    box[0] = app
    return app, screen, store


def test_no_save_while_a_press_could_be_decided():
    # A save stops the keypad's scan (interrupts are off while flash is
    # written): every save of a whole match comes in the menu, at game over,
    # or when a round is dealt and nobody has called spit yet (D-4: both must
    # call, so no press is being raced then), never during play or a slap.
    from hardware.modes import MATCH as PLAYING
    from hardware.modes import MENU as IN_MENU
    from hardware.modes import OVER

    app, _, store = recorded_app()
    app.rules_of[0] = 0
    app.scene.save_settings()
    app.start_match(0)
    rnd = random.Random(3)
    t = 0
    while app.mode == PLAYING:
        g = app.game
        g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
        t += 50
        app.step(t)
    assert app.mode == OVER
    kinds = [m[0] for m in store.moments]
    assert kinds.count(MATCH) >= 3 and TALLY in kinds and SETTINGS in kinds
    for kind, mode, phase, called in store.moments:
        safe = mode == IN_MENU or mode == OVER or phase == GAME_OVER or (phase == READY and not called)
        assert safe, (kind, mode, phase, called)


def test_a_new_round_is_saved_in_the_pass_after_the_one_that_drew_it():
    # A round's save (about 60 ms of flash on a Pico) waited in
    # front of the new table: the press that dealt it reached the screen
    # 60 ms later. Now the pass that deals draws, and the next one saves,
    # before its own presses could call spit (D-4).
    app, screen, store = recorded_app()
    app.start_match(0)
    app.step(10)
    assert [m[0] for m in store.moments].count(MATCH) == 1  # round 1, in the first pass
    g = app.game
    rnd = random.Random(4)

    def deal(game, scene=None):  # this pass's presses: play on to the next deal
        while g.round == 1:
            g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
        app.controls.presses += 1

    app.buttons.poll = deal
    app.step(20)
    assert g.round == 2 and g.phase == READY and not g.called
    assert screen._seen_round == 2  # the new table was drawn in this pass...
    assert [m[0] for m in store.moments].count(MATCH) == 1  # ...and not saved yet
    assert app.next_due(20) == 0  # the save is due at once
    dealt = g.text()
    app.buttons.poll = lambda game, scene=None: g.play(*some_move(g, 0, 0))  # a spit call
    app.step(25)
    assert g.called
    matches = [m for m in store.moments if m[0] == MATCH]
    assert len(matches) == 2 and matches[1][2:] == (READY, 0)  # saved before the call was applied
    assert record.decode(store.load(MATCH)).text() == dealt


class FlushRecordingStore(Store):
    """A PyBadge's Store (every write erases) that notes when it writes."""

    def __init__(self, flash, app_box):
        Store.__init__(self, flash, say=lambda m: None, erases_always=True)
        self.app_box = app_box
        self.writes = []  # (ms, App mode, phase, called) of every flush that wrote

    def flush(self):
        if self.pending:
            app = self.app_box[0]
            g = app.game
            self.writes.append((app.controls.now, app.mode, g.phase if g else None, g.called if g else 0))
        Store.flush(self)


def test_a_pybadge_writes_its_flash_at_most_once_in_spare_ms_of_play():
    # The SAMD51 erases its 8 KB nvm block on every write, and its flash is
    # planned for 10,000 erases (storage.RATED_ERASES): a save a round (150
    # an hour) would use that up in two months of an hour a day. There saves
    # are held back and written at most once in storage.SPARE_MS of play
    # (from power-on), only at a moment nobody races, and at once when a
    # player leaves a match. Two hours of matches against the computer's pace.
    import displayio

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from hardware import profiles
    from hardware.app import App
    from hardware.modes import MATCH as PLAYING
    from hardware.modes import MENU as IN_MENU
    from hardware.modes import OVER
    from hardware.screen import Screen
    from hardware.storage import RATED_ERASES, SPARE_MS

    displayio.release_displays()
    profile = profiles.get("pybadge")
    screen = Screen(pygame_display_class()(width=160, height=128, auto_refresh=False), profile)
    flash = FlashNvm("samd51")
    box = [None]
    store = FlushRecordingStore(flash, box)
    clock = [0]
    app = App(screen, DesktopKeys(8, lambda: clock[0]), Event(), profile, lambda: clock[0], seed=5, store=store)
    box[0] = app
    rnd = random.Random(11)
    t = 0
    matches = 0
    saved_rounds = []  # (ms, position) of every round's save, held back or not
    app.scene.save_settings()
    app.start_match(0)
    saved_rounds.append((0, app.game.text()))
    while t < 2 * 3600 * 1000:
        t += 1500  # a move every 1.5 s
        clock[0] = t
        if app.mode == PLAYING:
            g = app.game
            g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
        app.controls.now = t
        saved = app.saved_round
        app.step(t)
        if app.mode == PLAYING and app.saved_round != saved:  # a round's save, held back or not
            saved_rounds.append((t, app.game.text()))
        if app.mode == OVER:
            matches += 1
            t += 60000  # a minute on the game-over screen
            clock[0] = app.controls.now = t
            app.step(t)
            app.start_match(t)
            saved_rounds.append((t, app.game.text()))
    assert matches >= 3
    hours = t / 3600000.0
    assert flash.erases == store.compactions == len(store.writes)
    assert flash.erases <= hours * 3600000 / SPARE_MS, (flash.erases, hours)  # 1.5 an hour at most
    # Ten years of an hour a day within the planned erases:
    # the hour's held-back writes, and one more when a player leaves a match.
    assert (3600000 // SPARE_MS + 1) * 3650 <= RATED_ERASES
    times = [w[0] for w in store.writes]
    assert all(b - a >= SPARE_MS for a, b in zip(times, times[1:]))
    for _, mode, phase, called in store.writes:
        assert mode in (IN_MENU, OVER) or phase == GAME_OVER or (phase == READY and not called)
    # Power cut now: what the next power-on offers is no older than SPARE_MS of play
    # (or the match that just ended, if it ended since).
    after = App(
        screen,
        DesktopKeys(8, lambda: 0),
        Event(),
        profile,
        lambda: 0,
        seed=5,
        store=Store(FlashNvm("samd51", flash.flash), say=lambda m: None, erases_always=True),
    )
    if after.saved is not None:
        when = [ms for ms, text in saved_rounds if text == after.saved.text()]
        assert when and t - max(when) <= SPARE_MS + 120000, (t, when)
    assert len(saved_rounds) > 3 * flash.erases  # most rounds' saves were never written


def test_a_pybadge_keeps_a_match_left_from_the_pause_at_once():
    # Leaving a match from the pause screen writes it now, however soon after
    # the last write: the player may switch off next.
    import displayio

    from desktop.keys import DesktopKeys, Event
    from desktop.window import pygame_display_class
    from hardware import profiles
    from hardware.app import App
    from hardware.keymaps import PILE_0
    from hardware.modes import MENU as IN_MENU
    from hardware.screen import Screen

    displayio.release_displays()
    profile = profiles.get("pybadge")
    screen = Screen(pygame_display_class()(width=160, height=128, auto_refresh=False), profile)
    flash = FlashNvm("samd51")
    store = Store(flash, say=lambda m: None, erases_always=True)
    app = App(screen, DesktopKeys(8, lambda: 0), Event(), profile, lambda: 0, seed=5, store=store)
    app.start_match(0)
    app.step(10)  # the settings and the first round: held back (power-on counts as a write)
    assert flash.erases == 0 and store.pending
    g = app.game
    rnd = random.Random(2)
    while g.round == 1:
        g.play(*some_move(g, rnd.randrange(2), rnd.randrange(64)))
    app.step(20000)
    assert store.pending and flash.erases == 0  # round 2 held back: SPARE_MS has not passed
    app.pause(20000)
    app.press(0, PILE_0 + 1)  # pile 2 on the pause screen: leave
    app.step(20010)
    assert app.mode == IN_MENU and flash.erases == 1 and store.pending is None
    again = App(
        screen,
        DesktopKeys(8, lambda: 0),
        Event(),
        profile,
        lambda: 0,
        seed=5,
        store=Store(FlashNvm("samd51", flash.flash), say=lambda m: None, erases_always=True),
    )
    assert again.saved is not None and again.saved.round == 2


def test_clearing_what_was_never_written_writes_nothing():
    flash = FlashNvm("rp2040")
    store = Store(flash, say=lambda m: None)
    store.clear(MATCH)
    assert flash.pages == 0 and flash.erases == 0
    badge = Store(FlashNvm("samd51"), say=lambda m: None, erases_always=True)
    badge.save(MATCH, b"round")
    badge.clear(MATCH)  # held back, never written: dropped
    assert not badge.pending


def test_the_desktop_save_file_models_the_profile_s_board(tmp_path):
    # SPIT_PROFILE=pybadge on the desktop saves as a PyBadge does: its 8 KB
    # block, every write an erase, so the App holds saves back as on the board.
    import displayio

    from desktop.io import DesktopIO
    from hardware import profiles

    for name, size, always in (("pico-st7789-240", 4096, False), ("pybadge", 8192, True)):
        displayio.release_displays()
        path = tmp_path / (name + ".bin")
        io = DesktopIO(profiles.get(name), {"SPIT_SAVE": str(path), "SPIT_HEADLESS": "1"})
        try:
            assert len(io.store.nvm) == size and io.store.erases_always == always
        finally:
            io.close()
