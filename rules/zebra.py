"""Zebra (Aisleriot ``games/zebra.scm``; spec section 7): two decks, foundations in alternating colour.

Slots: 0 stock, 1 waste, 2..9 foundations, 10..17 tableau.  The 8 Aces start on the foundations
(C D H S C D H S); the 96 other cards are shuffled with 96 draws, ``D[0..7]`` go face up to the
tableau and ``D[8..95]`` form the stock with ``D[8]`` on top.

Card encoding: both decks use the library's cards 0..51, so every card occurs twice.  The rules
never tell the two copies apart and the layout text has no copy marker, so the ``+52`` second
deck would only add a choice (which copy is which) that nothing can observe; with 0..51 the
array is a function of the layout and two positions that differ only by swapping copies are
the same array.  The deck index ``48*copy + 12*suit + (rank-2)`` maps to card
``13*suit + rank - 1``.

State array (1-D ``int16``, ``STATE_SIZE`` entries; piles bottom to top, unused entries -1):

====================  ==========================================================================
``STOCK_LEN``         number of stock cards (all face down)
``STOCK`` [96]        stock cards; ``STOCK + STOCK_LEN - 1`` is the top (dealt next)
``WASTE_LEN``         number of waste cards (face up)
``WASTE`` [96]        waste cards, top last
``FOUND_LEN`` [8]     cards on foundation f (slot 2 + f); always >= 1 (its Ace)
``FOUND`` [8 x 13]    foundation f's cards at ``FOUND + 13*f``
``TAB_LEN`` [8]       cards on tableau pile t (slot 10 + t)
``TAB`` [8 x 12]      pile t at ``TAB + 12*t``; a pile is an alternating descending run, so at
                      most K..2 = 12 cards (Aces never leave the foundations)
``SCORE``             Aisleriot's score (+1 per card sent home)
``REDEALS``           the redeal counter, 0 or 1 (the layout's second ``#`` field)
====================  ==========================================================================

Choices where the spec is silent (checked against ``../shared/conformance/zebra.txt.gz``):

* Only actions that change the position are accepted: ``click 0`` is listed only while
  "Deal" can do something, ``dbl s`` only when some foundation takes the card, no drag onto its
  own slot.
* ``layout_to_array`` accepts exactly what the array can hold and the rules can reach: the stock
  face down, everything else face up, each foundation an Ace followed by an alternating-colour
  ascending run, each tableau pile an alternating descending run, each of the 52 cards exactly
  twice, redeal counter 0 or 1.  Empty tableau piles are accepted anywhere (the hint's crash
  quirk needs them).
* Continue predicate = the hint of section 7.6 literally, including its crash: a position in
  which the hint reads the top card of an empty tableau pile is ``Outcome.ABORTED``.
  No position reachable from a deal can crash, though.  A pile stays empty only when the stock
  and the waste are both empty, and then they stay empty, so every card not yet home is in the
  tableau runs.  Take the lowest such card, rank m: runs descend towards the top, so it is a top
  card.  Cards of rank r and colour x fit only the 4 foundations whose Ace has colour
  x xor (r even), which need exactly the 4 cards of that rank and colour; as one is still out,
  one of those foundations stopped below m, and it cannot have stopped below m-1 (its next card
  would be lower than m and still out).  So it shows rank m-1, takes the card, and step A
  answers before step B can reach an empty pile.
  ``ABORTED`` therefore only comes from layouts given as text (``tests/test_zebra.py`` builds
  some).
* Solver moves (``faithful=0``): ``dbl`` is dropped (it equals a drag to the first accepting
  foundation), and for a drag home only the first accepting foundation is kept -- every
  foundation that accepts a card has the same top colour and rank, and cards never leave a
  foundation, so those foundations are interchangeable for the rest of the game.
* Canonical hash: stock order, waste order, redeal counter and the tableau piles in slot order
  (the hint scans them in order, so their order decides the crash verdict); the foundations as
  a multiset of (top colour, top rank), which is all of a foundation the future can see.
  The score is left out.
"""
import numpy as np

from rules._jit import jit
from rules.cards import aisleriot_card_str, card_str, check_deck, colour, rank
from rules.deals import AisleriotRandom
from rules.errors import InvalidDealError, shorten
from rules.game import Game, Kernels, Outcome, Role, STATE_DTYPE, slot_row
from rules.hashing import FNV_OFFSET, fnv1a, splitmix64_next
from rules.layout import Layout
from rules.moves import CLICK, DBL, DRAG, encode, move_dst, move_kind, move_n, move_src

# ---- slots and state layout --------------------------------------------------------------------
N_SLOTS = 18
STOCK_SLOT, WASTE_SLOT = 0, 1
FOUND_SLOT0, TAB_SLOT0 = 2, 10
N_FOUND = N_TAB = 8
FOUND_CAP = 13
TAB_CAP = 12
PILE_CAP = 96          # stock or waste: at most the 96 non-Ace cards

STOCK_LEN = 0
STOCK = STOCK_LEN + 1
WASTE_LEN = STOCK + PILE_CAP
WASTE = WASTE_LEN + 1
FOUND_LEN = WASTE + PILE_CAP
FOUND = FOUND_LEN + N_FOUND
TAB_LEN = FOUND + N_FOUND * FOUND_CAP
TAB = TAB_LEN + N_TAB
SCORE = TAB + N_TAB * TAB_CAP
REDEALS = SCORE + 1
STATE_SIZE = REDEALS + 1

MAX_REDEALS = 1
MAX_LAYOUT_SCORE = 32767 - 96   # int16 score, room for every card still to go home

# MAX_MOVES: a bound on faithful legal moves, proved from invariants layout_to_array enforces
# and every move keeps (8 foundations, each an Ace then an alternating ascending run; 2 copies of
# each card; tableau piles alternating descending runs of at most 12 cards).
# * Foundations taking a card of rank r and colour x have top rank r-1 of colour 1-x.  A
#   foundation's top colour at rank k is its Ace's colour flipped k-1 times, so they all share
#   one Ace colour: at most 4 foundations (2 Ac + 2 As, or 2 Ad + 2 Ah).
# * Tableau piles taking that card have a top of rank r+1 and colour 1-x: 2 suits x 2 copies,
#   so at most 4 piles.
# * Waste: <= 4 drags home + 4 drags to the tableau = 8.
# * Tableau pile with L <= 12 cards: every n in 1..L to each of <= 4 foundations (4L <= 48) plus
#   <= 4 single-card drags = 52; eight piles: 416.
# * click 0: 1.  dbl: the waste and 8 piles, 9.
# Total 8 + 416 + 1 + 9 = 434.
MAX_MOVES = 434

_HINT_FALSE, _HINT_TRUE, _HINT_CRASH = 0, 1, 2
_ONGOING, _WON, _LOST, _ABORTED = (int(o) for o in (Outcome.ONGOING, Outcome.WON, Outcome.LOST,
                                                     Outcome.ABORTED))


# ---- the deal ----------------------------------------------------------------------------------
ACE_SUITS = (0, 1, 2, 3, 0, 1, 2, 3)


def deck_index_card(index):
    """Card 0..51 of Zebra's unshuffled deck index ``48*copy + 12*suit + (rank-2)``."""
    i = index % 48
    return 13 * (i // 12) + (i % 12) + 1


def deal_cards(seed):
    """``D`` for ``seed``: the 96 non-Ace cards, first dealt first (spec 2.1, 2.2, 7.2)."""
    return [deck_index_card(i) for i in AisleriotRandom(seed).shuffle(range(96))]


def empty_array():
    state = np.full(STATE_SIZE, -1, dtype=STATE_DTYPE)
    state[STOCK_LEN] = state[WASTE_LEN] = 0
    state[FOUND_LEN:FOUND_LEN + N_FOUND] = 0
    state[TAB_LEN:TAB_LEN + N_TAB] = 0
    state[SCORE] = state[REDEALS] = 0
    return state


def deal_to_array(d):
    state = empty_array()
    for f, s in enumerate(ACE_SUITS):
        state[FOUND + FOUND_CAP * f] = 13 * s
        state[FOUND_LEN + f] = 1
    for t in range(N_TAB):
        state[TAB + TAB_CAP * t] = d[t]
        state[TAB_LEN + t] = 1
    stock = d[8:][::-1]                     # bottom first, so D[8] ends on top
    state[STOCK:STOCK + len(stock)] = stock
    state[STOCK_LEN] = len(stock)
    return state


# ---- kernels -------------------------------------------------------------------------------------
@jit
def _found_top(state, f):
    return state[FOUND + FOUND_CAP * f + state[FOUND_LEN + f] - 1]


@jit
def _tab_top(state, t):
    return state[TAB + TAB_CAP * t + state[TAB_LEN + t] - 1]


@jit
def _home_ok(state, f, card):
    """Foundation f takes ``card``: opposite colour, one rank higher (a King-topped pile takes none)."""
    top = _found_top(state, f)
    return colour(card) != colour(top) and rank(top) + 1 == rank(card)


@jit
def _tab_ok(state, t, card):
    """Pile t takes ``card``: non-empty, opposite colour, one rank lower."""
    if state[TAB_LEN + t] == 0:
        return False
    top = _tab_top(state, t)
    return colour(card) != colour(top) and rank(card) + 1 == rank(top)


@jit
def _first_home(state, card):
    for f in range(N_FOUND):
        if _home_ok(state, f, card):
            return f
    return -1


@jit
def _source_top(state, slot):
    """Top card of the waste or a tableau pile, or -1."""
    if slot == WASTE_SLOT:
        n = state[WASTE_LEN]
        return state[WASTE + n - 1] if n > 0 else -1
    t = slot - TAB_SLOT0
    n = state[TAB_LEN + t]
    return state[TAB + TAB_CAP * t + n - 1] if n > 0 else -1


@jit
def legal_moves(state, buf, faithful):
    # shaped like freecell.legal_moves; each game lists its moves in its own (Aisleriot's) order
    count = 0
    wn = state[WASTE_LEN]
    if wn > 0:
        card = state[WASTE + wn - 1]
        for f in range(N_FOUND):
            if _home_ok(state, f, card):
                buf[count] = encode(DRAG, WASTE_SLOT, 1, FOUND_SLOT0 + f)
                count += 1
                if faithful == 0:
                    break
        for t in range(N_TAB):
            if _tab_ok(state, t, card):
                buf[count] = encode(DRAG, WASTE_SLOT, 1, TAB_SLOT0 + t)
                count += 1
    for t in range(N_TAB):
        tn = state[TAB_LEN + t]
        if tn == 0:
            continue
        card = _tab_top(state, t)
        for f in range(N_FOUND):
            if _home_ok(state, f, card):
                for n in range(1, tn + 1):
                    buf[count] = encode(DRAG, TAB_SLOT0 + t, n, FOUND_SLOT0 + f)
                    count += 1
                if faithful == 0:
                    break
        for u in range(N_TAB):
            if u != t and _tab_ok(state, u, card):
                buf[count] = encode(DRAG, TAB_SLOT0 + t, 1, TAB_SLOT0 + u)
                count += 1
    if state[STOCK_LEN] > 0 or (wn > 0 and state[REDEALS] < MAX_REDEALS):
        buf[count] = encode(CLICK, STOCK_SLOT, 0, 0)
        count += 1
    if faithful != 0:
        for s in range(WASTE_SLOT, TAB_SLOT0 + N_TAB):
            if FOUND_SLOT0 <= s < TAB_SLOT0:
                continue
            card = _source_top(state, s)
            if card >= 0 and _first_home(state, card) >= 0:
                buf[count] = encode(DBL, s, 0, 0)
                count += 1
    return count


@jit
def _push_home(state, f, card):
    n = state[FOUND_LEN + f]
    state[FOUND + FOUND_CAP * f + n] = card
    state[FOUND_LEN + f] = n + 1
    state[SCORE] += 1


@jit
def _pop_source(state, slot):
    """Remove and return the top card of the waste or a tableau pile (refill not included)."""
    if slot == WASTE_SLOT:
        n = state[WASTE_LEN] - 1
        card = state[WASTE + n]
        state[WASTE + n] = -1
        state[WASTE_LEN] = n
        return card
    t = slot - TAB_SLOT0
    n = state[TAB_LEN + t] - 1
    card = state[TAB + TAB_CAP * t + n]
    state[TAB + TAB_CAP * t + n] = -1
    state[TAB_LEN + t] = n
    return card


@jit
def _refill(state, slot):
    """An emptied tableau pile takes the waste's top card, else the stock's, else stays empty."""
    if slot < TAB_SLOT0:
        return
    t = slot - TAB_SLOT0
    if state[TAB_LEN + t] != 0:
        return
    if state[WASTE_LEN] > 0:
        card = _pop_source(state, WASTE_SLOT)
    elif state[STOCK_LEN] > 0:
        n = state[STOCK_LEN] - 1
        card = state[STOCK + n]
        state[STOCK + n] = -1
        state[STOCK_LEN] = n
    else:
        return
    state[TAB + TAB_CAP * t] = card
    state[TAB_LEN + t] = 1


@jit
def apply(state, move):
    kind = move_kind(move)
    src = move_src(move)
    if kind == CLICK:
        sn = state[STOCK_LEN]
        if sn > 0:
            wn = state[WASTE_LEN]
            state[WASTE + wn] = state[STOCK + sn - 1]
            state[WASTE_LEN] = wn + 1
            state[STOCK + sn - 1] = -1
            state[STOCK_LEN] = sn - 1
        elif state[WASTE_LEN] > 0 and state[REDEALS] < MAX_REDEALS:
            # The waste turned over: its bottom card becomes the stock's top.
            wn = state[WASTE_LEN]
            for i in range(wn):
                state[STOCK + i] = state[WASTE + wn - 1 - i]
                state[WASTE + wn - 1 - i] = -1
            state[STOCK_LEN] = wn
            state[WASTE_LEN] = 0
            state[REDEALS] += 1
        return
    if kind == DBL:
        f = _first_home(state, _source_top(state, src))
        _push_home(state, f, _pop_source(state, src))
        _refill(state, src)
        return
    n = move_n(move)
    dst = move_dst(move)
    if dst < TAB_SLOT0:
        # Home: the group goes over reversed, the pile's top card first.
        for _ in range(n):
            _push_home(state, dst - FOUND_SLOT0, _pop_source(state, src))
    else:
        t = dst - TAB_SLOT0
        tn = state[TAB_LEN + t]
        state[TAB + TAB_CAP * t + tn] = _pop_source(state, src)
        state[TAB_LEN + t] = tn + 1
    _refill(state, src)


@jit
def won(state):
    for f in range(N_FOUND):
        if state[FOUND_LEN + f] != FOUND_CAP:
            return False
    return True


@jit
def _tt(state, s1):
    """The hint's TT(s1, L) for L = all of slot s1 top first: FALSE, TRUE or CRASH.

    TT(s1, L[k:]) scans s2 = 10..17 (skipping s1): an empty s2 crashes; a match returns TRUE
    if s1 is the waste, L[k] is the last card, or TT(s1, L[k+1:]) is TRUE (its CRASH
    propagates, its FALSE lets the scan go on).  The value for L[k+1:] does not depend on s2,
    so evaluating it bottom-up, deepest card first, gives the recursion's exact answer.
    """
    if s1 == WASTE_SLOT:
        depth = 1
    else:
        depth = state[TAB_LEN + s1 - TAB_SLOT0]
    below = _HINT_FALSE
    for k in range(depth - 1, -1, -1):
        if s1 == WASTE_SLOT:
            card = state[WASTE + state[WASTE_LEN] - 1]
        else:
            t1 = s1 - TAB_SLOT0
            card = state[TAB + TAB_CAP * t1 + state[TAB_LEN + t1] - 1 - k]
        last = s1 == WASTE_SLOT or k == depth - 1
        here = _HINT_FALSE
        for t2 in range(N_TAB):
            if TAB_SLOT0 + t2 == s1:
                continue
            if state[TAB_LEN + t2] == 0:
                here = _HINT_CRASH
                break
            top = _tab_top(state, t2)
            if colour(card) != colour(top) and rank(card) + 1 == rank(top):
                if last or below == _HINT_TRUE:
                    here = _HINT_TRUE
                    break
                if below == _HINT_CRASH:
                    here = _HINT_CRASH
                    break
        below = here
    return below


@jit
def _hint_kernel(state):
    """Spec 7.6 steps A-D: FALSE, TRUE or CRASH."""
    for s in range(WASTE_SLOT, TAB_SLOT0 + N_TAB):       # A: anything that goes home
        if FOUND_SLOT0 <= s < TAB_SLOT0:
            continue
        card = _source_top(state, s)
        if card >= 0 and _first_home(state, card) >= 0:
            return _HINT_TRUE
    for s in range(WASTE_SLOT, TAB_SLOT0 + N_TAB):       # B: useful tableau moves
        if FOUND_SLOT0 <= s < TAB_SLOT0 or _source_top(state, s) < 0:
            continue
        r = _tt(state, s)
        if r != _HINT_FALSE:
            return r
    if state[STOCK_LEN] > 0:                              # C: deal another card
        return _HINT_TRUE
    if state[WASTE_LEN] > 0 and state[REDEALS] < MAX_REDEALS:   # D: redeal
        return _HINT_TRUE
    return _HINT_FALSE


@jit
def status(state):
    if won(state):
        return _WON
    h = _hint_kernel(state)
    if h == _HINT_TRUE:
        return _ONGOING
    if h == _HINT_CRASH:
        return _ABORTED
    return _LOST


@jit
def _hash_kernel(state):
    h = FNV_OFFSET
    sn = state[STOCK_LEN]
    h = fnv1a(h, sn)
    for i in range(sn):
        h = fnv1a(h, state[STOCK + i])
    wn = state[WASTE_LEN]
    h = fnv1a(h, wn)
    for i in range(wn):
        h = fnv1a(h, state[WASTE + i])
    for t in range(N_TAB):
        tn = state[TAB_LEN + t]
        h = fnv1a(h, 128 + tn)
        for i in range(tn):
            h = fnv1a(h, state[TAB + TAB_CAP * t + i])
    h = fnv1a(h, 256 + state[REDEALS])
    # Foundations as a multiset of (top colour, top rank): a sum of mixed keys is order-free.
    found = np.uint64(0)
    for f in range(N_FOUND):
        top = _found_top(state, f)
        found += splitmix64_next(np.uint64(16 * colour(top) + rank(top)))
    h = fnv1a(h, found & np.uint64(0xFFFFFFFF))
    h = fnv1a(h, found >> np.uint64(32))
    return splitmix64_next(h)


@jit
def _score_kernel(state):
    return state[SCORE]


def warmup():
    """Compile (or load from cache) every kernel on the seed-1 deal."""
    state = deal_to_array(deal_cards(1))
    buf = np.empty(MAX_MOVES, dtype=np.int32)
    n = legal_moves(state, buf, 1)
    legal_moves(state, buf, 0)
    status(state)
    _hash_kernel(state)
    _score_kernel(state)
    apply(state, buf[n - 1])


KERNELS = Kernels(
    legal_moves=legal_moves,
    apply=apply,
    status=status,
    won=won,
    hash=_hash_kernel,
    score=_score_kernel,
)


# ---- the Game ------------------------------------------------------------------------------------
class ZebraGame(Game):
    name = "zebra"
    title = "Zebra"
    n_slots = N_SLOTS
    state_size = STATE_SIZE
    max_moves = MAX_MOVES
    slot_names = (("stock", "waste") + tuple(f"found{i}" for i in range(1, 9))
                  + tuple(f"tab{i}" for i in range(1, 9)))
    slot_roles = (Role.STOCK, Role.WASTE) + (Role.FOUNDATION,) * N_FOUND + (Role.TABLEAU,) * N_TAB
    kernels = KERNELS
    options = {}
    # zebra.scm: stock, waste, a third of a slot, eight foundations; tableau a third apart.
    picture_places = tuple(slot_row(0, (0, 1), "stack") + slot_row(0, [2 + 1 / 3 + k for k in range(8)], "stack")
                           + slot_row(1, [k * 4 / 3 for k in range(8)], "down"))
    hides_cards = True

    def hidden_entries(self, array, history):
        """The stock during the first pass.  The waste is face up (every card reached it face
        up, so a player with memory knows its whole order).  Once the player has turned the
        waste back into the stock -- a redeal in ``history`` -- the stock's order is known: it
        is the waste it saw, in the same order.  A state built from a layout or a seed has no
        history, so its stock is unknown even when the layout's redeal counter says 1."""
        for move, before in history:
            if move.kind == CLICK and before[STOCK_LEN] == 0 and before[WASTE_LEN] > 0:
                return []
        return list(range(STOCK, STOCK + int(array[STOCK_LEN])))

    def status_note(self, layout):
        return f"redeals left {MAX_REDEALS - layout.redeals}"

    def deal_array(self, seed, numbering, options):
        return deal_to_array(deal_cards(seed))

    def layout_to_array(self, layout, options):
        slots = layout.slots
        if len(slots) != N_SLOTS:
            raise InvalidDealError(f"a Zebra layout has {N_SLOTS} slots, got {len(slots)}")
        if layout.redeals not in (0, 1):
            raise InvalidDealError(f"Zebra redeal counter {layout.redeals!r} must be 0 or 1")
        if not 0 <= layout.score <= MAX_LAYOUT_SCORE:
            raise InvalidDealError(f"Zebra score {layout.score!r} is outside 0..{MAX_LAYOUT_SCORE}")
        check_deck((card for slot in slots for card, _ in slot), "Zebra layout", copies=2)
        for index, slot in enumerate(slots):
            want_up = index != STOCK_SLOT
            for card, up in slot:
                if up != want_up:
                    where = "the stock holds only face-down" if index == STOCK_SLOT else \
                        f"slot {index} holds only face-up"
                    raise InvalidDealError(f"{where} cards; {aisleriot_card_str(card)} is not")
        state = empty_array()
        for f in range(N_FOUND):
            pile = [c for c, _ in slots[FOUND_SLOT0 + f]]
            if not pile or rank(pile[0]) != 1 or any(
                    colour(b) == colour(a) or rank(b) != rank(a) + 1 for a, b in zip(pile, pile[1:])):
                raise InvalidDealError(
                    f"foundation slot {FOUND_SLOT0 + f} must be an Ace then cards up in alternating "
                    f"colour, got {shorten(_pile_text(pile))}")
            state[FOUND + FOUND_CAP * f:FOUND + FOUND_CAP * f + len(pile)] = pile
            state[FOUND_LEN + f] = len(pile)
        for t in range(N_TAB):
            pile = [c for c, _ in slots[TAB_SLOT0 + t]]
            if any(colour(b) == colour(a) or rank(b) + 1 != rank(a) for a, b in zip(pile, pile[1:])):
                raise InvalidDealError(
                    f"tableau slot {TAB_SLOT0 + t} must go down in alternating colour, got {shorten(_pile_text(pile))}")
            state[TAB + TAB_CAP * t:TAB + TAB_CAP * t + len(pile)] = pile
            state[TAB_LEN + t] = len(pile)
        for slot, length, start in ((STOCK_SLOT, STOCK_LEN, STOCK), (WASTE_SLOT, WASTE_LEN, WASTE)):
            pile = [c for c, _ in slots[slot]]
            state[start:start + len(pile)] = pile
            state[length] = len(pile)
        state[SCORE] = layout.score
        state[REDEALS] = layout.redeals
        return state

    def array_to_layout(self, array):
        a = np.asarray(array)

        def pile(start, n, up):
            return tuple((int(c), up) for c in a[start:start + max(int(n), 0)])

        slots = [pile(STOCK, a[STOCK_LEN], False), pile(WASTE, a[WASTE_LEN], True)]
        slots += [pile(FOUND + FOUND_CAP * f, a[FOUND_LEN + f], True) for f in range(N_FOUND)]
        slots += [pile(TAB + TAB_CAP * t, a[TAB_LEN + t], True) for t in range(N_TAB)]
        return Layout(tuple(slots), int(a[SCORE]), int(a[REDEALS]))

    def describe(self, array):
        a = np.asarray(array)
        sn, wn = int(a[STOCK_LEN]), int(a[WASTE_LEN])
        next_card = card_str(int(a[STOCK + sn - 1])) if sn else "-"
        lines = [f"stock: {sn} cards, next {next_card}; redeals left {MAX_REDEALS - int(a[REDEALS])}",
                 f"waste: {_pile_text(a[WASTE:WASTE + wn])}"]
        lines.append("home:  " + "  ".join(
            card_str(int(a[FOUND + FOUND_CAP * f + a[FOUND_LEN + f] - 1])) for f in range(N_FOUND)))
        for t in range(N_TAB):
            lines.append(f"tab{t + 1}:  {_pile_text(a[TAB + TAB_CAP * t:TAB + TAB_CAP * t + a[TAB_LEN + t]])}")
        lines.append(f"score: {int(a[SCORE])}")
        return "\n".join(lines)


def _pile_text(cards):
    return " ".join(card_str(int(c)) for c in cards) or "-"


GAME = ZebraGame()
