"""Array-backed transposition table and binary heap for the search kernels.

Transposition table: open addressing with linear probing over one ``uint64`` array of
``2 * capacity`` words, holding each position's key as two independent 64-bit hashes
``(h1, h2)`` side by side, plus an ``int64`` value per slot (the node index for best-first,
unused by depth-first).  ``h1 == 0`` marks an empty slot, so a real ``h1`` of 0 is stored as 1.

Why two hashes: a position is only treated as "already seen" when *both* 64-bit hashes match.
``h1`` is the game's canonical hash kernel, ``h2`` an independently computed canonical hash
supplied by the game's solver module.  A false "seen" -- the only way a collision could hide a
solution and turn a solvable deal into a wrong ``unsolvable`` -- needs a simultaneous collision
of two unrelated 64-bit functions (about 2**-128 per pair of positions; with 10**8 positions
the chance of any is below 10**-22).  Capacity is a power of two; the Python driver grows the
table (``rehash``) before the load passes ``MAX_LOAD``.

Heap: a binary min-heap of ``(key int64, node int32)`` in two parallel arrays, its size kept by
the caller.  No per-node Python objects anywhere.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from rules._jit import jit
from rules.hashing import GOLDEN_GAMMA

MAX_LOAD = 0.7


def new_table(capacity):
    """Empty table arrays for ``capacity`` slots (a power of two)."""
    if capacity & (capacity - 1):
        raise ValueError(f"table capacity {capacity} is not a power of two")
    return np.zeros(2 * capacity, dtype=np.uint64), np.zeros(capacity, dtype=np.int64)


@jit
def fix_h1(h1):
    return np.uint64(1) if h1 == np.uint64(0) else h1


@jit
def _slot(h1, mask):
    return np.int64((h1 * GOLDEN_GAMMA) >> np.uint64(20)) & mask


@jit
def tt_find(keys, h1, h2):
    """Slot index of ``(h1, h2)`` or -1.  ``h1`` must already be passed through ``fix_h1``."""
    mask = (keys.shape[0] >> 1) - 1
    i = _slot(h1, mask)
    while True:
        k = keys[2 * i]
        if k == np.uint64(0):
            return -1
        if k == h1 and keys[2 * i + 1] == h2:
            return i
        i = (i + 1) & mask


def _prefetch_codegen(context, builder, signature, args):
    """LLVM's prefetch (read, keep in cache) of the element the index arguments name."""
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    ptr = cgutils.get_item_pointer(context, builder, aryty, ary, list(args[1:]))
    i8p = builder.bitcast(ptr, ir.IntType(8).as_pointer())
    i32 = ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
    builder.call(fn, [i8p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
    return context.get_dummy_value()


@intrinsic
def prefetch(typingctx, arr, i):
    """Hint the CPU to fetch ``arr[i]``'s cache line; a hint only, it changes no value."""
    return types.void(arr, i), _prefetch_codegen


@intrinsic
def prefetch2(typingctx, arr, row, col):
    """:func:`prefetch` for ``arr[row, col]`` of a 2-D array."""
    return types.void(arr, row, col), _prefetch_codegen


@jit
def tt_prefetch(keys, h1):
    """Start loading the slot ``tt_find``/``tt_insert`` will probe first for ``h1`` (already
    through ``fix_h1``): a search that hashes all children before entering them overlaps the
    cache misses of a large table."""
    prefetch(keys, 2 * _slot(h1, (keys.shape[0] >> 1) - 1))


@jit
def tt_insert(keys, h1, h2):
    """Insert ``(h1, h2)``; returns ``slot`` if new, ``-1 - slot`` if it was already there."""
    mask = (keys.shape[0] >> 1) - 1
    i = _slot(h1, mask)
    while True:
        k = keys[2 * i]
        if k == np.uint64(0):
            keys[2 * i] = h1
            keys[2 * i + 1] = h2
            return i
        if k == h1 and keys[2 * i + 1] == h2:
            return -1 - i
        i = (i + 1) & mask


@jit
def rehash(old_keys, old_vals, new_keys, new_vals):
    """Move every entry of the old table into the (empty, larger) new one."""
    cap = old_keys.shape[0] >> 1
    for i in range(cap):
        h1 = old_keys[2 * i]
        if h1 != np.uint64(0):
            j = tt_insert(new_keys, h1, old_keys[2 * i + 1])
            new_vals[j] = old_vals[i]


@jit
def heap_push(hkey, hnode, size, key, node):
    """Push onto a heap of ``size`` entries; returns the new size."""
    i = size
    while i > 0:
        p = (i - 1) >> 1
        if hkey[p] <= key:
            break
        hkey[i] = hkey[p]
        hnode[i] = hnode[p]
        i = p
    hkey[i] = key
    hnode[i] = node
    return size + 1


@jit
def heap_pop(hkey, hnode, size):
    """Remove the minimum (read it from index 0 first); returns the new size."""
    size -= 1
    key = hkey[size]
    node = hnode[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and hkey[c + 1] < hkey[c]:
            c += 1
        if hkey[c] >= key:
            break
        hkey[i] = hkey[c]
        hnode[i] = hnode[c]
        i = c
    if size > 0:
        hkey[i] = key
        hnode[i] = node
    return size


# ---- three-word table ---------------------------------------------------------------------
# A variant for searches that keep a value beside each key: ``3 * capacity`` uint64 words, slot
# ``i`` holding ``h1, h2, value`` (``h1 == 0``: empty slot).  With the value next to its key, a
# search can judge a duplicate without reading anything else (Freecell's fused kernel keeps
# ``(g << 32) | node`` there).  Same hashing, probing and load limit as the table above; its
# probe loop repeats tt_insert's on purpose, so that each kernel compiles with its stride fixed.
@jit
def tt3_insert(tt, h1, h2):
    """Insert ``(h1, h2)`` (``h1`` through ``fix_h1``); ``slot`` if new, ``-1 - slot`` if it
    was already there."""
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


@jit
def tt3_prefetch(tt, h1):
    """Start loading the slot ``tt3_insert`` probes first for ``h1`` (see ``tt_prefetch``)."""
    prefetch(tt, 3 * _slot(h1, tt.shape[0] // 3 - 1))
