"""Sound and lights: the game tells what happened (hardware/feedback.py, through the App)."""

from helpers import position
from test_pause import STUCK1, Rig, TextScreen

from engine.spit import SLAP
from hardware.app import App
from hardware.feedback import PITCHES, TUNES, Feedback
from hardware.keymaps import PILE_0, STOCK_0
from hardware.modes import OVER


class Tones:
    # An output that remembers the tones it was asked for.
    def __init__(self):
        self.tones = []
        self.volume = None

    def set_volume(self, volume):
        self.volume = volume

    def tone(self, pitch):
        self.tones.append(PITCHES[pitch])

    def quiet(self):
        self.tones.append(0)


class Strip(list):
    # Five NeoPixels.
    def __init__(self):
        super().__init__([(0, 0, 0)] * 5)
        self.shows = 0

    def fill(self, colour):
        for i in range(len(self)):
            self[i] = colour

    def show(self):
        self.shows += 1


def rig_with_feedback(players=0):
    rig = Rig(players)
    out, strip = Tones(), Strip()
    rig.app.feedback = Feedback(out, strip, [])
    rig.app.feedback.set(1, True)
    return rig, out, strip


def names(rig):
    return [name for _, name, _ in rig.app.feedback.log]


def test_a_card_played_a_refused_move_a_slap_and_a_win_make_their_sounds():
    rig, out, strip = rig_with_feedback()
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    rig.app.play(g, rig.clock)
    rig.press(0, PILE_0)  # nothing chosen: refused
    assert names(rig)[-1] == "refused" and rig.app.feedback.log[-1][2] == 0
    assert strip[0] != (0, 0, 0) and strip[4] == (0, 0, 0)  # player 0's side flashes
    rig.run(1000)
    assert strip == [(0, 0, 0)] * 5  # and goes out
    rig.press(1, STOCK_0)  # 6H onto the 7C: a card played
    assert names(rig)[-1] == "tick" and rig.app.feedback.log[-1][2] == 1
    assert out.tones and out.tones[-1] in (0, PITCHES[TUNES[0][0] + 1])  # player 1 ticks one pitch up
    # The round ends: slap now, then the slap won (player 1 slaps first).
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D")
    rig.app.play(g, rig.clock)
    rig.press(0, STOCK_0)
    assert g.phase == SLAP and names(rig)[-1] == "slap now"
    rig.press(1, PILE_0 + 1)
    assert names(rig)[-1] == "slap won" and rig.app.feedback.log[-1][2] == 1
    assert strip[4] != (0, 0, 0) and strip[0] == (0, 0, 0)  # the slap winner's side lights up
    # A win.
    rig.app.play(position("8D/-/-/-/-", STUCK1, pile0="7C", spit1="3D"), rig.clock)
    rig.press(0, STOCK_0)
    assert rig.app.mode == OVER and names(rig)[-1] == "match won"
    assert strip[0] != (0, 0, 0)


def test_sound_off_plays_nothing_and_the_settings_are_saved():
    rig, out, strip = rig_with_feedback()
    items = rig.app.scene.items()
    rig.app.scene.item = items.index(6)  # the Sound line
    rig.press(0, PILE_0)
    assert rig.app.sound == 2 and out.volume == 2  # low -> high
    rig.press(0, PILE_0)
    assert rig.app.sound == 0  # off
    rig.press(0, STOCK_0 + 1)  # down: Lights
    rig.press(0, PILE_0)
    assert rig.app.lights == 0
    before = len(out.tones)
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    rig.app.play(g, rig.clock)
    rig.press(0, PILE_0)  # refused: logged, but no tone and no light
    assert names(rig)[-1] == "refused" and len(out.tones) == before and strip == [(0, 0, 0)] * 5
    again = App(
        TextScreen(),
        rig.keys,
        rig.app.buttons._event,
        rig.profile,
        lambda: 0,
        seed=1,
        store=rig.app.store,
        feedback=Feedback(Tones(), Strip()),
    )
    assert (again.sound, again.lights) == (0, 0)


def test_a_tune_never_waits():
    # Every note is set from update(); event() returns at once.
    out = Tones()
    f = Feedback(out)
    f.set(1, True)
    del out.tones[:]
    f.event(6, 0, 1000)  # match won: 100 ms notes
    assert out.tones == [PITCHES[1]]
    f.update(1005)
    assert out.tones == [PITCHES[1]]  # not yet
    f.update(1100)
    assert out.tones[-1] == PITCHES[2]
    for t in range(1100, 2000, 5):
        f.update(t)
    assert out.tones[-1] == 0  # over, quiet


def test_next_due_says_when_a_note_or_a_light_changes_next():
    # A fast replay jumps no further than this: the next note, a light going out.
    f = Feedback(Tones(), Strip())
    f.set(1, True)
    assert f.next_due(0) is None  # nothing playing, nothing lit
    f.event(1, 0, 1000)  # refused: a tune, and a red flash for 600 ms
    first = TUNES[1][1] * 10
    assert f.next_due(1000) == first and f.next_due(1000 + first + 5) == 0
    now = 1000
    while f._tune is not None:  # the tune to its end, each note when next_due says
        now += f.next_due(now)
        f.update(now)
    assert now == 1000 + sum(TUNES[1][1::2]) * 10  # the last note's end
    assert f.next_due(now) == 1600 - now  # the light is still on until 1600
    f.update(1600)
    assert f.next_due(1600) is None
    # Near the wrap of ticks_ms: the same distances.
    f.event(1, 1, (1 << 29) - 10)
    assert f.next_due((1 << 29) - 10) == first


def test_the_pause_chord_makes_no_refusal_and_a_lone_pile_key_is_refused_when_let_go():
    # Holding both pile buttons gave "v pick" and two refused
    # buzzes before PAUSED. Now the chord refuses nothing; a pile key alone
    # with nothing chosen is still refused, once it is let go.
    from hardware.controls import NOTHING_CHOSEN
    from hardware.modes import PAUSED

    for seconds in (False, True):  # the second pile key a scan later, or in the same scan
        rig, out, strip = rig_with_feedback()
        rig.app.play(
            position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D"),
            rig.clock,
        )
        k0, k1 = (rig.numbers[PILE_0 + k] for k in range(2))
        rig.keys.set(k0, True, rig.clock)
        if seconds:
            rig.run(80)
        rig.keys.set(k1, True, rig.clock)
        rig.run(1100)
        assert rig.app.mode == PAUSED
        assert "refused" not in names(rig) and rig.app.controls.result[0] == 0, names(rig)
        rig.keys.set(k0, False, rig.clock)
        rig.keys.set(k1, False, rig.clock)
        rig.run(100)
        assert "refused" not in names(rig)
    rig, out, strip = rig_with_feedback()
    rig.app.play(
        position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D"), rig.clock
    )
    k0 = rig.numbers[PILE_0]
    rig.keys.set(k0, True, rig.clock)
    rig.run(200)
    assert "refused" not in names(rig)  # held: it may yet be the chord
    rig.keys.set(k0, False, rig.clock)
    rig.run(20)
    assert names(rig)[-1] == "refused" and rig.app.controls.result[0] == NOTHING_CHOSEN


def test_the_sound_line_plays_the_menus_tick_at_the_new_volume():
    rig, out, strip = rig_with_feedback()
    rig.app.scene.item = rig.app.scene.items().index(6)  # the Sound line
    set_at = []
    out.set_volume = lambda volume: set_at.append((volume, len(out.tones)))
    rig.press(0, PILE_0)  # low -> high
    volume, at = set_at[-1]
    assert volume == 2 and out.tones[at : at + 1] == [PITCHES[TUNES[7][0]]]  # the first tone after: the tick
    tones = len(out.tones)
    rig.press(0, PILE_0)  # high -> off
    assert rig.app.sound == 0 and out.tones[tones:] == [0]  # silence at once: no tick begun and cut (a click)


class Whole:
    # An output that plays whole tunes (the Pico's PIO), remembering what it was asked.
    def __init__(self):
        self.played = []

    def set_volume(self, volume):
        pass

    def play(self, kind, player):
        self.played.append((kind, player))

    def quiet(self):
        self.played.append(None)


def test_an_output_that_plays_whole_tunes_is_given_the_tune_not_its_notes():
    out = Whole()
    feedback = Feedback(out, None, [])
    feedback.set(1, True)
    feedback.event(0, 1, 100)  # a tick of player 1
    feedback.update(100 + 1000)  # nothing to step: the tune plays by itself
    assert out.played == [None, (0, 1)] and feedback.next_due(1100) is None


def test_the_buzzers_words_sound_each_note_at_its_pitch_length_and_volume():
    # Each tune's words for the PIO program, read back as it runs them: a
    # period of H + L + 7 cycles (2 us each), high H + 3 of them where H is
    # odd, N + 1 periods.
    from hardware.buzzer import Buzzer
    from hardware.feedback import TICK

    class Machine:
        # The state machine's calls: the words each tune was given.
        def __init__(self):
            self.written = []

        def background_write(self, words):
            self.written.append(words)

        def stop_background_write(self):
            pass

        stop = restart = stop_background_write

        def run(self, instructions):
            pass

    buzzer = Buzzer.__new__(Buzzer)  # (its words alone: no state machine)
    buzzer.audio = Machine()
    for volume, duty in ((1, 1 / 16), (2, 1 / 2)):
        buzzer.set_volume(volume)
        tunes = [(t, 0) for t in TUNES] + [(TUNES[TICK], 1)]
        buzzer.audio.written.clear()
        for kind in range(len(TUNES)):
            buzzer.play(kind, 0)
        buzzer.play(TICK, 1)
        assert len(buzzer.audio.written) == len(tunes)
        for (tune, up), words in zip(tunes, buzzer.audio.written):
            assert len(words) == len(tune) // 2
            for i, w in enumerate(words):
                n, h, low = (w & 1023) + 1, (w >> 10) & 2047, w >> 21
                period = h + low + 7
                pitch, ms = tune[2 * i], tune[2 * i + 1] * 10
                assert abs(n * period * 2 / 1000 - ms) <= max(period * 2 / 1000, 2)  # its length within a period
                if not pitch:
                    assert h % 2 == 0  # a rest: the pin stays low
                    continue
                hz = PITCHES[pitch + up]
                assert h % 2 == 1 and abs(500000 / period - hz) <= 0.002 * hz
                assert abs((h + 3) / period - duty) <= 0.02


def _stand_in(monkeypatch, name):
    # A module of the board VM's stand-ins (tests/board_vm), as the board's firmware would give it.
    import importlib.util
    import os
    import sys

    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board_vm")
    for dep in ("supervisor", "outputs", name):  # (synthio hears through outputs, stamped by supervisor)
        spec = importlib.util.spec_from_file_location(dep, os.path.join(here, dep + ".py"))
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, dep, module)
        spec.loader.exec_module(module)
    return sys.modules[name]


class _Speaker:
    # An audio output (audioio.AudioOut, audiobusio.I2SOut): what it was given to play, and stops.
    def __init__(self):
        self.playing = None
        self.heard = []

    def play(self, sample, *, loop=False):
        import synthio

        self.playing = sample
        self.heard.append(synthio.notes(sample))

    def stop(self):
        self.playing = None
        self.heard.append(None)


def test_the_speakers_tracks_play_each_tune_whole_at_its_pitches_lengths_and_volume(monkeypatch):
    # A PyBadge's and a Cardputer's sound: each tune one MIDI track the
    # firmware plays in the background (read here as its MidiTrack reads it),
    # every note at its pitch within 1 % and its start and length to the
    # 10 ms; nothing sounds on after quiet(); the volume the envelope's level.
    synthio = _stand_in(monkeypatch, "synthio")
    from hardware.feedback import TICK
    from hardware.speaker import Speaker

    speaker = _Speaker()
    synth = Speaker(speaker)
    for volume, level in ((1, 0.3), (2, 1.0)):
        synth.set_volume(volume)
        track = synth.track
        assert track.tempo == 100 and track.envelope.attack_level == track.envelope.sustain_level == level
        for kind, tune in enumerate(TUNES):
            for player in (0, 1):
                speaker.heard.clear()
                synth.play(kind, player)
                assert speaker.playing is track and speaker.heard[0] is None  # (the tune before stopped)
                up = 1 if kind == TICK and player == 1 else 0
                want, t = [], 0
                for i in range(0, len(tune), 2):
                    if tune[i]:
                        want.append((tune[i] + up, t, tune[i + 1]))
                    t += tune[i + 1]
                got = speaker.heard[1]
                assert [(s, n) for _, s, n in got] == [(s, n) for _, s, n in want], (kind, player)
                for (midi, _, _), (pitch, _, _) in zip(got, want):
                    assert abs(440 * 2 ** ((midi - 69) / 12) - PITCHES[pitch]) <= 0.01 * PITCHES[pitch]
        synth.quiet()
        assert speaker.playing is None
    old = synth.track
    synth.set_volume(1)
    assert old.deinited and synth.track is not old  # (a track per volume, the old one's buffers let go)
    assert synthio.notes(synth.track)  # (the events written stay readable to the new track)


def test_feedback_gives_a_speaker_the_whole_tune_not_its_notes_one_a_pass(monkeypatch):
    _stand_in(monkeypatch, "synthio")
    from hardware.feedback import MATCH_WON
    from hardware.speaker import Speaker

    speaker = _Speaker()
    feedback = Feedback(Speaker(speaker), None, [])
    feedback.set(2, True)
    feedback.event(MATCH_WON, 0, 100)
    assert len(speaker.heard[-1]) == 4 and feedback.next_due(100) is None  # (all four notes, started at once)
    feedback.set(0, True)
    assert speaker.playing is None  # sound off: silent at once
