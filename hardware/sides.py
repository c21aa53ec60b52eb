# Who plays each side of the table, decided in this one place at the start of
# a match: a person at that side's buttons, or the computer
# (hardware/computer.py, loaded only then). The match asks a side's player
# that is not the buttons the same three things whatever it is (step: make
# its presses when due; next_due: when it acts next; paused: the match stood
# still). The third kind is a person at another handheld, linked by a cable
# (hardware/linked.py): their presses arrive over the link, in the order the
# referee gives both players' presses. Loaded at a match's start and
# forgotten after it.

from .modes import DEMO, LINKED


def choose(players, game, controls, key_of, linked=None):
    # (side 0's player, side 1's), None for the buttons; or None when both
    # sides are people at the buttons. Linked: the other device's side is
    # the link's session (this device's buttons play linked.seat).
    if not players:
        return None
    if players == LINKED:
        return (linked, None) if linked.seat else (None, linked)
    from engine.bot import Bot

    from .computer import Computer

    seed = game.rng.s1
    speed = game.kind == 1
    if players == DEMO:  # the computer against itself
        return (
            Computer(Bot(0, 3, seed, speed), 0, controls, key_of),
            Computer(Bot(1, 2, seed + 1, speed), 1, controls, key_of),
        )
    return (None, Computer(Bot(1, players - 1, seed, speed), 1, controls, key_of))


def muted(sides):
    # Bit p for each side whose buttons make no move (its player is not them).
    if sides is None:
        return 0
    return (1 if sides[0] is not None else 0) | (2 if sides[1] is not None else 0)
