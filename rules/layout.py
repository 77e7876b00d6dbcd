"""The Aisleriot slot-layout text shared by all games (``../shared/conformance/README.md``).

``slot|slot|...#score#redeal-counter``: slots in id order, each listing its cards bottom to top,
separated by spaces; a card is rank + lower-case suit (``Th``) with ``*`` when face down.
A :class:`Layout` is that text parsed, game-agnostic: each game turns it into its state array
and checks what only the game knows (slot count, which cards, where face-down cards may be).
"""
from typing import NamedTuple

import numpy as np

from rules.cards import aisleriot_card_str, parse_card
from rules.errors import InvalidCardError, InvalidDealError, shorten

MAX_SLOTS = 64          # more than any game has; longer texts are refused before any work
MAX_CARDS = 104         # two decks (Zebra)
MAX_NUMBER_DIGITS = 18  # score and redeal counter


class Layout(NamedTuple):
    """Slots of ``(card, face_up)`` pairs, bottom to top; cards are 0..51."""

    slots: tuple
    score: int = 0
    redeals: int = 0

    def __str__(self):
        body = "|".join(
            " ".join(aisleriot_card_str(c) + ("" if up else "*") for c, up in slot)
            for slot in self.slots
        )
        return f"{body}#{self.score}#{self.redeals}"


def parse_layout(text):
    """Parse layout text (a leading byte-order mark is ignored); raise InvalidDealError naming what is wrong."""
    if not isinstance(text, str):
        raise InvalidDealError(f"layout must be text, got {type(text).__name__}")
    line = text.removeprefix("\ufeff").strip()
    parts = line.split("#")
    if len(parts) != 3:
        raise InvalidDealError(
            f"layout {shorten(line)} must end with '#score#redeals' (e.g. '...|Th#0#0')"
        )
    body, score_text, redeal_text = parts
    score, redeals = _number(score_text), _number(redeal_text)
    if score is None or redeals is None:
        raise InvalidDealError(
            f"layout score/redeal counter {shorten('#' + score_text + '#' + redeal_text)} is not two integers"
        )
    slot_texts = body.split("|")
    if len(slot_texts) > MAX_SLOTS:
        raise InvalidDealError(f"layout has {len(slot_texts)} slots; no game has more than {MAX_SLOTS}")
    if len(body.split()) > MAX_CARDS:
        raise InvalidDealError(f"layout lists {len(body.split())} cards; no game has more than {MAX_CARDS}")
    slots = []
    for index, slot_text in enumerate(slot_texts):
        cards = []
        for token in slot_text.split():
            face_up = not token.endswith("*")
            try:
                card = parse_card(token[:-1] if not face_up else token)
            except InvalidCardError:
                raise InvalidDealError(f"unknown card {shorten(token)} in slot {index} of the layout") from None
            cards.append((card, face_up))
        slots.append(tuple(cards))
    return Layout(tuple(slots), score, redeals)


def _number(text):
    """An optionally signed decimal integer of ASCII digits, or None."""
    t = text.strip()
    digits = t[1:] if t[:1] in "+-" else t
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > MAX_NUMBER_DIGITS:
        return None
    return int(t)


def check_layout(layout):
    """A :class:`Layout` built in code, checked like parsed text: InvalidDealError if malformed.

    Slots must be sequences of ``(card, face_up)`` with cards 0..51; score and redeal counter
    integers.  Returns it with plain Python ints and bools, so games need not check types.
    """
    try:
        slots = tuple(tuple((_card_code(c), _flag(up)) for c, up in slot) for slot in layout.slots)
        score, redeals = _integer(layout.score), _integer(layout.redeals)
    except (TypeError, ValueError):
        raise InvalidDealError(f"malformed Layout {shorten(layout)}: slots of (card 0..51, face_up) pairs, "
                               f"integer score and redeal counter expected") from None
    if len(slots) > MAX_SLOTS or sum(map(len, slots)) > MAX_CARDS:
        raise InvalidDealError(f"layout has {len(slots)} slots and {sum(map(len, slots))} cards; no game "
                               f"has more than {MAX_SLOTS} slots or {MAX_CARDS} cards")
    return Layout(slots, score, redeals)


def _card_code(card):
    value = _integer(card)
    if not 0 <= value < 52:
        raise ValueError(card)
    return value


def _integer(value):
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(value)
    value = value.__index__()
    if abs(value) >= 10**MAX_NUMBER_DIGITS:
        raise ValueError(value)
    return value


def _flag(value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(value)
    return bool(value)
