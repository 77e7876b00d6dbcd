"""The fused kernel's canonical hashes and heuristic, term by term.

Both are sums of per-column terms plus terms for the free cells and the foundations, so a
child recomputes only the columns a move changed.

Hashes (the table's two keys, ``h1`` with ``high[]``): free cells a set, columns a
multiset, foundations per suit.  A column's term is a finaliser applied to the sum (``h1``)
or XOR (``h2``) of one random word per (card, height in column) from two Zobrist tables
with fixed seeds (so the values, and Numba's cached code that freezes these arrays, are the
same in every process).  No serial multiply chain per card, so a column is cheap to redo.

Heuristic: ``weighted_heuristic`` of :mod:`solvers.games.freecell.plug` with weights ``hw`` is
``hw[0] * cards not home + sum of the columns' shares (unsorted, buried, breaks terms)
+ hw[3] * full free cells - hw[4] * empty columns`` (:func:`h_from_shares`).
"""
import numpy as np

from rules import freecell as fc
from rules._jit import jit
from solvers.games.freecell.inlining import jit_leaf
from rules.cards import EMPTY
from rules.hashing import fmix64, splitmix64_next
from solvers.games.freecell.moves import RANK0, SEQ, SUIT

FREE, HOME, HIGH, HEIGHT = fc.FREE, fc.HOME, fc.HIGH, fc.HEIGHT
COLS, COL_WIDTH = fc.COLS, fc.COL_WIDTH

_ZRNG = np.random.default_rng(20261129)


def _words(n):
    return _ZRNG.integers(0, 2**63, size=n, dtype=np.int64).astype(np.uint64)


Z1 = _words(52 * COL_WIDTH) * np.uint64(2) + np.uint64(1)   # by (card, height): odd words
Z2 = _words(52 * COL_WIDTH) * np.uint64(2) + np.uint64(1)
ZC1 = _words(53)                                             # by free cell content: card + 1
ZC2 = _words(53)
ZK = np.uint64(0x9E3779B97F4A7C15)     # the height's weight in a column's h2 sum
CELLS2_SEED = np.uint64(0x243F6A8885A308D3)


@jit
def col_parts(state, col):
    """Column ``col``'s terms in the two hashes."""
    h = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    x = np.uint64(h)
    y = np.uint64(h) * ZK
    for i in range(h):
        k = state[base + i] * COL_WIDTH + i
        x += Z1[k]
        y ^= Z2[k]
    return splitmix64_next(x), fmix64(y)


@jit
def found_terms(state):
    """The foundations' (and ``high[]``'s) terms in the two hashes."""
    found = np.uint64(0)
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            found |= np.uint64(RANK0[top] + 1) << np.uint64(4 * SUIT[top])
    for i in range(4):
        found |= np.uint64(state[HIGH + i]) << np.uint64(16 + 4 * i)
    return splitmix64_next(found | np.uint64(1 << 41)), fmix64(found * np.uint64(0xD6E8FEB86659FD93))


@jit
def cell_terms(state):
    """The free cells' terms in the two hashes (a set: summed)."""
    acc1 = np.uint64(0)
    acc2 = CELLS2_SEED
    for i in range(4):
        c = state[FREE + i] + 1  # 0 = empty cell
        acc1 += ZC1[c]
        acc2 += ZC2[c]
    return acc1, acc2


@jit
def hash_cells(state, s1, s2, t1, t2):
    """Both hashes from the column sums ``s1``, ``s2`` and the foundation terms ``t1``, ``t2``.

    No final mixing: a bijection applied to a hash changes none of its collisions, and the
    terms summed here are mixed already (the table's slot is a multiplicative hash of h1).
    """
    acc1, acc2 = cell_terms(state)
    return acc1 + t1 + s1, (acc2 ^ t2) + s2


@jit
def hash_finish(state, s1, s2):
    """Both hashes of ``state`` given the sums ``s1``, ``s2`` of its column terms."""
    t1, t2 = found_terms(state)
    return hash_cells(state, s1, s2, t1, t2)


@jit_leaf
def col_share(state, col, needmask, hw):
    """Column ``col``'s share of the heuristic with weights ``hw``: its unsorted cards (above
    the first break), buried cards (above a card in ``needmask``) and breaks, weighted."""
    n = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    first_break = n
    breaks = 0
    buried = 0
    lo = state[base]
    if n > 0 and (needmask >> lo) & 1:
        buried += n - 1
    for i in range(1, n):
        up = state[base + i]
        if SEQ[52 * lo + up] == 0:
            breaks += 1
            if first_break == n:
                first_break = i
        if (needmask >> up) & 1:
            buried += n - 1 - i
        lo = up
    return hw[1] * (n - first_break) + hw[2] * buried + hw[5] * breaks


@jit_leaf
def buried_by(state, col, mask):
    """Cards above each card of ``mask`` in column ``col``, summed."""
    n = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    total = 0
    for i in range(n):
        if (mask >> state[base + i]) & 1:
            total += n - 1 - i
    return total


@jit
def h_from_shares(state, shares, hw, found):
    """The heuristic with weights ``hw`` given the columns' ``shares`` and ``found``, the number
    of cards on the foundations."""
    total = 0
    for col in range(8):
        total += shares[col]
        if state[HEIGHT + col] == 0:
            total -= hw[4]
    for i in range(4):
        if state[FREE + i] != EMPTY:
            total += hw[3]
    return np.int64(hw[0] * (52 - found) + total)


# What col_scan keeps of a column: rows of ``scan`` (uint64, 4 x 8 columns) and fields of
# ``cst[col]`` (int64, 8 columns x 6).
RAW1, RAW2, TERM1, TERM2 = range(4)                 # raw hash sums and their finalised terms
FIRST_BREAK, BREAKS, BURIED, NEEDED, TOP_RUN, SCANNED = range(6)


@jit
def col_scan(state, col, needmask, scan, cst):
    """Everything the fused kernel keeps of column ``col`` of a node being expanded, in one
    pass: ``scan[:, col]`` the raw hash sums (before the finalisers of :func:`col_parts`) and
    the terms; ``cst[col]`` the first break, breaks, buried cards, needed cards and length of
    the top run (as :func:`col_share` and the engine's ``_run_length`` count them), and
    ``SCANNED`` set.
    """
    h = state[HEIGHT + col]
    base = COLS + col * COL_WIDTH
    x = np.uint64(h)
    y = np.uint64(h) * ZK
    fb = h
    br = 0
    bu = 0
    nd = 0
    last = 0
    lo = 0
    for i in range(h):
        c = state[base + i]
        kk = c * COL_WIDTH + i
        x += Z1[kk]
        y ^= Z2[kk]
        if i > 0 and SEQ[52 * lo + c] == 0:
            br += 1
            last = i
            if fb == h:
                fb = i
        if (needmask >> c) & 1:
            bu += h - 1 - i
            nd += 1
        lo = c
    scan[RAW1, col] = x
    scan[RAW2, col] = y
    scan[TERM1, col] = splitmix64_next(x)
    scan[TERM2, col] = fmix64(y)
    cst[col, FIRST_BREAK] = fb
    cst[col, BREAKS] = br
    cst[col, BURIED] = bu
    cst[col, NEEDED] = nd
    cst[col, TOP_RUN] = h - last
    cst[col, SCANNED] = 1
