# The table on the screen: displayio groups of bitmap_label labels.
#
# Every label is made once, with a fixed number of characters, so a change
# re-renders that label's bitmap in place and displayio refreshes only its
# area: a move redraws the few cells it changed, never the whole screen. The
# board layout needs 26 x 10 character cells (terminalio's 6 x 12 font, scaled
# by 2 on screens 240 pixels wide or more) or, on a 128 x 64 OLED, 21 x 5.
#
# Player 1 sits at the top, player 0 at the bottom, the spit piles between.
# Per stock: the top card (red or white on colour screens), and how many
# face-down cards it hides. Per player: spit cards left, and a flash when a
# move was refused. A chosen stock (or the cursor, on cursor boards) is
# highlighted. Menus and the game-over screen are a second group of lines.

import displayio
import terminalio
from adafruit_display_text import bitmap_label

from engine.cards import NO_CARD
from engine import speed
from engine.spit import CHOOSE, GAME_OVER, PLAY, READY, SCORING, SLAP, SPIT_CARDS, SPIT_PILES, STALEMATE

from .controls import ticks_diff

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = "CDHS"
_BLACK = 0x000000
_WHITE = 0xFFFFFF
_RED = 0xFF3030
_GREY = 0x909090
_CHOSEN = 0xFFD000
_CURSOR = 0x3070FF
_FLASH = 0xFF0000
FLASH_MS = 400
_TICKS_MAX = (1 << 29) - 1
_NONE = 255


def card_text(card, face_up=True):
    # "10H", " 7C": always 3 characters; "###" for a card lying face down.
    if card == NO_CARD:
        return " . "
    if not face_up:
        return "###"
    t = _RANKS[card % 13] + _SUITS[card // 13]
    return t if len(t) == 3 else " " + t


class Screen:
    def __init__(self, display, width, height, colour=True, cursor=False):
        self.display = display
        self.colour = colour
        self.cursor_mode = cursor
        self.scale = 2 if width >= 240 else 1
        self.cols = width // (6 * self.scale)
        self.rows = height // (12 * self.scale)
        if self.cols < 20 or self.rows < 5:
            raise ValueError("screen too small: %dx%d" % (width, height))
        self.compact = self.rows < 10
        self.speed = False  # the game on the table is Speed (set by the App)
        self.root = displayio.Group()
        self.board = displayio.Group()
        self.scene = displayio.Group()
        self.root.append(self.board)
        self.root.append(self.scene)
        self._build_board()
        self.lines = [self._label(self.scene, 0, r, self.cols) for r in range(self.rows)]
        self.scene.hidden = True
        self._flash_until = [0, 0]
        self._attempts = 0
        display.root_group = self.root

    # -- building --

    def _label(self, group, col, row, width, color=_WHITE, small=False):
        # A label of width characters at a cell of the grid. Small labels (the
        # counts, the markers) use the font unscaled, centred in the cell's height:
        # on a scaled screen they cost a quarter of the pixels when they change.
        scale = 1 if small else self.scale
        if not self.colour:
            color = _WHITE  # a monochrome panel shows lit or unlit pixels only
        y = row * 12 * self.scale + (12 * (self.scale - 1)) // 2 if small else row * 12 * self.scale
        lab = bitmap_label.Label(
            terminalio.FONT,
            text=" " * width,
            color=color,
            background_color=_BLACK,
            scale=scale,
            anchor_point=(0, 0),
            anchored_position=(col * 6 * self.scale, y),
            save_text=True,
        )
        group.append(lab)
        return lab

    def _build_board(self):
        b = self.board
        if self.compact:
            # 21 x 5: P1 cards, P1 hidden counts + markers + spit, piles + status,
            # then player 0's rows mirrored.
            card_row = (4, 0)
            hidden_row = (3, 1)
            step = 4
            first = 0
            self.status = self._label(b, 13, 2, self.cols - 13)
            self.info = None
            pile_at = ((0, 2), (7, 2))
            spit_at = ((19, 3), (19, 1))
            flash_at = ((20, 4), (20, 0))
        else:
            # 20 or more x 10: status, P1 spit, P1 hidden counts, P1 cards, last
            # round's result, piles, (gap), P0 cards, P0 hidden counts, P0 spit.
            card_row = (7, 3)
            hidden_row = (8, 2)
            step = 5 if self.cols >= 26 else 4
            first = 1
            self.status = self._label(b, 0, 0, self.cols)
            self.info = self._label(b, 0, 4, self.cols)
            pile_at = ((1, 5), (self.cols // 2 + 1, 5))
            spit_at = ((0, 9), (0, 1))
            flash_at = ((self.cols - 3, 9), (self.cols - 3, 1))
        # The marker under (player 0) or over (player 1) a chosen stock or the cursor.
        self.pointer = ("^", "v")
        self.cards = []
        self.hidden = []
        self.marks = []
        self.spit = []
        self.side = []  # Speed: the side pile on each player's side
        self.flash = []
        for p in range(2):
            self.cards.append([self._label(b, first + step * s, card_row[p], 3) for s in range(5)])
            self.hidden.append([self._label(b, first + step * s + 1, hidden_row[p], 1, _GREY, True) for s in range(5)])
            if not self.compact:  # compact: no room, the marker takes the count's place
                mark_col = first + (2 if self.scale == 1 else 1)
                self.marks.append([self._label(b, mark_col + step * s, hidden_row[p], 1, _CHOSEN, True) for s in range(5)])
            col, row = spit_at[p]
            self.spit.append(self._label(b, col, row, 2 if self.compact else 9, _GREY))
            self.side.append(self._label(b, 15 if self.compact else 10, row, 2 if self.compact else 7, _GREY))
            self.flash.append(self._label(b, flash_at[p][0], flash_at[p][1], 1 if self.compact else 3, _FLASH))
        self.piles = []
        self.pile_sizes = []
        for k in range(2):
            col, row = pile_at[k]
            self.piles.append(self._label(b, col, row, 3))
            self.pile_sizes.append(self._label(b, col + (4 if self.compact else 3), row, 2, _GREY, True))

    # -- small helpers --

    def _set(self, label, text):
        # Only a changed text touches the label (and so the screen).
        if label.text != text:
            label.text = text

    def _card_colour(self, card):
        if not self.colour or card == NO_CARD:
            return _WHITE
        return _RED if card // 13 in (1, 2) else _WHITE

    def _recolour(self, label, colour):
        if self.colour and label.color != colour:
            label.color = colour

    def _set_card(self, label, card, face_up=True):
        self._set(label, card_text(card, face_up))
        self._recolour(label, self._card_colour(card) if face_up else _GREY)

    # -- scenes --

    def show_lines(self, lines):
        # A full-screen text scene (menu, game over): lines padded to the width.
        self.board.hidden = True
        self.scene.hidden = False
        for r, lab in enumerate(self.lines):
            text = lines[r] if r < len(lines) else ""
            self._set(lab, (text + " " * self.cols)[: self.cols])

    def show_game(self, game, controls, now_ms, status=None):
        # The table as the game and the players' half-made moves are now.
        # Returns when to draw again for a flash to go out, or None.
        if self.board.hidden:
            self.scene.hidden = True
            self.board.hidden = False
        n = game.counts
        for p in range(2):
            for s in range(5):
                i = p * 5 + s
                if s >= game.stocks:
                    self._set(self.cards[p][s], "   ")
                    self._set(self.hidden[p][s], " ")
                    continue
                mark = 0
                if game.phase == PLAY and controls is not None:
                    if controls.cursor_mode and controls.cursor[p] == s:
                        mark = _CURSOR
                    if controls.chosen[p] == s or controls.slot[p] == s:
                        mark = _CHOSEN
                if self.speed:
                    self._set_card(self.cards[p][s], game.hand(p, s))
                    k = 0
                else:
                    self._set_card(self.cards[p][s], game.top(i))
                    k = n[i] - 1 if n[i] else 0
                hidden = "%d" % k if k else " "
                if self.compact:
                    self._set(self.hidden[p][s], self.pointer[p] if mark else hidden)
                    self._recolour(self.hidden[p][s], mark or _GREY)
                else:
                    self._set(self.hidden[p][s], hidden)
                    self._set(self.marks[p][s], self.pointer[p] if mark else " ")
                    if mark:
                        self._recolour(self.marks[p][s], mark)
            called = "*" if game.phase in (READY, STALEMATE) and game.called & (1 << p) else " "
            if self.speed:
                stock = n[speed.STOCK + p]
                side = n[speed.SIDE + p]
                self._set(self.spit[p], "%2d" % stock if self.compact else "stock %2d%s" % (stock, called))
                self._set(self.side[p], "%2d" % side if self.compact else "side %2d" % side)
            else:
                spit = n[SPIT_CARDS + p]
                self._set(self.spit[p], "%2d" % spit if self.compact else "spit %2d%s" % (spit, called))
                self._set(self.side[p], "  " if self.compact else "       ")
        first_pile = speed.PILE if self.speed else SPIT_PILES
        face_up = not (self.speed and game.phase == READY)  # Speed's middle cards wait face down
        for k in range(2):
            self._set_card(self.piles[k], game.top(first_pile + k), face_up)
            size = n[first_pile + k]
            self._set(self.pile_sizes[k], "%-2d" % size if size else "  ")
        if controls is not None and controls.attempts != self._attempts:
            self._attempts = controls.attempts
            for p in range(2):
                if controls.result[p]:
                    self._flash_until[p] = (now_ms + FLASH_MS) & _TICKS_MAX
        redraw_at = None
        for p in range(2):
            on = ticks_diff(self._flash_until[p], now_ms) > 0
            self._set(self.flash[p], ("X" if self.compact else " NO") if on else (" " if self.compact else "   "))
            if on and (redraw_at is None or ticks_diff(self._flash_until[p], redraw_at) < 0):
                redraw_at = self._flash_until[p]
        self._set(self.status, self._fit(status if status is not None else self.status_text(game), self.status))
        if self.info is not None:
            self._set(self.info, self._fit(self.info_text(game), self.info))
        return redraw_at

    def _fit(self, text, label):
        width = len(label.text)
        return (text + " " * width)[:width]

    def status_text(self, game):
        ph = game.phase
        short = self.compact
        call = "TURN!" if self.speed else "SPIT!"
        if ph == READY:
            return call if short else "Round %d: %s" % (game.round, call)
        if ph == PLAY:
            if short:
                return "R%d" % game.round
            if game.rules & SCORING:
                return "Round %d  %d:%d" % (game.round, game.scores[0], game.scores[1])
            return "Round %d" % game.round
        if ph == STALEMATE:
            return call if short else "Stuck! " + call
        if ph == SLAP:
            return "SLAP!" if short else "SLAP a pile!"
        if ph == CHOOSE:
            return "P%d pile?" % game.chooser if short else "P%d: take a pile" % game.chooser
        if ph == GAME_OVER:
            return "P%d WINS" % game.winner if short else "Player %d wins!" % game.winner
        return ""

    def info_text(self, game):
        # The last round's result while the next one waits to start.
        if game.phase != READY or game.round < 2:
            return ""
        if self.speed:
            return "score %d:%d" % (game.scores[0], game.scores[1])
        took = game.took
        text = "took " + " ".join("P%d:%s" % (p, "-" if took[p] == _NONE else str(took[p])) for p in range(2))
        if game.rules & SCORING:
            text = "+%d:+%d now %d:%d" % (game.round_points[0], game.round_points[1], game.scores[0], game.scores[1])
        return text
