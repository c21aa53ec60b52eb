# Which key presses make a given move: the control scheme of controls.py
# written the other way round. Used by the computer opponent (it presses
# buttons through the same first-press-wins path as a person), by replays and
# by the tests that prove every engine move is reachable on every profile.

from engine.spit import FILL_BASE, SLAP_0, TAKE_0

from .keymaps import NEXT, PILE_0, STOCK_0


def keys_for_move(game, controls, player, move, out):
    # Write the actions (keymaps.STOCK_0 ...) that make move for player, given
    # the controls' current cursor, into bytearray out; return how many.
    # Assumes no half-made move is pending for player.
    if move == controls.call:  # spit (Speed: turn)
        out[0] = PILE_0
        return 1
    if move >= SLAP_0:
        out[0] = PILE_0 + (move - (TAKE_0 if move >= TAKE_0 else SLAP_0))
        return 1
    ns = game.stocks
    n = 0
    if move < FILL_BASE:
        s = move >> 1
        pile = move & 1
        if controls.cursor_mode:
            n = _cursor_to(controls.cursor[player], s, ns, out, 0)
            out[n] = PILE_0 + pile
            return n + 1
        out[0] = STOCK_0 + s
        fits0 = game.check(player, s * 2) == 0
        fits1 = game.check(player, s * 2 + 1) == 0
        if fits0 != fits1:
            return 1  # one press: the card fits only that pile
        out[1] = PILE_0 + pile
        return 2
    a = (move - FILL_BASE) // 5
    e = (move - FILL_BASE) % 5
    if controls.cursor_mode:
        n = _cursor_to(controls.cursor[player], e, ns, out, 0)
        out[n] = PILE_0  # choose the empty slot
        n = _cursor_to(e, a, ns, out, n + 1)
        out[n] = PILE_0  # move the card under the cursor there
        return n + 1
    out[0] = STOCK_0 + e  # choose the empty slot, then the card that goes there
    out[1] = STOCK_0 + a
    return 2


def _cursor_to(at, to, ns, out, n):
    # NEXT presses from at to to (the cursor wraps).
    while at != to:
        out[n] = NEXT
        n += 1
        at = (at + 1) % ns
    return n
