"""Cards as small integers, one encoding for the whole library.

A card is ``13 * suit + (rank - 1)`` with suits clubs=0, diamonds=1, hearts=2, spades=3 and
ranks A=1 .. K=13 -- the index of Aisleriot's unshuffled deck (spec section 2.1), so a shuffled
deck is a permutation of ``range(52)``.  Zebra's second deck, where a game needs to tell the
copies apart, adds 52.  ``EMPTY`` (-1) marks "no card".

Cards print as rank+suit in upper case (``TH``); parsing also accepts ``10h`` and lower case.
Aisleriot's layout text writes the suit in lower case (``Th``).  For people, :func:`card_label`
writes ``10♥`` (rank ``A 2-10 J Q K``, suit symbol), as readable moves name cards.
"""
from rules.errors import InvalidCardError, InvalidDealError, listing, shorten
from rules._jit import jit

EMPTY = -1
RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"     # ♣ ♦ ♥ ♠, in the order of SUITS
LABEL_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
BLACK, RED = 0, 1
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


@jit
def rank(card):
    """Rank 1 (Ace) .. 13 (King)."""
    return card % 13 + 1


@jit
def suit(card):
    """Suit 0..3: clubs, diamonds, hearts, spades."""
    return (card % 52) // 13


@jit
def colour(card):
    """0 for black (clubs, spades), 1 for red (diamonds, hearts)."""
    s = (card % 52) // 13
    return 1 if (s == 1 or s == 2) else 0


def builds_on(card, below):
    """``card`` lies on ``below`` as a down-by-alternate-colour build: ``below`` is a card (not
    EMPTY or hidden), of the other colour and one rank higher.  Plain Python, for code outside
    the kernels (the players' heuristics)."""
    return (below >= 0 and ((card % 52) // 13 in (1, 2)) != ((below % 52) // 13 in (1, 2))
            and below % 13 == card % 13 + 1)


@jit
def make_card(rank_, suit_):
    return 13 * suit_ + rank_ - 1


def parse_card(token):
    """Parse ``AS``, ``TH``, ``10h``, ``qs`` (one deck) into a card 0..51.

    >>> parse_card("10h") == parse_card("TH") == 13 * HEARTS + 9
    True
    """
    if not isinstance(token, str):
        raise InvalidCardError(f"card must be a string like 'TH', got {shorten(token)}")
    t = token.strip().upper()
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise InvalidCardError(
            f"unknown card {shorten(token)}: expected rank (A 2-9 T/10 J Q K) and suit (C D H S), e.g. 'TH'"
        )
    return 13 * SUITS.index(t[1]) + RANKS.index(t[0])


def card_str(card):
    """``TH`` style text of a card (the second Zebra deck prints like the first)."""
    if card == EMPTY:
        return "--"
    if not 0 <= card < 104:
        raise InvalidCardError(f"card code {shorten(card)} is outside 0..103")
    return RANKS[card % 13] + SUITS[(card % 52) // 13]


def card_label(card):
    """``10♥`` style text of a card, for people (readable moves): rank ``A 2-10 J Q K`` and
    the suit's symbol.  The second Zebra deck reads like the first.

    >>> card_label(parse_card("TH")), card_label(parse_card("AC"))
    ('10♥', 'A♣')
    """
    if not 0 <= card < 104:
        raise InvalidCardError(f"card code {shorten(card)} is outside 0..103")
    return LABEL_RANKS[card % 13] + SUIT_SYMBOLS[(card % 52) // 13]


def aisleriot_card_str(card):
    """``Th`` style text used by the Aisleriot layout format."""
    s = card_str(card)
    return s[0] + s[1].lower()


def full_deck():
    """The 52 cards in Aisleriot's unshuffled order (clubs A..K, diamonds, hearts, spades)."""
    return list(range(52))




def check_deck(cards, owner, copies=1, places=None, name=aisleriot_card_str):
    """Raise :class:`InvalidDealError` unless ``cards`` (card codes) hold each of the 52 cards
    ``copies`` times (1, or Zebra's 2).  The message begins with ``owner`` (``"Yukon layout"``)
    and names the missing and surplus cards with ``name``; ``places``, one per card, says where
    the copies of a surplus card lie.  Every game checks its deck here."""
    cards = list(cards)
    counts = [0] * 52
    for c in cards:
        if not 0 <= c < 52:
            raise InvalidDealError(f"card code {c!r} is not one of the 52 cards")
        counts[c] += 1

    def often(n):
        return "" if copies == 1 else f" x{n}"

    def where(c):
        return "" if places is None else f" ({' and '.join(p for c2, p in zip(cards, places) if c2 == c)})"

    missing = [name(c) + often(copies - n) for c, n in enumerate(counts) if n < copies]
    surplus = [name(c) + often(n - copies) + where(c) for c, n in enumerate(counts) if n > copies]
    parts = []
    if missing:
        parts.append("missing " + listing(missing, sep=" " if copies == 1 else ", "))
    if surplus:
        parts.append(("duplicate " if copies == 1 else "extra ")
                     + listing(surplus, sep=" " if copies == 1 and places is None else ", "))
    if parts:
        how_often = "once" if copies == 1 else "exactly twice"
        raise InvalidDealError(f"{owner} must hold each of the 52 cards {how_often}: " + "; ".join(parts))
