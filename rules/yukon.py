"""Yukon (Aisleriot ``games/yukon.scm``), spec section 5.

Slots: 0 foundation, 1-7 tableau piles (extended), 8, 9, 10 foundations.  Foundations are not
tied to a suit; Aisleriot searches them in the order 0, 8, 9, 10.

State array (1-D ``np.int16``, ``STATE_SIZE`` entries):

* ``TAB + (p-1)*CAP + i`` -- card ``i`` (bottom = 0) of tableau pile ``p`` (1..7); unused
  entries hold ``EMPTY``.  ``CAP = 52``: no pile can hold more than the deck.
* ``HEIGHT + p-1`` -- number of cards in pile ``p``.
* ``DOWN + p-1`` -- number of face-down cards in pile ``p``.  Face-down cards are always the
  bottom ``DOWN`` cards (the deal puts them there, only face-up groups move, and the auto-flip
  turns the new top up), so a count represents them exactly; layouts that break this are refused.
* ``FOUND + k`` -- top card of foundation ``FOUNDATION_SLOTS[k]`` = slot 0, 8, 9, 10, or
  ``EMPTY``.  A foundation is always Ace..top of one suit, so the top card says it all.
* ``SCORE`` -- Aisleriot's score (+1 per card sent home).

Status (spec 5.6): WON when all foundations are full; otherwise Aisleriot's continue predicate
is its *hint*, so the game is LOST as soon as the hint finds nothing, even with legal moves
left (``_hint`` reproduces it exactly, the odd recursion included).  Solvers that want plain
"any legal move left" use the extra kernel :func:`has_any_move`.

Choices where the spec is silent:

* ``legal_moves`` lists actions at every position, including a LOST one (the traces do too).
* ``faithful=0`` (solver moves): ``dbl s`` is dropped (it equals one ``drag s 1 f``), and an Ace
  goes only to the *first* empty foundation in search order (the slot ``dbl`` would pick), since
  all empty foundations are interchangeable.
* Canonical hash: tableau piles in slot order (they have slot ids in Aisleriot's vocabulary);
  foundations as a set, i.e. how many cards of each suit are home.  Score is left out.
* Layouts must have face-down cards only as a bottom prefix of a tableau pile under a face-up
  top, foundations as face-up same-suit runs from the Ace, and redeal counter 0.
"""
import numpy as np

from rules.cards import EMPTY, aisleriot_card_str, check_deck
from rules.cards import colour as _colour, rank as _rank, suit as _suit
from rules.deals import AisleriotRandom
from rules.errors import InvalidDealError, shorten
from rules.game import STATE_DTYPE, Game, Kernels, Outcome, Role, SlotPlace, face_down_entries, slot_row
from rules.hashing import FNV_OFFSET, fnv1a
from rules.layout import Layout
from rules._jit import jit
from rules.moves import DBL, DRAG, encode, move_dst, move_kind, move_n, move_src

# ---------------------------------------------------------------------------------------------
# Constants and state layout
# ---------------------------------------------------------------------------------------------
N_SLOTS = 11
N_PILES = 7
CAP = 52
TAB = 0
HEIGHT = TAB + N_PILES * CAP      # 364
DOWN = HEIGHT + N_PILES           # 371
FOUND = DOWN + N_PILES            # 378
SCORE = FOUND + 4                 # 382
STATE_SIZE = SCORE + 1            # 383
FOUNDATION_SLOTS = (0, 8, 9, 10)  # Aisleriot's search order
MAX_LAYOUT_SCORE = 32767 - 52     # int16 score, room for every card still to go home
PILE_SLOTS = (1, 2, 3, 4, 5, 6, 7)

ONGOING, WON, LOST = int(Outcome.ONGOING), int(Outcome.WON), int(Outcome.LOST)

# MAX_MOVES: a bound on faithful actions, counted per destination.
# * Tableau destination t (7 of them): the group's deepest card c decides.  If t is non-empty
#   with top x, c must be one of the two cards of rank(x)-1 and the other colour, and each card
#   is the deepest card of exactly one group: <= 2 drags.  If t is empty, c must be one of the
#   4 Kings: <= 4 drags.  So <= 7 * 4 = 28.
# * Foundation destination (4): n = 1.  A non-empty one accepts only the next card of its suit
#   (<= 1 drag); an empty one accepts the 4 Aces (<= 4).  So <= 16.
# * dbl s: one per non-empty tableau pile, <= 7.
# Total <= 28 + 16 + 7 = 51.
MAX_MOVES = 51


# ---------------------------------------------------------------------------------------------
# Deal (spec 5.2 and the re-deal loop of 1.4)
# ---------------------------------------------------------------------------------------------
def piles_from_order(order):
    """Deal ``D`` (first card dealt first) into the 7 piles as lists of ``(card, face_up)``."""
    order = list(order)
    piles = [[] for _ in range(N_PILES)]
    k = 0
    for r in range(N_PILES):
        for p in range(r, N_PILES):
            piles[p].append([order[k], False])
            k += 1
    for pile in piles:
        pile[-1][1] = True
    for _ in range(4):
        for p in range(1, N_PILES):
            piles[p].append([order[k], True])
            k += 1
    return [[tuple(cell) for cell in pile] for pile in piles]


def array_from_piles(piles, foundations=(EMPTY, EMPTY, EMPTY, EMPTY), score=0):
    """State array from 7 piles of ``(card, face_up)`` (face-down prefix assumed) and tops."""
    a = np.full(STATE_SIZE, EMPTY, dtype=STATE_DTYPE)
    for p, pile in enumerate(piles):
        for i, (card, _) in enumerate(pile):
            a[TAB + p * CAP + i] = card
        a[HEIGHT + p] = len(pile)
        a[DOWN + p] = sum(1 for _, up in pile if not up)
    a[FOUND:FOUND + 4] = foundations
    a[SCORE] = score
    return a


def deal_from_rng(rng):
    """Shuffle and deal until Aisleriot's continue predicate holds on the fresh deal (spec 1.4).

    ``rng`` is an :class:`AisleriotRandom` (or anything with its ``shuffle``); every retry takes
    fresh output from the same stream.
    """
    while True:
        array = array_from_piles(piles_from_order(rng.shuffle(range(52))))
        if status(array) == ONGOING:
            return array


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------
@jit
def _base(p):
    return TAB + (p - 1) * CAP


@jit
def _height(state, p):
    return np.int64(state[HEIGHT + p - 1])


@jit
def _top(state, p):
    return np.int64(state[_base(p) + _height(state, p) - 1])


@jit
def _found_index(slot):
    """Foundation slot (0, 8, 9, 10) -> index 0..3; tableau slot -> -1."""
    if slot == 0:
        return 0
    if slot >= 8:
        return slot - 7
    return -1


@jit
def _foundation_accepts(state, k, c):
    f = state[FOUND + k]
    if f == EMPTY:
        return _rank(c) == 1
    return _suit(f) == _suit(c) and _rank(f) + 1 == _rank(c)


@jit
def _tableau_accepts(state, t, c):
    """Pile ``t`` accepts a group whose deepest card is ``c``."""
    if _height(state, t) == 0:
        return _rank(c) == 13
    x = _top(state, t)
    return _colour(x) != _colour(c) and _rank(c) + 1 == _rank(x)


@jit
def _dbl_target(state, c):
    """Foundation index a double click sends ``c`` to, or -1 (spec 5.3)."""
    if _rank(c) == 1:
        for k in range(3):
            if state[FOUND + k] == EMPTY:
                return k
        return 3
    for k in range(4):
        f = state[FOUND + k]
        if f != EMPTY and _suit(f) == _suit(c) and _rank(f) + 1 == _rank(c):
            return k
    return -1


@jit
def legal_moves(state, buf, faithful):
    """Write the accepted actions (faithful=1) or the solver's distinct moves (0); return count."""
    count = 0
    for s in range(1, N_PILES + 1):
        h = _height(state, s)
        base = _base(s)
        up = h - state[DOWN + s - 1]
        for n in range(1, up + 1):
            c = np.int64(state[base + h - n])
            for t in range(1, N_PILES + 1):
                if t != s and _tableau_accepts(state, t, c):
                    buf[count] = encode(DRAG, s, n, t)
                    count += 1
            if n == 1:
                empty_seen = False
                for k in range(4):
                    if _foundation_accepts(state, k, c):
                        if state[FOUND + k] == EMPTY:
                            if empty_seen and faithful == 0:
                                continue
                            empty_seen = True
                        slot = 0 if k == 0 else k + 7
                        buf[count] = encode(DRAG, s, 1, slot)
                        count += 1
        if faithful != 0 and h > 0 and _dbl_target(state, _top(state, s)) >= 0:
            buf[count] = encode(DBL, s, 0, 0)
            count += 1
    return count


@jit
def has_any_move(state):
    """True if any legal action remains (ignores the hint that ends Aisleriot's game)."""
    # legal_moves' loops with an early exit and no buffer
    for s in range(1, N_PILES + 1):
        h = _height(state, s)
        base = _base(s)
        up = h - state[DOWN + s - 1]
        for n in range(1, up + 1):
            c = np.int64(state[base + h - n])
            for t in range(1, N_PILES + 1):
                if t != s and _tableau_accepts(state, t, c):
                    return True
            if n == 1:
                for k in range(4):
                    if _foundation_accepts(state, k, c):
                        return True
    return False


@jit
def apply(state, move):
    """Play ``move`` in place: drop, score, auto-flip of the new source top."""
    s = move_src(move)
    if move_kind(move) == DBL:
        k = _dbl_target(state, _top(state, s))
        if k < 0:
            return
        n = 1
    else:
        n = move_n(move)
        k = _found_index(move_dst(move))
    h = _height(state, s)
    base = _base(s)
    if k >= 0:
        state[FOUND + k] = state[base + h - 1]
        state[SCORE] += 1
    else:
        t = move_dst(move)
        ht = _height(state, t)
        tb = _base(t)
        for i in range(n):
            state[tb + ht + i] = state[base + h - n + i]
        state[HEIGHT + t - 1] = ht + n
    for i in range(h - n, h):
        state[base + i] = EMPTY
    h -= n
    state[HEIGHT + s - 1] = h
    if h > 0 and state[DOWN + s - 1] >= h:
        state[DOWN + s - 1] = h - 1


@jit
def won(state):
    # freecell.won says the same over its homecells: each game's kernels read its own layout
    for k in range(4):
        f = state[FOUND + k]
        if f == EMPTY or _rank(f) != 13:
            return False
    return True


@jit
def _to_found(state, c):
    """Some non-empty foundation holds c's suit at rank c-1."""
    for k in range(4):
        f = state[FOUND + k]
        if f != EMPTY and _suit(f) == _suit(c) and _rank(f) + 1 == _rank(c):
            return True
    return False


@jit
def _t(state, card, s1, s2, m):
    """The hint's T(card, s1, L, s2) with L = the bottom ``m`` cards of pile s2, read top-first.

    Plain recursion, depth <= 5 (one deck, s1 != s2).  Call the two recursive calls (a)
    ``T(top(s2), s1, ...)`` and (b) ``T(u, s2, pile s1, s1)``; in (b) ``u`` has the rank and
    colour of ``card``, lies in s2 and has a card on it.  A (b) frame is a leaf: recursing needs a
    card of that rank and colour under another card in s1, i.e. ``card`` itself or its twin
    ``u``; but in the root ``card`` is top(s1) (nothing on it) and ``u`` is in s2, and in an (a)
    frame ``card`` is top(s2).  (a) frames keep card = top(s2) and need a fresh card fitting it
    strictly lower in s2 -- there are two such cards -- so root -> (a) x3 -> (b) at most.
    """
    base = _base(s2)
    down = np.int64(state[DOWN + s2 - 1])
    j = m - 1
    while j >= 0:
        if j < down:
            return False
        c = np.int64(state[base + j])
        if _colour(c) != _colour(card) and _rank(c) + 1 == _rank(card):
            if j == 0 or j - 1 < down:
                return True
            u = np.int64(state[base + j - 1])
            if _colour(u) == _colour(c) or _rank(u) != _rank(c) + 1:
                return True
            if _to_found(state, u):
                return True
            if _t(state, _top(state, s2), s1, s2, j):
                return True
            if _t(state, u, s2, s1, _height(state, s1)):
                return True
        j -= 1
    return False


@jit
def _hint(state):
    """Aisleriot's Yukon hint as a yes/no (spec 5.6)."""
    for s in range(1, N_PILES + 1):                       # A: a card can go home
        if _height(state, s) > 0:
            c = _top(state, s)
            if _rank(c) == 1 or _to_found(state, c):
                return True
    for s1 in range(1, N_PILES + 1):                      # B: a useful tableau move
        if _height(state, s1) == 0:
            continue
        card = _top(state, s1)
        for s2 in range(1, N_PILES + 1):
            if s2 != s1 and _t(state, card, np.int64(s1), np.int64(s2), _height(state, s2)):
                return True
    any_empty = False
    for s in range(1, N_PILES + 1):
        if _height(state, s) == 0:
            any_empty = True
    if any_empty:                                          # C: a King not at a pile's bottom
        for s in range(1, N_PILES + 1):
            base = _base(s)
            down = state[DOWN + s - 1]
            for j in range(_height(state, s) - 1, 0, -1):
                if j < down:
                    break
                if _rank(np.int64(state[base + j])) == 13:
                    return True
    return False


@jit
def status(state):
    if won(state):
        return WON
    return ONGOING if _hint(state) else LOST


@jit
def _mix(h, v):
    """An FNV-1a step (of ``v + 2``) with a shift: this hash's own step, kept for its values."""
    h = fnv1a(h, v + 2)
    return h ^ (h >> np.uint64(29))


@jit
def canonical_hash(state):
    """64-bit hash: piles in slot order (cards and face-down count), foundations as a set."""
    h = FNV_OFFSET
    for p in range(1, N_PILES + 1):
        n = _height(state, p)
        h = _mix(h, 100 + n)
        h = _mix(h, np.int64(state[DOWN + p - 1]))
        base = _base(p)
        for i in range(n):
            h = _mix(h, np.int64(state[base + i]))
    for suit_ in range(4):
        home = 0
        for k in range(4):
            f = state[FOUND + k]
            if f != EMPTY and _suit(f) == suit_:
                home = _rank(f)
        h = _mix(h, 200 + home)
    # fmix64 cut after its first multiply (rules.hashing.fmix64 goes on): these hash values stay
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


@jit
def score(state):
    return np.int64(state[SCORE])


KERNELS = Kernels(legal_moves, apply, status, won, canonical_hash, score)


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------
class YukonGame(Game):
    name = "yukon"
    title = "Yukon"
    n_slots = N_SLOTS
    state_size = STATE_SIZE
    max_moves = MAX_MOVES
    slot_names = ("foundation 0",) + tuple(f"pile {p}" for p in PILE_SLOTS) + tuple(
        f"foundation {s}" for s in FOUNDATION_SLOTS[1:])
    slot_roles = tuple(Role.FOUNDATION if s in FOUNDATION_SLOTS else Role.TABLEAU for s in range(N_SLOTS))
    kernels = KERNELS
    options = {}
    # yukon.scm: foundation 0, a blank, piles 1-7; foundations 8-10 down the left column.
    picture_places = tuple([SlotPlace(0, 0)] + slot_row(0, range(2, 9), "down")
                           + [SlotPlace(0, y) for y in (1, 2, 3)])
    hides_cards = True

    def hidden_entries(self, array, history):
        """The face-down cards.  They never move (only groups with a face-up deepest card move)
        and a card once face up stays face up, so memory adds nothing."""
        return face_down_entries(array, N_PILES, TAB, CAP, DOWN)

    def deal_array(self, seed, numbering, options):
        return deal_from_rng(AisleriotRandom(seed))

    def layout_to_array(self, layout, options):
        if len(layout.slots) != N_SLOTS:
            raise InvalidDealError(f"a Yukon layout has {N_SLOTS} slots, got {len(layout.slots)}")
        check_deck((c for slot in layout.slots for c, _ in slot), "Yukon layout")
        if layout.redeals != 0:
            raise InvalidDealError(f"Yukon never redeals; redeal counter {layout.redeals!r} must be 0")
        if not 0 <= layout.score <= MAX_LAYOUT_SCORE:
            raise InvalidDealError(f"Yukon score {layout.score!r} is outside 0..{MAX_LAYOUT_SCORE}")
        tops = []
        for slot in FOUNDATION_SLOTS:
            cards = layout.slots[slot]
            for i, (card, up) in enumerate(cards):
                if not up or card % 13 != i or card // 13 != cards[0][0] // 13:
                    raise InvalidDealError(
                        f"foundation slot {slot} must be a face-up run Ace upwards of one suit, got "
                        f"{shorten(_slot_text(cards))}")
            tops.append(cards[-1][0] if cards else EMPTY)
        piles = []
        for slot in PILE_SLOTS:
            cards = layout.slots[slot]
            down = sum(1 for _, up in cards if not up)
            if any(not up for _, up in cards[down:]) or (cards and not cards[-1][1]):
                raise InvalidDealError(
                    f"pile {slot}: face-down cards must lie under all face-up ones, with the top card "
                    f"face up, got {shorten(_slot_text(cards))}")
            piles.append(cards)
        return array_from_piles(piles, tops, layout.score)

    def array_to_layout(self, array):
        slots = [()] * N_SLOTS
        for k, slot in enumerate(FOUNDATION_SLOTS):
            top = int(array[FOUND + k])
            slots[slot] = () if top == EMPTY else tuple((c, True) for c in range(top - top % 13, top + 1))
        for p in PILE_SLOTS:
            n, down = int(array[HEIGHT + p - 1]), int(array[DOWN + p - 1])
            base = TAB + (p - 1) * CAP
            slots[p] = tuple((int(array[base + i]), i >= down) for i in range(n))
        return Layout(tuple(slots), int(array[SCORE]), 0)


def _slot_text(cards):
    return " ".join(aisleriot_card_str(c) + ("" if up else "*") for c, up in cards)


GAME = YukonGame()
