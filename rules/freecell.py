"""Freecell as GNOME Aisleriot plays it (``games/freecell.scm``; spec section 4).

Slots (spec 4.1): 0-3 free cells, 4-7 homecells (foundations, not tied to a suit), 8-15 fields
(tableau columns, "columns 1..8" in standard notation).

State array (1-D ``np.int16``, ``STATE_SIZE`` entries; ``EMPTY`` = -1 means no card):

====================  =========================================================================
offset                contents
====================  =========================================================================
``FREE`` .. +3        card in free cell 0..3, or EMPTY
``HOME`` .. +3        TOP card of homecell slot 4..7, or EMPTY.  A homecell always holds A, 2,
                      .. k of one suit (cards only arrive as "Ace on empty" or "same suit, one
                      higher", and leave only from the top), so its top card is the whole pile.
``HIGH`` .. +3        ``high[suit]``: highest rank sent home per suit C D H S (spec 4.5).  Equal
                      to the homecell tops except after the homecell double-click QUIRK (4.4),
                      which leaves it stale.  ``layout_to_array`` sets it from the tops.
``SCORE_LO/HI``       score = HI * 16384 + LO (two words: the score-farming QUIRK makes the score
                      unbounded, one int16 would overflow at 32767)
``HEIGHT`` .. +7      number of cards in column 0..7 (slot 8 + i)
``COLS``              8 rows of ``COL_WIDTH`` cards, bottom first; row i is column i
====================  =========================================================================

``COL_WIDTH`` = 20.  A column only ever grows by a card one rank below its top card, so a column
whose cards are c_0..c_{h-1} can never hold more than max(13, max_k (k + rank(c_k))) cards.  For
any deal (7 or 6 cards a column) that is at most 6 + 13 = 19.  ``layout_to_array`` checks this
bound for every column, so no reachable position overflows a row.

Moves are Aisleriot actions (``rules.moves``): ``drag s n d`` and ``dbl s`` (``click`` is never
accepted).  Every successful action is followed by autoplay (spec 4.5), inside ``apply``.

Choices where the spec is silent or where a solver differs from the faithful set:

* ``dbl s`` with no empty free cell: the trace lists no such action, so it is refused (absent
  from the faithful list), like any action that changes nothing.  The lowest empty free cell is
  chosen before the card is lifted (checked against the trace: ``dbl 1`` with cell 0 full and 2
  empty sends the card to 2).
* Solver moves (``faithful=0``), each a legal faithful action:

  - an Ace to a homecell: one move, to the first empty homecell (the others give the same
    position up to homecell order);
  - a card to a free cell: one move, to the lowest empty free cell;
  - to an empty column: one move per ``n``, to the first empty column (columns are a set in the
    canonical position);
  - dropped: free cell -> free cell (the position is the same up to free-cell order, which the
    canonical hash ignores; autoplay cannot differ, since positions reached by an action are
    already autoplay fixpoints -- and at a fresh deal any other move runs the same autoplay);
    ``dbl`` of a column or free cell (= ``drag s 1 lowest-empty-free-cell``, already listed, or a
    free cell -> free cell move); ``dbl`` of a homecell (the score-farming QUIRK of spec 4.4);
    a whole column dragged to an empty column when no autoplay is pending (the canonical
    position does not change).

* Canonical hash: free cells as a set, columns as a multiset, foundations per suit (homecell
  slot ids ignored), ``high[]`` included, score excluded.

Notations (``GAME.parse_move`` / ``GAME.format_move``): Aisleriot's vocabulary, and the standard
(fc-solve) notation: columns ``1``..``8``, free cells ``a``..``d``, ``h`` a homecell: ``3a``,
``a5``, ``2h``, ``ah``, ``58``.  A column-to-column move ``58`` moves the MAXIMAL number of cards
that may legally go (for a non-empty destination only one count is legal).  Any other count is
written with fc-solve's extended suffix ``v`` + hex count (``58v3``); free cell -> free cell is
written ``ab`` (an extension).  ``h`` names no slot: it means the homecell of the card's suit, or
for an Ace the first empty homecell, so an Ace dragged to a later empty homecell prints like the
move to the first one (the same position up to homecell order).  ``dbl s`` is written as the drag it equals; a homecell ``dbl`` has
no standard form.

fc-solve board text: :func:`parse_fcs_board` / :func:`format_fcs_board`.  ``Foundations:`` puts
suit s on homecell slot ``4 + s`` (C D H S -> 4 5 6 7); Aisleriot's slot ids matter only for its
own vocabulary.
"""
import re

import numpy as np

from rules._jit import jit
from rules.cards import EMPTY, RANKS, SUITS, card_str, check_deck, parse_card
from rules.cards import colour as _red, rank as _rank, suit as _suit
from rules.deals import aisleriot_shuffle, microsoft_deal
from rules.errors import (IllegalMoveError, InvalidCardError, InvalidDealError, InvalidOptionError, InvalidStateError,
                     listing, shorten)
from rules.game import STATE_DTYPE, Game, Kernels, Role, State, slot_row
from rules.hashing import splitmix64_next
from rules.layout import Layout
from rules.moves import DBL, DRAG, Move, encode

# ---------------------------------------------------------------------------------------------
# Constants and the state layout
# ---------------------------------------------------------------------------------------------
N_SLOTS = 16
N_FREE = 4
N_COLS = 8
FIRST_HOME = 4
FIRST_COL = 8

FREE = 0
HOME = 4
HIGH = 8
SCORE_LO = 12
SCORE_HI = 13
HEIGHT = 14
COLS = 24
COL_WIDTH = 20
STATE_SIZE = COLS + N_COLS * COL_WIDTH  # 184
SCORE_BASE = 16384

# MAX_MOVES: a bound on the faithful list (the solver list is a subset of it).
#  * dbl: at most one per slot                                                        16
#  * to homecells: 12 possible sources (4 cells + 8 columns), each with one destination
#    except an Ace (<= 4 empty homecells, and there are only 4 Aces): 12 + 4*3 =      24
#  * moves touching a free cell, with k cells occupied: cell->cell k(4-k),
#    column->cell 8(4-k), cell->column 8k; sum k(4-k) + 32 <= 4 + 32 =                36
#  * column->column: with e empty columns there are <= 8-e sources; to a non-empty
#    destination at most one n fits (run ranks are distinct), to an empty one at most
#    13 (a run is at most 13 cards): 13 e (8-e) + (8-e)(7-e), largest at e = 4:      220
# total                                                                              296
MAX_MOVES = 296

SCAN_ORDER = np.array([0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15], dtype=np.int64)

_NUMBERINGS = ("microsoft", "aisleriot")


# ---------------------------------------------------------------------------------------------
# Small helpers (kernels)
# ---------------------------------------------------------------------------------------------
@jit
def _top(state, slot):
    """Top card of ``slot`` or EMPTY."""
    if slot < FIRST_HOME:
        return state[FREE + slot]
    if slot < FIRST_COL:
        return state[HOME + slot - FIRST_HOME]
    col = slot - FIRST_COL
    h = state[HEIGHT + col]
    if h == 0:
        return EMPTY
    return state[COLS + col * COL_WIDTH + h - 1]


@jit
def _run_length(state, col):
    """Length of the run on top of column ``col`` (0 for an empty column)."""
    h = state[HEIGHT + col]
    if h == 0:
        return 0
    base = COLS + col * COL_WIDTH
    n = 1
    while n < h:
        upper = state[base + h - n]
        lower = state[base + h - n - 1]
        if _rank(lower) != _rank(upper) + 1 or _red(lower) == _red(upper):
            break
        n += 1
    return n


@jit
def _home_accepts(state, h, card):
    """Can homecell ``h`` (0..3) take ``card``: an Ace on empty, or same suit one higher."""
    top = state[HOME + h]
    if top == EMPTY:
        return _rank(card) == 1
    return _suit(top) == _suit(card) and _rank(card) == _rank(top) + 1


@jit
def _add_score(state):
    lo = state[SCORE_LO] + 1
    if lo == SCORE_BASE:
        state[SCORE_LO] = 0
        state[SCORE_HI] = state[SCORE_HI] + 1
    else:
        state[SCORE_LO] = lo


@jit
def _count_empty_free(state):
    n = 0
    for i in range(N_FREE):
        if state[FREE + i] == EMPTY:
            n += 1
    return n


@jit
def _count_empty_cols(state):
    n = 0
    for i in range(N_COLS):
        if state[HEIGHT + i] == 0:
            n += 1
    return n


@jit
def _first_empty_free(state):
    for i in range(N_FREE):
        if state[FREE + i] == EMPTY:
            return i
    return -1


@jit
def _autoplay_target(state):
    """Scan per spec 4.5: the first (slot, homecell 0..3) autoplay would move, or (-1, -1)."""
    hc = state[HIGH + 0]
    hd = state[HIGH + 1]
    hh = state[HIGH + 2]
    hs = state[HIGH + 3]
    black_min = min(hc, hs)
    red_min = min(hd, hh)
    limit_red = min(2 + black_min, 3 + red_min)
    limit_black = min(2 + red_min, 3 + black_min)
    for k in range(SCAN_ORDER.shape[0]):
        slot = SCAN_ORDER[k]
        c = _top(state, slot)
        if c == EMPTY:
            continue
        limit = limit_red if _red(c) == 1 else limit_black
        if _rank(c) > limit:
            continue
        target = -1
        for h in range(4):
            top = state[HOME + h]
            if top != EMPTY and _suit(top) == _suit(c):
                target = h
                break
        if target < 0:
            for h in range(4):
                if state[HOME + h] == EMPTY:
                    target = h
                    break
        if target >= 0 and _home_accepts(state, target, c):
            return slot, target
    return -1, -1


@jit
def _remove_top(state, slot):
    """Take the top card off ``slot`` (which must be non-empty) and return it."""
    if slot < FIRST_HOME:
        c = state[FREE + slot]
        state[FREE + slot] = EMPTY
        return c
    if slot < FIRST_COL:
        c = state[HOME + slot - FIRST_HOME]
        state[HOME + slot - FIRST_HOME] = c - 1 if _rank(c) > 1 else EMPTY
        return c
    col = slot - FIRST_COL
    h = state[HEIGHT + col] - 1
    state[HEIGHT + col] = h
    c = state[COLS + col * COL_WIDTH + h]
    state[COLS + col * COL_WIDTH + h] = EMPTY
    return c


@jit
def _send_home(state, h, card):
    state[HOME + h] = card
    state[HIGH + _suit(card)] = _rank(card)
    _add_score(state)


@jit
def autoplay(state):
    """Run autoplay to its fixpoint (spec 4.5); returns the number of cards sent home."""
    moved = 0
    while True:
        slot, h = _autoplay_target(state)
        if slot < 0:
            return moved
        c = _remove_top(state, slot)
        _send_home(state, h, c)
        moved += 1


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------
@jit
def legal_moves(state, buf, faithful):
    """Write legal move codes into ``buf``; returns the count (see module docstring)."""
    count = 0
    empty_free = _count_empty_free(state)
    empty_cols = _count_empty_cols(state)
    first_free = _first_empty_free(state)
    first_col = -1
    for i in range(N_COLS):
        if state[HEIGHT + i] == 0:
            first_col = i
            break
    first_home = -1
    for h in range(4):
        if state[HOME + h] == EMPTY:
            first_home = h
            break
    pending = 0
    if faithful == 0:
        s_, h_ = _autoplay_target(state)
        pending = 1 if s_ >= 0 else 0

    # --- free cells as sources: one card
    for s in range(N_FREE):
        c = state[FREE + s]
        if c == EMPTY:
            continue
        if faithful == 1:
            for d in range(N_FREE):
                if d != s and state[FREE + d] == EMPTY:
                    buf[count] = encode(DRAG, s, 1, d)
                    count += 1
        for h in range(4):
            if _home_accepts(state, h, c):
                if faithful == 1 or state[HOME + h] != EMPTY or h == first_home:
                    buf[count] = encode(DRAG, s, 1, FIRST_HOME + h)
                    count += 1
        for col in range(N_COLS):
            ht = state[HEIGHT + col]
            if ht == 0:
                if faithful == 1 or col == first_col:
                    buf[count] = encode(DRAG, s, 1, FIRST_COL + col)
                    count += 1
            else:
                t = state[COLS + col * COL_WIDTH + ht - 1]
                if _rank(t) == _rank(c) + 1 and _red(t) != _red(c):
                    buf[count] = encode(DRAG, s, 1, FIRST_COL + col)
                    count += 1

    # --- columns as sources: the top n cards, a run (zebra's tableau loop has the same shape)
    for sc in range(N_COLS):
        h_src = state[HEIGHT + sc]
        if h_src == 0:
            continue
        base = COLS + sc * COL_WIDTH
        top = state[base + h_src - 1]
        src = FIRST_COL + sc
        # one card to a free cell / homecell (the free-cell sources' loops above, for this card)
        for d in range(N_FREE):
            if state[FREE + d] == EMPTY and (faithful == 1 or d == first_free):
                buf[count] = encode(DRAG, src, 1, d)
                count += 1
        for h in range(4):
            if _home_accepts(state, h, top):
                if faithful == 1 or state[HOME + h] != EMPTY or h == first_home:
                    buf[count] = encode(DRAG, src, 1, FIRST_HOME + h)
                    count += 1
        # runs to other columns; capacity (F+1) * 2^max(E - [d empty] - [s empty after], 0)
        # with E counted after lifting equals (F+1) * 2^max(E0 - [d empty], 0), E0 before.
        run = _run_length(state, sc)
        for dc in range(N_COLS):
            if dc == sc:
                continue
            h_dst = state[HEIGHT + dc]
            if h_dst == 0:
                if faithful == 0 and dc != first_col:
                    continue
                shift = empty_cols - 1
                if shift < 0:
                    shift = 0
                cap = (empty_free + 1) << shift
                for n in range(1, run + 1):
                    if n > cap:
                        break
                    if faithful == 0 and n == h_src and pending == 0:
                        continue
                    buf[count] = encode(DRAG, src, n, FIRST_COL + dc)
                    count += 1
            else:
                t = state[COLS + dc * COL_WIDTH + h_dst - 1]
                n = _rank(t) - _rank(top)  # the group's bottom card must have rank(t) - 1
                if n < 1 or n > run:
                    continue
                b = state[base + h_src - n]
                if _red(b) == _red(t):
                    continue
                cap = (empty_free + 1) << empty_cols
                if n <= cap:
                    buf[count] = encode(DRAG, src, n, FIRST_COL + dc)
                    count += 1

    # --- double clicks: any non-empty slot, when a free cell is empty
    if faithful == 1 and empty_free > 0:
        for s in range(N_SLOTS):
            if _top(state, s) != EMPTY:
                buf[count] = encode(DBL, s, 0, 0)
                count += 1
    return count


@jit
def drag(state, src, n, dst):
    """Move the top ``n`` cards of ``src`` (a free cell or a column) to ``dst``, no autoplay:
    the card-moving body of :func:`apply`, which ``solvers.games.freecell`` plays too."""
    if src < FIRST_HOME:
        c = state[FREE + src]
        state[FREE + src] = EMPTY
        if dst < FIRST_HOME:
            state[FREE + dst] = c
        elif dst < FIRST_COL:
            _send_home(state, dst - FIRST_HOME, c)
        else:
            dc = dst - FIRST_COL
            h = state[HEIGHT + dc]
            state[COLS + dc * COL_WIDTH + h] = c
            state[HEIGHT + dc] = h + 1
    else:
        sc = src - FIRST_COL
        h_src = state[HEIGHT + sc] - n
        state[HEIGHT + sc] = h_src
        first = COLS + sc * COL_WIDTH + h_src
        if dst < FIRST_HOME:
            state[FREE + dst] = state[first]
        elif dst < FIRST_COL:
            _send_home(state, dst - FIRST_HOME, state[first])
        else:
            dc = dst - FIRST_COL
            h = state[HEIGHT + dc]
            out = COLS + dc * COL_WIDTH + h
            for i in range(n):
                state[out + i] = state[first + i]
            state[HEIGHT + dc] = h + n
        for i in range(n):
            state[first + i] = EMPTY  # keep unused cells EMPTY: equal positions, equal arrays


@jit
def apply(state, move):
    """Play ``move`` (assumed legal) in place, then autoplay."""
    kind = (move >> 24) & 0xFF
    src = (move >> 16) & 0xFF
    n = (move >> 8) & 0xFF
    dst = move & 0xFF
    if kind == DRAG:
        drag(state, src, n, dst)
    elif kind == DBL:
        f = _first_empty_free(state)
        if f < 0:
            return
        c = _remove_top(state, src)
        state[FREE + f] = c
    else:
        return
    autoplay(state)


@jit
def won(state):
    for h in range(4):
        top = state[HOME + h]
        if top == EMPTY or _rank(top) != 13:
            return False
    return True


@jit
def status(state):
    """Freecell never declares a loss (spec 4.6): WON or ONGOING."""
    return 1 if won(state) else 0


@jit
def score(state):
    return np.int64(state[SCORE_HI]) * SCORE_BASE + np.int64(state[SCORE_LO])


@jit
def hash_state(state):
    """Canonical 64-bit hash: free cells a set, columns a multiset, foundations by suit."""
    acc = np.uint64(0)
    for i in range(N_FREE):
        c = state[FREE + i]
        if c != EMPTY:
            acc += splitmix64_next(np.uint64(c + 1) | np.uint64(1 << 40))
    found = np.uint64(0)
    for h in range(4):
        top = state[HOME + h]
        if top != EMPTY:
            found |= np.uint64(_rank(top)) << np.uint64(4 * _suit(top))
    for s in range(4):
        found |= np.uint64(state[HIGH + s]) << np.uint64(16 + 4 * s)
    acc += splitmix64_next(found | np.uint64(1 << 41))
    for col in range(N_COLS):
        h = state[HEIGHT + col]
        base = COLS + col * COL_WIDTH
        x = np.uint64(h)
        for i in range(h):
            x = splitmix64_next(x ^ (np.uint64(state[base + i] + 1) << np.uint64(32)))
        acc += splitmix64_next(x | np.uint64(1 << 42))
    return splitmix64_next(acc)


KERNELS = Kernels(legal_moves, apply, status, won, hash_state, score)


# ---------------------------------------------------------------------------------------------
# Python side: deals, layouts, notations
# ---------------------------------------------------------------------------------------------
def _array_from_columns(columns, free=(), homes=(), score_=0):
    """State array from Python lists; ``homes`` = top cards per homecell slot (or EMPTY)."""
    a = np.full(STATE_SIZE, 0, dtype=STATE_DTYPE)
    a[FREE:FREE + 4] = EMPTY
    a[HOME:HOME + 4] = EMPTY
    for i, c in enumerate(free):
        a[FREE + i] = c
    for i, c in enumerate(homes):
        a[HOME + i] = c
        if c != EMPTY:
            a[HIGH + c // 13] = c % 13 + 1
    a[SCORE_HI], a[SCORE_LO] = divmod(int(score_), SCORE_BASE)
    for i, col in enumerate(columns):
        a[HEIGHT + i] = len(col)
        a[COLS + i * COL_WIDTH: COLS + i * COL_WIDTH + len(col)] = col
    # unused column cells hold EMPTY (the kernels keep it so), so equal positions have equal arrays
    for i, col in enumerate(columns):
        a[COLS + i * COL_WIDTH + len(col): COLS + (i + 1) * COL_WIDTH] = EMPTY
    return a


def _column_bound(col):
    """Most cards column ``col`` can ever hold (module docstring)."""
    return max([13] + [k + c % 13 + 1 for k, c in enumerate(col)])


class FreecellGame(Game):
    name = "freecell"
    title = "Freecell"
    n_slots = N_SLOTS
    state_size = STATE_SIZE
    max_moves = MAX_MOVES
    slot_names = ("free a", "free b", "free c", "free d", "home 4", "home 5", "home 6", "home 7",
                  "col 1", "col 2", "col 3", "col 4", "col 5", "col 6", "col 7", "col 8")
    slot_roles = (Role.FREE_CELL,) * N_FREE + (Role.FOUNDATION,) * (FIRST_COL - FIRST_HOME) \
        + (Role.TABLEAU,) * (N_SLOTS - FIRST_COL)
    double_click_role = Role.FREE_CELL     # freecell.scm: dbl sends the top card to a free cell (spec 4.3)
    kernels = KERNELS
    options = {}
    numberings = _NUMBERINGS
    default_numbering = "microsoft"
    notations = ("aisleriot", "standard")
    board_formats = ("fcs",)    # Freecell Solver's board text (from_text reads it too)
    # freecell.scm: free cells 0-3 then homecells 4-7 (each a 24th closer, a quarter gap between
    # the groups), the eight fields on the next row.
    picture_places = tuple(slot_row(0, [0, 23 / 24, 46 / 24, 69 / 24, 4.125, 4.125 + 23 / 24,
                                        4.125 + 46 / 24, 4.125 + 69 / 24], "stack") + slot_row(1, range(8), "down"))

    def format_board(self, state, board_format):
        if board_format != "fcs":
            return super().format_board(state, board_format)
        return format_fcs_board(state)

    # ---- deals and layouts --------------------------------------------------------------------
    def deal_array(self, seed, numbering, options):
        cards = microsoft_deal(seed) if numbering == "microsoft" else aisleriot_shuffle(seed, 52)
        columns = [cards[i::8] for i in range(8)]  # D[k] -> slot 8 + k mod 8, bottom first
        return _array_from_columns(columns)

    def from_text(self, text, **options):
        """Aisleriot layout text (it has ``|`` between slots), or Freecell Solver's board format."""
        if not isinstance(text, str):
            raise InvalidDealError(f"freecell position must be text, got {type(text).__name__}")
        if "|" in text:
            return self.from_layout(text.strip(), **options)
        self.resolve_options(options)
        return parse_fcs_board(text)

    def layout_to_array(self, layout, options):
        slots = layout.slots
        if len(slots) != N_SLOTS:
            raise InvalidDealError(f"a freecell layout has 16 slots, got {len(slots)}")
        if layout.redeals != 0:
            raise InvalidDealError(f"freecell has no redeals; layout redeal counter is {layout.redeals}")
        if layout.score < 0 or layout.score >= 32767 * SCORE_BASE:
            raise InvalidDealError(f"freecell score {layout.score} is out of range")
        cards, places = [], []
        for i, slot in enumerate(slots):
            for c, up in slot:
                if not up:
                    raise InvalidDealError(f"freecell has no face-down cards: {card_str(c)}* in slot {i}")
                if c >= 52:
                    raise InvalidDealError(f"card code {c} in slot {i} is not a card of one deck")
                cards.append(c)
                places.append(f"slot {i}")
        check_deck(cards, "freecell position", places=places, name=card_str)
        free = []
        for i in range(N_FREE):
            if len(slots[i]) > 1:
                raise InvalidDealError(f"free cell slot {i} holds {len(slots[i])} cards; at most 1")
            free.append(slots[i][0][0] if slots[i] else EMPTY)
        homes = []
        for i in range(FIRST_HOME, FIRST_COL):
            cards = [c for c, _ in slots[i]]
            if cards:
                s = cards[0] // 13
                if cards != [13 * s + r for r in range(len(cards))]:
                    text = " ".join(card_str(c) for c in cards)
                    raise InvalidDealError(
                        f"homecell slot {i} holds {shorten(text)}; a homecell holds A, 2, 3 ... of one suit"
                    )
            homes.append(cards[-1] if cards else EMPTY)
        columns = []
        for i in range(FIRST_COL, N_SLOTS):
            col = [c for c, _ in slots[i]]
            if _column_bound(col) > COL_WIDTH:
                raise InvalidDealError(
                    f"column slot {i} ({listing(card_str(c) for c in col)}) could grow to "
                    f"{_column_bound(col)} cards; the engine holds at most {COL_WIDTH} a column"
                )
            columns.append(col)
        return _array_from_columns(columns, free, homes, layout.score)

    def array_to_layout(self, array):
        a = np.asarray(array)
        slots = []
        for i in range(N_FREE):
            c = int(a[FREE + i])
            slots.append(((c, True),) if c != EMPTY else ())
        for h in range(4):
            top = int(a[HOME + h])
            if top == EMPTY:
                slots.append(())
            else:
                s = top // 13
                slots.append(tuple((13 * s + r, True) for r in range(top % 13 + 1)))
        for col in range(N_COLS):
            h = int(a[HEIGHT + col])
            base = COLS + col * COL_WIDTH
            slots.append(tuple((int(c), True) for c in a[base:base + h]))
        return Layout(tuple(slots), int(score(a)), 0)

    def keep_hidden(self, array, rebuilt):
        """``high[]`` is not in the layout: each entry must lie between its suit's homecell top
        rank and 13 (it only lags behind after the homecell double-click QUIRK)."""
        for s in range(4):
            high, top = int(array[HIGH + s]), int(rebuilt[HIGH + s])
            if not top <= high <= 13:
                raise InvalidStateError(
                    f"freecell high[{SUITS[s]}] (entry {HIGH + s}) is {high}; with {SUITS[s]} up to rank "
                    f"{top} on the homecells it must be {top}..13")
        rebuilt[HIGH:HIGH + 4] = array[HIGH:HIGH + 4]
        return rebuilt

    def describe(self, array):
        a = np.asarray(array)
        layout = self.array_to_layout(a)
        cells = " ".join(card_str(s[0][0]) if s else "--" for s in layout.slots[:4])
        homes = " ".join(card_str(s[-1][0]) if s else "--" for s in layout.slots[4:8])
        lines = [f"free cells: {cells}    homecells: {homes}    score: {layout.score}"]
        for i, slot in enumerate(layout.slots[8:]):
            lines.append(f"{i + 1}: " + " ".join(card_str(c) for c, _ in slot))
        return "\n".join(lines)

    # ---- notations ----------------------------------------------------------------------------
    def _faithful(self, array):
        buf = np.empty(MAX_MOVES, dtype=np.int32)
        k = legal_moves(np.ascontiguousarray(array, dtype=STATE_DTYPE), buf, 1)
        return [Move.from_code(c) for c in buf[:k]]

    def _max_n(self, array, src, dst):
        ns = [m.n for m in self._faithful(array) if m.kind == DRAG and m.src == src and m.dst == dst]
        return max(ns) if ns else None

    _STANDARD = re.compile(r"^([1-8a-d])([1-8a-dh])(?:v([0-9a-f]+))?$")

    def parse_move(self, text, array):
        """Aisleriot vocabulary (``drag 8 1 0``, ``dbl 4``) or standard notation (``3a``, ``58``)."""
        raw = str(text).strip()
        if raw.split()[:1] and raw.split()[0] in ("drag", "click", "dbl"):
            return Move.parse(raw)
        m = self._STANDARD.match(raw.lower())
        if not m:
            raise IllegalMoveError(
                f"cannot parse freecell move {shorten(text)}: expected Aisleriot 'drag S N D' / 'dbl S' or "
                f"standard notation such as '3a', 'a5', '2h', 'ah', '58', '58v3'"
            )
        s_txt, d_txt, count = m.groups()
        src = FIRST_COL + int(s_txt) - 1 if s_txt.isdigit() else ord(s_txt) - ord("a")
        if count is not None and not (s_txt.isdigit() and d_txt.isdigit()):
            raise IllegalMoveError(f"move {shorten(text)}: a 'v' card count is only for column-to-column moves")
        if d_txt == "h":
            homes = [mv.dst for mv in self._faithful(array)
                     if mv.kind == DRAG and mv.src == src and FIRST_HOME <= mv.dst < FIRST_COL]
            if not homes:
                raise IllegalMoveError(f"move {shorten(text)}: no card of that slot can go to a homecell here")
            return Move(DRAG, src, 1, min(homes))
        if not d_txt.isdigit():
            return Move(DRAG, src, 1, ord(d_txt) - ord("a"))
        dst = FIRST_COL + int(d_txt) - 1
        if count is not None:
            n = int(count, 16)
            if not 1 <= n < 256:
                raise IllegalMoveError(f"move {shorten(text)}: card count {n} is out of range")
            return Move(DRAG, src, n, dst)
        if src < FIRST_HOME:
            return Move(DRAG, src, 1, dst)
        n = self._max_n(array, src, dst)
        if n is None:
            raise IllegalMoveError(f"move {shorten(text)}: no cards of column {s_txt} can go to column {d_txt} here")
        return Move(DRAG, src, n, dst)

    def format_move(self, move, array, notation="aisleriot"):
        if notation == "aisleriot":
            return str(move)
        if notation != "standard":
            raise InvalidOptionError(f"freecell has no move notation {shorten(notation)}; use 'aisleriot' or 'standard'")
        if move.src >= N_SLOTS or move.kind == DRAG and (move.dst >= N_SLOTS or move.n < 1):
            raise IllegalMoveError(f"{move} names no freecell slots (0..{N_SLOTS - 1}); no standard form")
        if move.kind == DBL and not FIRST_HOME <= move.src < FIRST_COL:
            f = _first_empty_free(np.asarray(array, dtype=STATE_DTYPE))
            if f < 0:
                raise IllegalMoveError(f"{move} does nothing here (no empty free cell); no standard form")
            move = Move(DRAG, move.src, 1, f)
        if move.kind != DRAG or FIRST_HOME <= move.src < FIRST_COL:
            raise IllegalMoveError(f"{move} has no standard notation")

        def name(slot):
            if slot < FIRST_HOME:
                return "abcd"[slot]
            if slot < FIRST_COL:
                return "h"
            return str(slot - FIRST_COL + 1)

        text = name(move.src) + name(move.dst)
        if move.src >= FIRST_COL and move.dst >= FIRST_COL:
            if move.n != self._max_n(array, move.src, move.dst):
                text += f"v{move.n:x}"
        elif move.n != 1:
            raise IllegalMoveError(f"{move} moves {move.n} cards; only column-to-column moves take more than 1")
        return text


GAME = FreecellGame()


# ---------------------------------------------------------------------------------------------
# fc-solve board text
# ---------------------------------------------------------------------------------------------
_FOUNDATION = re.compile(r"^([HCDS])-(0|10|[A1-9TJQK])$", re.IGNORECASE | re.ASCII)


def _fcs_card(token):
    t = token.strip()
    if len(t) == 2 and t[0] == "1":
        t = "A" + t[1]  # fc-solve accepts 1 for the Ace
    try:
        return parse_card(t)
    except InvalidCardError:
        raise InvalidDealError(f"unknown card {shorten(token)} in the fc-solve board") from None


def parse_fcs_board(text) -> State:
    """A Freecell :class:`State` from fc-solve's board text (module docstring).

    Columns are the lines that are not ``Freecells:`` / ``Foundations:`` lines, bottom card
    first; a leading ``:`` is allowed (a lone ``:`` is an empty column); blank lines are skipped.
    Score = cards on the foundations; ``high[]`` = the foundation tops.
    """
    if not isinstance(text, str):
        raise InvalidDealError(f"fc-solve board must be text, got {type(text).__name__}")
    columns, free, found = [], None, None
    text = text.removeprefix("\ufeff")
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        low = line.lower()
        if low.startswith("foundations:"):
            if found is not None:
                raise InvalidDealError(f"line {lineno}: second 'Foundations:' line")
            found = {}
            for tok in line[len("foundations:"):].split():
                m = _FOUNDATION.match(tok)
                if not m:
                    raise InvalidDealError(f"line {lineno}: bad foundation {shorten(tok)} (expected e.g. 'H-0', 'C-A', 'D-10')")
                s = SUITS.index(m.group(1).upper())
                if s in found:
                    raise InvalidDealError(f"line {lineno}: suit {m.group(1).upper()} given twice in 'Foundations:'")
                r = m.group(2).upper()
                found[s] = 0 if r == "0" else 10 if r == "10" else 1 if r == "1" else RANKS.index(r) + 1
        elif low.startswith("freecells:"):
            if free is not None:
                raise InvalidDealError(f"line {lineno}: second 'Freecells:' line")
            toks = line[len("freecells:"):].split()
            if len(toks) > N_FREE:
                raise InvalidDealError(f"line {lineno}: {len(toks)} free cells given; Freecell has 4")
            free = [EMPTY if t == "-" else _fcs_card(t) for t in toks]
        else:
            if line.startswith(":"):
                line = line[1:]
            if len(columns) == N_COLS:
                raise InvalidDealError(f"line {lineno}: a ninth column in the fc-solve board; Freecell has 8")
            tokens = line.split()
            if len(tokens) > 52:
                raise InvalidDealError(f"line {lineno}: a column of {len(tokens)} cards; a deck has 52")
            columns.append([_fcs_card(t) for t in tokens])
    columns += [[] for _ in range(N_COLS - len(columns))]
    free = (free or []) + [EMPTY] * (N_FREE - len(free or []))
    found = found or {}
    slots = [((c, True),) if c != EMPTY else () for c in free]
    for s in range(4):
        slots.append(tuple((13 * s + r, True) for r in range(found.get(s, 0))))
    for col in columns:
        slots.append(tuple((c, True) for c in col))
    layout = Layout(tuple(slots), sum(found.values()), 0)
    return State.trusted(GAME, GAME.layout_to_array(layout, {}))


def format_fcs_board(state) -> str:
    """fc-solve board text of a :class:`State` (or state array); parse_fcs_board reads it back."""
    a = state.array if isinstance(state, State) else np.asarray(state)
    tops = {int(a[HOME + h]) // 13: int(a[HOME + h]) % 13 + 1 for h in range(4) if a[HOME + h] != EMPTY}
    found = " ".join(f"{SUITS[s]}-{RANKS[tops[s] - 1] if s in tops else '0'}" for s in (2, 0, 1, 3))
    cells = " ".join(card_str(int(c)) if c != EMPTY else "-" for c in a[FREE:FREE + 4])
    lines = [f"Foundations: {found}", f"Freecells: {cells}"]
    for col in range(N_COLS):
        h = int(a[HEIGHT + col])
        base = COLS + col * COL_WIDTH
        lines.append((": " + " ".join(card_str(int(c)) for c in a[base:base + h])).rstrip())
    return "\n".join(lines) + "\n"


__all__ = ["GAME", "FreecellGame", "parse_fcs_board", "format_fcs_board", "MAX_MOVES", "STATE_SIZE",
           "legal_moves", "apply", "status", "won", "hash_state", "score", "autoplay"]
