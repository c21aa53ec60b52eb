# The tally of matches won, for the menu's line and the game over scene:
# counted, saved, and said in as many words as fit. Loaded with either scene.

from . import storage
from .modes import DEMO, PLAYERS


def count_win(app, winner):
    # A finished match in the tally: two people, or the person (player 0)
    # against the computer at its level; the computer against itself is not.
    if app.players == DEMO:
        return
    i = 2 * app.players + winner  # (two people's first, then each level's)
    app.tally[i] = min(app.tally[i] + 1, 0xFFFF)
    save(app)


def clear(app):
    app.tally = [0] * 10
    save(app)


def save(app):
    if app.store is not None:
        app.store.save(storage.TALLY, bytes(b for n in app.tally for b in (n & 255, n >> 8)))


def forms(app):
    # The tally for the players chosen now (not a demo), longest form first:
    # "bottom 3 : 2 top", "bottom 3:2 top", "3:2"; "you 5 : 7 Hard", "you
    # 5:7 Hard", "you 5:7 CPU", "5:7". Who won how many matters more than
    # the spaces or a label: a line takes the longest that fits (fit).
    a = app.tally[2 * app.players]
    b = app.tally[2 * app.players + 1]
    if not app.players:
        return ("bottom %d : %d top" % (a, b), "bottom %d:%d top" % (a, b), "%d:%d" % (a, b))
    level = PLAYERS[app.players][3:]
    return (
        "you %d : %d %s" % (a, b, level),
        "you %d:%d %s" % (a, b, level),
        "you %d:%d CPU" % (a, b),
        "%d:%d" % (a, b),
    )


def fit(forms, room):
    # The first form of at most room characters, else the last: nothing is
    # cut off on the screen.
    for text in forms:
        if len(text) <= room:
            break
    return text
