# What the App and its scenes share, imported one way (nothing here imports
# them): the App's modes, what a scene asks for next, who plays, the games'
# menu options and the seats' style bits. A match forgets this module
# (hardware.forget): its importers keep the numbers they took.

from engine.spit import ALT_COLOURS, FOUR_STOCKS, NO_SLAP, SCORING

# The App's modes: which scene has the keys.
MENU = 0
MATCH = 1
OVER = 2
PAUSED = 3
LOBBY = 4  # linked play: looking for the other handheld (hardware/lobby.py)

# What a scene asks the App for next (Menu, Pause, Over: press and step).
STAY = 0  # nothing: the scene goes on
START = 1  # a new match of the game chosen
RESUME = 2  # the saved match, after a countdown
GO_ON = 3  # the paused match goes on
LEAVE = 4  # back to the menu

# Who plays: two people, one person (player 0) against the computer at a
# level (engine.bot.LEVEL_NAMES; the bot is imported only for such a match),
# the computer against itself, or one person at each of two linked handhelds
# (hardware/linked.py; offered where the board has a link).
PLAYERS = ("two", "vs Easy", "vs Medium", "vs Hard", "vs Expert", "demo", "linked")
DEMO = 5
LINKED = 6
# A linked match's order carries, beside the keys' actions (0..15), these
# events: the pause chord, and what a scene asked for (EV_FOLLOW + GO_ON ...).
EV_LET_GO = 0x10  # + a pile key's action: the key let go (a press of it with nothing chosen is refused then)
EV_PAUSE = 0x20
EV_FOLLOW = 0x30
# A linked session's phase (hardware/linked.py; a hello says SEEKING or PLAYING).
CLOSED = 0  # the link let go
SEEKING = 1  # looking for the other device (the lobby)
PLAYING = 2  # in a linked match (a scene of it included: pause, game over), the link heard both ways
LOST = 3  # in the match, the link lost: both stand paused
AWAITING = 4  # the follower: the referee's position awaited (the positions differed, or the link came back)
ELSEWHERE = 5  # the other device back in its lobby with another game chosen: our match waits, paused
GONE = 6  # the other player left: this device offers the menu
LEAVING = 7  # this player left: the link kept open until the other has heard
OTHER_LEFT = "the other player left"  # a linked pause's cause: only the menu is offered
OTHER_GAME = "other's game"  # a linked pause's cause: the other is in its lobby, another game chosen
# Each game's menu options: (label, value names, rule flag).
OPTIONS = (
    (
        ("Win", ("first out", "100 points"), SCORING),
        ("Stocks", ("five", "four"), FOUR_STOCKS),  # V-1
        ("Slap", ("yes", "no"), NO_SLAP),  # V-2
        ("Alternate", ("no", "colours"), ALT_COLOURS),  # V-3 (not "Colours": the deck's colours are a style)
    ),
    (
        ("Win", ("first out", "50 points"), 1),  # engine.speed: SCORING to TARGET
        ("Sides", ("10 cards", "5 cards"), 2),  # engine.speed.SHORT_SIDES (SD-2b)
    ),
)
COUNTDOWN_MS = 3000  # from the last "ready" (or "resume") to the match going on
# The seats and deck (bits of App.style; the menu sets them).
FACING = 1  # player 1's half turned round, for a device lying between the players
FOUR_COLOURS = 2  # each suit its own colour
