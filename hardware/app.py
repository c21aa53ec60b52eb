# The game on the device: menu, match, game over, play again.
#
# App.step(now_ms) does one pass of the loop and never waits: it reads the
# buttons, applies what they did, and redraws what changed. code.py calls it
# as fast as it can (on the desktop, at the keypad's 5 ms scan rate).

from engine.spit import ALT_COLOURS, FOUR_STOCKS, GAME_OVER, NO_SLAP, SCORING, Game

from .buttons import Buttons
from .controls import Controls, ticks_diff
from .keymaps import NEXT, PILE_0, PREV, STOCK_0

MENU = 0
MATCH = 1
OVER = 2

# The menu's options: (label, value names, rule flag).
OPTIONS = (
    ("Game", ("standard", "100 points"), SCORING),
    ("Stocks", ("five", "four (V-1)"), FOUR_STOCKS),
    ("Slap", ("yes", "no (V-2)"), NO_SLAP),
    ("Colours", ("any", "alternate (V-3)"), ALT_COLOURS),
)
OVER_GRACE_MS = 1500  # the last frantic presses of a match do not skip the result


class App:
    def __init__(self, screen, keys, event, profile, ticks_ms, seed=None):
        self.screen = screen
        self.profile = profile
        self.controls = Controls(profile["keymap"], profile["cursor"])
        self.buttons = Buttons(keys, self.controls, event, ticks_ms)
        self.ticks_ms = ticks_ms
        self.seed = seed  # None: seed each match from the clock of its start press
        self.rules = 0
        self.item = 0
        self.mode = MENU
        self.game = None
        self.matches = 0
        self._start = False
        self._drawn = -1  # controls.presses when the screen was last drawn
        self._redraw_at = None  # when a flash on the screen ends
        self._over_at = 0
        self.draw_menu()

    # -- menu --

    def menu_lines(self):
        cursor = self.profile["cursor"]
        options = []
        for i, (label, names, flag) in enumerate(OPTIONS):
            mark = ">" if i == self.item else " "
            options.append("%s%s: %s" % (mark, label, names[1 if self.rules & flag else 0]))
        if self.screen.rows < 10:  # a small OLED: the options and one line of help
            return options + ["pile1 change 2 start"]
        help_move = "move: " + ("cursor keys" if cursor else "stock 1 / 2")
        return ["SPIT  two players", ""] + options + ["", help_move, "change: pile 1", "start: pile 2"]

    def draw_menu(self):
        self.screen.show_lines(self.menu_lines())

    def _menu_press(self, player, action):
        if action == PREV or action == STOCK_0:
            self.item = (self.item - 1) % len(OPTIONS)
        elif action == NEXT or action == STOCK_0 + 1:
            self.item = (self.item + 1) % len(OPTIONS)
        elif action == PILE_0:
            self.rules ^= OPTIONS[self.item][2]
        elif action == PILE_0 + 1:
            self._start = True

    def _over_press(self, player, action):
        if ticks_diff(self.controls.now, self._over_at) >= OVER_GRACE_MS:
            self._start = True

    # -- the loop --

    def step(self, now_ms):
        if self.mode == MENU:
            self.buttons.poll(None, self._menu_press)
            if self._start:
                self._start = False
                self.start_match(now_ms)
            elif self.controls.presses != self._drawn:
                self._drawn = self.controls.presses
                self.draw_menu()
        elif self.mode == MATCH:
            g = self.game
            self.buttons.poll(g)
            if g.phase == GAME_OVER:
                self.mode = OVER
                self._over_at = now_ms
                self.screen.show_lines(self.over_lines())
            elif self.controls.presses != self._drawn or (
                self._redraw_at is not None and ticks_diff(now_ms, self._redraw_at) >= 0
            ):
                self._draw_match(now_ms)
        else:
            self.buttons.poll(None, self._over_press)
            if self._start:
                self._start = False
                self.mode = MENU
                self._drawn = -1
                self.draw_menu()

    def _draw_match(self, now_ms):
        self._drawn = self.controls.presses
        self._redraw_at = self.screen.show_game(self.game, self.controls, now_ms)

    def start_match(self, now_ms):
        seed = self.seed if self.seed is not None else now_ms
        self.game = Game(seed + self.matches, self.rules)
        self.matches += 1
        self.mode = MATCH
        self._draw_match(now_ms)

    def over_lines(self):
        g = self.game
        roomy = self.screen.rows >= 10
        lines = ["GAME OVER", "Player %d wins" % g.winner, "after %d rounds" % g.round]
        if g.rules & SCORING:
            lines.append("points %d : %d" % (g.scores[0], g.scores[1]))
        lines.append("any key: menu")
        if roomy:
            lines.insert(1, "")
            lines.insert(len(lines) - 1, "")
        return lines
