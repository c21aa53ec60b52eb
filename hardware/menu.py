# The menu: what its lines say and what its keys do, for the App
# (hardware/app.py); the match its "go" starts, and the game over scene after
# one. Loaded while the menu shows (and from game over); a match forgets it
# (hardware.forget), so the match has its heap.

from engine.spit import SCORING, Game

from . import forget, storage
from .app import COUNTDOWN_MS, DEMO, FACING, FOUR_COLOURS, GAMES, MATCH, OPTIONS, OVER, PLAYERS
from .feedback import MENU as MENU_SOUND
from .keymaps import NEXT, PILE_0, PREV, STOCK_0
from .ticks import ticks_add


# What a line of the menu is.
_RESUME = 0
_GAME = 1
_PLAYERS = 2
_SEATS = 3
_DECK = 4
_TALLY = 5
_SOUND = 6
_LIGHTS = 7
_OPTION = 10  # + the index of the game's option


def load(app):
    # What survives power loss, at start-up: the settings, the tally and a
    # match saved between rounds (offered on the first line).
    store = app.store
    if store is not None:
        settings = store.load(storage.SETTINGS)
        if settings is not None and len(settings) >= 4 and settings[0] < 2 and not settings[1] & ~15:
            app.kind = settings[0]
            app.rules_of[0] = settings[1]
            app.players = settings[2] if settings[2] < len(PLAYERS) else 0
            app.rules_of[1] = settings[3] & 3
            app.style = settings[4] & 3 if len(settings) >= 5 else 0  # older records: none
            if len(settings) >= 6:
                app.sound = min(settings[5] & 3, 2)
                app.lights = 0 if settings[5] & 4 else 1
        tally = store.load(storage.TALLY)
        if tally is not None and len(tally) == 20:
            app.tally = [tally[2 * i] | tally[2 * i + 1] << 8 for i in range(10)]
        payload = store.load(storage.MATCH)
        if payload is not None:
            from engine import record

            try:
                app.saved = record.decode(payload)
            except ValueError as e:
                print("saved match ignored: %s" % e)
            forget("engine.record")
    app.apply_style()
    app.feedback.set(app.sound, app.lights == 1)


def items(app):
    # What each line of the menu that can be chosen is: resume (when a
    # match is saved), the game, the players, the game's options, the seats
    # and (on colour screens) the deck.
    out = [_RESUME] if app.saved is not None else []
    out += [_GAME, _PLAYERS] + [_OPTION + i for i in range(len(OPTIONS[app.kind]))] + [_SEATS]
    if app.profile["colour"]:
        out.append(_DECK)
    out.append(_SOUND)
    if app.feedback.pixels is not None:
        out.append(_LIGHTS)
    return out + [_TALLY]


def item_text(app, item):
    if item == _RESUME:
        g = app.saved
        assert g is not None  # the item is there only with a saved match
        if g.rules & SCORING:  # the points say how far it went
            return "Resume %s %d:%d" % (GAMES[g.kind], g.scores[0], g.scores[1])
        return _fit(("Resume %s round %d" % (GAMES[g.kind], g.round), "Resume %s R%d" % (GAMES[g.kind], g.round)),
                    app.screen.cols - 1)
    if item == _GAME:
        return "Game: " + GAMES[app.kind]
    if item == _PLAYERS:
        return "Players: " + PLAYERS[app.players]
    if item == _SEATS:
        return "Seats: " + ("facing" if app.style & FACING else "side by side")
    if item == _DECK:
        return "Deck: " + ("4 colours" if app.style & FOUR_COLOURS else "2 colours")
    if item == _SOUND:
        return "Sound: " + ("off", "low", "high")[app.sound]
    if item == _LIGHTS:
        return "Lights: " + ("on" if app.lights else "off")
    if item == _TALLY:
        return "Clear tally? again" if app._clearing else _tally_item(app)
    label, names, flag = OPTIONS[app.kind][item - _OPTION]
    return "%s: %s" % (label, names[1 if app.rules & flag else 0])


def save_settings(app):
    if app.store is not None:
        # game (0 Spit, 1 Speed), Spit's rules, players/difficulty, Speed's rules, seats and
        # deck, sound volume and lights off
        app.store.save(storage.SETTINGS, bytes((app.kind, app.rules_of[0], app.players, app.rules_of[1],
                                                app.style, app.sound | (0 if app.lights else 4))))


def save_tally(app):
    if app.store is not None:
        app.store.save(storage.TALLY, bytes(b for n in app.tally for b in (n & 255, n >> 8)))


def count_win(app, winner):
    # A finished match in the tally: two people, or the person (player 0)
    # against the computer at its level; the computer against itself is not.
    if app.players == DEMO:
        return
    i = 2 * app.players + winner  # (two people's first, then each level's)
    app.tally[i] = min(app.tally[i] + 1, 0xFFFF)
    save_tally(app)


def tally_forms(app):
    # The tally for the players chosen now (not a demo), longest form first:
    # "bottom 3 : 2 top", "bottom 3:2 top", "3:2"; "you 5 : 7 Hard", "you
    # 5:7 Hard", "you 5:7 CPU", "5:7". Who won how many matters more than
    # the spaces or a label: a line takes the longest that fits (_fit).
    a = app.tally[2 * app.players]
    b = app.tally[2 * app.players + 1]
    if not app.players:
        return ("bottom %d : %d top" % (a, b), "bottom %d:%d top" % (a, b), "%d:%d" % (a, b))
    level = PLAYERS[app.players][3:]
    return ("you %d : %d %s" % (a, b, level), "you %d:%d %s" % (a, b, level), "you %d:%d CPU" % (a, b),
            "%d:%d" % (a, b))


def _tally_item(app):
    # "Tally bottom 3 : 2 top", else "Won bottom 3:2 top", else the shorter forms.
    if app.players == DEMO:
        return _fit(("Tally none in a demo", "No tally in a demo"), app.screen.cols - 1)
    forms = tally_forms(app)
    return _fit(("Tally " + forms[0], "Won " + forms[1]) + forms[1:], app.screen.cols - 1)


def _fit(forms, room):
    # The first form of at most room characters, else the last: nothing is
    # cut off on the screen (a menu line has the screen's columns less the
    # chosen line's ">").
    for text in forms:
        if len(text) <= room:
            break
    return text


def lines(app):
    options = [(">" if i == app.item else " ") + item_text(app, item) for i, item in enumerate(items(app))]
    rows = app.screen.rows
    room = rows - 2 if rows < 10 else rows - 3  # a small OLED: only the lines around the chosen one
    # The list turns a page only when the chosen line would leave it: every
    # line of a turned page is drawn anew (about 0.2 s on a Pico's 240 x 240
    # panel), a move within the page only two.
    top = max(0, min(app.menu_top, len(options) - room))
    if app.item < top:
        top = max(0, app.item - room + 1)
    elif app.item >= top + room:
        top = min(app.item, len(options) - room)
    app.menu_top = top
    options = options[top : top + room]
    # How to use it, in the words of its buttons (counted from 1, as on the table).
    if app.profile["cursor"]:  # the PyBadge (see _menu_press)
        hint = ["up/down move, A go", "left/right or B change"]
    else:
        hint = ["move: stock 1 / 2", "pile 1 change, 2 go"]
    head = [] if rows < 10 else ["SPIT & SPEED"]  # (no room on a small OLED)
    return head + options + [""] * (room - len(options)) + hint


def press(app, player, action):
    app.feedback.event(MENU_SOUND, player, app.controls.now)
    if app.profile["cursor"]:
        # A PyBadge's menu as its buttons say: the D-pad's Up and Down
        # move, Left and Right change; B (and Select) change, A (and
        # Start) go. In a match the same keys are piles and the cursor.
        if player == 0:
            action = PREV if action == PILE_0 else NEXT if action == PILE_0 + 1 else PILE_0
        else:
            action = PILE_0 + 1 if action == PILE_0 + 1 or action == NEXT else PILE_0
    choices = items(app)
    item = choices[app.item]
    clearing = app._clearing
    app._clearing = False
    if action == PREV or action == STOCK_0:
        app.item = (app.item - 1) % len(choices)
    elif action == NEXT or action == STOCK_0 + 1:
        app.item = (app.item + 1) % len(choices)
    elif action == PILE_0 + 1:
        app._start = True
    elif action != PILE_0 or item == _RESUME:
        return
    elif item == _GAME:
        app.kind ^= 1
    elif item == _PLAYERS:
        # The seats that fit who plays (still changeable on their line):
        # two people face each other across the device; one person plays
        # the computer from one side, every card upright for them.
        app.players = (app.players + 1) % len(PLAYERS)
        app.style = app.style & ~FACING | (0 if app.players else FACING)
        app.apply_style()
    elif item == _SEATS or item == _DECK:
        app.style ^= FACING if item == _SEATS else FOUR_COLOURS
        app.apply_style()
    elif item == _SOUND or item == _LIGHTS:
        if item == _SOUND:
            app.sound = (app.sound + 1) % 3
        else:
            app.lights ^= 1
        app.feedback.set(app.sound, app.lights == 1)
    elif item == _TALLY:
        app._clearing = not clearing  # the second press clears
        if clearing:
            app.tally = [0] * 10
            save_tally(app)
        return
    else:
        app.rules_of[app.kind] ^= OPTIONS[app.kind][item - _OPTION][2]
    if action == PILE_0:
        save_settings(app)


# -- the match "go" starts, and the scene after it --


def start_match(app, now_ms):
    # A new match of the game, rules and players chosen.
    seed = (app.seed if app.seed is not None else now_ms) + app.matches
    if app.kind:
        from engine import speed  # loaded only for a Speed match

        play(app, speed.Game(seed, app.rules), now_ms)
    else:
        play(app, Game(seed, app.rules), now_ms)


def begin(app, game, now_ms):
    # A match from a given position (SPIT_START), with the players chosen.
    app.kind = game.kind
    app.rules_of[game.kind] = game.rules
    play(app, game, now_ms)


def resume_match(app, now_ms):
    # The saved match, after the same 3-second countdown as a pause has,
    # so whoever pressed "go" gets no head start.
    g = app.saved
    assert g is not None  # "Resume" is offered only with a saved match
    app.kind = g.kind
    app.rules_of[app.kind] = g.rules
    play(app, g, now_ms)
    from . import pause

    pause.start(app, now_ms)
    app._resume_at = ticks_add(now_ms, COUNTDOWN_MS)
    pause.step(app, now_ms)


def play(app, game, now_ms):
    # The match on the table: the screen's names, the computer players, and
    # the first save. This module is forgotten: the match has its heap.
    forget("hardware.menu")  # loaded again when the menu shows
    forget("hardware.seats")  # (and the seats' layout, when the style is set)
    app.end_scene()  # (and the scenes' words)
    app.game = game
    screen = app.screen
    screen.speed = app.kind == 1
    screen.names = (app.who(0, True), app.who(1, True))
    screen.twice = app._twice()
    players = app.players
    screen.watched = 3 if players == DEMO else 2 if players else 0  # the computer's plays
    name = PLAYERS[players][3:]  # the computer's level: "Hard"
    screen.opponent = (() if not players else ("demo: CPU v CPU", "demo") if players == DEMO
                       else ("top: CPU " + name, "^ CPU " + name, "CPU " + name, name))
    seed = game.rng.s1
    app.computer = None
    if players:  # the computer's players, its moves and presses (not loaded for two people)
        from engine.bot import Bot

        from .computer import Computer

        speed = app.kind == 1
        bots = ([Bot(0, 3, seed, speed), Bot(1, 2, seed + 1, speed)] if players == DEMO
                else [None, Bot(1, players - 1, seed, speed)])
        app.computer = Computer(bots, app.controls, app.key_of)
    else:
        for name in ("hardware.computer", "hardware.plan", "engine.bot"):
            forget(name)
    forget("hardware.keymaps")  # (the menu's and the plan's key names are copied into them)
    app.controls.muted = app.computer.plays() if app.computer else 0  # the computer's side takes no keys
    app.controls.call = game.call
    app.saved = None
    app.item = 0
    app.matches += 1
    app.mode = MATCH
    app._saved_round = 0
    app._save_match()
    app._flush(now_ms)
    app._draw_match(now_ms)


def game_over(app, now_ms):
    # The match is won: the tally counts it and the saved match goes. The
    # App shows the scene that says who won (over_lines) once the winning
    # play has been seen (WON_MS); any key after OVER_GRACE_MS: the menu.
    app.mode = OVER
    app._over_at = now_ms
    if app.store is not None:
        app.store.clear(storage.MATCH)
    count_win(app, app.game.winner)


def over_lines(app):
    # The game over scene's words.
    g = app.game
    assert g is not None
    roomy = app.screen.rows >= 10  # (a small screen shows them a page at a time, without the blank lines)
    winner = app.who(g.winner)
    lines = ["GAME OVER", ("You win" if winner == "you" else winner[0].upper() + winner[1:] + " wins")]
    lines.append("after %d round%s" % (g.round, "" if g.round == 1 else "s"))
    if g.rules & SCORING:
        lines.append("points %d : %d" % (g.scores[0], g.scores[1]))
    if app.players != DEMO:  # a demo is not counted
        forms = tally_forms(app)
        lines.append(_fit(("tally " + forms[0],) + forms, app.screen.cols))  # never cut short
    lines.append("any key: menu")
    if roomy:
        lines.insert(1, "")
        lines.insert(len(lines) - 1, "")
    return lines
