"""The Aisleriot slot-layout text shared by all games (``../shared/conformance/README.md``).

``slot|slot|...#score#redeal-counter``: slots in id order, each listing its cards bottom to top,
separated by spaces; a card is rank + lower-case suit (``Th``) with ``*`` when face down.
A :class:`Layout` is that text parsed, game-agnostic: each game turns it into its state array
and checks what only the game knows (slot count, which cards, where face-down cards may be).
"""
from typing import NamedTuple

from .cards import aisleriot_card_str, parse_card
from .errors import InvalidCardError, InvalidDealError


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
    """Parse layout text; raise InvalidDealError naming what is wrong."""
    if not isinstance(text, str):
        raise InvalidDealError(f"layout must be text, got {type(text).__name__}")
    line = text.strip()
    parts = line.split("#")
    if len(parts) != 3:
        raise InvalidDealError(
            f"layout {_short(line)!r} must end with '#score#redeals' (e.g. '...|Th#0#0')"
        )
    body, score_text, redeal_text = parts
    try:
        score, redeals = int(score_text), int(redeal_text)
    except ValueError:
        raise InvalidDealError(
            f"layout score/redeal counter {('#' + score_text + '#' + redeal_text)!r} is not two integers"
        ) from None
    slots = []
    for index, slot_text in enumerate(body.split("|")):
        cards = []
        for token in slot_text.split():
            face_up = not token.endswith("*")
            try:
                card = parse_card(token.rstrip("*"))
            except InvalidCardError:
                raise InvalidDealError(f"unknown card {token!r} in slot {index} of the layout") from None
            cards.append((card, face_up))
        slots.append(tuple(cards))
    return Layout(tuple(slots), score, redeals)


def _short(text, width=60):
    return text if len(text) <= width else text[: width - 3] + "..."
