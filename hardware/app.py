# The game on the device: menu, match, pause, game over, play again; the sounds
# and lights of what happens (hardware/feedback.py).
#
# App.step(now_ms) does one pass of the loop and never waits: it reads the
# buttons, applies what they did, and redraws what changed. code.py calls it
# as fast as it can (on the desktop, a pass every 5 ms).

from engine.spit import ALT_COLOURS, CHOOSE, FOUR_STOCKS, GAME_OVER, NO_SLAP, PLAY, READY, SCORING, SLAP, STALEMATE

from .buttons import Buttons
from .controls import Controls
from .ticks import ticks_diff
from .keymaps import PILE_0
from . import forget, storage
from .feedback import MATCH_WON, REFUSED, SLAP_NOW, SLAP_WON, SPIT, STALEMATE as STUCK, TICK, Feedback

try:  # (for the type checker only: the board has no typing module)
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from .computer import Computer
        from .scene import Scene
except ImportError:
    pass

MENU = 0
MATCH = 1
OVER = 2
PAUSED = 3

GAMES = ("Spit", "Speed")
# Who plays: two people, one person (player 0) against the computer at a
# level (engine.bot.LEVEL_NAMES; the bot is imported only for such a match),
# or the computer against itself.
PLAYERS = ("two", "vs Easy", "vs Medium", "vs Hard", "vs Expert", "demo")
DEMO = 5
# Each game's menu options: (label, value names, rule flag).
OPTIONS = (
    (
        ("Win", ("first out", "100 points"), SCORING),
        ("Stocks", ("five", "four"), FOUR_STOCKS),  # V-1
        ("Slap", ("yes", "no"), NO_SLAP),  # V-2
        ("Colours", ("any", "alternate"), ALT_COLOURS),  # V-3
    ),
    (
        ("Win", ("first out", "50 points"), 1),  # engine.speed: SCORING to TARGET
        ("Sides", ("10 cards", "5 cards"), 2),  # engine.speed.SHORT_SIDES (SD-2b)
    ),
)
OVER_GRACE_MS = 1500  # the last frantic presses of a match do not skip the result
WON_MS = 1000  # the winning play stays on the table this long before the game over scene
PAUSE_HOLD_MS = 1000  # both pile buttons of a player held this long: pause
COUNTDOWN_MS = 3000  # from the last "ready" to the match going on
# The seats and deck settings (bits of style; the menu sets them: hardware/menu.py).
FACING = 1  # player 1's half turned round, for a device lying between the players
FOUR_COLOURS = 2  # each suit its own colour


def _sooner(a, b):
    return b if a is None or b < a else a


class App:
    def __init__(self, screen, keys, event, profile, ticks_ms, seed=None, store=None, feedback=None):
        self.screen = screen
        self.feedback = feedback if feedback is not None else Feedback()  # sound and lights
        self.sound = 1  # volume: 0 off, 1 low, 2 high
        self.lights = 1
        self.store = store  # hardware.storage.Store, or None: nothing is saved
        self.profile = profile
        self.controls = Controls(profile["keymap"], profile["cursor"])
        self.buttons = Buttons(keys, self.controls, event, ticks_ms)
        self.ticks_ms = ticks_ms
        self.seed = seed  # None: seed each match from the clock of its start press
        self.kind = 0  # which game: 0 Spit, 1 Speed
        self.players = 0  # index into PLAYERS
        self.computer = None  # type: Computer | None  # the computer's players (hardware/computer.py), when it plays
        from .keymaps import key_numbers  # (start-up only: code.py forgets keymaps)

        self.key_of = key_numbers(profile["keymap"])  # a player's action's key: key_of[player * 16 + action]
        self.rules_of = [0, 0]  # each game's rule flags
        self.style = FACING  # FACING | FOUR_COLOURS (two people at one device face each other)
        self.item = 0
        self.menu_top = 0  # the menu's first line shown (hardware/menu.py)
        self.mode = MENU
        self.game = None
        self.matches = 0
        self._start = False
        self._drawn = -1  # controls.presses when the screen was last drawn
        self._redraw_at = None  # when a flash on the screen ends
        self._over_at = 0
        self._over_shown = True  # the game over scene is up (not yet: the winning play is still shown)
        self.scene = None  # type: Scene | None  # the words of the menu, pause or game over (hardware/scene.py)
        self._saved_round = 0
        # When the saves held back were last written (a PyBadge): power-on
        # counts as a write, so a day's first save waits too (storage.py).
        self._flushed_at = ticks_ms() if store is not None and store.erases_always else None
        self.saved = None  # a match saved between rounds (or left paused), offered in the menu
        # Matches won since the tally was cleared: two players' wins (player 0,
        # player 1), then for each computer level the person's and the computer's.
        self.tally = [0] * 10
        self._clearing = False  # the tally line asks for a second press
        self.paused_by = -1
        self._paused_at = 0
        self._ready = 0  # players who have pressed to go on
        self._resume_at = None  # the countdown's end
        self._shown = -1  # what the pause screen shows now
        from . import menu  # (it shows first)

        menu.load(self)
        self.draw_menu()

    # -- what survives power loss (menu.load reads it back at start-up) --

    def apply_style(self):
        if not self.profile["colour"]:
            self.style &= ~FOUR_COLOURS
        self.screen.set_style(self.style & FACING != 0, self.style & FOUR_COLOURS != 0)

    def _twice(self):
        # Words for both players: two people sit facing each other.
        return self.style & FACING != 0 and self.players == 0

    def who(self, p, short=False):
        # Player p in table words: the bottom or top half, or you and the
        # computer (short: "CPU", for the middle of the table) when one person plays it.
        if self.players and self.players != DEMO:
            return ("you", "CPU" if short else "computer")[p]
        return ("bottom", "top")[p]

    def _flush(self, now_ms, now=False):
        # Where every write erases (a PyBadge), the saves held back are
        # written at most once in SPARE_MS of play (from power-on), and at
        # once when a player leaves a match (storage.py says why).
        store = self.store
        if store is None or not store.pending:
            return
        if now or self._flushed_at is None or ticks_diff(now_ms, self._flushed_at) >= storage.SPARE_MS:
            store.flush()
            self._flushed_at = now_ms

    def _save_due(self, g):
        # A round dealt and not saved yet, and nobody has called spit (a
        # saved round is its deal: engine/record.py).
        return self.store is not None and g.phase == READY and not g.called and g.round != self._saved_round

    def _save_match(self):
        g = self.game
        assert g is not None  # called only while a match is played
        if not self._save_due(g):
            return
        self._saved_round = g.round
        from engine import record

        payload = bytearray(record.PAYLOAD)
        try:
            record.encode(g, payload)
            self.store.save(storage.MATCH, payload)
        except (ValueError, OSError) as e:
            print("match not saved: %s" % e)
        forget("engine.record")  # loaded again at the next round's save

    @property
    def rules(self):
        return self.rules_of[self.kind]

    # -- menu (hardware/menu.py, loaded while the menu shows) --

    def menu_items(self):
        from . import menu

        return menu.items(self)

    def menu_lines(self):
        from . import menu

        return menu.lines(self)

    def draw_menu(self):
        self.screen.show_text(self.menu_lines())  # (its lines fit the screen: menu.lines)

    # -- scenes longer than the menu: pause, game over (hardware/scene.py) --

    def show_lines(self, lines, twice=False, now_ms=None):
        # A full-screen scene's words; twice: for both players facing each
        # other. Given the time, a scene longer than the screen is shown a
        # page at a time (scene.turn).
        if self.scene is None:
            from .scene import Scene

            self.scene = Scene(self.screen)
        self.scene.show(lines, twice, now_ms)

    def end_scene(self):
        # The table comes back: the scene's code is forgotten, its heap the match's.
        self.scene = None
        forget("hardware.scene")

    def _menu_press(self, player, action):
        from . import menu

        menu.press(self, player, action)

    def _over_press(self, player, action):
        if ticks_diff(self.controls.now, self._over_at) >= OVER_GRACE_MS:
            self._start = True

    # -- the loop --

    def step(self, now_ms):
        self.feedback.update(now_ms)
        if self.mode == MENU:
            self.buttons.poll(None, self._menu_press)
            if self._start:
                self._start = False
                from . import menu  # (loaded: the menu shows)

                if self.saved is not None and self.item == 0:
                    menu.resume_match(self, now_ms)
                else:
                    menu.start_match(self, now_ms)
            elif self.controls.presses != self._drawn:
                self._drawn = self.controls.presses
                self.draw_menu()
            self._flush(now_ms)
        elif self.mode == MATCH:
            g = self.game
            assert g is not None
            # A new round is saved in the pass after the one that dealt it,
            # once its table is on the screen (a flash write takes about 60 ms
            # on a Pico), and before this pass's presses can call spit.
            if self._save_due(g):  # (asked here: one call a pass, not two)
                self._save_match()
            c = self.controls
            phase = g.phase
            applied = c.applied
            attempts = c.attempts
            if self.computer is not None:  # (two people: none)
                self.computer.step(g, now_ms)
            self.buttons.poll(g)
            if c.attempts != attempts:
                self._sound(g, phase, c.applied != applied, now_ms)
            if g.phase == READY and not g.called:  # nobody races yet: a write may stall the scanner
                self._flush(now_ms)
            if g.phase == GAME_OVER:
                self._draw_match(now_ms)  # the winning play, seen before the result (WON_MS)
                self._over_shown = False
                from . import menu  # the tally, the scene's words (and the menu, next)

                menu.game_over(self, now_ms)
            elif self._pause_asked(g, now_ms):
                self._pause(now_ms)
            elif self.controls.presses != self._drawn or (
                self._redraw_at is not None and ticks_diff(now_ms, self._redraw_at) >= 0
            ):
                self._draw_match(now_ms)
        elif self.mode == PAUSED:
            from . import pause

            self.buttons.poll(None, self._pause_press)
            if self.mode == PAUSED:
                pause.step(self, now_ms)
        else:
            if not self._over_shown and ticks_diff(now_ms, self._over_at) >= WON_MS:
                self._over_shown = True
                from . import menu  # (loaded at game over)

                self.show_lines(menu.over_lines(self), self._twice(), now_ms)
            elif self.scene is not None:
                self.scene.turn(now_ms)  # (a small screen shows the words a page at a time)
            self._flush(now_ms)
            self.buttons.poll(None, self._over_press)
            if self._start:
                self._start = False
                self.mode = MENU
                self._drawn = -1
                self.draw_menu()

    def _sound(self, g, before, applied, now_ms):
        # What the presses of this pass did, as one sound (and light): the
        # last move tried, and the phase it left.
        c = self.controls
        p = c.last
        ph = g.phase
        if applied and ph == PLAY and before == PLAY:
            self.feedback.event(TICK, p, now_ms)  # a card moved (the commonest, asked first)
        elif not applied:
            if c.result[p]:
                self.feedback.event(REFUSED, p, now_ms)
        elif ph == GAME_OVER:
            self.feedback.event(MATCH_WON, g.winner, now_ms)
        elif (before == SLAP or before == CHOOSE) and ph != before:
            self.feedback.event(SLAP_WON, p, now_ms)
        elif ph == SLAP or ph == CHOOSE:
            self.feedback.event(SLAP_NOW, p, now_ms)
        elif ph == STALEMATE and before == PLAY:
            self.feedback.event(STUCK, p, now_ms)
        elif ph == PLAY and before != PLAY or ph == READY or ph == STALEMATE:
            self.feedback.event(SPIT, p, now_ms)  # spit called, or the cards turned

    def next_due(self, now_ms):
        # How long step() may go without being called, when no key event comes:
        # 0 when the next scan must be stepped, None when only a key event can
        # change anything. A replay uses it to jump over idle scans (the
        # board just loops).
        if self.controls.presses != self._drawn and self.mode != OVER:
            return 0  # a redraw is due
        sound = self.feedback.next_due(now_ms)  # a note or a light to change
        g = self.game
        if (self.store is not None and self.store.pending and self._flushed_at is not None
                and (self.mode != MATCH or g is not None and g.phase == READY and not g.called)):
            sound = _sooner(sound, ticks_diff(self._flushed_at, now_ms) + storage.SPARE_MS)  # saves to write
        if self.scene is not None and (self.mode == PAUSED or self.mode == OVER and self._over_shown):
            page = self.scene.due(now_ms)  # a page of words to turn
            if page is not None:
                sound = _sooner(sound, page)
        if self.mode == PAUSED:
            return 0 if self._resume_at is not None else sound
        if self.mode == OVER and not self._over_shown:
            return max(0, _sooner(sound, WON_MS - ticks_diff(now_ms, self._over_at)))
        if self.mode != MATCH:
            return sound
        assert g is not None  # a match is played
        if self._save_due(g):
            return 0  # a new round to save (step saves it first thing)
        due = sound
        if self.computer is not None:
            acts = self.computer.next_due(g, now_ms)
            if acts == 0:
                return 0  # it decides at the next step
            if acts is not None:
                due = _sooner(due, acts)
        if self._redraw_at is not None:
            due = _sooner(due, ticks_diff(self._redraw_at, now_ms))
        for p in range(2):  # a pause chord being held
            k0 = self.key_of[p * 16 + PILE_0]
            k1 = self.key_of[p * 16 + PILE_0 + 1]
            if self.controls.held(k0) and self.controls.held(k1):
                later = max(ticks_diff(self.controls.down_at(k0), now_ms), ticks_diff(self.controls.down_at(k1), now_ms))
                due = _sooner(due, later + PAUSE_HOLD_MS)
        return None if due is None else max(due, 0)

    # -- pause --

    def _pause_asked(self, g, now_ms):
        # A player holds both pile buttons for PAUSE_HOLD_MS (not while a slap
        # or a choice is being decided: those stay as the first press made them).
        controls = self.controls
        if controls.down < 2:
            return False  # (every pass asks: this answers most of them at once)
        ph = g.phase
        if ph == SLAP or ph == CHOOSE:
            return False
        for p in range(2):
            k0 = self.key_of[p * 16 + PILE_0]
            k1 = self.key_of[p * 16 + PILE_0 + 1]
            if (controls.held(k0) and controls.held(k1) and ticks_diff(now_ms, controls.down_at(k0)) >= PAUSE_HOLD_MS
                    and ticks_diff(now_ms, controls.down_at(k1)) >= PAUSE_HOLD_MS):
                self.paused_by = p
                return True
        return False

    def _pause(self, now_ms):
        # The pause's code is loaded only while a match is paused (hardware/pause.py).
        from . import pause

        pause.start(self, now_ms)

    def _pause_press(self, player, action):
        from . import pause

        pause.press(self, player, action)

    def _draw_match(self, now_ms):
        self._drawn = self.controls.presses
        self._redraw_at = self.screen.show_game(self.game, self.controls, now_ms)

