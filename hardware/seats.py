# Where the table's cards lie for the seats (Screen.set_style): player 1's
# half upright beside player 0's, or turned round for two people facing each
# other across the device; and which player sits at the bottom (player 1 on
# the second of two linked handhelds: each shows its own player there).
# Loaded where the style is set, at start-up and in the menu; a match
# forgets it (hardware/menu.py, play), so its code is not kept in the heap
# while the cards are played.


def seat(screen, facing, bottom=0):
    # Facing each other: player 1's half turned round (flips allocate nothing).
    screen.info[1].flip_x = facing
    screen.info[1].flip_y = facing
    # A row's tiles end in the gap to the next card: turned round, the gap
    # comes first, so the row moves left by a gap to stay over player 0's.
    screen.depth[1].x = screen.row_x - (screen.gap if facing else 0)
    z = screen.layout
    for p in range(2):
        turned = p == 1 and facing
        row = p ^ bottom  # 0: the bottom half's rows, 1: the top's
        y = screen.card_y[row]
        screen.depth[p].y = screen.depth_y[row]
        screen.info[p].x, screen.info[p].y = screen.info_xy[row]
        for s in range(5):
            x = screen.row_x + (4 - s if turned else s) * z["card_tile_w"]  # where stock s's card is
            paper = screen.stocks[p][s]
            paper.x = x
            paper.y = y
            paper.flip_x = turned
            paper.flip_y = turned
            place(screen, screen.ranks[p][s], x, y, z["rank_xy"], turned)
            place(screen, screen.suits[p][s], x, y, z["suit_xy"], turned)
            if screen.marks:
                mark = screen.marks[p][s]
                mark.x = x + (z["card_w"] - z["mark_w"]) // 2
                mark.y = screen.marks_y[row]
                mark.flip_x = turned
                mark.flip_y = turned
    if screen.keys is not None:  # each player's keys beside their cards (turned round with them)
        for p in range(2):
            text = screen.keys[0][p]
            turned = p == 1 and facing
            y = screen.card_y[p ^ bottom] + (z["card_h"] - 24) // 2
            text.grid.flip_x = turned
            text.grid.flip_y = turned
            text.group.x = screen.width - 1 - 6 * text.cols if turned else 1
            text.group.y = y
    # The back edges lie against the cards: the sheet draws them at the
    # bottom of a strip (player 1's, above their cards); player 0's strip is
    # below their cards, so it is flipped, and player 1's turned round is too.
    screen.depth[bottom].flip_y = True
    screen.depth[1 - bottom].flip_y = False
    screen.depth[1].flip_x = facing


def place(screen, grid, card_x, card_y, at, turned):
    # A rank or suit (grid) at its place `at` on a card, the card turned round or not.
    z = screen.layout
    w = grid.tile_width
    if turned:
        grid.x = card_x + z["card_w"] - at[0] - w
        grid.y = card_y + z["card_h"] - at[1] - w
    else:
        grid.x = card_x + at[0]
        grid.y = card_y + at[1]
    grid.flip_x = turned
    grid.flip_y = turned
