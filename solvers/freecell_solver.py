"""Freecell solver under Aisleriot's rules: the Freecell plug for :mod:`solvers.search`.

The rules come from :mod:`rules.freecell` (its solver move set, ``faithful=0``): Aisleriot's
supermove capacity ``(F+1) * 2^(empty fields other than source and destination)`` and forced
safe autoplay, which runs inside ``apply`` -- so a solution is a list of player actions in
Aisleriot's vocabulary and replaying it from the deal reproduces every autoplay exactly.

What this module adds (all Numba kernels with the core's fixed signatures):

* ``hash2``: a second canonical hash computed independently of ``rules.freecell.hash_state``
  (per-column polynomial hash + murmur finaliser, cells and columns folded by a sum and a
  product, foundations by suit), so a position is merged with another only when both 64-bit hashes agree.
* ``heuristic``: orders depth-first children and is ``h`` of best-first (lower is better)::

      h = w_out * cards not home + w_unsorted * cards above the first break of each column
          + w_buried * cards above the next card each suit needs + w_free * full free cells
          - w_empty * empty columns + w_breaks * sequence breaks in the columns

  Three weightings (``heuristic``, ``heuristic_breaks``, ``heuristic_short``).

  ``cards not home + cards above the first break`` is a lower bound on the atomic moves left
  (every card still has to go home, and every card above a break must move at least once more
  before that), which is what the short-solution method leans on.
* ``cost``: atomic single-card moves of one action: ``n`` for ``drag s n d`` (a k-card
  supermove counts k), plus every card autoplay sent home; a drag to a homecell is that one
  card, not two.

Pruning, and why each is safe (it never removes a position the search could need):

* The engine's solver move set already merges actions that lead to the same canonical
  position (Ace to any empty homecell, card to any empty free cell, run to any empty column),
  and drops free cell -> free cell, a whole column to an empty column when no autoplay is
  pending, and ``dbl`` of a column or free cell (equal to a listed drag, or a free cell -> free
  cell move).  Each of these yields a position whose canonical form equals the current one or
  another listed child's, so dropping them loses nothing.  The engine also drops the homecell
  ``dbl`` (the score-farming quirk), which is a real pruning -- next item.
* Homecell ``dbl`` (taking a card back off a foundation into a free cell) is left out of the
  searches for speed -- it is not provably useless (a low card could serve as a base).  So an
  ``unsolvable`` verdict is always re-checked by a depth-first search that includes it
  (``legal_complete``); only if that exhausts too is it reported.  The proof then covers every
  action Aisleriot accepts: the other left-out actions only repeat canonical positions.
* Transpositions: a position whose two canonical hashes were both seen before is skipped --
  positions equal up to free-cell order, homecell order and column order have exactly the same
  futures under these rules (the capacity formula and autoplay limits depend only on counts and
  per-suit foundation heights; autoplay's choice of homecell *slot* never changes the canonical
  position).  ``high[]`` (which the homecell ``dbl`` can leave stale) is part of ``hash1``, so
  positions that differ only there are never merged.

The fused kernel (``fc_best_first``) runs every best-first method: the same search as
:func:`solvers.search.best_first_kernel` with the plugs above (a test checks equal nodes,
stores and moves), but with the Freecell kernels called directly and computed incrementally:

* ``legal_masked`` / ``apply_child``: the engine's solver move list (same moves, same order;
  destinations looked up by the rank and colour of column tops) and ``apply`` (tests compare
  them on random playouts), with cheap autoplay checks -- after a drag that sends nothing home
  from an autoplay fixpoint only the newly exposed card can go home;
* two Zobrist-style canonical hashes (``zhashes``: per-column terms summed over columns, no
  final mixing -- a bijection changes no collision) and the heuristic's per-column shares;
  each node's row keeps the column sums and shares, and a child recomputes only the columns
  whose height changed (a column's cards change only with its height).  A "simple" child (a
  drag between free cells and columns that triggers no autoplay) is even scored without
  being built: its two changed columns follow from one scan of the parent's columns and the
  moved cards, and it is written out only if the table does not hold it yet;
* the move undoing a node's own move (when nothing went home) is not tried: it leads back to
  the parent, which the table would reject anyway;
* memory: one int8 row per node (position, g, parent, move, column sums, shares, table
  slot), g stored next to the key in the table, a one-array heap, the next node's row and
  the simple children's table slots prefetched, node arrays reserved once and grown without
  copying, tables emptied from the rows' recorded slots and kept for reuse.

Its table keys are ``zhashes`` instead of ``hash1``/``hash2`` (again two independent 64-bit
canonical hashes, ``high[]`` in the first); keys only decide "seen before", so the search is
the same.  :func:`solve_many` runs the first slice of the ``fast`` portfolio's first member
for many deals per call (:func:`fc_batch`) and resumes in Python only the deals that need
more (same results as :func:`solve`).  Measured figures: ``benchmarks/freecell_vs_fcsolve.py``
(on a shared, loaded 2-core box, the ratio to fc-solve ``-l lg`` on MS 1-32000 went from
4.2x to 3.0-3.15x over six runs with the changes above: fc-solve 5.85-6.34 s, this solver
18.2-19.7 s CPU; then to 2.39-2.44x over three runs, fc-solve 5.92-6.02 s, this solver
14.2-14.7 s, with the six-member ``fast`` portfolio below, a simple child's drag written
straight into its row, and the cyclic garbage collector paused during ``solve_many``).

Methods (``METHODS``; measured with benchmarks/freecell_vs_fcsolve.py):

* ``fast`` (default): a :class:`Portfolio` of six best-first searches run round-robin, each
  resuming its own search: ``heuristic_breaks`` with f = 2g + 3h and equal keys newest first
  (kind ``fc-newest``), then with f = g + h the main weights plus 1 per break
  (``HW_MAIN_BREAKS``), ``HW_CELLS`` (a full free cell costs 10, an empty column is worth 6:
  it plays differently from the others, which is what a portfolio needs) and the main
  weights, then ``heuristic_breaks`` 2g + 3h again with the core's tie order, and
  ``HW_NO_BURIED`` (no buried term).  The first verdict wins.  Hard deals differ between
  heuristics (and between tie orders of one heuristic), so the tail shrinks.  Each member
  has its own first slice (300, 600, 800, 2400, 100 and 100 nodes) and all slices triple
  every round: a member whose typical deal costs more gets more from the start, and fewer
  slices cost less Python.  Members, order and slices were chosen by simulating schedules
  from 24 candidates' node counts on every MS deal 1-32000 (capped at 300000-400000 nodes),
  weighted by each candidate's measured time per node (up to 1.8x apart: the heavy-cell
  weightings cost the most) and by the Python cost of a slice, keeping the mean length on
  MS 1-1000 at most the former 109.06: 11.6 million nodes in all instead of 15.7 million for
  the former portfolio (``HW_BREAKS`` 2g + 3h, ``HW_LIGHT``, ``HW_NO_BURIED``,
  ``HW_MAIN_BREAKS``, equal slices doubling from 400), mean length 108.60.  Copies of one
  heuristic with a fixed pseudo-random 0..3 added to f per position were candidates too
  and did not make the cut.
* ``astar``: f = g + h with ``heuristic_short`` -- shorter solutions (~101 atomic moves).
* ``short``: f = 3g + 2h, shorter still (~96) and, on MS 1-1000, faster than ``astar``.
  Both fall back to f = g + h with ``heuristic`` after 20000 nodes, so they always decide.
* ``greedy`` (f = h) and ``dfs`` (depth-first on the generic core, children by heuristic):
  kept for comparison; both have heavier tails here.
"""
import gc
import threading
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from rules import freecell as fc
from rules._jit import jit
from rules.cards import EMPTY
from rules.game import State
from rules.moves import DBL, DRAG, Move
from rules.registry import get_game
from .result import SOLVED, UNSOLVABLE, SolveResult
from .search import (BestFirst, DFS, GamePlug, Limits, _Run, CTL_SIZE, C_HEAP, C_INIT, C_NODES, C_POOL,
                     C_STORED, C_WIN_NODE, EXHAUSTED, FOUND, PAUSED, STACK_FULL, TABLE_FULL)
from .table import MAX_LOAD, _slot, fix_h1, fmix64 as _fmix, prefetch, prefetch2
from .warm import ready_for_timing

FREE, HOME, HEIGHT, COLS, COL_WIDTH = fc.FREE, fc.HOME, fc.HEIGHT, fc.COLS, fc.COL_WIDTH
STATE_SIZE, MAX_MOVES = fc.STATE_SIZE, fc.MAX_MOVES
FIRST_HOME, FIRST_COL = fc.FIRST_HOME, fc.FIRST_COL


# ---- plug kernels ------------------------------------------------------------------------
@jit
def legal(state, buf):
    return np.int64(fc.legal_moves(state, buf, 0))


@jit
def legal_complete(state, buf):
    """Solver moves plus the homecell ``dbl`` (a card back off a foundation to a free cell).

    Used to confirm every ``unsolvable`` verdict, so that a proof covers everything
    Aisleriot allows, not just the pruned move set.  Fits in ``buf``: the faithful list (the
    MAX_MOVES bound) contains the solver moves and these ``dbl`` actions.
    """
    n = fc.legal_moves(state, buf, 0)
    free = False
    for i in range(4):
        if state[FREE + i] == EMPTY:
            free = True
    if free:
        for h in range(4):
            if state[HOME + h] != EMPTY:
                buf[n] = (DBL << 24) | ((FIRST_HOME + h) << 16)
                n += 1
    return np.int64(n)


@jit
def apply(state, move):
    fc.apply(state, move)


@jit
def won(state):
    return np.int64(1) if fc.won(state) else np.int64(0)


@jit
def hash1(state):
    return np.uint64(fc.hash_state(state))


@jit
def hash2(state):
    """Independent canonical hash: cells and columns combined order-free by sum and product.

    No allocation: multisets are folded with two commutative operations (a sum and a product
    of odd numbers) of a per-item hash that differs from the engine's.
    """
    s_acc = np.uint64(0)
    p_acc = np.uint64(1)
    for i in range(4):
        c = state[FREE + i]
        x = _fmix(np.uint64(c + 2) * np.uint64(0x9FB21C651E98DF25))
        s_acc += x
        p_acc *= x | np.uint64(1)
    found = np.uint64(0)
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            found += np.uint64(top % 13 + 1) << np.uint64(8 * (top // 13))
    for col in range(8):
        n = state[HEIGHT + col]
        base = COLS + col * COL_WIDTH
        x = np.uint64(0x13198A2E03707344) + np.uint64(n)
        for i in range(n):
            x = x * np.uint64(0x5851F42D4C957F2D) + np.uint64(state[base + i] + 3)
        x = _fmix(x)
        s_acc += _fmix(x ^ np.uint64(0xA4093822299F31D0))
        p_acc *= x | np.uint64(1)
    return _fmix(_fmix(s_acc ^ found) + p_acc)


@jit
def _rank(c):
    return c % 13 + 1


@jit
def _red(c):
    s = c // 13
    return 1 if (s == 1 or s == 2) else 0


@jit
def foundation_count(state):
    n = 0
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            n += top % 13 + 1
    return n


@jit
def _heuristic(state, w_out, w_unsorted, w_buried, w_free, w_empty, w_breaks):
    need = 0  # 4 bits per suit: the next rank it needs (14 = complete); no allocation
    out = 52
    for s in range(4):
        need |= 1 << (4 * s)
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            out -= top % 13 + 1
            s = top // 13
            need = (need & ~(15 << (4 * s))) | ((top % 13 + 2) << (4 * s))
    unsorted = 0
    buried = 0
    empty_cols = 0
    breaks = 0
    for col in range(8):
        n = state[HEIGHT + col]
        if n == 0:
            empty_cols += 1
            continue
        base = COLS + col * COL_WIDTH
        first_break = n
        for i in range(1, n):
            lo = state[base + i - 1]
            up = state[base + i]
            if _rank(lo) != _rank(up) + 1 or _red(lo) == _red(up):
                breaks += 1
                if first_break == n:
                    first_break = i
        unsorted += n - first_break
        for i in range(n):
            c = state[base + i]
            if ((need >> (4 * (c // 13))) & 15) == _rank(c):
                buried += n - 1 - i
    full_free = 0
    for i in range(4):
        if state[FREE + i] != EMPTY:
            full_free += 1
    return np.int64(w_out * out + w_unsorted * unsorted + w_buried * buried + w_free * full_free
                    - w_empty * empty_cols + w_breaks * breaks)


# Weights were tuned on MS deals 1-300 (nodes expanded per deal; see the benchmark).
@jit
def heuristic(state):
    """Main ordering: cards out, unsorted cards, buried next cards, cells, empty columns."""
    return _heuristic(state, 3, 2, 1, 3, 3, 0)


@jit
def heuristic_breaks(state):
    """Variant counting every sequence break instead of cards above the first break."""
    return _heuristic(state, 3, 0, 1, 3, 3, 2)


@jit
def heuristic_short(state):
    """Lighter cell/column terms: with g it finds shorter solutions (more nodes)."""
    return _heuristic(state, 3, 2, 1, 1, 2, 0)


@jit
def cost(parent, child, move):
    """Atomic single-card moves of one action (autoplay included)."""
    n = (move >> 8) & 0xFF
    if (move >> 24) != DRAG:
        n = 1
    dst = move & 0xFF
    home = foundation_count(child) - foundation_count(parent)
    if (move >> 24) == DRAG and FIRST_HOME <= dst < FIRST_COL:
        home -= 1
    return np.int64(n + home)


# ---- faster apply and incremental hashing (same results as the engine's kernels) -------------
@jit
def _autoplay_pending(state):
    """True when ``rules.freecell.autoplay`` would move a card (spec 4.5), cheaply.

    The engine's scan looks for the first top card ``c`` with ``rank(c) <= limit(colour)``
    that its homecell accepts; a homecell accepts ``c`` exactly when ``rank(c)`` is one more
    than the height of ``c``'s suit on the foundations (a suit's cards sit on one homecell, A
    upwards; an Ace goes to an empty homecell, and one is free while its suit has none).
    """
    hc = state[fc.HIGH + 0]
    hd = state[fc.HIGH + 1]
    hh = state[fc.HIGH + 2]
    hs = state[fc.HIGH + 3]
    black_min = min(hc, hs)
    red_min = min(hd, hh)
    limit_red = min(2 + black_min, 3 + red_min)
    limit_black = min(2 + red_min, 3 + black_min)
    need = 0x1111  # 4 bits per suit: next rank wanted
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            sh = 4 * (top // 13)
            need = (need & ~(15 << sh)) | ((top % 13 + 2) << sh)
    for k in range(12):
        if k < 4:
            c = state[FREE + k]
        else:
            col = k - 4
            h = state[HEIGHT + col]
            c = state[COLS + col * COL_WIDTH + h - 1] if h > 0 else EMPTY
        if c == EMPTY:
            continue
        r = c % 13 + 1
        if r != ((need >> (4 * (c // 13))) & 15):
            continue
        if r <= (limit_red if _red(c) == 1 else limit_black):
            return True
    return False


@jit
def _card_pending(state, c):
    """Would autoplay send card ``c`` (a top card) home now?  (Spec 4.5, as above.)"""
    r = _RANK0[c] + 1
    want = 1
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY and _SUIT[top] == _SUIT[c]:
            want = _RANK0[top] + 2
    if r != want:
        return False
    black_min = min(state[fc.HIGH + 0], state[fc.HIGH + 3])
    red_min = min(state[fc.HIGH + 1], state[fc.HIGH + 2])
    if _REDT[c] == 1:
        return r <= min(2 + black_min, 3 + red_min)
    return r <= min(2 + red_min, 3 + black_min)


@jit
def apply_child(state, move, fixpoint):
    """``rules.freecell.apply`` for solver moves, skipping autoplay's scan when nothing can go.

    Same resulting array as the engine (tests compare them on random positions): the drag is
    played as in the engine, and ``rules.freecell.autoplay`` runs whenever a card could go.
    ``fixpoint``: ``state`` is an autoplay fixpoint (any position an action produced).  Then a
    drag that sends nothing home can only make the newly exposed top of a source column
    playable (limits and foundations are unchanged, and the moved cards were tops already),
    so only that card is checked; otherwise every top card is.
    """
    if (move >> 24) != DRAG:
        fc.apply(state, move)
        return
    src = (move >> 16) & 0xFF
    n = (move >> 8) & 0xFF
    dst = move & 0xFF
    if src < FIRST_HOME:
        c = state[FREE + src]
        state[FREE + src] = EMPTY
        if dst < FIRST_HOME:
            state[FREE + dst] = c
        elif dst < FIRST_COL:
            fc._send_home(state, dst - FIRST_HOME, c)
        else:
            dc = dst - FIRST_COL
            h = state[HEIGHT + dc]
            state[COLS + dc * COL_WIDTH + h] = c
            state[HEIGHT + dc] = h + 1
    elif src < FIRST_COL:
        fc.apply(state, move)
        return
    else:
        sc = src - FIRST_COL
        h_src = state[HEIGHT + sc] - n
        state[HEIGHT + sc] = h_src
        first = COLS + sc * COL_WIDTH + h_src
        if dst < FIRST_HOME:
            state[FREE + dst] = state[first]
        elif dst < FIRST_COL:
            fc._send_home(state, dst - FIRST_HOME, state[first])
        else:
            dc = dst - FIRST_COL
            h = state[HEIGHT + dc]
            out = COLS + dc * COL_WIDTH + h
            for i in range(n):
                state[out + i] = state[first + i]
            state[HEIGHT + dc] = h + n
        for i in range(n):
            state[first + i] = EMPTY
    if fixpoint and not (FIRST_HOME <= dst < FIRST_COL):
        if src < FIRST_COL:
            return
        sc = src - FIRST_COL
        h = state[HEIGHT + sc]
        if h == 0 or not _card_pending(state, state[COLS + sc * COL_WIDTH + h - 1]):
            return
    elif not _autoplay_pending(state):
        return
    fc.autoplay(state)


@jit
def apply_fast(state, move):
    """:func:`apply_child` for any position (full autoplay check)."""
    apply_child(state, move, False)


# Card attributes by table lookup: cheaper than Python-semantics ``%`` / ``//`` on signed ints.
_RANK0 = np.array([c % 13 for c in range(52)], dtype=np.int64)   # rank - 1
_SUIT = np.array([c // 13 for c in range(52)], dtype=np.int64)
_REDT = np.array([1 if c // 13 in (1, 2) else 0 for c in range(52)], dtype=np.int64)


@jit
def legal_fast(state, buf):
    """``rules.freecell.legal_moves(state, buf, 0)``: the same moves in the same order, cheaper
    (:func:`legal_masked` with its own scratch array; tests compare it with the engine)."""
    return legal_masked(state, buf, np.empty(26, np.int64))


@jit
def legal_masked(state, buf, colmask):
    """:func:`legal_fast` given a scratch array ``colmask`` of 26 int64.

    Savings over the engine: the pending-autoplay test is :func:`_autoplay_pending`; a card
    goes to a homecell only as an Ace to the first empty one, or onto the homecell whose top
    is the card one rank lower (card code ``c - 1``); and destinations come from
    ``colmask[2 * (rank - 1) + red]``, the set of columns whose top card has that rank and
    colour: a card (or the bottom of a group of n cards) fits on exactly one (rank, colour),
    so only the columns in those sets (and the first empty column) are looked at, in
    ascending order as the engine lists them.
    """
    count = 0
    empty_free = 0
    first_free = -1
    for i in range(4):
        if state[FREE + i] == EMPTY:
            empty_free += 1
            if first_free < 0:
                first_free = i
    for j in range(26):
        colmask[j] = 0
    empty_cols = 0
    first_col = -1
    for i in range(8):
        h = state[HEIGHT + i]
        if h == 0:
            empty_cols += 1
            if first_col < 0:
                first_col = i
        else:
            t = state[COLS + i * COL_WIDTH + h - 1]
            colmask[2 * _RANK0[t] + _REDT[t]] |= 1 << i
    empty_bit = 0 if first_col < 0 else 1 << first_col
    first_home = -1
    for h in range(4):
        if state[HOME + h] == EMPTY:
            first_home = h
            break
    pending = _autoplay_pending(state) if empty_cols > 0 else False
    to_empty_cap = (empty_free + 1) << max(empty_cols - 1, 0)
    to_full_cap = (empty_free + 1) << empty_cols

    for s in range(4):
        c = state[FREE + s]
        if c == EMPTY:
            continue
        rc = _RANK0[c]
        if rc == 0:
            buf[count] = (DRAG << 24) | (s << 16) | (1 << 8) | (FIRST_HOME + first_home)
            count += 1
        else:
            for h in range(4):
                if state[HOME + h] == c - 1:
                    buf[count] = (DRAG << 24) | (s << 16) | (1 << 8) | (FIRST_HOME + h)
                    count += 1
        cand = empty_bit
        if rc < 12:
            cand |= colmask[2 * (rc + 1) + 1 - _REDT[c]]
        for col in range(8):
            if (cand >> col) & 1:
                buf[count] = (DRAG << 24) | (s << 16) | (1 << 8) | (FIRST_COL + col)
                count += 1

    for sc in range(8):
        h_src = state[HEIGHT + sc]
        if h_src == 0:
            continue
        base = COLS + sc * COL_WIDTH
        top = state[base + h_src - 1]
        src = FIRST_COL + sc
        if first_free >= 0:
            buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | first_free
            count += 1
        rtop = _RANK0[top]
        if rtop == 0:
            buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | (FIRST_HOME + first_home)
            count += 1
        else:
            for h in range(4):
                if state[HOME + h] == top - 1:
                    buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | (FIRST_HOME + h)
                    count += 1
        run = 1
        upper = top
        while run < h_src:
            lower = state[base + h_src - run - 1]
            if _SEQ[52 * lower + upper] == 0:
                break
            upper = lower
            run += 1
        # the group of n cards goes on a top of rank rtop + n + 1 (1-based) and colour
        # red(top) ^ (n & 1) (colours alternate up a run)
        red_top = _REDT[top]
        cand = empty_bit
        for n in range(1, run + 1):
            if rtop + n > 12:
                break
            cand |= colmask[2 * (rtop + n) + (red_top ^ (n & 1))]
        if cand == 0:
            continue
        for dc in range(8):
            if (cand >> dc) & 1 == 0:
                continue
            h_dst = state[HEIGHT + dc]
            if h_dst == 0:
                for n in range(1, run + 1):
                    if n > to_empty_cap:
                        break
                    if n == h_src and not pending:
                        continue
                    buf[count] = (DRAG << 24) | (src << 16) | (n << 8) | (FIRST_COL + dc)
                    count += 1
            else:
                t = state[COLS + dc * COL_WIDTH + h_dst - 1]
                n = _RANK0[t] - rtop
                if n < 1 or n > run:
                    continue
                if _REDT[state[base + h_src - n]] == _REDT[t]:
                    continue
                if n <= to_full_cap:
                    buf[count] = (DRAG << 24) | (src << 16) | (n << 8) | (FIRST_COL + dc)
                    count += 1
    return np.int64(count)


@jit
def _need(state):
    """4 bits per suit: the rank each suit needs next on the foundations (14 = complete)."""
    need = 0x1111
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            sh = 4 * (top // 13)
            need = (need & ~(15 << sh)) | ((top % 13 + 2) << sh)
    return need


@jit
def _col_h(state, col, need, hw):
    """Column ``col``'s share of ``_heuristic`` (unsorted, buried and breaks terms)."""
    n = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    first_break = n
    breaks = 0
    buried = 0
    lo = state[base]
    if n > 0 and ((need >> (4 * _SUIT[lo])) & 15) == _RANK0[lo] + 1:
        buried += n - 1
    for i in range(1, n):
        up = state[base + i]
        if _RANK0[lo] != _RANK0[up] + 1 or _REDT[lo] == _REDT[up]:
            breaks += 1
            if first_break == n:
                first_break = i
        if ((need >> (4 * _SUIT[up])) & 15) == _RANK0[up] + 1:
            buried += n - 1 - i
        lo = up
    return hw[1] * (n - first_break) + hw[2] * buried + hw[5] * breaks


# _SEQ[52 * lo + up] = 1 when card ``up`` may sit on card ``lo`` in a sequence (one rank lower,
# the other colour)
_SEQ = np.array([1 if (lo % 13 == up % 13 + 1 and (lo // 13 in (1, 2)) != (up // 13 in (1, 2)))
                 else 0 for lo in range(52) for up in range(52)], dtype=np.uint8)


@jit
def _need_mask(need):
    """Bit ``c`` set for each card ``c`` some suit needs next (``need`` as from :func:`_need`)."""
    mask = np.int64(0)
    for s in range(4):
        r = (need >> (4 * s)) & 15
        if r <= 13:
            mask |= np.int64(1) << (13 * s + r - 1)
    return mask


@jit
def _col_h_fast(state, col, needmask, hw):
    """:func:`_col_h` by table look-ups (``needmask`` from :func:`_need_mask`)."""
    n = state[HEIGHT + col]
    if n == 0:
        return np.int64(0)
    base = COLS + col * COL_WIDTH
    first_break = n
    breaks = 0
    buried = 0
    lo = state[base]
    if (needmask >> lo) & 1:
        buried += n - 1
    for i in range(1, n):
        up = state[base + i]
        if _SEQ[52 * lo + up] == 0:
            breaks += 1
            if first_break == n:
                first_break = i
        if (needmask >> up) & 1:
            buried += n - 1 - i
        lo = up
    return hw[1] * (n - first_break) + hw[2] * buried + hw[5] * breaks


@jit
def _buried_by(state, col, mask):
    """Cards above each card of ``mask`` in column ``col``, summed."""
    n = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    total = 0
    for i in range(n):
        if (mask >> state[base + i]) & 1:
            total += n - 1 - i
    return total


@jit
def _h_from_cols(state, colh, hw):
    """``_heuristic`` with weights ``hw`` given the per-column shares ``colh``."""
    return _h_from_cols_f(state, colh, hw, foundation_count(state))


@jit
def _h_from_cols_f(state, colh, hw, found):
    """:func:`_h_from_cols` given ``found``, the number of cards on the foundations."""
    total = 0
    for col in range(8):
        total += colh[col]
        if state[HEIGHT + col] == 0:
            total -= hw[4]
    for i in range(4):
        if state[FREE + i] != EMPTY:
            total += hw[3]
    return np.int64(hw[0] * (52 - found) + total)


# Zobrist tables of the fused kernel's two canonical hashes (fixed seeds, so the values, and
# Numba's cached code that freezes these arrays, are the same in every process).  A column's
# term is a finaliser applied to the sum of one random word per (card, height in column):
# no serial multiply chain per card, so it is cheap to recompute for the columns a move changed.
_ZRNG = np.random.default_rng(20261129)
_Z1 = _ZRNG.integers(0, 2**63, size=52 * COL_WIDTH, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
_Z2 = _ZRNG.integers(0, 2**63, size=52 * COL_WIDTH, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
_ZC1 = _ZRNG.integers(0, 2**63, size=53, dtype=np.int64).astype(np.uint64)
_ZC2 = _ZRNG.integers(0, 2**63, size=53, dtype=np.int64).astype(np.uint64)


@jit
def _col_parts(state, col):
    """Column ``col``'s terms in :func:`zhash1` and :func:`zhash2`."""
    h = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    x = np.uint64(h)
    y = np.uint64(h) * np.uint64(0x9E3779B97F4A7C15)
    for i in range(h):
        k = state[base + i] * COL_WIDTH + i
        x += _Z1[k]
        y ^= _Z2[k]
    return fc._mix(x), _fmix(y)


@jit
def _found_terms(state):
    """The foundations' (and ``high[]``'s) terms in :func:`zhash1` and :func:`zhash2`."""
    found = np.uint64(0)
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            found |= np.uint64(_RANK0[top] + 1) << np.uint64(4 * _SUIT[top])
    for i in range(4):
        found |= np.uint64(state[fc.HIGH + i]) << np.uint64(16 + 4 * i)
    return fc._mix(found | np.uint64(1 << 41)), _fmix(found * np.uint64(0xD6E8FEB86659FD93))


@jit
def _hash_cells(state, s1, s2, t1, t2):
    """``(zhash1, zhash2)`` from the column sums ``s1``, ``s2`` and the foundation terms.

    No final mixing: a bijection applied to a hash changes none of its collisions, and the
    terms summed here are mixed already (the table's slot is a multiplicative hash of h1).
    """
    acc1 = np.uint64(0)
    acc2 = np.uint64(0x243F6A8885A308D3)
    for i in range(4):
        c = state[FREE + i] + 1  # 0 = empty cell
        acc1 += _ZC1[c]
        acc2 += _ZC2[c]
    return acc1 + t1 + s1, (acc2 ^ t2) + s2


@jit
def _hash_finish(state, s1, s2):
    """``(zhash1, zhash2)`` of ``state`` given the sums ``s1``, ``s2`` of its column terms."""
    t1, t2 = _found_terms(state)
    return _hash_cells(state, s1, s2, t1, t2)


@jit
def _hashes_from_parts(state, p1, p2):
    """``(zhash1, zhash2)`` of ``state`` given its per-column terms (summed over columns)."""
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    for col in range(8):
        s1 += p1[col]
        s2 += p2[col]
    return _hash_finish(state, s1, s2)


@jit
def zhashes(state):
    """Both canonical hashes of the fused kernel: free cells a set, columns a multiset,
    foundations per suit, ``high[]`` included.  ``zhash1`` sums splitmix-finalised column
    terms of one Zobrist table; ``zhash2`` sums murmur-finalised XORs of another."""
    p1 = np.empty(8, np.uint64)
    p2 = np.empty(8, np.uint64)
    for col in range(8):
        a, b = _col_parts(state, col)
        p1[col] = a
        p2[col] = b
    return _hashes_from_parts(state, p1, p2)


@jit
def zhash1(state):
    return zhashes(state)[0]


@jit
def zhash2(state):
    return zhashes(state)[1]


# ---- fused best-first kernel ---------------------------------------------------------------
# Heuristic weights (w_out, w_unsorted, w_buried, w_free, w_empty, w_breaks) of the plugs above.
HW_MAIN = (3, 2, 1, 3, 3, 0)
HW_BREAKS = (3, 0, 1, 3, 3, 2)
HW_SHORT = (3, 2, 1, 1, 2, 0)
HW_MAIN_BREAKS = (3, 2, 1, 3, 3, 1)
HW_LIGHT = (3, 1, 1, 3, 3, 1)
HW_NO_BURIED = (3, 2, 0, 3, 3, 0)
HW_CELLS = (3, 2, 1, 10, 6, 1)  # full free cells weigh most: a different order of play


# Node records of the fused kernel: one int8 row per node holds the position (the engine's
# layout, each entry fits a byte: cards 0..51, EMPTY -1, heights <= 19, ranks <= 13; the two
# score words are left as they fall, the search never reads them) and the node's fields, so
# that expanding a node touches one contiguous row instead of one slot in each of several
# arrays (on hard deals the search is bound by cache misses, not by arithmetic).
R_G = STATE_SIZE            # int32: g, the atomic moves from the root; -1 = superseded
R_PARENT = R_G + 4          # int32: parent row (-1 for the root)
R_PMOVE = R_G + 8           # int32: the move that made the node
R_FLAG = R_G + 12           # 1: the reverse of R_PMOVE leads back to the parent (see kernel)
R_SHARES = R_G + 14         # 8 x int16: the heuristic's per-column shares
R_S1 = R_SHARES + 16        # 2 x uint64: sums of the position's column hash terms (zhash1, zhash2)
R_SLOT = R_S1 + 16          # int32: the node's slot in the table (to clear the table cheaply)
REC = R_SLOT + 4            # 234 bytes per row


@jit
def _rd32(pool, k, off):
    return (np.int64(pool[k, off]) & 0xFF) | ((np.int64(pool[k, off + 1]) & 0xFF) << 8) | \
        ((np.int64(pool[k, off + 2]) & 0xFF) << 16) | (np.int64(pool[k, off + 3]) << 24)


@jit
def _wr32(pool, k, off, v):
    pool[k, off] = v & 0xFF
    pool[k, off + 1] = (v >> 8) & 0xFF
    pool[k, off + 2] = (v >> 16) & 0xFF
    pool[k, off + 3] = (v >> 24) & 0xFF


@jit
def _rd64(pool, k, off):
    return np.uint64(_rd32(pool, k, off) & 0xFFFFFFFF) | (np.uint64(_rd32(pool, k, off + 4) & 0xFFFFFFFF) << np.uint64(32))


@jit
def _wr64(pool, k, off, v):
    _wr32(pool, k, off, np.int64(v & np.uint64(0xFFFFFFFF)))
    _wr32(pool, k, off + 4, np.int64(v >> np.uint64(32)))


@jit
def _rd16(pool, k, off):
    return (np.int64(pool[k, off]) & 0xFF) | (np.int64(pool[k, off + 1]) << 8)


@jit
def _wr16(pool, k, off, v):
    pool[k, off] = v & 0xFF
    pool[k, off + 1] = (v >> 8) & 0xFF


# Transposition table of the fused kernel: three words per slot, ``h1`` (0 = empty slot), ``h2``
# and ``(g << 32) | row`` -- the g of the stored node sits next to its key, so a duplicate
# child is rejected without reading the node's row.
@jit
def tt3_insert(tt, h1, h2):
    """Insert ``(h1, h2)``; ``slot`` if new, ``-1 - slot`` if already there."""
    mask = tt.shape[0] // 3 - 1
    i = _slot(h1, mask)
    while True:
        k = tt[3 * i]
        if k == np.uint64(0):
            tt[3 * i] = h1
            tt[3 * i + 1] = h2
            return i
        if k == h1 and tt[3 * i + 1] == h2:
            return -1 - i
        i = (i + 1) & mask


# _enter_child and _link_row are inlined at Numba's IR level: called as functions they made
# solve_many on MS 1-3000 3-5% slower (same nodes and moves), inlined they cost nothing.
@njit(cache=True, nogil=True, inline="always")
def _enter_child(tt, pool, ctl, h1, h2, gc, wg):
    """Enter a child with cost ``gc`` in the table: its slot to store it in, or -1 when it is
    a duplicate that is not cheaper (greedy, ``wg == 0``, never re-opens).  A cheaper duplicate
    re-opens: the old node is marked superseded (g = -1)."""
    slot = tt3_insert(tt, h1, h2)
    if slot >= 0:
        ctl[C_STORED] += 1
        return slot
    slot = -1 - slot
    val = tt[3 * slot + 2]
    if wg == 0 or np.int64(val >> np.uint64(32)) <= gc:
        return -1
    _wr32(pool, np.int64(val & np.uint64(0x7FFFFFFF)), R_G, -1)
    return slot


@njit(cache=True, nogil=True, inline="always")
def _link_row(tt, pool, ctl, k, slot, gc, node, m, flag):
    """Row ``k`` (its position already written) becomes the node at ``slot``: g, parent, move,
    flag and slot in the row, ``(g << 32) | k`` in the table, and the pool grows by one."""
    tt[3 * slot + 2] = (np.uint64(gc) << np.uint64(32)) | np.uint64(k)
    _wr32(pool, k, R_G, gc)
    _wr32(pool, k, R_PARENT, node)
    _wr32(pool, k, R_PMOVE, m)
    pool[k, R_FLAG] = flag
    _wr32(pool, k, R_SLOT, slot)
    ctl[C_POOL] = k + 1


@jit
def tt3_clear_rows(tt, pool, rows):
    """Empty the table slots of pool rows ``0 .. rows-1`` (every entry belongs to one of them,
    as long as the table was not rehashed since): O(entries) instead of O(capacity)."""
    for k in range(rows):
        i = _rd32(pool, k, R_SLOT)
        tt[3 * i] = np.uint64(0)
        tt[3 * i + 1] = np.uint64(0)
        tt[3 * i + 2] = np.uint64(0)


@jit
def tt3_rehash(old, new, pool):
    """Move every entry of ``old`` into the empty ``new``, leaving ``old`` empty, and record
    each entry's new slot in its node's row (``tt3_clear_rows`` stays valid)."""
    for i in range(old.shape[0] // 3):
        h1 = old[3 * i]
        if h1 != np.uint64(0):
            j = tt3_insert(new, h1, old[3 * i + 1])
            val = old[3 * i + 2]
            new[3 * j + 2] = val
            _wr32(pool, np.int64(val & np.uint64(0x7FFFFFFF)), R_SLOT, j)
            old[3 * i] = np.uint64(0)
            old[3 * i + 1] = np.uint64(0)
            old[3 * i + 2] = np.uint64(0)


# Binary min-heap of packed entries ``(key << 32) | tie`` in one int64 array (one cache line per
# level instead of two).  ``shift`` 32 compares keys only, as solvers.table's heap does (equal
# keys in the same order as there); 0 compares whole entries (equal keys: by ``tie``).
@jit
def _hpush(heap, size, x, shift):
    i = size
    kx = x >> shift
    while i > 0:
        p = (i - 1) >> 1
        if (heap[p] >> shift) <= kx:
            break
        heap[i] = heap[p]
        i = p
    heap[i] = x
    return size + 1


@jit
def _hpop(heap, size, shift):
    size -= 1
    x = heap[size]
    kx = x >> shift
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and (heap[c + 1] >> shift) < (heap[c] >> shift):
            c += 1
        if (heap[c] >> shift) >= kx:
            break
        heap[i] = heap[c]
        i = c
    if size > 0:
        heap[i] = x
    return size


_ZK = np.uint64(0x9E3779B97F4A7C15)  # the height term of zhash2's column term (_col_parts)


@jit
def _col_scan(state, col, needmask, cx, cy, p1, p2, cst):
    """Everything the kernel keeps of column ``col`` of a node being expanded, in one pass.

    ``cx``/``cy``: the column's raw hash sums (before the finalisers of :func:`_col_parts`),
    ``p1``/``p2``: its terms; ``cst[col]``: first break, breaks, buried, needed cards in the
    column, length of the top run (as :func:`_col_h_fast` and the engine's ``_run_length``
    count them).
    """
    h = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    x = np.uint64(h)
    y = np.uint64(h) * _ZK
    fb = h
    br = 0
    bu = 0
    nd = 0
    last = 0
    lo = 0
    for i in range(h):
        c = state[base + i]
        kk = c * COL_WIDTH + i
        x += _Z1[kk]
        y ^= _Z2[kk]
        if i > 0 and _SEQ[52 * lo + c] == 0:
            br += 1
            last = i
            if fb == h:
                fb = i
        if (needmask >> c) & 1:
            bu += h - 1 - i
            nd += 1
        lo = c
    cx[col] = x
    cy[col] = y
    p1[col] = fc._mix(x)
    p2[col] = _fmix(y)
    cst[col, 0] = fb
    cst[col, 1] = br
    cst[col, 2] = bu
    cst[col, 3] = nd
    cst[col, 4] = h - last


@jit
def _drag_to_row(pool, k, st, src, n, dst):
    """Row ``k`` becomes ``st`` after a simple child's drag of ``n`` cards from ``src`` to ``dst``
    (free cells and columns only, and nothing goes home: the kernel checked), written straight
    into the row: what ``apply_child`` gives (such a drag changes no score, ``high[]`` or
    homecell), without a second copy of the position or autoplay's checks."""
    for j in range(STATE_SIZE):
        pool[k, j] = st[j]
    if src < FIRST_HOME:
        first = FREE + src
        pool[k, first] = EMPTY
    else:
        sc = src - FIRST_COL
        h = st[HEIGHT + sc] - n
        pool[k, HEIGHT + sc] = h
        first = COLS + sc * COL_WIDTH + h
        for i in range(n):
            pool[k, first + i] = EMPTY
    if dst < FIRST_HOME:
        pool[k, FREE + dst] = st[first]
    else:
        dc = dst - FIRST_COL
        h = st[HEIGHT + dc]
        out = COLS + dc * COL_WIDTH + h
        for i in range(n):
            pool[k, out + i] = st[first + i]
        pool[k, HEIGHT + dc] = h + n


# tie-breaking of equal keys in the fused kernel's heap
TIE_AS_CORE, TIE_OLDEST, TIE_NEWEST = 0, 1, 2


@jit
def fc_best_first(root, tt, ctl, pool, rows, heap, buf, budget, wg, wh, hw, tie):
    """``solvers.search.best_first_kernel`` specialised to Freecell.

    With ``tie == TIE_AS_CORE`` it is the same search (a test checks equal nodes, stores and
    moves against the generic core with the same plugs); ``TIE_OLDEST`` / ``TIE_NEWEST`` order
    equal keys by node age.  Savings over the generic core:

    * the Freecell kernels are called directly (inlined), not through function pointers;
    * the move that undoes the one that made a node is not tried when no card went home on the
      way and the parent is not the root (so it is an autoplay fixpoint): it restores the
      parent's position exactly, which the table holds with a smaller g, so the generic kernel
      would apply it, find it and drop it -- same search, less work;
    * the step cost and the win test come from the foundation count, computed once per child;
    * a child rehashes only the columns whose height changed (a column's cards change only
      with its height: pushes or pops, never both in one action net of autoplay), from the
      parent's per-column terms computed once per expansion, and likewise recomputes only
      those columns' heuristic shares (all when a card went home: the buried term depends on
      what each suit needs next); the parent's shares are kept in its row;
    * one row per node (``pool``, see ``REC``), g in the table, one-array heap: few cache lines
      per node.
    """
    cap = tt.shape[0] // 3
    max_stored = np.int64(cap * MAX_LOAD)
    pool_cap = min(rows, pool.shape[0])
    max_moves = buf.shape[0]
    shift = 32 if tie == TIE_AS_CORE else 0
    p1 = np.empty(8, np.uint64)
    p2 = np.empty(8, np.uint64)
    ph = np.empty(8, np.int64)
    qh = np.empty(8, np.int64)
    cx = np.empty(8, np.uint64)
    cy = np.empty(8, np.uint64)
    cst = np.empty((8, 5), np.int64)
    colmask = np.empty(26, np.int64)
    # the node being expanded and a child are worked on in these two buffers, not in views of
    # ``pool`` rows: a view per node and per child costs two atomic reference-count updates
    st = np.empty(STATE_SIZE, np.int8)
    child = np.empty(STATE_SIZE, np.int8)
    csimple = np.zeros(max_moves, np.int64)  # per child of the node: phase 1 -> phase 2
    ch1 = np.empty(max_moves, np.uint64)
    ch2 = np.empty(max_moves, np.uint64)
    cc1 = np.empty(max_moves, np.uint64)
    cc2 = np.empty(max_moves, np.uint64)
    cio = np.empty((max_moves, 4), np.int64)
    if ctl[C_INIT] == 0:
        ctl[C_INIT] = 1
        for j in range(STATE_SIZE):
            pool[0, j] = root[j]
        _wr32(pool, 0, R_G, 0)
        _wr32(pool, 0, R_PARENT, -1)
        _wr32(pool, 0, R_PMOVE, -1)
        pool[0, R_FLAG] = 0
        need = _need(root)
        s1 = np.uint64(0)
        s2 = np.uint64(0)
        for col in range(8):
            a, b = _col_parts(root, col)
            s1 += a
            s2 += b
            _wr16(pool, 0, R_SHARES + 2 * col, _col_h(root, col, need, hw))
        _wr64(pool, 0, R_S1, s1)
        _wr64(pool, 0, R_S1 + 8, s2)
        r1, r2 = _hash_finish(root, s1, s2)
        slot = tt3_insert(tt, fix_h1(r1), r2)
        tt[3 * slot + 2] = np.uint64(0)
        _wr32(pool, 0, R_SLOT, slot)
        ctl[C_STORED] = 1
        ctl[C_POOL] = 1
        if fc.won(root):
            ctl[C_WIN_NODE] = 0
            return FOUND
        ctl[C_HEAP] = _hpush(heap, 0, np.int64(0x7FFFFFFF if tie == TIE_NEWEST else 0), shift)
    stop = ctl[C_NODES] + budget
    while ctl[C_HEAP] > 0:
        if ctl[C_NODES] >= stop:
            return PAUSED
        if ctl[C_STORED] + max_moves >= max_stored:
            return TABLE_FULL
        if ctl[C_POOL] + max_moves >= pool_cap:
            return STACK_FULL
        top = heap[0]
        ctl[C_HEAP] = _hpop(heap, ctl[C_HEAP], shift)
        node = top & 0x7FFFFFFF
        if tie == TIE_NEWEST:
            node = 0x7FFFFFFF - node
        if ctl[C_HEAP] > 0:
            # the next node to expand is known now: start fetching its row (on hard deals
            # the pool is far larger than the caches)
            nxt = heap[0] & 0x7FFFFFFF
            if tie == TIE_NEWEST:
                nxt = 0x7FFFFFFF - nxt
            for off in range(0, REC, 64):
                prefetch2(pool, nxt, off)
        gn = _rd32(pool, node, R_G)
        if gn < 0:
            continue  # superseded by a cheaper path
        ctl[C_NODES] += 1
        for j in range(STATE_SIZE):
            st[j] = pool[node, j]
        fix = node != 0 or not _autoplay_pending(st)
        f0 = foundation_count(st)
        inv = np.int32(-1)
        if pool[node, R_FLAG] != 0:
            # the node's move sent no card home and its parent is not the root, so the parent
            # is an autoplay fixpoint and the reverse drag restores it exactly
            pm = _rd32(pool, node, R_PMOVE)
            pd = pm & 0xFF
            inv = np.int32((DRAG << 24) | (pd << 16) | (pm & 0xFF00) | ((pm >> 16) & 0xFF))
        need0 = _need_mask(_need(st))
        t1, t2 = _found_terms(st)
        s1 = _rd64(pool, node, R_S1)
        s2 = _rd64(pool, node, R_S1 + 8)
        have = 0  # columns scanned by _col_scan (on first use)
        for col in range(8):
            ph[col] = _rd16(pool, node, R_SHARES + 2 * col)
        cz1 = np.uint64(0)
        cz2 = np.uint64(0x243F6A8885A308D3)
        for j in range(4):
            c = st[FREE + j] + 1
            cz1 += _ZC1[c]
            cz2 += _ZC2[c]
        n = legal_masked(st, buf, colmask)
        hp0 = _h_from_cols_f(st, ph, hw, f0)  # the node's own h
        tmask = tt.shape[0] // 3 - 1
        # phase 1: hashes, costs and shares of the simple children, and a prefetch of their
        # table slots, so that the look-ups of phase 2 (in the same order) find them cached
        for i in range(n):
            m = buf[i]
            csimple[i] = 0
            if m == inv:
                continue
            src = (m >> 16) & 0xFF
            mn = (m >> 8) & 0xFF
            dst = m & 0xFF
            # A drag from a free cell or a column to a free cell or a column, from an autoplay
            # fixpoint, that leaves no newly exposed card for autoplay, changes exactly the
            # source and destination: its hashes and heuristic shares follow from the
            # parent's column scans and the moved cards, and the child is only written
            # out if it is new (same values as the general path below).
            simple = False
            if fix and (m >> 24) == DRAG and not (FIRST_HOME <= dst < FIRST_COL):
                if src < FIRST_HOME:
                    simple = True
                elif src >= FIRST_COL:
                    sc = src - FIRST_COL
                    ln = st[HEIGHT + sc] - mn
                    simple = ln == 0 or not _card_pending(st, st[COLS + sc * COL_WIDTH + ln - 1])
            if simple:
                c1 = s1
                c2 = s2
                e1 = cz1
                e2 = cz2
                sc = -1
                dc = -1
                sh_src = 0
                sh_dst = 0
                if src >= FIRST_COL:
                    sc = src - FIRST_COL
                    if (have >> sc) & 1 == 0:
                        _col_scan(st, sc, need0, cx, cy, p1, p2, cst)
                        have |= 1 << sc
                    hs = st[HEIGHT + sc]
                    ln = hs - mn
                    base = COLS + sc * COL_WIDTH
                    xs = cx[sc] - np.uint64(mn)
                    ys = cy[sc] ^ (np.uint64(hs) * _ZK) ^ (np.uint64(ln) * _ZK)
                    rnd = 0
                    rbu = 0
                    for j in range(mn):
                        ii = ln + j
                        c = st[base + ii]
                        kk = c * COL_WIDTH + ii
                        xs -= _Z1[kk]
                        ys ^= _Z2[kk]
                        if (need0 >> c) & 1:
                            rnd += 1
                            rbu += hs - 1 - ii
                    c1 += fc._mix(xs) - p1[sc]
                    c2 += _fmix(ys) - p2[sc]
                    fb = cst[sc, 0]
                    if fb > ln:
                        fb = ln
                    brp = cst[sc, 1]
                    if mn == cst[sc, 4] and hs > mn:
                        brp -= 1  # the break under the top run goes with it
                    bup = cst[sc, 2] - rbu - mn * (cst[sc, 3] - rnd)
                    sh_src = hw[1] * (ln - fb) + hw[2] * bup + hw[5] * brp
                    gbase = base + ln  # the moved cards, bottom first
                else:
                    c = st[FREE + src] + 1
                    e1 += _ZC1[0] - _ZC1[c]
                    e2 += _ZC2[0] - _ZC2[c]
                    gbase = FREE + src
                if dst >= FIRST_COL:
                    dc = dst - FIRST_COL
                    if (have >> dc) & 1 == 0:
                        _col_scan(st, dc, need0, cx, cy, p1, p2, cst)
                        have |= 1 << dc
                    hd = st[HEIGHT + dc]
                    ld = hd + mn
                    xd = cx[dc] + np.uint64(mn)
                    yd = cy[dc] ^ (np.uint64(hd) * _ZK) ^ (np.uint64(ld) * _ZK)
                    gbu = 0
                    for j in range(mn):
                        c = st[gbase + j]
                        kk = c * COL_WIDTH + hd + j
                        xd += _Z1[kk]
                        yd ^= _Z2[kk]
                        if (need0 >> c) & 1:
                            gbu += mn - 1 - j
                    c1 += fc._mix(xd) - p1[dc]
                    c2 += _fmix(yd) - p2[dc]
                    fb = cst[dc, 0]
                    if fb >= hd:
                        fb = ld  # a sorted column stays sorted (the group fits on its top)
                    bup = cst[dc, 2] + mn * cst[dc, 3] + gbu
                    sh_dst = hw[1] * (ld - fb) + hw[2] * bup + hw[5] * cst[dc, 1]
                else:
                    c = st[gbase] + 1
                    e1 += _ZC1[c] - _ZC1[0]
                    e2 += _ZC2[c] - _ZC2[0]
                hh1 = fix_h1(e1 + t1 + c1)
                csimple[i] = 1
                ch1[i] = hh1
                ch2[i] = (e2 ^ t2) + c2
                cc1[i] = c1
                cc2[i] = c2
                cio[i, 0] = sc
                cio[i, 1] = dc
                cio[i, 2] = sh_src
                cio[i, 3] = sh_dst
                prefetch(tt, 3 * _slot(hh1, tmask))
        # phase 2: the children in order
        for i in range(n):
            m = buf[i]
            if m == inv:
                continue
            k = ctl[C_POOL]
            src = (m >> 16) & 0xFF
            mn = (m >> 8) & 0xFF
            dst = m & 0xFF
            if csimple[i]:
                c1 = cc1[i]
                c2 = cc2[i]
                sc = cio[i, 0]
                dc = cio[i, 1]
                sh_src = cio[i, 2]
                sh_dst = cio[i, 3]
                gc = gn + mn
                slot = _enter_child(tt, pool, ctl, ch1[i], ch2[i], gc, wg)
                if slot < 0:
                    continue
                _drag_to_row(pool, k, st, src, mn, dst)
                _link_row(tt, pool, ctl, k, slot, gc, node, m, 1 if node != 0 else 0)
                _wr64(pool, k, R_S1, c1)
                _wr64(pool, k, R_S1 + 8, c2)
                # shares: the parent's but the two changed columns; h: the parent's plus the
                # changes of those shares, of the empty columns and of the full free cells
                for j in range(16):
                    pool[k, R_SHARES + j] = pool[node, R_SHARES + j]
                h = hp0
                if sc >= 0:
                    _wr16(pool, k, R_SHARES + 2 * sc, sh_src)
                    h += sh_src - ph[sc]
                    if st[HEIGHT + sc] == mn:
                        h -= hw[4]
                else:
                    h -= hw[3]
                if dc >= 0:
                    _wr16(pool, k, R_SHARES + 2 * dc, sh_dst)
                    h += sh_dst - ph[dc]
                    if st[HEIGHT + dc] == 0:
                        h += hw[4]
                else:
                    h += hw[3]
                f = min(wg * gc + wh * h, (1 << 19) - 1)
                key = f * 4096 + max(0, min(h, 4095))
                tb = k if tie != TIE_NEWEST else 0x7FFFFFFF - k
                ctl[C_HEAP] = _hpush(heap, ctl[C_HEAP], (key << 32) | tb, shift)
                continue
            for j in range(STATE_SIZE):
                child[j] = st[j]
            apply_child(child, m, fix)
            f1 = foundation_count(child)
            gc = gn + ((m >> 8) & 0xFF) + f1 - f0
            if FIRST_HOME <= dst < FIRST_COL:
                gc -= 1
            # columns whose height changed: the move's own, unless a card went home
            chg = 0
            if f1 == f0:
                if src >= FIRST_COL:
                    chg |= 1 << (src - FIRST_COL)
                if dst >= FIRST_COL:
                    chg |= 1 << (dst - FIRST_COL)
            else:
                for col in range(8):
                    if child[HEIGHT + col] != st[HEIGHT + col]:
                        chg |= 1 << col
            c1 = s1
            c2 = s2
            for col in range(8):
                if (chg >> col) & 1:
                    if (have >> col) & 1 == 0:
                        _col_scan(st, col, need0, cx, cy, p1, p2, cst)
                        have |= 1 << col
                    a, b = _col_parts(child, col)
                    c1 += a - p1[col]
                    c2 += b - p2[col]
            if f1 == f0:
                h1, h2 = _hash_cells(child, c1, c2, t1, t2)
            else:
                u1, u2 = _found_terms(child)
                h1, h2 = _hash_cells(child, c1, c2, u1, u2)
            slot = _enter_child(tt, pool, ctl, fix_h1(h1), h2, gc, wg)
            if slot < 0:
                continue
            for j in range(STATE_SIZE):
                pool[k, j] = child[j]
            _link_row(tt, pool, ctl, k, slot, gc, node, m, 1 if (node != 0 and f1 == f0) else 0)
            if f1 == 52:
                ctl[C_WIN_NODE] = k
                return FOUND
            _wr64(pool, k, R_S1, c1)
            _wr64(pool, k, R_S1 + 8, c2)
            if f1 != f0:
                # cards went home: changed columns are rescanned; in the others only the
                # buried term can change, and only by cards some suit needs now and did not
                # before (a card stops being needed only by going home, which changes its
                # column): each adds the cards above it
                need = _need_mask(_need(child))
                fresh = need & ~need0
                for col in range(8):
                    if (chg >> col) & 1:
                        qh[col] = _col_h_fast(child, col, need, hw)
                    elif fresh == 0:
                        qh[col] = ph[col]
                    else:
                        qh[col] = ph[col] + hw[2] * _buried_by(child, col, fresh)
            else:
                for col in range(8):
                    if (chg >> col) & 1:
                        qh[col] = _col_h_fast(child, col, need0, hw)
                    else:
                        qh[col] = ph[col]
            for col in range(8):
                _wr16(pool, k, R_SHARES + 2 * col, qh[col])
            h = _h_from_cols_f(child, qh, hw, f1)
            f = min(wg * gc + wh * h, (1 << 19) - 1)
            key = f * 4096 + max(0, min(h, 4095))
            tb = k if tie != TIE_NEWEST else 0x7FFFFFFF - k
            ctl[C_HEAP] = _hpush(heap, ctl[C_HEAP], (key << 32) | tb, shift)
    return EXHAUSTED


@jit
def _fc_path(pool, k, out):
    """Moves from the root to row ``k`` into ``out``; returns their number."""
    n = 0
    j = k
    while j > 0:
        n += 1
        j = _rd32(pool, j, R_PARENT)
    j = k
    for i in range(n - 1, -1, -1):
        out[i] = _rd32(pool, j, R_PMOVE)
        j = _rd32(pool, j, R_PARENT)
    return n


class FreecellBestFirst(_Run):
    """The driver of :func:`fc_best_first` (limits, growth, path from :class:`solvers.search._Run`).

    Arrays: the table ``tt`` (3 words a slot), node rows ``pool`` (``REC`` bytes each) and the
    heap (8 bytes a node).  They are reused by ``reset`` for the next deal of a batch (pages
    already mapped are much cheaper than fresh ones), see ``reset``.

    The node arrays are reserved large (``POOL_RESERVE`` rows, or what the memory limit
    allows) but only the first ``rows`` are used, and ``rows`` doubles when the pool fills:
    reserved pages that were never touched cost no memory, so growing is free until the
    reserve is used up (then the arrays are copied into twice larger ones).  Memory is counted
    as the rows in use (``nbytes``), not the reserve.
    """

    TABLE_START = 1 << 12
    POOL_START = 1 << 14
    POOL_RESERVE = 1 << 21

    def __init__(self, hw, limits, weights=(1, 1), tie=TIE_AS_CORE):
        self.limits = limits
        self.wg, self.wh = (int(w) for w in weights)
        self.hw = np.array(hw, dtype=np.int64)
        self.tie = int(tie)
        self.tt = np.zeros(3 * self.TABLE_START, dtype=np.uint64)
        self._spare = {}  # capacity -> an empty table, kept for reuse
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        self.buf = np.empty(MAX_MOVES, dtype=np.int32)
        reserve = self.POOL_RESERVE
        if limits.max_bytes is not None:
            reserve = max(self.POOL_START, min(reserve, limits.max_bytes // (REC + 8)))
        self.pool = np.empty((reserve, REC), dtype=np.int8)
        self.heap = np.empty(reserve, dtype=np.int64)
        self.rows = self.POOL_START
        self._pathbuf = np.empty(0, dtype=np.int32)
        self.peak = 0
        self._nbytes = None

    def _arrays(self):
        return (self.tt, self.pool, self.heap)

    # The driver asks for the memory in use after every kernel call; the sum is cached and
    # dropped whenever an array is replaced or ``rows`` changes.
    def nbytes(self):
        """Bytes held: the table, the empty tables kept for reuse, and the rows in use."""
        if self._nbytes is None:
            self._nbytes = (self.tt.nbytes + sum(t.nbytes for t in self._spare.values())
                            + self.rows * (REC + 8))
        return self._nbytes

    def reset(self, limits):
        """Ready for a new search: the table is emptied entry by entry from the rows (each
        records its slot), and a grown table is put aside, empty, for the next deal that
        grows (fresh pages cost the kernel a zeroing each time); each search starts from the
        small table again, whose entries stay close together in the caches."""
        self.limits = limits
        used = int(self.ctl[C_POOL])
        self.ctl[:] = 0
        self.peak = 0
        self.rows = self.POOL_START
        self._nbytes = None
        tt3_clear_rows(self.tt, self.pool, used)
        cap = self.tt.shape[0] // 3
        if cap != self.TABLE_START:
            self._spare[cap] = self.tt
            self.tt = self._spare.pop(self.TABLE_START)
        if not self._fits(0):  # the kept tables do not fit this search's memory limit
            self._spare = {}
            self._nbytes = None
        return self

    def _grow_table(self):
        cap = self.tt.shape[0] // 3
        tt = self._spare.pop(2 * cap, None)
        if tt is None:
            if not self._fits(2 * 24 * cap):  # the new table (2x) next to the old one
                return False
            tt = np.zeros(6 * cap, dtype=np.uint64)
        tt3_rehash(self.tt, tt, self.pool)  # leaves the old table empty: kept for reuse
        self._spare[cap] = self.tt
        self.tt = tt
        self._nbytes = None
        return True

    def _grow_stack(self):
        size = self.rows
        if not self._fits(size * (REC + 8)):
            return False
        if 2 * size > self.pool.shape[0]:  # reserve used up: copy into larger arrays
            n = int(self.ctl[C_POOL])
            pool = np.empty((2 * size, REC), dtype=np.int8)
            pool[:n] = self.pool[:n]
            heap = np.empty(2 * size, dtype=np.int64)
            h = int(self.ctl[C_HEAP])
            heap[:h] = self.heap[:h]
            self.pool, self.heap = pool, heap
        self.rows = 2 * size
        self._nbytes = None
        return True

    def _path(self):
        k = int(self.ctl[C_WIN_NODE])
        if self._pathbuf.shape[0] < self.pool.shape[0]:
            self._pathbuf = np.empty(self.pool.shape[0], dtype=np.int32)
        out = self._pathbuf
        n = _fc_path(self.pool, k, out)
        self.win_g = int(_rd32(self.pool, k, R_G))  # the atomic length of the path (g sums ``cost``)
        return out[:n].tolist()

    def _call(self, root, budget):
        return fc_best_first(root, self.tt, self.ctl, self.pool, self.rows, self.heap, self.buf,
                             budget, self.wg, self.wh, self.hw, self.tie)


def _plug(h):
    return GamePlug(legal, apply, won, hash1, hash2, h, cost, MAX_MOVES, STATE_SIZE)


_PLUG_MAKERS = {
    "PLUG": lambda: _plug(heuristic),
    "PLUG_BREAKS": lambda: _plug(heuristic_breaks),
    "PLUG_SHORT": lambda: _plug(heuristic_short),
    "PLUG_COMPLETE": lambda: GamePlug(legal_complete, apply, won, hash1, hash2, heuristic, cost,
                                      MAX_MOVES, STATE_SIZE),
}
_PLUGS = {}


def get_plug(name):
    """The generic-core plug ``name`` (``PLUG``, ``PLUG_BREAKS``, ``PLUG_SHORT``,
    ``PLUG_COMPLETE``), built on first use: resolving a plug loads its ten kernels, which a
    fresh process solving with the fused kernel never needs (start-up time)."""
    plug = _PLUGS.get(name)
    if plug is None:
        plug = _PLUGS[name] = _PLUG_MAKERS[name]()
    return plug


def __getattr__(name):
    if name in _PLUG_MAKERS:
        return get_plug(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Portfolio(NamedTuple):
    """Searches run round-robin on one deal (see :func:`_run_portfolio`)."""
    members: tuple  # (plug, kind, weights) as in a stage
    first: tuple    # each member's node total after the first round, one per member
    factor: float   # ... multiplied by this every round (rounded down to whole nodes)


# The fused kernel's search kinds: how each breaks ties between equal keys.
FC_KINDS = {"fc": TIE_AS_CORE, "fc-newest": TIE_NEWEST}

# method -> Portfolio, or stages (heuristic weights for the fused kernel "fc", or a plug name for the generic
# "best-first" / "dfs"; weights (g, h); node budget or None = the rest of the limits)
METHODS = {
    "fast": Portfolio(((HW_BREAKS, "fc-newest", (2, 3)), (HW_MAIN_BREAKS, "fc", (1, 1)),
                       (HW_CELLS, "fc", (1, 1)), (HW_MAIN, "fc", (1, 1)),
                       (HW_BREAKS, "fc", (2, 3)), (HW_NO_BURIED, "fc", (1, 1))),
                      (300, 600, 800, 2400, 100, 100), 3),
    "astar": ((HW_SHORT, "fc", (1, 1), 20000), (HW_MAIN, "fc", (1, 1), None)),
    # f = 3g + 2h: shorter still, more nodes; after 20000 nodes it falls back to "fast"'s search
    "short": ((HW_SHORT, "fc", (3, 2), 20000), (HW_MAIN, "fc", (1, 1), None)),
    "greedy": ((HW_MAIN, "fc", (0, 1), None),),
    "dfs": (("PLUG", "dfs", None, None),),
}
DEFAULT_METHOD = "fast"


@jit
def replay_atomic(start, codes):
    """Atomic length of ``codes`` played from ``start`` (a copy is played)."""
    s = start.copy()
    before = start.copy()
    total = 0
    for k in range(codes.shape[0]):
        before[:] = s
        fc.apply(s, codes[k])
        total += cost(before, s, codes[k])
    return total


@jit
def ms_deal_array(number, out):
    """Microsoft deal ``number`` (1 .. 2**31-1) as a state array in ``out`` (rules.freecell layout).

    Same LCG and dealing as ``rules.deals.microsoft_deal`` (tests compare them); a kernel so
    that batches do not spend their time dealing in Python.
    """
    deck = np.empty(52, np.int64)
    for i in range(52):
        deck[i] = 13 * (i % 4) + i // 4
    out[:] = 0
    for i in range(4):
        out[FREE + i] = EMPTY
        out[HOME + i] = EMPTY
    for i in range(8 * COL_WIDTH):
        out[COLS + i] = EMPTY
    state = np.int64(number)
    left = 52
    for k in range(52):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        j = ((state >> 16) & 0x7FFF) % left
        card = deck[j]
        deck[j] = deck[left - 1]
        left -= 1
        col = k % 8
        h = out[HEIGHT + col]
        out[COLS + col * COL_WIDTH + h] = card
        out[HEIGHT + col] = h + 1


# ---- Python API --------------------------------------------------------------------------
def _start_state(state):
    game = get_game("freecell")
    if isinstance(state, State):
        return state.copy()
    if isinstance(state, (int, np.integer)):
        n = int(state)
        if 1 <= n < 2**31:
            arr = np.empty(STATE_SIZE, np.int16)
            ms_deal_array(n, arr)
            return State(game, arr)
        return game.deal(n, numbering="microsoft")
    if isinstance(state, str):
        return game.from_layout(state)
    return State(game, np.asarray(state, dtype=np.int16).copy())


def verify_result(result):
    """Replay with the independent referee; True or raise AssertionError / IllegalMoveError."""
    from rules.referee.freecell import Referee

    if result.verdict != SOLVED:
        raise AssertionError(f"only solved results can be verified (verdict {result.verdict!r})")
    game = result.start.game
    ref = Referee(game.array_to_layout(result.start.array))
    atomic = 0
    for m in result.moves:
        score0 = ref.score
        ref.apply(str(m))  # raises IllegalMoveError if the referee refuses it
        home = ref.score - score0
        atomic += (m.n if m.kind == DRAG else 1) + home - (1 if m.kind == DRAG and 4 <= m.dst < 8 else 0)
    if not ref.won():
        raise AssertionError(f"replay of {len(result.moves)} moves does not end in a won position")
    if atomic != result.atomic_length:
        raise AssertionError(f"atomic length {result.atomic_length} != referee count {atomic}")
    return True


_RUNNERS = {}


def _runner(plug, kind, weights, limits):
    """A reusable runner per (plug, search, weights) in this thread.

    ``plug``: heuristic weights for the fused kernel (``kind`` in ``FC_KINDS``), else a plug name."""
    key = (plug, kind, weights, threading.get_ident())
    runner = _RUNNERS.get(key)
    if runner is None:
        if kind in FC_KINDS:
            runner = FreecellBestFirst(plug, limits, weights, FC_KINDS[kind])
        elif kind == "dfs":
            runner = DFS(get_plug(plug), limits)
        else:
            runner = BestFirst(get_plug(plug), limits, weights)
        _RUNNERS[key] = runner
        return runner
    return runner.reset(limits)


def _run_portfolio(array, pf, max_nodes, timeout, max_memory_mb, first_runner=None):
    """Round-robin over ``pf.members``, each resuming its own search; the first verdict wins.

    Member j gets node slices so that after round r it has expanded ``first[j] * factor**r``
    nodes in all (fewer if it finished).  A deal that is hard for one heuristic is often easy
    for another, so the total is bounded by about (members x the luckiest member's cost)
    instead of the cost of one fixed heuristic, which is what cuts the heavy tail.  The
    memory limit covers all members together (each is given what the others leave).
    """
    t0 = time.perf_counter()
    runners = [None] * len(pf.members)
    spent = [0] * len(pf.members)
    if first_runner is not None:  # member 0's search is under way (solve_many's batch kernel)
        runners[0] = first_runner
        spent[0] = int(first_runner.ctl[C_NODES])
    scale = 1.0
    result = None
    while True:
        for j, (plug, kind, weights) in enumerate(pf.members):
            total = sum(spent)
            goal = int(pf.first[j] * scale)
            if max_nodes is not None:
                goal = min(goal, spent[j] + max_nodes - total)
            left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
            if result is not None and (goal <= spent[j] or (left_time is not None and left_time <= 0)):
                result.limit = "nodes" if goal <= spent[j] else "seconds"
                return result, runners, sum(spent)
            mem = max_memory_mb
            if mem is not None and total > spent[j]:  # another member has run: its memory counts
                mem -= sum(r.nbytes() for i, r in enumerate(runners) if r is not None and i != j) / 2**20
            limits = Limits(goal, left_time, mem)
            if runners[j] is None:
                runners[j] = _runner(plug, kind, weights, limits)
            else:
                runners[j].limits = limits
            result = runners[j].run(array)
            spent[j] = result.nodes_expanded
            if result.verdict == SOLVED and kind in FC_KINDS:
                result.atomic_length = runners[j].win_g
            if result.verdict != "unknown" or result.limit != "nodes":
                return result, runners, sum(spent)
        scale *= pf.factor


def _check_method(method):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")


def _run_stages(array, method, max_nodes, timeout, max_memory_mb, first_runner=None):
    _check_method(method)
    t0 = time.perf_counter()
    nodes = stored = peak = 0
    result = None
    if isinstance(METHODS[method], Portfolio):
        result, runners, nodes = _run_portfolio(array, METHODS[method], max_nodes, timeout,
                                                max_memory_mb, first_runner)
        stored = max(int(r.ctl[C_STORED]) for r in runners if r is not None)
        peak = sum(r.peak for r in runners if r is not None)
    stages = () if result is not None else METHODS[method]
    for plug, kind, weights, budget in stages:
        left_nodes = None if max_nodes is None else max_nodes - nodes
        left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
        stage_nodes = left_nodes if budget is None else (
            budget if left_nodes is None else min(budget, left_nodes))
        limits = Limits(stage_nodes, left_time, max_memory_mb)
        runner = _runner(plug, kind, weights, limits)
        result = runner.run(array)
        if result.verdict == SOLVED and kind in FC_KINDS:
            result.atomic_length = runner.win_g
        nodes += result.nodes_expanded
        stored = max(stored, result.states_stored)
        peak = max(peak, result.peak_memory_bytes)
        if result.verdict != "unknown" or budget is None or result.limit != "nodes":
            break
        if left_nodes is not None and left_nodes - result.nodes_expanded <= 0:
            break
    if result.verdict == UNSOLVABLE:
        # confirm the proof with the homecell dbl allowed too (rare: one MS deal in 32000)
        left_nodes = None if max_nodes is None else max(0, max_nodes - nodes)
        left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
        result = DFS(get_plug("PLUG_COMPLETE"), Limits(left_nodes, left_time, max_memory_mb)).run(array)
        nodes += result.nodes_expanded
        stored = max(stored, result.states_stored)
        peak = max(peak, result.peak_memory_bytes)
    result.nodes_expanded, result.states_stored, result.peak_memory_bytes = nodes, stored, peak
    result.seconds = time.perf_counter() - t0
    result.method = method
    return result


def solve(state, method=DEFAULT_METHOD, max_nodes=None, timeout=None, max_memory_mb=None):
    """Solve a Freecell position (State, Microsoft deal number, layout text or array).

    Methods: ``fast`` (default; best-first portfolio, fewest nodes), ``astar`` (A* with
    f = g + h, shorter solutions), ``short`` (f = 3g + 2h, shorter still), ``greedy``, ``dfs``.  ``max_memory_mb=None`` means 4096 MiB, so a
    search never takes the machine down.
    """
    _check_method(method)
    start = _start_state(state)
    compiled = ready_for_timing(__name__, warmup, timeout)
    result = _run_stages(start.array, method, max_nodes, timeout,
                         4096 if max_memory_mb is None else max_memory_mb)
    result.compile_seconds = compiled
    return _finish(result, start, int(state) if isinstance(state, (int, np.integer)) else None)


def _finish(result, start, deal):
    result.start = start
    result._verifier = verify_result
    result.deal = deal
    if result.verdict == SOLVED:
        if not result.atomic_length:  # the fused best-first search knows it already (its g)
            codes = np.array(result.moves, dtype=np.int32)
            result.atomic_length = int(replay_atomic(start.array, codes))
        get = _MOVES.get  # Moves are non-empty tuples: ``or`` only misses on a new code
        result.moves = [get(c) or _move(c) for c in result.moves]
    return result


_MOVES = {}


def _move(code):
    """``Move.from_code`` memoised: Moves are immutable, and a batch builds ~50 per deal."""
    m = _MOVES.get(code)
    if m is None:
        m = _MOVES[code] = Move.from_code(code)
    return m


@jit
def fc_batch(deals, i0, roots, tt, ctl, pool, rows, heap, buf, budget, wg, wh, hw, tie, codes,
             info):
    """The first slice of a portfolio's first member for Microsoft deals ``deals[i0:]``, in one
    call: each deal is dealt into ``roots[i]`` and searched by :func:`fc_best_first` for
    ``budget`` nodes with the runner's arrays (emptied between deals as ``reset`` does).  A
    solved deal's moves go to ``codes[info[i, 0] : info[i, 0] + info[i, 1]]``, its g, nodes,
    stored states and rows to ``info[i, 2:6]``.  Returns the index of the first deal not
    solved in its slice (its search is left in the arrays, to be resumed from Python), or
    ``len(deals)``, or ``-1 - i`` when ``codes`` might not hold another path (deal ``i`` not
    started).
    """
    off = 0
    for i in range(i0, deals.shape[0]):
        if off + budget + 2 > codes.shape[0]:
            return -1 - i
        root = roots[i]
        ms_deal_array(deals[i], root)
        tt3_clear_rows(tt, pool, ctl[C_POOL])
        for j in range(ctl.shape[0]):
            ctl[j] = 0
        code = fc_best_first(root, tt, ctl, pool, rows, heap, buf, budget, wg, wh, hw, tie)
        if code != FOUND:
            return i
        k = ctl[C_WIN_NODE]
        n = _fc_path(pool, k, codes[off:])
        info[i, 0] = off
        info[i, 1] = n
        info[i, 2] = _rd32(pool, k, R_G)
        info[i, 3] = ctl[C_NODES]
        info[i, 4] = ctl[C_STORED]
        info[i, 5] = ctl[C_POOL]
        off += n
    return deals.shape[0]


_GAME = []


def _batchable(method, max_nodes, timeout, max_memory_mb):
    pf = METHODS.get(method)
    return (isinstance(pf, Portfolio) and pf.members[0][1] in FC_KINDS
            and (max_nodes is None or max_nodes >= pf.first[0])
            and (timeout is None or timeout >= 1.0)
            and (max_memory_mb is None or max_memory_mb >= 256))


def solve_many(deal_numbers, method=DEFAULT_METHOD, max_nodes=None, timeout=None,
               max_memory_mb=None, progress=None, chunk=1024):
    """Solve Microsoft deals one after another in this process; list of SolveResult.

    For the ``fast`` portfolio (with limits that a few hundred nodes cannot break: nodes at
    least the first slice, seconds at least 1, memory at least 256 MiB) most deals end in
    the first slice of its first member, so those slices run many deals to a call of
    :func:`fc_batch` and only deals that need more continue in Python, resuming that very
    search: the results are the same as ``solve`` gives one by one, without the Python cost
    per deal.  ``seconds`` of a deal solved inside a batch call is that call's time split in
    proportion to nodes.
    """
    deals = [int(n) for n in deal_numbers]
    _check_method(method)
    ready_for_timing(__name__, warmup, timeout)       # before the first deal's clock starts
    if not (_batchable(method, max_nodes, timeout, max_memory_mb)
            and all(1 <= n < 2**31 for n in deals)):
        out = []
        for i, n in enumerate(deals):
            out.append(solve(n, method, max_nodes, timeout, max_memory_mb))
            if progress is not None:
                progress(i, out[-1])
        return out
    # A batch builds tens of thousands of long-lived objects (results, move lists) and no
    # cycles among them: the cyclic collector's repeated scans of them find nothing and cost
    # about 3% of solving MS 1-32000, so it is paused while the batch runs.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        return _solve_batch(deals, method, max_nodes, timeout, max_memory_mb, progress, chunk)
    finally:
        if gc_was_on:
            gc.enable()


def _solve_batch(deals, method, max_nodes, timeout, max_memory_mb, progress, chunk):
    """:func:`solve_many` for a batchable method and Microsoft deal numbers."""
    if not _GAME:
        _GAME.append(get_game("freecell"))
    game = _GAME[0]
    pf = METHODS[method]
    plug, kind, weights = pf.members[0]
    mem = 4096 if max_memory_mb is None else max_memory_mb
    first = pf.first[0]
    first_limits = Limits(first if max_nodes is None else min(first, max_nodes), timeout, mem)
    out = []
    for c0 in range(0, len(deals), chunk):
        part = np.array(deals[c0:c0 + chunk], dtype=np.int64)
        roots = np.empty((part.shape[0], STATE_SIZE), dtype=np.int16)
        codes = np.empty(64 * chunk + 4 * first, dtype=np.int32)
        info = np.zeros((part.shape[0], 6), dtype=np.int64)
        i = 0
        while i < part.shape[0]:
            r0 = _runner(plug, kind, weights, first_limits)  # reset, ready
            t0 = time.perf_counter()
            j = fc_batch(part, i, roots, r0.tt, r0.ctl, r0.pool, r0.rows, r0.heap, r0.buf,
                         first_limits.max_nodes, r0.wg, r0.wh, r0.hw, r0.tie, codes, info)
            dt = time.perf_counter() - t0
            full = j < 0  # out of room for paths: deal -1-j not started
            if full:
                j = -1 - j
            peak = r0.nbytes()
            started = 0 if full or j >= part.shape[0] else int(r0.ctl[C_NODES])
            total = max(1, int(info[i:j, 3].sum()) + started)
            for d in range(i, j):
                off, n, g, nodes, stored = (int(x) for x in info[d, :5])
                res = SolveResult(SOLVED, codes[off:off + n].tolist(), nodes, stored,
                                  dt * nodes / total, peak, atomic_length=g, method=method)
                out.append(_finish(res, State(game, roots[d].copy()), int(part[d])))
                if progress is not None:
                    progress(c0 + d, out[-1])
            if j < part.shape[0] and not full:  # deal j needs more than its first slice
                t1 = time.perf_counter()
                res = _run_stages(roots[j], method, max_nodes,
                                  None if timeout is None else timeout - dt, mem,
                                  first_runner=r0)
                res.seconds = time.perf_counter() - t1 + dt * started / total
                res = _finish(res, State(game, roots[j].copy()), int(part[j]))
                out.append(res)
                if progress is not None:
                    progress(c0 + j, out[-1])
                j += 1
            i = j
    return out


def warmup():
    """Compile (or load from the cache) every kernel on deal 1; returns seconds taken."""
    t0 = time.perf_counter()
    for method in METHODS:
        solve(1, method, max_nodes=50)
    solve_many([1])
    return time.perf_counter() - t0
