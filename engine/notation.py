"""Text for cards and piles, shared by the games' position notations.

A card is rank then suit: ``AS 10H 2C QD``. Upper case is a face-up card,
lower case (``as 10h``) a face-down one. A pile is its cards from the bottom
up joined by commas (``4d,9s,KH``); ``-`` is an empty pile.

Parsing validates and raises ``NotationError`` (a ValueError) with a short
message; formatting trusts its caller. Nothing here runs on the hot path.
"""


class NotationError(ValueError):
    pass


_RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_TEXT = "CDHS"


def card_text(card, face_up=True):
    """``AS``/``10H`` for a face-up card, ``as``/``10h`` for a face-down one."""
    t = _RANK_TEXT[card % 13] + _SUIT_TEXT[card // 13]
    return t if face_up else t.lower()


def parse_card(text):
    """Return ``(card, face_up)`` for ``AS`` (face up) or ``as`` (face down)."""
    up = text.upper()
    if 2 <= len(text) <= 3 and up[:-1] in _RANK_TEXT and up[-1] in _SUIT_TEXT:
        if text == up:
            return _SUIT_TEXT.index(up[-1]) * 13 + _RANK_TEXT.index(up[:-1]), True
        if text == text.lower():
            return _SUIT_TEXT.index(up[-1]) * 13 + _RANK_TEXT.index(up[:-1]), False
        raise NotationError("mixed case in card %r (upper case is face up, lower face down)" % text)
    raise NotationError("not a card: %r" % text)


def pile_text(buf, start, count, face_up_from):
    """Cards buf[start:start+count] bottom up; those at index >= face_up_from face up."""
    if not count:
        return "-"
    return ",".join(card_text(buf[start + i], i >= face_up_from) for i in range(count))


def parse_pile(text, what):
    """``4d,9s,KH`` -> ``[(card, face_up), ...]`` bottom up; ``-`` -> ``[]``."""
    if text == "-":
        return []
    if not text:
        raise NotationError("%s: empty text (write - for an empty pile)" % what)
    out = []
    for t in text.split(","):
        try:
            out.append(parse_card(t))
        except NotationError as e:
            raise NotationError("%s: %s" % (what, e))
    return out


def expect_faces(cards, what, up_from):
    """Check that exactly the cards at index >= up_from are face up."""
    for i, (card, up) in enumerate(cards):
        if up != (i >= up_from):
            raise NotationError(
                "%s: %s must be face %s" % (what, card_text(card, up), "up" if i >= up_from else "down")
            )


def check_deck(seen_cards):
    """Each of the 52 cards exactly once."""
    seen = bytearray(52)
    for card in seen_cards:
        if seen[card]:
            raise NotationError("card %s appears twice" % card_text(card))
        seen[card] = 1
    missing = [card_text(c) for c in range(52) if not seen[c]]
    if missing:
        raise NotationError("missing cards: %s" % " ".join(missing))
