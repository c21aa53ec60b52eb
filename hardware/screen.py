# The table on the screen: cards from sprite sheets, text only for words.
#
# The cards, the depth of each stock, the markers and every count are tiles of
# the sprite sheets (hardware/sprites.py), shown through displayio.TileGrid:
# a change is a tile index written in place, which allocates nothing and
# redraws only that tile; a card's rank and suit take its suit's ink (a
# palette a suit, hardware/screen_build.py). A card's paper is drawn in
# strips the width of the gap between cards, so it redraws without its gap;
# each stock's paper is a TileGrid of its own, hidden where the stock is empty
# (the table shows there). Each player's back edges under their stocks are
# one TileGrid (on the bigger screens a line of pixels a tile), and so are,
# on the small screen, the markers that point at a chosen card or the
# cursor. Text (tiles of the font: hardware/text.py) is the menu and
# game-over scene, and the status in the middle of the table, which changes
# only with the phase or the round.
#
# Player 1 sits at the top, player 0 at the bottom, the spit piles between,
# each with its size and an arrow to the player who spits on it (D-2). Beside
# them each player's counts: spit cards (Speed: draw stock) and Speed's side
# pile, and a star when they have called spit (turn). A refused move: a red
# bar and x beside its card (or an x for the pile), its reason in the middle.
# Facing each other, player 1's half is turned round, and with two people the
# words are shown twice, one copy turned (show_text, status_top).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stubs type it generic; this is the same function
        return x


import displayio

from engine.cards import NO_CARD
from engine.spit import CHOOSE, GAME_OVER, PLAY, READY, SCORING, SLAP, SPIT_CARDS, SPIT_PILES, STALEMATE

from .controls import NOTHING_CHOSEN, TAKEN
from .keymaps import PILE_0
from .sprites import (
    FOUR_COLOURS,
    GLYPH_ARROW_DOWN,
    GLYPH_ARROW_UP,
    GLYPH_BLANK,
    GLYPH_CROSS,
    GLYPH_DIGIT,
    GLYPH_SIDE_PILE,
    GLYPH_SPIT_CARDS,
    GLYPH_STAR,
    INKED_INK,
    MARK_BLANK,
    MARK_CHOSEN_DOWN,
    MARK_CHOSEN_UP,
    MARK_CURSOR_DOWN,
    MARK_CURSOR_UP,
    MARK_REFUSED,
    ROW_CHOSEN_DOWN,
    ROW_CHOSEN_UP,
    ROW_CURSOR_DOWN,
    ROW_CURSOR_UP,
    ROW_DEPTH,
    ROW_REFUSED,
    TILE_BACK,
    TILE_EMPTY,
    TILE_FACE,
    TWO_COLOURS,
)
from .text import Text
from .ticks import ticks_add, ticks_diff

FLASH_MS = 1000  # a refused move's cross and word stay this long
PLAYED_MS = 800  # the computer's stock it just played from stays marked this long
# One word for why a move was refused, by the engine's reason code (Spit's,
# Speed's), then the Controls' own: a pile key with nothing chosen, a race
# lost. "" where no word helps.
_SPIT_WHY = ("", "", "wait", "empty", "empty", "no fit", "colour", "full", "no use", "wait", "none", "wait")
_SPEED_WHY = ("", "", "wait", "empty", "no fit", "turned", "none")
_NONE = const(255)
_NO_STOCK = const(254)  # _stock: no stock here (four stocks, V-1)
_UNDRAWN = const(253)  # show_game: no card drawn at a place yet (cards are 0..51, NO_CARD 255)
_BACK = const(252)  # _stock: a hand card shown as its back (linked Speed: the other player's, SD-1)
# Speed's piles (engine.speed: stock p is pile p, side pile 2+p, play pile 4+k).
_SPEED_STOCK = const(0)
_SPEED_SIDE = const(2)
_SPEED_PILE = const(4)


class Screen:
    # Made by hardware/screen_build.py (annotations only: nothing at run time).
    colour: bool
    size: str  # of the sprites: "large", "medium" or "small"
    cols: int  # of the full-screen text, in characters
    rows: int
    text_scale: int
    root: displayio.Group
    table: displayio.Group
    scene: displayio.Group
    text: Text  # the full-screen text, and its copy turned round (text_top)
    text_top: Text
    status: Text  # the middle's words, and their two copies (status_top turned)
    status_top: Text
    status_low: Text
    big: "Text | None"  # the middle's mid-race word at twice the size (the bigger panels), upright
    big_top: "Text | None"  # and turned, over status_top
    stocks: list  # each player's grids: a stock's paper each, back edges, markers, counts
    depth: list
    marks: list
    info: list
    ranks: list
    suits: list
    piles: list  # the spit piles' grids
    pile_info: list
    pile_ranks: list
    pile_suits: list
    cards_sheet: displayio.Bitmap  # the paper (sprites.PAPER), in RAM
    face_inks: displayio.Palette  # its palettes: a face's, an empty place's, and a back's
    back_inks: displayio.Palette
    ranks_sheet: displayio.Bitmap  # inked (sprites.INKED), in RAM
    suits_sheet: displayio.Bitmap
    inks: list  # their palettes, one a suit
    rows_sheet: displayio.Bitmap  # in RAM, and its file's colours
    rows_inks: displayio.Palette
    marks_sheet: displayio.OnDiskBitmap
    glyph_sheet: displayio.OnDiskBitmap
    layout: dict  # the sprite size's measures
    card_y: tuple
    row_x: int
    gap: int
    side_at: int
    status_k: int
    row_lines: int  # the rows' height where a grid holds them a line a tile, else 0
    pitch: int  # the back edges' pitch in that grid
    strips: int  # strips of a place's paper (the last its gap)
    width: int  # the screen's
    # A keyboard's legend of its keys: (each player's Text, what each says), or
    # None. ("keys": a name the firmware's own, so none is interned for it.)
    keys: "tuple | None"

    def __init__(self, display, profile, folder=None):
        self.speed = False  # the game on the table is Speed (set by the App)
        self.names = ("bottom", "top")  # the players in table words (set by the App: "you", "CPU")
        self.opponent = ()  # type: tuple  # who plays the top half when the computer does, longest first
        self.facing = False
        self.bottom = 0  # the player seated at the bottom (set_style)
        self.twice = False  # set by the App: seats facing, two people at the device
        self.watched = 0  # set by the App: bit p for a computer player p, whose plays are marked
        self.worded = 3  # set by the App: bit p for a player whose refusals' reasons the middle says (linked: its own)
        self.secret = 0  # set by the App: bit p for a player whose Speed hand shows as backs (linked: the other's)
        self._flash_until = [None, None]  # when each player's refused mark goes out (None: not lit)
        self._refused = bytearray((_NONE, _NONE))  # where each player's refused mark is lit now
        self._status_why = 0  # the refusals the status shows (see show_game)
        # What show_game last drew at each card place (10 stocks, 2 piles), so a
        # move redraws only the places it changed: the card, the back edges
        # under it and its marker (_UNDRAWN, 255: nothing drawn yet).
        self._drawn_card = bytearray([_UNDRAWN] * 12)
        self._drawn_row = bytearray(b"\xff" * 12)
        self._drawn_mark = bytearray(b"\xff" * 12)
        self._refusals = bytearray(2)  # controls.refusals when each player's last refusal was lit
        self._newest = 0  # the player refused last: the middle names theirs first
        self._status_key = -1
        # What show_game last looked at: the game, its round, phase and pile
        # counts, and what marked each player's stocks (see show_game).
        self._seen_game = None  # type: object
        self._seen_round = 0
        self._seen_phase = 0
        self._seen = bytearray(14)
        self._mark_in = bytearray(b"\xff" * 10)
        self._mark_drawn = bytearray(b"\xff" * 10)
        # Drawn at the next call (show_game): bit i, place i (a mark left it,
        # its back edges); bit 10, the counts.
        self._later = 0
        self._drawn_cross = bytearray((GLYPH_BLANK, GLYPH_BLANK))
        self._drawn_refused = bytearray((_NONE, _NONE))
        self._drawn_star = 0
        # The sheets, the grids and the texts, laid out for the screen.
        from .screen_build import build

        build(self, display, profile, folder)

    # -- settings --

    def set_style(self, facing, four_colours, bottom=0):
        # Facing each other: player 1's half turned round (hardware/seats.py);
        # bottom: the player whose half is at the bottom (linked play: this
        # device's). A four-colour deck: four palette entries of the ranks and suits.
        from .seats import seat

        self.facing = facing
        self.bottom = bottom
        seat(self, facing, bottom)
        if self.colour:
            colours = FOUR_COLOURS if four_colours else TWO_COLOURS
            for suit in range(4):
                self.inks[suit][INKED_INK] = colours[suit]
        self._status_key = -1
        self._seen_game = None  # the markers' tiles turn with the style: look at everything

    def _marker(self, p, cursor):
        # The marker tile that points at player p's card. Player 0's marker
        # row is above their cards, player 1's below (turned round when facing);
        # on the small screen the markers take the depth row's place, whose
        # flips (set_style) turn them the right way.
        down = self.size == "small" or p == self.bottom or self.facing
        if self.size == "small":
            if cursor:
                return ROW_CURSOR_DOWN if down else ROW_CURSOR_UP
            return ROW_CHOSEN_DOWN if down else ROW_CHOSEN_UP
        if cursor:
            return MARK_CURSOR_DOWN if down else MARK_CURSOR_UP
        return MARK_CHOSEN_DOWN if down else MARK_CHOSEN_UP

    # -- scenes --

    def show_text(self, lines, twice=False, chosen=-1):
        # A full-screen text scene: the menu (its lines fit), the pause and
        # game over (hardware/pages.py pages them). twice: for both players
        # (self.twice), the top half turned round. chosen: a list's chosen
        # row (its line starts with ">"): a row a call, the chosen one
        # first, once the scene shows (Text.show); returns how many rows are
        # left to draw.
        first = chosen >= 0 and not self.scene.hidden  # (the scene's first frame draws all of the screen anyway)
        self.table.hidden = True
        self.scene.hidden = False
        if twice:
            self.text_top.show(lines)
        self.text_top.group.hidden = not twice
        self.text.group.y = self.rows // 2 * 12 * self.text_scale if twice else 0
        return self.text.show(lines, chosen, first)

    def show_game(self, game, controls, now_ms):
        # The table as the game and the players' half-made moves are now.
        # Returns when to draw again for a flash to go out, or None.
        #
        # Only what changed since the last call is looked at (every Python
        # step costs tens of microseconds on a board): a place's top card
        # changes only with the pile counts (both engines: Speed's hand with
        # its draw stock or a play pile) or the round, and a pile's face with
        # the phase (Speed's lie face down while READY); a marker only with
        # the players' half-made moves, a refusal or the computer's last play
        # (_mark_in). A new game or round, the table shown again or a new
        # style look at everything.
        if self.table.hidden:
            self.scene.hidden = True
            self.table.hidden = False
            self.text.forget()  # (the scene's lines are not kept through a match)
            self.text_top.forget()
            self._status_key = -1
            self._seen_game = None
        n = game.counts
        seen = self._seen
        phase = game.phase
        playing = phase == PLAY
        full = game.round != self._seen_round or game is not self._seen_game
        turned = phase != self._seen_phase
        if turned:
            self._seen_phase = phase
        if full:
            self._seen_game = game
            self._seen_round = game.round
            if self.keys is not None:  # a keyboard's keys, the first round, for who plays at it
                texts, words = self.keys
                one = self.worded != 3  # (linked: this device's player, whichever seat, plays player 0's keys)
                for p in range(2):
                    keys = game.round < 2 and self.worded >> p & 1 and not self.watched >> p & 1
                    if keys:
                        texts[p].show(words[0 if one else p].split("\n"))
                    texts[p].group.hidden = not keys
            if len(seen) != len(n):
                self._seen = seen = bytearray(len(n))  # (a new game: not while one is played)
        # Cards first: a frame that changes a card (a play, a turn, a new
        # round) draws the cards and the marks that light; the counts, the
        # back edges, a marker going out, the middle's words and, at a new
        # round, the spit piles it empties come at the next pass, a few ms
        # later (displayio composes each changed grid's area in turn: what
        # the press's frame leaves out reaches the screen before it). A
        # refusal's word likewise follows its mark at the card.
        held = full or n != seen or self.speed and turned
        hold_words = held
        # A refused move: a red cross at the card (or pile) for FLASH_MS, and
        # its reason in the middle; where it has no place, beside the count.
        # Only a refusal not lit before lights it (a player's old reason stays
        # in controls.result while the other plays on).
        if controls is not None:
            counts = controls.refusals
            lit = self._refusals
            if counts != lit:
                hold_words = True
                for p in range(2):
                    if counts[p] != lit[p]:
                        lit[p] = counts[p]
                        self._flash_until[p] = ticks_add(now_ms, FLASH_MS)
                        if self.worded >> p & 1:
                            self._newest = p
        redraw_at = None
        refused = self._refused
        mark_in = self._mark_in
        flash = self._flash_until
        drawn_cross = self._drawn_cross
        for p in range(2):
            until = flash[p]
            r = _NONE
            cross = GLYPH_BLANK
            if until is not None:
                if ticks_diff(until, now_ms) <= 0:
                    flash[p] = None  # out (an old time would read as the future once the clock wraps)
                else:
                    if redraw_at is None or ticks_diff(until, redraw_at) < 0:
                        redraw_at = until
                    if controls is not None:
                        r = controls.refused[p]
                    if r == _NONE:
                        cross = GLYPH_CROSS
            refused[p] = r
            if drawn_cross[p] != cross or full:
                drawn_cross[p] = cross
                _put(self.info[p], 7, cross)
            # What marks player p's stocks: the refusal, the computer's last
            # play, a chosen card or slot, the cursor.
            b = p * 5
            mark_in[b] = r
            played = _NONE
            if self.watched >> p & 1 and controls is not None and controls.played[p] != _NONE:
                at = controls.played_at[p]
                if 0 <= ticks_diff(now_ms, at) < PLAYED_MS:
                    played = controls.played[p]  # the computer just played from here
                    until = ticks_add(at, PLAYED_MS)
                    if redraw_at is None or ticks_diff(until, redraw_at) < 0:
                        redraw_at = until
            mark_in[b + 1] = played
            if playing and controls is not None:
                mark_in[b + 2] = controls.chosen[p]
                mark_in[b + 3] = controls.slot[p]
                mark_in[b + 4] = controls.cursor[p] if controls.cursor_mode else _NONE
            else:
                mark_in[b + 2] = mark_in[b + 3] = mark_in[b + 4] = _NONE
        # The stocks to look at: bit i for place i (player i // 5, stock i % 5).
        drawn_in = self._mark_drawn
        changed = n != seen
        again = self._later >> 10  # (the counts a held frame left: see below)
        if full or self.speed and changed:
            dirty = 0x3FF
            self._later = 0
            for j in range(10):
                drawn_in[j] = mark_in[j]
        else:
            dirty = 0
            gone = 0
            if mark_in != drawn_in:  # the stocks marked before and now
                for j in range(10):
                    if mark_in[j] != drawn_in[j]:  # (one line a mark that stays: a step costs 10 us on a Pico)
                        now_at = mark_in[j]
                        was_at = drawn_in[j]
                        drawn_in[j] = now_at
                        b = j - j % 5
                        if now_at < 5:
                            dirty |= 1 << (b + now_at)
                        if was_at < 5:
                            gone |= 1 << (b + was_at)
            if changed:
                for i in range(10):
                    if n[i] != seen[i]:
                        dirty |= 1 << i
            # A player's rows are one grid, and displayio composes the span
            # between two changed tiles of a grid: a mark moving along the
            # row (a refusal at another card, the cursor) would redraw the
            # row between them. So where a stock of its row gains a mark or
            # a card now, the place a mark left is drawn at the next call
            # (the next pass, a few ms later): the press's own change first.
            later = 0
            if gone & ~dirty:
                for half in (0x1F, 0x3E0):
                    if dirty & half:
                        later |= gone & half & ~dirty
            dirty |= (gone & ~later) | (self._later & 0x3FF)  # (and what the last call left)
            self._later = later
            if later:
                redraw_at = now_ms
        if held:  # (their back edges at the next call, and the counts: bit 10)
            self._later |= dirty | 0x400
            redraw_at = now_ms
        rows = held and self.marks  # (the small screen's rows hold its markers: drawn now)
        i = 0 if dirty & 0x1F else 5  # (player 1's places alone: from their first)
        dirty >>= i
        while dirty:
            if dirty & 1:
                self._stock(game, i // 5, i % 5, i, n, mark_in, rows)
            dirty >>= 1
            i += 1
        first = _SPEED_PILE if self.speed else SPIT_PILES
        crossed = refused[0] != self._drawn_refused[0] or refused[1] != self._drawn_refused[1]
        for k in range(2):
            j = first + k
            if not full and (turned or again or n[j] != seen[j]):  # (a new round's: a pass later, with the counts)
                self._pile(game, k, j, held)
            if crossed or again and not held:
                self._pile_arrow(k, n[j])
        self._drawn_refused[0] = refused[0]
        self._drawn_refused[1] = refused[1]
        star = game.called if phase == READY or phase == STALEMATE else 0  # who has called spit (turn)
        # (a play changes none of these in Spit: its counts are the spit cards')
        counted = changed and (
            self.speed or n[SPIT_CARDS] != seen[SPIT_CARDS] or n[SPIT_CARDS + 1] != seen[SPIT_CARDS + 1]
        )
        if not held and (full or again or star != self._drawn_star or counted):  # (held: at the next call)
            full = full or again
            for p in range(2):
                info = self.info[p]
                if full or star != self._drawn_star:
                    _put(info, 3, GLYPH_STAR if star & (1 << p) else GLYPH_BLANK)
                if self.speed:
                    a = _SPEED_STOCK + p
                    b = _SPEED_SIDE + p
                    if full or n[a] != seen[a] or n[b] != seen[b]:
                        _count(info, 0, GLYPH_SPIT_CARDS, n[a])
                        _count(info, self.side_at, GLYPH_SIDE_PILE, n[b])
                else:
                    a = SPIT_CARDS + p
                    if full or n[a] != seen[a]:
                        _count(info, 0, GLYPH_SPIT_CARDS, n[a])
                    if full:
                        for i in range(self.side_at, self.side_at + 3):
                            _put(info, i, GLYPH_BLANK)
        if not held:
            self._drawn_star = star
        if changed or full:
            seen[:] = n  # (a slice the VM keeps on its stack: nothing allocated)
        why = self._newest  # (which reason comes first)
        for p in range(2):
            if self._flash_until[p] is not None and controls is not None and self.worded >> p & 1:
                why = why * 256 + controls.result[p] + 1
        key = ((game.round & 0xFFFF) * 8 + phase) * 4 + (
            game.winner + 1 if phase == GAME_OVER else game.chooser + 1 if phase == CHOOSE else 0
        )
        if hold_words and (key != self._status_key or why != self._status_why):
            redraw_at = now_ms  # (the next call)
        elif key != self._status_key or why != self._status_why:  # with the phase, the round or a refusal, not a move
            big = self.big
            # The lines, unless only a refusal changed where it is shown big
            # (the lines below it stay as they are: nothing to look at).
            lines = key != self._status_key or big is None
            self._status_key = key
            self._status_why = why
            twice = self.twice
            self.status.group.hidden = twice
            self.status_top.group.hidden = not twice
            self.status_low.group.hidden = not twice
            prompt = self.status_text(game) if lines else ""
            if not twice:
                if lines:
                    self.status.show((prompt, (not big and self.why_text(controls, -1)) or self.info_text(game)))
                if big is not None:
                    # A refusal's word in the refused player's half (its mark
                    # at their card says whose too), SLAP! in the middle.
                    word = self.why_text(controls, -1, big.cols)
                    y = self.status.group.y
                    if word:
                        p = self._newest if self._flash_until[self._newest] is not None else self._newest ^ 1
                        y = (self.status_low if p == self.bottom else self.status_top).group.y
                    elif phase == SLAP:
                        word = "SLAP!"
                    self._show_big(big, word, y)
                    self._show_big(self.big_top, "", self.status_top.group.y)
            else:  # each player's own reason, without the arrow that says whose
                for p, text, copy in ((0, self.status_low, big), (1, self.status_top, self.big_top)):
                    if lines:
                        said = "" if copy else self.why_text(controls, p)
                        text.show(
                            (prompt, said or self.info_text(game, p)) if self.status_k == 2 else (said or prompt,)
                        )
                    if copy is not None:
                        word = self.why_text(controls, p, copy.cols) or ("SLAP!" if phase == SLAP else "")
                        self._show_big(copy, word, text.group.y)
        return redraw_at

    def _show_big(self, big, word, y):
        # A big copy of the middle (Screen.big) shows word centred at y, or
        # is hidden where word is "" (blank, where it was: a hidden grid's
        # cells cost no drawing, and shown again it is drawn whole). Moved
        # while hidden, the firmware would compose the place it left too
        # when it shows again: its TileGrid.c keeps a hidden grid's area as
        # drawn at every other refresh, and a grid moved from a drawn area
        # composes both.
        if word:
            if big.group.y != y:
                big.group.y = y
            big.show((" " * ((big.cols - len(word)) // 2) + word,))
            if big.group.hidden:
                big.group.hidden = False
        elif not big.group.hidden:
            big.group.hidden = True
            big.show(())

    def _stock(self, game, p, s, i, n, mark_in, held):
        # Stock s of player p (place i): its card, the back edges under it
        # (held: not yet, see show_game) and its marker, each redrawn only
        # where it changed.
        mark = -1
        if s >= game.stocks:
            card = _NO_STOCK
            row = ROW_DEPTH
        else:
            if self.speed:
                card = game.hand(p, s)
                if card < 52 and self.secret >> p & 1:
                    card = _BACK
                hidden = 0
            else:
                card = game.top(i)
                hidden = n[i] - 1 if n[i] else 0
            b = p * 5
            if mark_in[b] == s:
                mark = MARK_REFUSED if self.marks else ROW_REFUSED
            elif mark_in[b + 1] == s or mark_in[b + 2] == s or mark_in[b + 3] == s:
                mark = self._marker(p, False)  # chosen, or the computer just played from here
            elif mark_in[b + 4] == s:
                mark = self._marker(p, True)
            row = ROW_DEPTH + hidden if self.marks or mark < 0 else mark
            if mark_in[b] == s:
                row = ROW_REFUSED  # a red bar the card's width beside it (a few hundred pixels, quick)
        if self.marks and mark < 0:
            mark = MARK_BLANK
        was = self._drawn_card[i]
        if was != card:
            self._drawn_card[i] = card
            paper = self.stocks[p][s]
            rank = self.ranks[p][s]
            suit = self.suits[p][s]
            if card < 52:
                if was < 52:
                    self._show_card(paper, rank, suit, card, False, was)  # a face on a face
                else:
                    self._stock_paper(paper, False)
                    paper.hidden = False
                    self._show_face(rank, suit, card)
            elif card == _BACK:
                self._stock_paper(paper, True)
                paper.hidden = False
                rank.hidden = True
                suit.hidden = True
            elif not paper.hidden:  # (its rank and suit are shown and hidden with it)
                # No card: the table, nothing to compose (a taken card's
                # place redraws in a sixth of the time its paper would).
                paper.hidden = True
                rank.hidden = True
                suit.hidden = True
        was = self._drawn_row[i]
        if was != row and not held:
            self._drawn_row[i] = row
            if self.row_lines:
                self._row(self.depth[p], s, was, row)
            else:
                _put(self.depth[p], s, row)
        if self.marks and self._drawn_mark[i] != mark and not (held and mark == MARK_BLANK):
            self._drawn_mark[i] = mark
            _put(self.marks[p][s], 0, mark)

    def _stock_paper(self, paper, back):
        # A stock's paper as a face, or (linked Speed's other hand) a back:
        # the face's tiles through the back's inks, its paper the back's
        # colour (the back's own tile does not lie on the stock grid's tiles).
        inks = self.back_inks if back else self.face_inks
        if paper.pixel_shader is not inks:
            paper.pixel_shader = inks

    def _row(self, grid, s, was, row):
        # Stock s's row (ROW_DEPTH + k back edges, or ROW_REFUSED) in a grid of
        # one-pixel lines (screen_build): line r of the rows sheet's tile t is
        # tile (t // 5 * h + r) * 5 + t % 5. A line with an edge is that line
        # of the four-edge tile, one without it the no-edge tile's; one edge
        # more or less writes that one line.
        h = self.row_lines
        pitch = self.pitch
        edge = ROW_DEPTH + 4  # (both tiles in the sheet's first row)
        k = row - ROW_DEPTH
        if ROW_DEPTH <= was <= edge and ROW_DEPTH <= row <= edge:
            j = was - ROW_DEPTH
            end = k
            if k < j:
                j, end = k, j
            while j < end:  # edge j lies on line h - 1 - j * pitch
                r = h - 1 - j * pitch
                grid[r * 5 + s] = r * 5 + (edge if j < k else ROW_DEPTH)
                j += 1
            return
        for r in range(h):
            if row == ROW_REFUSED:
                t = (ROW_REFUSED // 5 * h + r) * 5 + ROW_REFUSED % 5
            else:
                up = h - 1 - r
                t = r * 5 + (edge if up % pitch == 0 and up // pitch < k else ROW_DEPTH)
            _put(grid, r * 5 + s, t)

    def _pile(self, game, k, j, held):
        # Spit pile k (Speed's play pile; pile j of the game): its card, face
        # down while Speed's wait, and its count (held: at the next call).
        card = game.top(j)
        face_down = self.speed and game.phase == READY  # Speed's middle cards wait face down
        drawn = self._drawn_card
        was = drawn[10 + k]
        was_down = self._drawn_row[10 + k]
        if was != card or was_down != face_down:
            drawn[10 + k] = card
            self._drawn_row[10 + k] = face_down
            self._show_card(
                self.piles[k], self.pile_ranks[k], self.pile_suits[k], card, face_down, _UNDRAWN if was_down else was
            )
        if not held:
            self._pile_arrow(k, game.counts[j])

    def _pile_arrow(self, k, size):
        # The pile's size and the arrow to who spits on it (D-2); a cross for
        # a pile key pressed with no card chosen.
        arrow = GLYPH_BLANK if not size else GLYPH_ARROW_DOWN if k == self.bottom else GLYPH_ARROW_UP
        if self.speed:
            arrow = GLYPH_BLANK  # Speed's play piles belong to nobody
        refused = self._refused
        if refused[0] == PILE_0 + k or refused[1] == PILE_0 + k:
            arrow = GLYPH_CROSS
        _count(self.pile_info[k], 0, arrow, size)

    def why_text(self, controls, player, cols=0):
        # The reason of a refused move still flashing: player's (-1: either's,
        # the newest first, with who it is for: their name, else the side's
        # arrow, "v" bottom or "^" top), where it fits in cols (0: the
        # middle's line). Only a worded player's (linked play: a device
        # says why its own player's move was refused; the other's shows
        # at their card).
        for q in range(2):
            p = q ^ self._newest
            if self._flash_until[p] is None or controls is None or player >= 0 and p != player:
                continue
            if not self.worded >> p & 1:
                continue
            r = controls.result[p]
            words = _SPEED_WHY if self.speed else _SPIT_WHY
            word = "pick" if r == NOTHING_CHOSEN else "taken" if r == TAKEN else words[r] if r < len(words) else ""
            if not word:
                continue
            if player >= 0:
                return word
            return self._first_fit((self.names[p] + ": " + word, word), cols)  # (else the mark says whose)
        return ""

    def _first_fit(self, forms, cols=0):
        # The first of forms that fits in cols (0: the middle's line), else "".
        for text in forms:
            if len(text) <= (cols or self.status.cols):
                return text
        return ""

    def _show_card(self, paper, rank, suit, card, face_down, was):
        # A card's three layers: a card played changes only its rank and suit
        # (and their ink, with the suit). A back (a pile's) is the paper
        # through the back's inks. was: the card drawn there before, if face
        # up (else _UNDRAWN). (A stock's paper only ever shows a face: _stock
        # hides it where no card is, and shows it with _show_face.)
        if was < 52 and card < 52 and not face_down:
            # A face on a face, the commonest change (a play, a card turned up):
            # what the grids show is known from was, so only the tiles and
            # ink that differ are written; nothing is read back from them.
            s = card // 13
            if s != was // 13:
                ink = self.inks[s]
                rank.pixel_shader = ink
                suit.pixel_shader = ink
                suit[0] = s
            if card % 13 != was % 13:
                rank[0] = card % 13
            return
        none = card == NO_CARD
        back = face_down and not none
        inks = self.back_inks if back else self.face_inks
        if paper.pixel_shader is not inks:
            paper.pixel_shader = inks
        self._paper(paper, TILE_EMPTY if none else TILE_BACK if back else TILE_FACE)
        if none or back:
            # Hidden, not a clear tile: displayio then skips the two grids
            # where it composes the paper (a clear pixel costs as much as
            # one drawn, and the paper below it again).
            if not rank.hidden:
                rank.hidden = True
                suit.hidden = True
            return
        self._show_face(rank, suit, card)

    def _show_face(self, rank, suit, card):
        # A face's rank and suit grids show card, in its suit's ink.
        ink = self.inks[card // 13]
        if rank.pixel_shader is not ink:
            rank.pixel_shader = ink
            suit.pixel_shader = ink
        _put(rank, 0, card % 13)
        _put(suit, 0, card // 13)
        if rank.hidden:
            rank.hidden = False
            suit.hidden = False

    def _paper(self, grid, tile):
        # A pile's paper, the cards sheet's `tile`, as the grid's strips
        # (screen_build): all but the last, the gap, which stays as it is.
        per = self.strips
        first = tile * per
        if grid[0] != first:
            for c in range(per - 1):
                grid[c] = first + c

    def status_text(self, game):
        # The prompt: what to do now (short forms where the middle is narrow).
        ph = game.phase
        short = self.status.cols < 8
        if ph == READY or ph == STALEMATE:
            return "TURN!" if self.speed else "SPIT!"
        if ph == PLAY:
            return ("R%d" if short else "Round %d") % game.round
        if ph == SLAP:
            return "SLAP!"
        if ph == CHOOSE:
            return self._fit("%s picks", "%s?", game.chooser)
        if ph == GAME_OVER:
            return self._fit("%s won", "%s won", game.winner)
        return ""

    def _fit(self, long, short, p):
        # Player p in table words (names), in the long form when it fits the
        # middle, else the short one, else with the name's initial.
        name = self.names[p]
        return self._first_fit((long % name, short % name)) or short % name[0].upper()

    def info_text(self, game, player=-1):
        # Scores while they count; else a stalemate, or the last round's result
        # (which pile each player took, counted from 1 as the buttons are)
        # while the next one waits. player: the words for that player's own
        # copy (seats facing), else for the table.
        if game.rules & SCORING:
            return "%d:%d" % (game.scores[0], game.scores[1])
        if game.phase == STALEMATE:
            return self._first_fit(("nobody can play", "no plays", "no play"))
        if self.speed or game.phase != READY or game.round < 2:
            if not self.opponent and not self.speed and game.phase == PLAY and game.round < 2:  # (a free line)
                # What the arrow under each pile says in the first round: it
                # points at who spits on it (D-2).
                return self._first_fit(("arrow at you: your pile", "arrow at you: yours"))
            return self._first_fit(self.opponent)  # the computer: its level and its side of the table
        took = game.took
        if player < 0:  # one player's pile says both (each took one, or one took none): the shorter name
            names = self.names
            p = 1 if took[0] == _NONE or took[1] != _NONE and len(names[1]) < len(names[0]) else 0
            name = names[p]
            pile = took[p] + 1
            return self._first_fit(
                (
                    "%s took pile %d" % (name, pile),
                    "%s: pile %d" % (name, pile),
                    "%s:pile%d" % (name, pile),
                    "%s:pile%d" % (name[0].upper(), pile),
                )
            )
        if took[player] == _NONE:  # their own pile (the other player took the other one)
            return self._first_fit(("you took no pile", "took no pile", "took none"))
        pile = took[player] + 1
        return self._first_fit(("you took pile %d" % pile, "took pile %d" % pile, "pile %d" % pile))


def _put(grid, i, tile):
    # A tile index, written only when it changes.
    if grid[i] != tile:
        grid[i] = tile


def _count(grid, at, icon, n):
    # An icon and a two-digit count from tile at on (_put written out: a
    # call costs more than the test on a board).
    if grid[at] != icon:
        grid[at] = icon
    t = GLYPH_BLANK if n < 10 else GLYPH_DIGIT + (n // 10) % 10
    if grid[at + 1] != t:
        grid[at + 1] = t
    t = GLYPH_DIGIT + n % 10
    if grid[at + 2] != t:
        grid[at + 2] = t
