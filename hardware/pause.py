# The pause, for the App (hardware/app.py): its screen, its keys, the
# countdown back to the match, or leaving for the menu. Loaded when a match is
# paused and forgotten when it goes on or is left (hardware.forget), so a
# match keeps its heap; as hardware/menu.py is for the menu.

from . import forget
from .app import COUNTDOWN_MS, MATCH, MENU, PAUSED
from .ticks import ticks_add, ticks_diff
from .keymaps import PILE_0



def start(app, now_ms):
    app.mode = PAUSED
    app._paused_at = now_ms
    app._ready = 0
    app._resume_at = None
    app._shown = -1
    step(app, now_ms)


def press(app, player, action):
    # Any key: that player is ready (the match goes on when every person at
    # the device is, after a countdown); pile 2: leave for the menu.
    if app._resume_at is not None:
        return  # the countdown runs: presses wait for the match
    if action == PILE_0 + 1:
        leave(app)
        return
    app._ready |= 1 << player
    want = humans(app)
    if app._ready & want == want:
        app._resume_at = ticks_add(app.controls.now, COUNTDOWN_MS)


def step(app, now_ms):
    if app._resume_at is not None and ticks_diff(now_ms, app._resume_at) >= 0:
        resume(app, now_ms)
        return
    left = -1 if app._resume_at is None else (ticks_diff(app._resume_at, now_ms) + 999) // 1000
    shown = left * 8 + app._ready
    if shown != app._shown:
        app._shown = shown
        app.show_lines(lines(app, left), app._twice(), now_ms)
    else:
        app.scene.turn(now_ms)  # (a small screen shows the words a page at a time)


def humans(app):
    # Who must press to go on: every person at the device (none when the
    # computer plays itself: then any press will do).
    return 3 & ~(app.computer.plays() if app.computer else 0)


def lines(app, left):
    if left >= 0:  # the countdown, in the middle of the screen (of each half, seats facing)
        cols = app.screen.cols
        room = app.screen.rows // 2 if app._twice() else app.screen.rows
        # (" ": a line between them where there is room, kept where blank ones are left out)
        words = [str(left), " ", "get ready"] if room > 3 else [str(left), "get ready"]
        return [" "] * ((room - len(words)) // 2) + [" " * ((cols - len(w)) // 2) + w for w in words]
    want = humans(app)
    waiting = " ".join(app.who(p) for p in range(2) if want & (1 << p) and not app._ready & (1 << p))
    return ["PAUSED by " + app.who(app.paused_by), "any key: go on", "waiting: " + (waiting or "anyone"),
            "pile 2: leave"]  # the most needed first: a small screen shows the first ones twice


def resume(app, now_ms):
    # The computer's reaction times (and its presses on the way) stopped
    # while the match was paused.
    if app.computer is not None:
        app.computer.paused(ticks_diff(now_ms, app._paused_at))
    app.mode = MATCH
    app._resume_at = None
    forget("hardware.pause")
    app.end_scene()
    app._draw_match(now_ms)


def leave(app):
    # Back to the menu; the match, exactly as it is, is offered there until
    # a new one starts (after a power cut: from the start of its round).
    app.saved = app.game
    app.game = None
    app._flush(app.controls.now, True)  # kept now, whatever the flash's spare time: one may switch off next
    app.mode = MENU
    app.item = 0
    app._drawn = -1
    forget("hardware.pause")
    app.draw_menu()
