"""The fused kernel's node records, heap and table upkeep.

One int8 row per node holds the position (the engine's layout; every entry fits a byte:
cards 0..51, EMPTY -1, heights <= 19, ranks <= 13; the two score words are left as they
fall, the search never reads them) and the node's fields, so expanding a node touches one
contiguous row instead of one slot in each of several arrays: on hard deals the search is
bound by cache misses, not by arithmetic.

The table is :mod:`solvers.core.table`'s three-word one; a node's value there is
``(g << 32) | row``, so a duplicate child is judged without reading the node's row.
"""
import numpy as np

from rules import freecell as fc
from rules._jit import jit
from solvers.core.table import tt3_insert

STATE_SIZE = fc.STATE_SIZE
R_G = STATE_SIZE            # int32: g, the atomic moves from the root; -1 = superseded
R_PARENT = R_G + 4          # int32: parent row (-1 for the root)
R_PMOVE = R_G + 8           # int32: the move that made the node
R_FLAG = R_G + 12           # 1: the reverse of R_PMOVE leads back to the parent (see fused)
R_SHARES = R_G + 14         # 8 x int16: the heuristic's per-column shares
R_S1 = R_SHARES + 16        # 2 x uint64: sums of the position's column hash terms (h1, h2)
R_SLOT = R_S1 + 16          # int32: the node's slot in the table (to clear the table cheaply)
REC = R_SLOT + 4            # bytes per row
NODE_MASK = 0x7FFFFFFF      # the row in a table value or a heap entry


@jit
def rd32(pool, k, off):
    return (np.int64(pool[k, off]) & 0xFF) | ((np.int64(pool[k, off + 1]) & 0xFF) << 8) | \
        ((np.int64(pool[k, off + 2]) & 0xFF) << 16) | (np.int64(pool[k, off + 3]) << 24)


@jit
def wr32(pool, k, off, v):
    pool[k, off] = v & 0xFF
    pool[k, off + 1] = (v >> 8) & 0xFF
    pool[k, off + 2] = (v >> 16) & 0xFF
    pool[k, off + 3] = (v >> 24) & 0xFF


@jit
def rd64(pool, k, off):
    return (np.uint64(rd32(pool, k, off) & 0xFFFFFFFF)
            | (np.uint64(rd32(pool, k, off + 4) & 0xFFFFFFFF) << np.uint64(32)))


@jit
def wr64(pool, k, off, v):
    wr32(pool, k, off, np.int64(v & np.uint64(0xFFFFFFFF)))
    wr32(pool, k, off + 4, np.int64(v >> np.uint64(32)))


@jit
def rd16(pool, k, off):
    return (np.int64(pool[k, off]) & 0xFF) | (np.int64(pool[k, off + 1]) << 8)


@jit
def wr16(pool, k, off, v):
    pool[k, off] = v & 0xFF
    pool[k, off + 1] = (v >> 8) & 0xFF


@jit
def path_to(pool, k, out):
    """Moves from the root to row ``k`` into ``out``; returns their number."""
    n = 0
    j = k
    while j > 0:
        n += 1
        j = rd32(pool, j, R_PARENT)
    j = k
    for i in range(n - 1, -1, -1):
        out[i] = rd32(pool, j, R_PMOVE)
        j = rd32(pool, j, R_PARENT)
    return n


@jit
def tt3_clear_rows(tt, pool, rows):
    """Empty the table slots of pool rows ``0 .. rows-1`` (every entry belongs to one of them,
    as long as the table was not rehashed since): O(entries) instead of O(capacity)."""
    for k in range(rows):
        i = rd32(pool, k, R_SLOT)
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
            wr32(pool, np.int64(val & np.uint64(NODE_MASK)), R_SLOT, j)
            old[3 * i] = np.uint64(0)
            old[3 * i + 1] = np.uint64(0)
            old[3 * i + 2] = np.uint64(0)


# Binary min-heap of packed entries ``(key << 32) | tie`` in one int64 array (one cache line per
# level instead of two).  ``shift`` 32 compares keys only, as solvers.core.table's heap does (equal
# keys in the same order as there); 0 compares whole entries (equal keys: by ``tie``).
@jit
def packed_push(heap, size, x, shift):
    """Push ``x`` onto a heap of ``size`` entries; returns the new size."""
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
def packed_pop(heap, size, shift):
    """Remove the minimum (read it from index 0 first); returns the new size."""
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
