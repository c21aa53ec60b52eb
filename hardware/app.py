# The game on the device: the match, and the scenes around it (the menu,
# the pause, game over: hardware/menu.py, pause.py, over.py, each loaded while
# it shows); the sounds and lights of what happens (hardware/feedback.py).
#
# App.step(now_ms) does one pass of the loop and never waits: in a match it
# reads the buttons (and the players that are not them: hardware/sides.py),
# applies what they did and redraws what changed; else it steps the scene,
# which says what comes next (hardware/modes.py). code.py calls it as fast as
# it can (on the desktop, a pass every 5 ms).

from engine.spit import CHOOSE, GAME_OVER, PLAY, READY, SLAP, STALEMATE

from . import forget
from .buttons import Buttons
from .controls import Controls
from .feedback import MATCH_WON, REFUSED, SLAP_NOW, SLAP_WON, SPIT, TICK, Feedback
from .feedback import STALEMATE as STUCK
from .keymaps import PILE_0
from .modes import (
    DEMO,
    EV_FOLLOW,
    EV_LET_GO,
    EV_PAUSE,
    FACING,
    FOUR_COLOURS,
    GO_ON,
    LEAVE,
    LINKED,
    LOBBY,
    MATCH,
    MENU,
    OVER,
    PAUSED,
    PLAYERS,
    RESUME,
    START,
)
from .storage import MATCH as SAVED_MATCH
from .storage import SPARE_MS
from .ticks import ticks_diff

try:  # (for the type checker only: the board has no typing module)
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from typing import Any  # noqa: F401  (named in type comments)

        from .pages import Pages  # noqa: F401  (named in type comments)
except ImportError:
    pass

PAUSE_HOLD_MS = 1000  # both pile buttons of a player held this long: pause
# What a linked session loads (hardware/linked.py), forgotten in the menu
# (the cable's opener, hardware/cable.py, stays: it opens the next one).
_LINKED_PARTS = (
    "hardware.linked",
    "hardware.link",
    "hardware.order",
    "hardware.referee",
    "hardware.clock_sync",
    "hardware.hello",
    "hardware.snapshot",
    "hardware.protocol",
)


def _no_collect():
    pass  # (the desktop's collector needs no help)


def _sooner(a, b):
    return b if a is None or b < a else a


class App:
    def __init__(
        self, screen, keys, event, profile, ticks_ms, seed=None, store=None, feedback=None, start=None, link=None
    ):
        self.screen = screen
        self.feedback = feedback if feedback is not None else Feedback()  # sound and lights
        self.store = store  # hardware.storage.Store, or None: nothing is saved (or a linked match is played)
        self._parked = None  # what makes the Store again while a linked match has let it go (_park_store)
        self.profile = profile
        self.controls = Controls(profile["keymap"], profile["cursor"])
        self.buttons = Buttons(keys, self.controls, event, ticks_ms)
        self.ticks_ms = ticks_ms
        self.seed = seed  # None: seed each match from the clock of its start press
        # Linked play (hardware/linked.py): open_link() opens the cable's UART
        # (None: this board has no link, and the menu offers none); linked is
        # the session from the lobby until the menu shows again.
        self.open_link = link
        self.linked = None
        self.leaving = None  # a linked session left, until the other device has heard (Linked.drain)
        self.nonce = None  # the number a linked session draws (None: os.urandom's)
        self.pause_why = ""  # a pause's cause other than a player's chord ("cable silent")
        # The board's gc.collect (hardware/launch.py; nothing on the desktop): the
        # heap collected as a match's table is up, at each second of a
        # pause's countdown and as it ends, so the menu's, the lobby's and
        # the pause's leftovers go then, not in an
        # automatic collection mid-play (about 21 ms on a Pico).
        self.collect = _no_collect
        from .keymaps import key_numbers  # (start-up only: code.py forgets keymaps)

        self.key_of = key_numbers(profile["keymap"])  # a player's action's key: key_of[player * 16 + action]
        # The settings (the menu changes them, and saves them: hardware/menu.py).
        self.kind = 0  # which game (engine.games: 0 Spit, 1 Speed)
        self.players = 0  # index into modes.PLAYERS
        self.rules_of = [0, 0]  # each game's rule flags
        # FACING | FOUR_COLOURS: two people at one device face each other
        # across a handheld, or sit side by side at one keyboard (a Cardputer's).
        self.style = 0 if profile.get("two_people_sit") == "side_by_side" else FACING
        self.sound = 1  # volume: 0 off, 1 low, 2 high
        self.lights = 1
        # Matches won since the tally was cleared: two players' wins (player 0,
        # player 1), then for each computer level the person's and the computer's.
        self.tally = [0] * 14  # (hardware/menu.py: TALLIES)
        self.saved = None  # a match saved between rounds (or left paused), offered in the menu
        self.menu_line = -1  # the menu's line "go" was pressed on: the cursor is there again (-1: the first)
        self.saved_linked = False  # it was a linked match (resumed only linked again)
        # What is shown.
        self.mode = MENU
        self.scene = None  # type: Any  # the scene when no match is played: a Menu, Pause or Over (press, step, due)
        self.pages = None  # type: Pages | None  # the words of the pause or game over (hardware/pages.py)
        self.game = None
        self.sides = None  # who plays each side, when not the buttons (hardware/sides.py)
        self.matches = 0
        self.paused_by = -1
        self.saved_round = 0  # the last round saved
        self._drawn = -1  # controls.presses when the table was last drawn
        self._redraw_at = None  # when a flash on the screen ends
        # When the saves held back were last written (a PyBadge): power-on
        # counts as a write, so a day's first save waits too (storage.py).
        self._flushed_at = ticks_ms() if store is not None and store.erases_always else None
        from . import menu  # (it shows first)

        menu.load(self)
        if start is None:
            self._menu()
        else:  # a match from a given position (SPIT_START): the menu is never drawn
            self.begin(start, ticks_ms())

    @property
    def rules(self):
        return self.rules_of[self.kind]

    def apply_style(self):
        if not self.profile["colour"]:
            self.style &= ~FOUR_COLOURS
        self.screen.set_style(self.style & FACING != 0, self.style & FOUR_COLOURS != 0)

    def twice(self):
        # Words for both players: two people sit facing each other.
        return self.style & FACING != 0 and self.players == 0

    @property
    def seat(self):
        # The player this device's person plays in a linked match (else 0).
        return self.linked.seat if self.linked is not None else 0

    def resumable(self):
        # The saved match is offered: a linked one only for linked play.
        return self.saved is not None and (self.saved_linked == (self.players == LINKED))

    def who(self, p, short=False):
        # Player p in table words: the bottom or top half, or you and the
        # computer (short: "CPU", for the middle of the table) when one person
        # plays it; linked, you and your rival on the other handheld.
        if self.players == LINKED:
            return "you" if p == self.seat else "rival"
        if self.players and self.players != DEMO:
            return ("you", "CPU" if short else "computer")[p]
        return ("bottom", "top")[p]

    def humans(self):
        # Bit p for each side played at the buttons.
        return 3 & ~self.controls.muted

    # -- what survives power loss (hardware/storage.py; the menu reads it back at start-up) --

    def flush(self, now_ms, now=False):
        # Where every write erases (a PyBadge), the saves held back are
        # written at most once in SPARE_MS of play (from power-on), and at
        # once when a player leaves a match (storage.py says why).
        store = self.store
        if store is None or not store.pending:
            return
        if (
            now or self._flushed_at is None or not 0 <= ticks_diff(now_ms, self._flushed_at) < SPARE_MS
        ):  # (< 0: days ago)
            store.flush()
            self._flushed_at = now_ms

    def _save_due(self, g):
        # A round dealt and not saved yet, and nobody has called spit (a
        # saved round is its deal: engine/record.py). A linked match is not
        # saved: after a restart the other handheld's position is the match.
        return (
            self.store is not None
            and g.phase == READY
            and not g.called
            and g.round != self.saved_round
            and self.linked is None
        )

    def save_match(self):
        g = self.game
        assert g is not None  # called only while a match is played
        if not self._save_due(g):
            return
        self.saved_round = g.round
        from engine import record

        payload = bytearray(record.PAYLOAD)
        try:
            record.encode(g, payload)
            self.store.save(SAVED_MATCH, payload)
        except (ValueError, OSError) as e:
            print("match not saved: %s" % e)
        forget("engine.record")  # loaded again at the next round's save
        forget("engine.games")  # (which the record loads)

    def _park_store(self):
        # A linked match is never saved: its Store is let go, and with it the
        # storage module's code (2.1 KB of a Pico's heap), until the match is
        # over or left (_unpark_store makes it again from the same memory).
        # Saves held back for a later write (a PyBadge) keep it.
        store = self.store
        if store is not None and not store.pending:
            self._parked = (store.nvm, store.say, store.erases_always)
            self.store = None
            forget("hardware.storage")

    def _unpark_store(self):
        if self._parked is not None:
            from .storage import Store

            nvm, say, erases_always = self._parked
            self.store = Store(nvm, say, erases_always)
            self._parked = None

    # -- the words of the scenes (hardware/pages.py) --

    def show_lines(self, lines, twice=False, now_ms=None):
        # A full-screen scene's words; twice: for both players facing each
        # other. Given the time, a scene longer than the screen is shown a
        # page at a time (Pages.turn).
        if self.pages is None:
            from .pages import Pages

            self.pages = Pages(self.screen)
        self.pages.show(lines, twice, now_ms)

    def close_pages(self):
        # The table comes back: the pages' code is forgotten, its heap the match's.
        self.pages = None
        forget("hardware.pages")

    # -- from one scene to the next --

    def press(self, player, action):
        # A key for the scene shown (in a match the buttons make moves); what
        # it asks for is done at once.
        if self.scene is None:
            return
        go = self.scene.press(player, action)
        if go:
            self.follow(go, self.controls.now)

    def follow(self, go, now_ms):
        # What a scene asked for (hardware/modes.py).
        if go == START:
            if self.players == LINKED:
                from .lobby import enter

                enter(self, None, now_ms)
            else:
                self.start_match(now_ms)
        elif go == RESUME:
            if self.players == LINKED:
                from .lobby import enter

                enter(self, self.saved, now_ms)
            else:
                self.resume_match(now_ms)
        elif go == GO_ON:  # the pause is over
            if self.sides is not None:  # (the computer's reaction times stood still)
                paused = ticks_diff(now_ms, self.scene.since)  # (modulo 2**29: added to a tick, right however long)
                for side in self.sides:
                    if side is not None:
                        side.paused(paused)
            self.scene = None
            for name in ("hardware.pause", "hardware.modes", "hardware.keymaps"):
                forget(name)  # (the pause loaded the last two; the match keeps the numbers it took)
            self.mode = MATCH
            self.close_pages()
            self.draw_match(now_ms)
            self.collect()  # (the pause's leftovers)
        elif go == LEAVE:
            if self.mode == PAUSED:
                # The match, exactly as it is, is offered in the menu until a
                # new one starts (after a power cut: from the start of its round).
                self.saved = self.game
                self.saved_linked = self.linked is not None
                self.game = None
                self.menu_line = -1  # (the cursor on the match offered)
                # Kept now, whatever the flash's spare time: one may switch off next.
                self.flush(self.controls.now, True)
                forget("hardware.pause")
            elif self.mode == LOBBY:
                forget("hardware.lobby")
            else:
                forget("hardware.over")
            self._menu()

    def _menu(self):
        from .menu import Menu

        self._unpark_store()  # (the menu saves the settings and the tally)
        if self.linked is not None:  # (linked play ends in the menu: the cable is let go, once the other heard)
            if not self.linked.leave(self.ticks_ms()):
                self.leaving = self.linked
            self.linked = None
            self.controls.relay = None
            for name in _LINKED_PARTS:
                forget(name)  # (a session still draining keeps what it uses until it is done)
            self.apply_style()  # (this device's player back at the bottom)
        if self.saved is None or self.saved.kind != 1:  # (engine.games.SPEED: the match offered keeps its game's code)
            forget("engine.speed")
        if self.sides is not None:  # (the computer's players, and what they loaded, go with the match)
            self.sides = None
            for name in ("hardware.computer", "hardware.plan", "engine.bot"):
                forget(name)
        self.mode = MENU
        self.close_pages()
        self.scene = Menu(self)
        self.scene.draw()

    def start_match(self, now_ms):
        # A new match of the game, rules and players chosen.
        from engine import games

        seed = (self.seed if self.seed is not None else now_ms) + self.matches
        game = games.new(self.kind, seed, self.rules)
        forget("engine.games")
        self.play(game, now_ms)

    def begin(self, game, now_ms):
        # A match from a given position (SPIT_START, a saved match), with the players chosen.
        self.kind = game.kind
        self.rules_of[game.kind] = game.rules
        self.play(game, now_ms)

    def resume_match(self, now_ms):
        # The saved match, after the same 3-second countdown as a pause has,
        # so whoever pressed "go" gets no head start.
        g = self.saved
        assert g is not None  # "Resume" is offered only with a saved match
        self.begin(g, now_ms)
        from .pause import Pause

        self.mode = PAUSED
        self.scene = Pause(self, now_ms, True)

    def play(self, game, now_ms):
        # The match on the table: the screen's names, who plays each side, and
        # the first save. The scenes' modules are forgotten: the match has their heap.
        self.scene = None
        if self.leaving is not None:  # (a linked session left moments ago: its cable let go now)
            self.leaving.drain(now_ms, True)
            self.leaving = None
        for name in ("hardware.menu", "hardware.seats"):
            forget(name)  # (loaded again when the menu shows, or the style is set)
        self.close_pages()
        self.game = game
        screen = self.screen
        screen.speed = game.kind == 1  # (engine.games.SPEED)
        screen.names = (self.who(0, True), self.who(1, True))
        screen.twice = self.twice()
        players = self.players
        screen.watched = 3 if players == DEMO else 2 if players else 0  # the computer's plays
        screen.worded = 3
        screen.secret = 0  # (one device: both Speed hands on the shared screen, D-11)
        name = PLAYERS[players][3:]  # the computer's level: "Hard"
        screen.opponent = (
            ()
            if not players
            else ("demo: CPU v CPU", "demo")
            if players == DEMO
            else ("top: CPU " + name, "^ CPU " + name, "CPU " + name, name)
        )
        self.sides = None  # two people: both sides at the buttons, nothing more to load
        self.controls.muted = 0
        if players and players != LINKED:
            from . import sides

            self.sides = sides.choose(players, game, self.controls, self.key_of)
            self.controls.muted = sides.muted(self.sides)  # a side the buttons do not play takes no keys
            forget("hardware.sides")
        else:
            for name in ("hardware.computer", "hardware.plan", "engine.bot"):
                forget(name)
        forget("hardware.modes")  # (after sides, which loads it; the scenes load it again)
        forget("hardware.keymaps")  # (the menu's and the plan's key names are copied into them)
        linked = self.linked
        if linked is not None:  # one person a device: presses go into the order, nothing turned
            from . import sides

            self.sides = sides.choose(players, game, self.controls, self.key_of, linked)
            forget("hardware.sides")
            self.controls.relay = linked
            screen.watched = 0
            screen.worded = 1 << linked.seat  # (the other player's reasons are on their own screen)
            screen.secret = 2 >> linked.seat  # the other's Speed hand as backs, as at a table (SD-1, D-11)
            screen.opponent = ()
            screen.twice = False
            screen.set_style(False, self.style & FOUR_COLOURS != 0, linked.seat)
            forget("hardware.seats")
            self._park_store()
        self.controls.call = game.call
        self.saved = None
        if game.kind != 1:  # (engine.games.SPEED: a Speed match offered kept its game's code, _menu)
            forget("engine.speed")
        self.matches += 1
        self.mode = MATCH
        self.saved_round = 0
        self.save_match()
        self.flush(now_ms)
        self.draw_match(now_ms)
        self.collect()

    def pause(self, now_ms, why=""):
        # The match stands still (hardware/pause.py, loaded only while it
        # does); why: a cause other than a player's chord.
        from .pause import Pause

        self.pause_why = why
        self.mode = PAUSED
        self.scene = Pause(self, now_ms)

    # -- the loop --

    def step(self, now_ms):
        self.feedback.update(now_ms)
        mode = self.mode
        linked = self.linked
        if mode != MATCH:
            if linked is not None:  # (in a match it is one of the sides, stepped with them)
                linked.step(self.game, now_ms)
                mode = self.mode
                if mode == MATCH:
                    return  # (the order's countdown ended: the match goes on at the next pass)
                linked = self.linked  # (the order may have ended linked play)
            go = self.scene.step(now_ms)  # its keys and its time
            if go:
                if linked is not None and linked.playing():
                    linked.ask(EV_FOLLOW + go, now_ms)  # into the order (a follower's scene waits for the referee's)
                else:
                    self.follow(go, now_ms)
            if mode == MENU:
                if self.leaving is not None and self.leaving.drain(now_ms):
                    self.leaving = None
                self.flush(now_ms)
            return
        g = self.game
        assert g is not None
        # A new round is saved in the pass after the one that dealt it,
        # once its table is on the screen (a flash write takes about 60 ms
        # on a Pico), and before this pass's presses can call spit.
        if self._save_due(g):  # (asked here: one call a pass, not two)
            self.save_match()
        c = self.controls
        phase = g.phase
        applied = c.applied
        attempts = c.attempts
        sides = self.sides
        if sides is not None:  # (two people: none)
            for side in sides:
                if side is not None:
                    side.step(g, now_ms)
            if self.mode != MATCH:
                return  # (a linked match's order paused or ended it)
        linked = self.linked
        if linked is not None:
            # Every key event stamped before this moment is in the keypad's
            # queue now (later than the pass's start: the link was read first).
            read_at = self.ticks_ms()
        self.buttons.poll(g)
        if linked is not None:
            # The order may let presses go now that this pass's keys are in:
            # applied, sounded (Linked.apply, each as it goes) and drawn below.
            linked.keys_read(read_at)
            if self.mode != MATCH:
                return  # (its game over)
        elif c.attempts != attempts:
            self.sound_for(g, phase, c.applied != applied, now_ms)
        if g.phase == READY and not g.called:  # nobody races yet: a write may stall the scanner
            self.flush(now_ms)
        if g.phase == GAME_OVER:
            self.game_over(now_ms)
        elif self._pause_asked(g, now_ms):
            if self.linked is not None:
                self.linked.ask(EV_PAUSE, now_ms)  # (both devices pause where the order says)
            else:
                self.pause(now_ms)
        elif c.presses != self._drawn or (self._redraw_at is not None and ticks_diff(now_ms, self._redraw_at) >= 0):
            self.draw_match(now_ms)

    def apply_event(self, player, action, t, now_ms):
        # One event of a linked match's order (hardware/linked.py), applied
        # alike on both devices: a press of either player at t (its time on
        # the referee's clock) or a pile key let go, made, sounded and over
        # as the buttons' are; the pause chord; or a key for the scene shown,
        # whose answer is returned (the referee puts it in the order).
        if action == EV_PAUSE:
            if self.mode == MATCH:
                self.paused_by = player
                self.pause(now_ms)
            return 0
        c = self.controls
        if self.mode == MATCH:
            g = self.game
            assert g is not None  # (a match is played)
            phase = g.phase
            applied = c.applied
            attempts = c.attempts
            if action >= EV_LET_GO:
                c.let_go(g, player, action - EV_LET_GO, t)
            else:
                c.push(g, self.key_of[player * 16 + action], t)
                c.apply(g)
            if c.attempts != attempts:
                self.sound_for(g, phase, c.applied != applied, now_ms)
            if g.phase == GAME_OVER:
                self.game_over(now_ms)
            return 0
        if self.scene is None or action >= EV_LET_GO:
            return 0  # (a key let go means nothing to a scene)
        c.now = now_ms
        return self.scene.press(player, action)

    def game_over(self, now_ms):
        self.draw_match(now_ms)  # the winning play, seen before the result (over.WON_MS)
        self._unpark_store()  # (the tally counts the match)
        from .over import Over

        self.mode = OVER
        self.scene = Over(self, now_ms)

    def sound_for(self, g, before, applied, now_ms):
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
        mode = self.mode
        if (
            mode == MATCH
            and self.controls.presses != self._drawn
            or self.linked is not None
            or self.leaving is not None
        ):
            return 0  # a redraw is due; or linked play, whose link is read every pass
        due = self.feedback.next_due(now_ms)  # a note or a light to change
        g = self.game
        if (
            self.store is not None
            and self.store.pending
            and self._flushed_at is not None
            and (mode != MATCH or g is not None and g.phase == READY and not g.called)
        ):
            due = _sooner(due, ticks_diff(self._flushed_at, now_ms) + SPARE_MS)  # saves to write
        if mode != MATCH:
            scene = self.scene.due(now_ms)  # lines to draw, a countdown, a page of words to turn
            due = _sooner(due, scene) if scene is not None else due
            return None if due is None else max(due, 0)
        assert g is not None  # a match is played
        if self._save_due(g):
            return 0  # a new round to save (step saves it first thing)
        if self.sides is not None:
            for side in self.sides:
                if side is not None:
                    acts = side.next_due(g, now_ms)
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
                later = max(
                    ticks_diff(self.controls.down_at(k0), now_ms), ticks_diff(self.controls.down_at(k1), now_ms)
                )
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
            if (
                controls.held(k0)
                and controls.held(k1)
                and ticks_diff(now_ms, controls.down_at(k0)) >= PAUSE_HOLD_MS
                and ticks_diff(now_ms, controls.down_at(k1)) >= PAUSE_HOLD_MS
            ):
                self.paused_by = p
                return True
        return False

    def draw_match(self, now_ms):
        self._drawn = self.controls.presses
        self._redraw_at = self.screen.show_game(self.game, self.controls, now_ms)
