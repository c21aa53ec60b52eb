# The game over scene: the winning play stays on the table for WON_MS, then
# who won, after how many rounds, the points and the tally; any key after
# GRACE_MS goes back to the menu. Loaded when a match is won and forgotten
# when the menu shows; the tally counts the match (hardware/menu.py keeps
# it) and the saved match goes.

from engine.spit import SCORING

from . import storage
from .menu import count_win, fit, tally_forms
from .modes import DEMO, LEAVE, STAY
from .ticks import ticks_aged, ticks_diff

GRACE_MS = 1500  # the last frantic presses of a match do not skip the result
WON_MS = 1000  # the winning play stays on the table this long before the words


class Over:
    def __init__(self, app, now_ms):
        self.app = app
        self.at = now_ms  # when the match was won
        self.shown = False  # the words are up (not yet: the winning play is still shown)
        self._go = STAY
        if app.store is not None and app.linked is None:  # (a linked match is never saved)
            app.store.clear(storage.MATCH)
        count_win(app, app.game.winner)

    def step(self, now_ms):
        # One pass: the words when their time comes (a page at a time on a
        # small screen), the saves held back, then the keys.
        app = self.app
        self.at = ticks_aged(now_ms, self.at)  # (a result left for days still takes a key)
        if not self.shown and ticks_diff(now_ms, self.at) >= WON_MS:
            self.shown = True
            app.show_lines(lines(app), app.twice(), now_ms)
        elif app.pages is not None:
            app.pages.turn(now_ms)
        app.flush(now_ms)
        self._go = STAY
        app.buttons.poll(None, self)
        return self._go

    def due(self, now_ms):
        if not self.shown:
            return max(0, WON_MS - ticks_diff(now_ms, self.at))
        return self.app.pages.due(now_ms) if self.app.pages is not None else None

    def press(self, player, action):
        if ticks_diff(self.app.controls.now, self.at) >= GRACE_MS:
            self._go = LEAVE
        return self._go


def lines(app):
    # The words: who won, after how many rounds, the points and the tally.
    g = app.game
    assert g is not None
    roomy = app.screen.rows >= 10  # (a small screen shows them a page at a time, without the blank lines)
    winner = app.who(g.winner)
    lines = ["GAME OVER", ("You win" if winner == "you" else winner[0].upper() + winner[1:] + " wins")]
    lines.append("after %d round%s" % (g.round, "" if g.round == 1 else "s"))
    if g.rules & SCORING:  # (the same flag in both games)
        lines.append("points %d : %d" % (g.scores[0], g.scores[1]))
    if app.players != DEMO:  # a demo is not counted
        forms = tally_forms(app)
        lines.append(fit(("tally " + forms[0],) + forms, app.screen.cols))  # never cut short
    lines.append("any key: menu")
    if roomy:
        lines.insert(1, "")
        lines.insert(len(lines) - 1, "")
    return lines
