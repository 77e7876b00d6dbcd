"""Positions drawn as SVG: cards where Aisleriot puts each game's slots.

``state_to_svg(state)`` returns standalone SVG text (``State.to_svg`` and Jupyter's
``_repr_svg_`` call it).  Slot positions are the game's ``picture_places``
(:class:`rules.game.SlotPlace`), taken from its ``new-game`` in Aisleriot's ``games/*.scm``
(its grid of slots, blank slots and ``HORIZPOS`` nudges), in card-size units; the caption asks
the game whether it keeps a score and what more to say (``keeps_score``, ``status_note``).
This module imports no game and not :mod:`rules.game` (which imports it).
Extended slots fan their cards (down, or right for Clock); normal slots stack them, so only the
top card shows.  Every card is one ``<g class="card ...">`` element, ``back`` when face down, so
a picture can be checked by counting.  Rank and suit are text with the Unicode suit symbols in
the reader's own fonts: no image, no font file, no script.

The cards of the last move are drawn highlighted (class ``moved``).  They are found the same way
for every game, by comparing the position with the one before: in each slot, the cards that
were not there before (or were there with the other face up).  That is the dragged cards on
their destination, a clicked or turned card, and the game's automatic follow-ups (autoplay,
refills, flips) with them.
"""
from collections import Counter
from xml.sax.saxutils import escape, quoteattr

from rules.cards import card_str
from rules.errors import InvalidOptionError, InvalidStateError
from rules.layout import Layout

CARD_W, CARD_H = 72, 100
UNIT_X, UNIT_Y = 84, 120          # one Aisleriot slot step, in pixels
FAN_FACE_UP = 25                  # offset under a face-up card in a downward fan (Aisleriot: 0.25)
FAN_FACE_DOWN = 12                # under a face-down card: nothing to read there
FAN_RIGHT = 34                    # offset in a rightward fan (Clock), wide enough for "10♥"
MARGIN = 12
CAPTION_H = 24

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOL = "\u2663\u2666\u2665\u2660"      # ♣ ♦ ♥ ♠, the order of rules.cards


_STYLE = (
    ".aisle-position .table{fill:#1c6b3a}"
    ".aisle-position .slot{fill:none;stroke:#bfe3c9;stroke-opacity:.55;stroke-width:2;stroke-dasharray:6 4}"
    ".aisle-position .card>rect{fill:#fdfdfb;stroke:#555;stroke-width:1}"
    ".aisle-position .back>rect{fill:#2b569e;stroke:#f4f4f4}"
    ".aisle-position .back>rect.inner{fill:none;stroke:#9fbbe8}"
    ".aisle-position .moved>rect{stroke:#ffb300;stroke-width:4}"
    ".aisle-position .back.moved>rect.inner{stroke:#ffd766;stroke-width:2}"
    ".aisle-position text{font-family:'DejaVu Sans','Segoe UI Symbol',Arial,sans-serif}"
    ".aisle-position .index{font-size:15px;font-weight:bold}"
    ".aisle-position .pip{font-size:42px;text-anchor:middle}"
    ".aisle-position .red text{fill:#c3132c}"
    ".aisle-position .black text{fill:#151515}"
    ".aisle-position .count{fill:#fff;font-size:13px;text-anchor:middle}"
    ".aisle-position .caption{fill:#e7f4ea;font-size:14px}"
)


def state_to_svg(state, *, previous=None, highlight=True, min_height=0, caption=True):
    """The position of ``state`` as SVG text.

    ``previous`` is the position before the last move (a State or Layout); by default it is
    the state's own undo snapshot, when it has one.  ``highlight=False`` draws no move.
    ``min_height`` (pixels) pads the table so a series of pictures can share one size.
    ``caption`` adds a line with the game, the score and the verdict once the game is over.
    """
    layout, places = _layout_and_places(state)
    moved = set()
    if highlight:
        before = _previous_layout(state, previous)
        if before is not None:
            moved = moved_cards(before, layout)
    width, table_h = _table_size(layout, places)
    table_h = max(table_h, int(min_height or 0))
    height = table_h + (CAPTION_H if caption else 0)
    title = f"{state.game.title}: {layout}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="aisle-position" '
        f'data-game={quoteattr(state.game.name)} width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        f'<rect class="table" width="{width}" height="{height}"/>',
    ]
    for slot, (cards, place) in enumerate(zip(layout.slots, places)):
        x0, y0 = _slot_origin(place)
        if not cards:
            parts.append(f'<rect class="slot" x="{x0}" y="{y0}" width="{CARD_W}" height="{CARD_H}" rx="6"/>')
        for index, ((card, face_up), (x, y)) in enumerate(zip(cards, _card_offsets(cards, place))):
            parts.append(_card_svg(card, face_up, x, y, (slot, index) in moved))
        if place.fan == "stack" and len(cards) > 1 and not cards[-1][1]:
            parts.append(f'<text class="count" x="{x0 + CARD_W // 2}" y="{y0 + CARD_H + 15}">'
                         f"{len(cards)}</text>")
    if caption:
        parts.append(f'<text class="caption" x="{MARGIN}" y="{table_h + 16}">'
                     f"{escape(_caption_text(state, layout))}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def picture_size(state):
    """``(width, table height)`` in pixels of ``state``'s picture, without the caption."""
    layout, places = _layout_and_places(state)
    return _table_size(layout, places)


def moved_cards(before: Layout, after: Layout):
    """``{(slot, index)}`` of the cards of ``after`` that each slot did not hold in ``before``.

    A card counts as new in a slot when that slot had no such card with the same face up;
    with duplicates (Zebra's two decks) the topmost ones are taken as the new ones.
    """
    if len(before.slots) != len(after.slots):
        raise InvalidStateError(
            f"cannot compare positions with {len(before.slots)} and {len(after.slots)} slots")
    moved = set()
    for slot, (old, new) in enumerate(zip(before.slots, after.slots)):
        gained = Counter(new) - Counter(old)
        for index in range(len(new) - 1, -1, -1):
            if gained[new[index]] > 0:
                gained[new[index]] -= 1
                moved.add((slot, index))
    return moved


# ---- geometry ---------------------------------------------------------------------------------
def _layout_and_places(state):
    places = state.game.picture_places
    if not places:
        raise InvalidOptionError(f"no picture layout for game {state.game.name!r}")
    layout = state.game.array_to_layout(state.array)
    if len(layout.slots) != len(places):
        raise InvalidStateError(
            f"{state.game.name} position has {len(layout.slots)} slots, its picture {len(places)}")
    return layout, places


def _slot_origin(place):
    return round(MARGIN + place.x * UNIT_X), round(MARGIN + place.y * UNIT_Y)


def _card_offsets(cards, place):
    """Top-left corner of each card of a slot, bottom card first."""
    x, y = _slot_origin(place)
    out = []
    for _, face_up in cards:
        out.append((x, y))
        if place.fan == "down":
            y += FAN_FACE_UP if face_up else FAN_FACE_DOWN
        elif place.fan == "right":
            x += FAN_RIGHT
    return out


def _table_size(layout, places):
    right = bottom = 0
    for cards, place in zip(layout.slots, places):
        x0, y0 = _slot_origin(place)
        corners = _card_offsets(cards, place) or [(x0, y0)]
        right = max(right, max(x for x, _ in corners) + CARD_W)
        bottom = max(bottom, max(y for _, y in corners) + CARD_H)
        if place.fan == "stack" and len(cards) > 1 and not cards[-1][1]:
            bottom = max(bottom, y0 + CARD_H + 18)     # room for the count under a stock
    return right + MARGIN, bottom + MARGIN


# ---- drawing ----------------------------------------------------------------------------------
def _card_svg(card, face_up, x, y, moved):
    extra = " moved" if moved else ""
    where = f'transform="translate({x},{y})"'
    if not face_up:
        return (f'<g class="card back{extra}" {where}><rect width="{CARD_W}" height="{CARD_H}" rx="6"/>'
                f'<rect class="inner" x="6" y="6" width="{CARD_W - 12}" height="{CARD_H - 12}" rx="3"/></g>')
    suit = (card % 52) // 13
    rank = RANK_TEXT[card % 13]
    symbol = SUIT_SYMBOL[suit]
    colour = "red" if suit in (1, 2) else "black"
    name = card_str(card)
    return (f'<g class="card {colour}{extra}" data-card="{name}" {where}>'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="6"/>'
            f'<text class="index" x="4" y="17">{rank}{symbol}</text>'
            f'<text class="pip" x="{CARD_W // 2}" y="{CARD_H // 2 + 20}">{symbol}</text></g>')


def _caption_text(state, layout):
    text = state.game.title
    if state.game.keeps_score:
        text += f" \u2014 score {layout.score}"
    note = state.game.status_note(layout)
    if note:
        text += f", {note}"
    if state.is_over():
        text += ", won" if state.is_won() else ", game over"
    return text


def _previous_layout(state, previous):
    if previous is None:
        if not state.moves_played:
            return None
        previous = state.copy()
        previous.undo()
    if isinstance(previous, Layout):
        return previous
    return previous.game.array_to_layout(previous.array)
