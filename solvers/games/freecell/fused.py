"""The fused best-first kernel, which runs every best-first method, and its driver.

:func:`fc_best_first` is :func:`solvers.core.search.best_first_kernel` specialised to Freecell:
the same contract (return codes, resumable through ``ctl``) and, with ``Order.newest``
False, the very same search as the generic core with ``plug("main")`` and the same weights
(a test checks nodes, stored states and moves).  It calls the Freecell kernels directly and
computes hashes and heuristic incrementally, column by column; what it skips and why the
search stays the same: docs/freecell.md, "The fused kernel".  How its helpers are compiled
so that calling them costs nothing: :mod:`solvers.games.freecell.inlining`.
"""
from typing import NamedTuple

import numpy as np

from rules import freecell as fc
from rules._jit import jit
from rules.hashing import fmix64, splitmix64_next
from rules.moves import DRAG
from solvers.core.search import (C_HEAP, C_INIT, C_NODES, C_POOL, C_STORED, C_WIN_NODE, CTL_SIZE,
                      EXHAUSTED, FOUND, PAUSED, STACK_FULL, TABLE_FULL, Run, unowned)
from solvers.core.table import MAX_LOAD, fix_h1, prefetch2, tt3_insert, tt3_prefetch
from solvers.games.freecell.columns import (BREAKS, BURIED, FIRST_BREAK, NEEDED, RAW1, RAW2, SCANNED, TERM1, TERM2,
                      TOP_RUN, Z1, Z2, ZC1, ZC2, ZK, buried_by, cell_terms, col_parts, col_scan,
                      col_share, found_terms, h_from_shares, hash_cells, hash_finish)
from solvers.games.freecell.inlining import jit_ir_inline
from solvers.games.freecell.moves import (apply_child, autoplay_pending, card_pending, drag_to_row, legal_masked,
                    need_bits, need_mask)
from solvers.games.freecell.plug import foundation_count
from solvers.games.freecell.rows import (NODE_MASK, R_FLAG, R_G, R_PARENT, R_PMOVE, R_S1, R_SHARES, R_SLOT, REC,
                   packed_pop, packed_push, path_to, rd16, rd32, rd64, tt3_clear_rows,
                   tt3_rehash, wr16, wr32, wr64)

FREE, HEIGHT, COLS, COL_WIDTH = fc.FREE, fc.HEIGHT, fc.COLS, fc.COL_WIDTH
STATE_SIZE, MAX_MOVES = fc.STATE_SIZE, fc.MAX_MOVES
FIRST_HOME, FIRST_COL = fc.FIRST_HOME, fc.FIRST_COL


class Order(NamedTuple):
    """How a fused search ranks open nodes: by ``f = wg * g + wh * h``, then by ``h``, where
    ``h`` is the heuristic with weights ``hw`` (an int64 array, see ``plug.HW_MAIN``); equal
    keys newest first when ``newest``, else in the generic core's heap order.  ``pruned``:
    children from the search move set (``moves.legal_masked``), else from all solver moves."""
    wg: int
    wh: int
    hw: np.ndarray
    newest: bool
    pruned: bool


class Space(NamedTuple):
    """The arrays a fused search lives in, owned by its driver: the three-word table, the
    control words (``solvers.core.search.C_*``), the node rows (``rows`` of them usable), the heap,
    the move buffer, and the expansion's scratch arrays (:class:`Scratch`)."""
    tt: np.ndarray
    ctl: np.ndarray
    pool: np.ndarray
    rows: int
    heap: np.ndarray
    buf: np.ndarray
    scratch: "Scratch"


class Scratch(NamedTuple):
    """Buffers one expansion works in: the node and a child (copies of their rows: views
    would cost reference counting per node), the column scans (``col_scan``'s rows and
    fields), the node's and a child's column shares, the move generator's column masks, and
    phase 1's records of the children (``kid_keys``, ``kid_cols``).  The driver allocates them
    once, so that the kernel holds them for the whole call without owning them."""
    st: np.ndarray
    child: np.ndarray
    scan: np.ndarray
    cst: np.ndarray
    ph: np.ndarray
    qh: np.ndarray
    colmask: np.ndarray
    kid_keys: np.ndarray
    kid_cols: np.ndarray


def new_scratch(max_moves):
    """Fresh :class:`Scratch` arrays for moves lists of up to ``max_moves``."""
    return Scratch(np.zeros(STATE_SIZE, np.int8), np.zeros(STATE_SIZE, np.int8),
                   np.zeros((4, 8), np.uint64), np.zeros((8, 6), np.int64),
                   np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(26, np.int64),
                   np.zeros((max_moves, 4), np.uint64), np.zeros((max_moves, 6), np.int64))


# What phase 1 of an expansion leaves for phase 2, per child: ``kid_keys`` (uint64) and
# ``kid_cols`` (int64) rows.  A simple child's changed columns are -1 when its source or
# destination is a free cell.
K_KEY1, K_KEY2, K_SUM1, K_SUM2 = range(4)          # its table keys and column-term sums
K_SIMPLE, K_SRC_COL, K_DST_COL, K_SRC_SHARE, K_DST_SHARE, K_DH = range(6)   # K_DH: h - parent's h


# ---- table and heap -------------------------------------------------------------------------
@jit_ir_inline
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
    wr32(pool, np.int64(val & np.uint64(NODE_MASK)), R_G, -1)
    return slot


@jit_ir_inline
def _link_row(tt, pool, ctl, k, slot, gc, node, m, flag):
    """Row ``k`` becomes the node at ``slot``: g, parent, move, flag and slot in the row,
    ``(g << 32) | k`` in the table, and the pool grows by one."""
    tt[3 * slot + 2] = (np.uint64(gc) << np.uint64(32)) | np.uint64(k)
    wr32(pool, k, R_G, gc)
    wr32(pool, k, R_PARENT, node)
    wr32(pool, k, R_PMOVE, m)
    pool[k, R_FLAG] = flag
    wr32(pool, k, R_SLOT, slot)
    ctl[C_POOL] = k + 1


@jit
def _heap_entry(k, gc, h, rank):
    """Row ``k``'s heap entry: key ``f * 4096 + h`` (f = wg * g + wh * h, each clipped to its
    bits) over its row as the tie-break (reversed for newest first).  ``rank``: (wg, wh,
    newest, shift)."""
    f = min(rank[0] * gc + rank[1] * h, (1 << 19) - 1)
    key = f * 4096 + max(0, min(h, 4095))
    return (key << 32) | (NODE_MASK - k if rank[2] else k)


@jit
def _row_of(entry, newest):
    """The row in a heap entry."""
    node = entry & NODE_MASK
    return NODE_MASK - node if newest else node


@jit
def _prefetch_row(pool, k):
    """Start loading row ``k`` into the caches (a hint: it changes no value)."""
    for off in range(0, REC, 64):
        prefetch2(pool, k, off)


@jit
def _start(root, tt, ctl, pool, heap, hw, rank):
    """Store ``root`` as row 0, enter it in the table and open it; True if it is won."""
    ctl[C_INIT] = 1
    for j in range(STATE_SIZE):
        pool[0, j] = root[j]
    wr32(pool, 0, R_G, 0)
    wr32(pool, 0, R_PARENT, -1)
    wr32(pool, 0, R_PMOVE, -1)
    pool[0, R_FLAG] = 0
    needs = need_mask(need_bits(root))
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    for col in range(8):
        a, b = col_parts(root, col)
        s1 += a
        s2 += b
        wr16(pool, 0, R_SHARES + 2 * col, col_share(root, col, needs, hw))
    wr64(pool, 0, R_S1, s1)
    wr64(pool, 0, R_S1 + 8, s2)
    r1, r2 = hash_finish(root, s1, s2)
    slot = tt3_insert(tt, fix_h1(r1), r2)
    tt[3 * slot + 2] = np.uint64(0)
    wr32(pool, 0, R_SLOT, slot)
    ctl[C_STORED] = 1
    ctl[C_POOL] = 1
    if fc.won(root):
        ctl[C_WIN_NODE] = 0
        return True
    ctl[C_HEAP] = packed_push(heap, 0, np.int64(NODE_MASK if rank[2] else 0), rank[3])
    return False


# ---- one expansion --------------------------------------------------------------------------
@jit
def _reverse(m):
    """The drag that undoes drag ``m`` (same cards, source and destination swapped)."""
    return np.int32((DRAG << 24) | ((m & 0xFF) << 16) | (m & 0xFF00) | ((m >> 16) & 0xFF))


@jit
def _simple_kind(m, fix):
    """A drag between free cells and columns from an autoplay fixpoint: a simple child unless
    it exposes a card autoplay sends home."""
    src = (m >> 16) & 0xFF
    dst = m & 0xFF
    return (fix and (m >> 24) == DRAG and not (FIRST_HOME <= dst < FIRST_COL)
            and not (FIRST_HOME <= src < FIRST_COL))


@jit
def _lift(st, sc, mn, need0, hw, scan, cst):
    """Column ``sc`` (scanned) without its top ``mn`` cards: the changes of its two hash terms
    and its new heuristic share, from the scan and the moved cards only."""
    hs = st[HEIGHT + sc]
    ln = hs - mn
    base = COLS + sc * COL_WIDTH
    xs = scan[RAW1, sc] - np.uint64(mn)
    ys = scan[RAW2, sc] ^ (np.uint64(hs) * ZK) ^ (np.uint64(ln) * ZK)
    rnd = 0
    rbu = 0
    for j in range(mn):
        ii = ln + j
        c = st[base + ii]
        kk = c * COL_WIDTH + ii
        xs -= Z1[kk]
        ys ^= Z2[kk]
        if (need0 >> c) & 1:
            rnd += 1
            rbu += hs - 1 - ii
    fb = cst[sc, FIRST_BREAK]
    if fb > ln:
        fb = ln
    brp = cst[sc, BREAKS]
    if mn == cst[sc, TOP_RUN] and hs > mn:
        brp -= 1  # the break under the top run goes with it
    bup = cst[sc, BURIED] - rbu - mn * (cst[sc, NEEDED] - rnd)
    share = hw[1] * (ln - fb) + hw[2] * bup + hw[5] * brp
    return splitmix64_next(xs) - scan[TERM1, sc], fmix64(ys) - scan[TERM2, sc], share


@jit
def _drop(st, dc, gbase, mn, need0, hw, scan, cst):
    """Column ``dc`` (scanned) with the ``mn`` cards at ``st[gbase:]`` (bottom first) put on
    top: the changes of its two hash terms and its new heuristic share."""
    hd = st[HEIGHT + dc]
    ld = hd + mn
    xd = scan[RAW1, dc] + np.uint64(mn)
    yd = scan[RAW2, dc] ^ (np.uint64(hd) * ZK) ^ (np.uint64(ld) * ZK)
    gbu = 0
    for j in range(mn):
        c = st[gbase + j]
        kk = c * COL_WIDTH + hd + j
        xd += Z1[kk]
        yd ^= Z2[kk]
        if (need0 >> c) & 1:
            gbu += mn - 1 - j
    fb = cst[dc, FIRST_BREAK]
    if fb >= hd:
        fb = ld  # a sorted column stays sorted (the group fits on its top)
    bup = cst[dc, BURIED] + mn * cst[dc, NEEDED] + gbu
    share = hw[1] * (ld - fb) + hw[2] * bup + hw[5] * cst[dc, BREAKS]
    return splitmix64_next(xd) - scan[TERM1, dc], fmix64(yd) - scan[TERM2, dc], share


@jit
def _record_simple_child(i, h1, h2, c1, c2, cols, tt, kid_keys, kid_cols):
    """Phase 1's record of simple child ``i``: keys, column-term sums and ``cols`` (changed
    columns, their shares, the change of h); its table slot is prefetched."""
    kid_keys[i, K_KEY1] = h1
    kid_keys[i, K_KEY2] = h2
    kid_keys[i, K_SUM1] = c1
    kid_keys[i, K_SUM2] = c2
    kid_cols[i, K_SIMPLE] = 1
    kid_cols[i, K_SRC_COL] = cols[0]
    kid_cols[i, K_DST_COL] = cols[1]
    kid_cols[i, K_SRC_SHARE] = cols[2]
    kid_cols[i, K_DST_SHARE] = cols[3]
    kid_cols[i, K_DH] = cols[4]
    tt3_prefetch(tt, h1)


@jit
def _height_changes(st, child):
    """Bit mask of the columns whose height differs between ``st`` and ``child``."""
    chg = 0
    for col in range(8):
        if child[HEIGHT + col] != st[HEIGHT + col]:
            chg |= 1 << col
    return chg


@jit
def _move_columns(m):
    """Bit mask of the columns a drag ``m`` takes from or puts on."""
    src = (m >> 16) & 0xFF
    dst = m & 0xFF
    chg = 0
    if src >= FIRST_COL:
        chg |= 1 << (src - FIRST_COL)
    if dst >= FIRST_COL:
        chg |= 1 << (dst - FIRST_COL)
    return chg


@jit
def _shares_same_home(child, chg, need0, hw, ph, qh):
    """The child's column shares into ``qh`` when no card went home: changed columns
    rescored, the others the parent's (``ph``)."""
    for col in range(8):
        if (chg >> col) & 1:
            qh[col] = col_share(child, col, need0, hw)
        else:
            qh[col] = ph[col]


@jit
def _shares_after_home(child, chg, need, need0, hw, ph, qh):
    """The child's column shares into ``qh`` when cards went home (``need``: the child's
    ``need_mask``, ``need0`` the parent's).  Changed columns are rescored; in the others only
    the buried term can change, and only by cards some suit needs now and did not before (a
    card stops being needed only by going home, which changes its column): each adds the
    cards above it."""
    fresh = need & ~need0
    for col in range(8):
        if (chg >> col) & 1:
            qh[col] = col_share(child, col, need, hw)
        elif fresh == 0:
            qh[col] = ph[col]
        else:
            qh[col] = ph[col] + hw[2] * buried_by(child, col, fresh)


@jit
def _write_child(pool, k, child, c1, c2, qh):
    """Row ``k`` gets the child's position, column-term sums and shares."""
    for j in range(STATE_SIZE):
        pool[k, j] = child[j]
    wr64(pool, k, R_S1, c1)
    wr64(pool, k, R_S1 + 8, c2)
    for col in range(8):
        wr16(pool, k, R_SHARES + 2 * col, qh[col])


@jit
def _write_sums_shares(pool, k, node, c1, c2):
    """Row ``k`` gets column-term sums ``c1``, ``c2`` and the shares of row ``node``."""
    wr64(pool, k, R_S1, c1)
    wr64(pool, k, R_S1 + 8, c2)
    for j in range(16):
        pool[k, R_SHARES + j] = pool[node, R_SHARES + j]


@jit
def fc_best_first(root, space, budget, order):
    """Best-first search from ``root`` in ``space`` (a :class:`Space`) ranked by ``order`` (an
    :class:`Order`), for at most ``budget`` more nodes; resumable.

    Returns FOUND (winning row in ``ctl[C_WIN_NODE]``, path by ``path_to``), EXHAUSTED,
    PAUSED, TABLE_FULL, or STACK_FULL meaning the usable rows are full.

    Each expansion makes two passes over the node's moves.  Phase 1 keys the simple children
    (``_simple_kind``) without building them -- hashes and shares of their two changed
    columns from the parent's column scans -- and prefetches their table slots, so that the
    look-ups of phase 2, which enters every child in move order, find them cached.  The move
    back to the parent is skipped when the node's row flag says it restores the parent.

    The branches on where a move goes stay here, the helpers are straight-line code: Numba
    gives a helper's array arguments a reference-count update (atomic) on entry and exit
    unless every path through it ends with them, so choosing between helpers costs nothing
    and branching inside them would.
    """
    tt, ctl, pool, heap, buf = (unowned(space.tt), unowned(space.ctl), unowned(space.pool),
                                unowned(space.heap), unowned(space.buf))
    hw = unowned(order.hw)
    wg = np.int64(order.wg)
    shift = np.int64(0 if order.newest else 32)
    rank = (wg, np.int64(order.wh), np.int64(1 if order.newest else 0), shift)
    max_stored = np.int64((tt.shape[0] // 3) * MAX_LOAD)
    pool_cap = min(space.rows, pool.shape[0])
    max_moves = buf.shape[0]
    sc_ = space.scratch
    st, child, scan, cst = (unowned(sc_.st), unowned(sc_.child), unowned(sc_.scan),
                            unowned(sc_.cst))
    ph, qh, colmask = unowned(sc_.ph), unowned(sc_.qh), unowned(sc_.colmask)
    kid_keys, kid_cols = unowned(sc_.kid_keys), unowned(sc_.kid_cols)
    if ctl[C_INIT] == 0 and _start(root, tt, ctl, pool, heap, hw, rank):
        return FOUND
    # the core's best-first loop (solvers/core/search.py), fused with Freecell's rows for speed
    stop = ctl[C_NODES] + budget
    while ctl[C_HEAP] > 0:
        if ctl[C_NODES] >= stop:
            return PAUSED
        if ctl[C_STORED] + max_moves >= max_stored:
            return TABLE_FULL
        if ctl[C_POOL] + max_moves >= pool_cap:
            return STACK_FULL
        node = _row_of(heap[0], order.newest)
        ctl[C_HEAP] = packed_pop(heap, ctl[C_HEAP], shift)
        if ctl[C_HEAP] > 0:  # the next node is known: fetch its row while this one is expanded
            _prefetch_row(pool, _row_of(heap[0], order.newest))
        gn = rd32(pool, node, R_G)
        if gn < 0:
            continue  # superseded by a cheaper path
        ctl[C_NODES] += 1
        # ---- the node: position, the move back to its parent, hash terms, shares, moves
        for j in range(STATE_SIZE):
            st[j] = pool[node, j]
        fix = node != 0 or not autoplay_pending(st)
        f0 = foundation_count(st)
        inv = _reverse(rd32(pool, node, R_PMOVE)) if pool[node, R_FLAG] != 0 else np.int32(-1)
        need0 = need_mask(need_bits(st))
        t1, t2 = found_terms(st)
        cz1, cz2 = cell_terms(st)
        s1 = rd64(pool, node, R_S1)
        s2 = rd64(pool, node, R_S1 + 8)
        for col in range(8):
            ph[col] = rd16(pool, node, R_SHARES + 2 * col)
            cst[col, SCANNED] = 0
        n = legal_masked(st, buf, colmask, order.pruned)
        hp0 = h_from_shares(st, ph, hw, f0)  # the node's own h
        # ---- phase 1: key the simple children
        for i in range(n):
            m = buf[i]
            kid_cols[i, K_SIMPLE] = 0
            if m == inv or not _simple_kind(m, fix):
                continue
            src = (m >> 16) & 0xFF
            mn = (m >> 8) & 0xFF
            dst = m & 0xFF
            c1, c2, e1, e2 = s1, s2, cz1, cz2
            sc, dc, sh_src, sh_dst, dh = -1, -1, 0, 0, 0
            if src >= FIRST_COL:
                sc = src - FIRST_COL
                left = st[HEIGHT + sc] - mn
                if left > 0 and card_pending(st, st[COLS + sc * COL_WIDTH + left - 1]):
                    continue  # the card it exposes goes home: not simple
                if cst[sc, SCANNED] == 0:
                    col_scan(st, sc, need0, scan, cst)
                d1, d2, sh_src = _lift(st, sc, mn, need0, hw, scan, cst)
                c1 += d1
                c2 += d2
                dh += sh_src - ph[sc] - (hw[4] if st[HEIGHT + sc] == mn else 0)
                gbase = COLS + sc * COL_WIDTH + st[HEIGHT + sc] - mn  # the moved cards
            else:
                c = st[FREE + src] + 1
                e1 += ZC1[0] - ZC1[c]
                e2 += ZC2[0] - ZC2[c]
                dh -= hw[3]
                gbase = FREE + src
            if dst >= FIRST_COL:
                dc = dst - FIRST_COL
                if cst[dc, SCANNED] == 0:
                    col_scan(st, dc, need0, scan, cst)
                d1, d2, sh_dst = _drop(st, dc, gbase, mn, need0, hw, scan, cst)
                c1 += d1
                c2 += d2
                dh += sh_dst - ph[dc] + (hw[4] if st[HEIGHT + dc] == 0 else 0)
            else:
                c = st[gbase] + 1
                e1 += ZC1[c] - ZC1[0]
                e2 += ZC2[c] - ZC2[0]
                dh += hw[3]
            _record_simple_child(i, fix_h1(e1 + t1 + c1), (e2 ^ t2) + c2, c1, c2,
                                 (sc, dc, sh_src, sh_dst, dh), tt, kid_keys, kid_cols)
        # ---- phase 2: enter the children in move order
        for i in range(n):
            m = buf[i]
            if m == inv:
                continue
            k = ctl[C_POOL]
            if kid_cols[i, K_SIMPLE]:
                gc = gn + ((m >> 8) & 0xFF)
                slot = _enter_child(tt, pool, ctl, kid_keys[i, K_KEY1], kid_keys[i, K_KEY2], gc, wg)
                if slot < 0:
                    continue
                drag_to_row(pool, k, st, (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF)
                _write_sums_shares(pool, k, node, kid_keys[i, K_SUM1], kid_keys[i, K_SUM2])
                if kid_cols[i, K_SRC_COL] >= 0:
                    wr16(pool, k, R_SHARES + 2 * kid_cols[i, K_SRC_COL], kid_cols[i, K_SRC_SHARE])
                if kid_cols[i, K_DST_COL] >= 0:
                    wr16(pool, k, R_SHARES + 2 * kid_cols[i, K_DST_COL], kid_cols[i, K_DST_SHARE])
                _link_row(tt, pool, ctl, k, slot, gc, node, m, 1 if node != 0 else 0)
                entry = _heap_entry(k, gc, hp0 + kid_cols[i, K_DH], rank)
                ctl[C_HEAP] = packed_push(heap, ctl[C_HEAP], entry, shift)
                continue
            for j in range(STATE_SIZE):
                child[j] = st[j]
            apply_child(child, m, fix)
            f1 = foundation_count(child)
            gc = gn + ((m >> 8) & 0xFF) + f1 - f0
            if FIRST_HOME <= (m & 0xFF) < FIRST_COL:
                gc -= 1
            went_home = f1 != f0
            chg = _height_changes(st, child) if went_home else _move_columns(m)
            c1, c2 = s1, s2
            for col in range(8):  # rehash the changed columns
                if (chg >> col) & 1:
                    if cst[col, SCANNED] == 0:
                        col_scan(st, col, need0, scan, cst)
                    a, b = col_parts(child, col)
                    c1 += a - scan[TERM1, col]
                    c2 += b - scan[TERM2, col]
            u1, u2 = found_terms(child) if went_home else (t1, t2)
            h1, h2 = hash_cells(child, c1, c2, u1, u2)
            slot = _enter_child(tt, pool, ctl, fix_h1(h1), h2, gc, wg)
            if slot < 0:
                continue
            if went_home:
                _shares_after_home(child, chg, need_mask(need_bits(child)), need0, hw, ph, qh)
            else:
                _shares_same_home(child, chg, need0, hw, ph, qh)
            _write_child(pool, k, child, c1, c2, qh)
            _link_row(tt, pool, ctl, k, slot, gc, node, m, 0 if (node == 0 or went_home) else 1)
            if f1 == 52:
                ctl[C_WIN_NODE] = k
                return FOUND
            entry = _heap_entry(k, gc, h_from_shares(child, qh, hw, f1), rank)
            ctl[C_HEAP] = packed_push(heap, ctl[C_HEAP], entry, shift)
    return EXHAUSTED


# ---- driver ---------------------------------------------------------------------------------
class FreecellBestFirst(Run):
    """The driver of :func:`fc_best_first` (limits, growth and verdicts from the core's run).

    Arrays: the table ``tt`` (3 words a slot), node rows ``pool`` (``REC`` bytes each) and the
    heap (8 bytes a node).  ``reset`` readies them for the next deal of a batch: pages already
    mapped are much cheaper than fresh ones.

    The node arrays are reserved large (``POOL_RESERVE`` rows, or what the memory limit
    allows) but only the first ``rows`` are used, and ``rows`` doubles when they fill:
    reserved pages that were never touched cost no memory, so growing is free until the
    reserve is used up (then the arrays are copied into twice larger ones).  Memory is counted
    as the rows in use (``nbytes``), not the reserve.
    """

    TABLE_START = 1 << 12
    POOL_START = 1 << 14
    POOL_RESERVE = 1 << 21

    def __init__(self, hw, limits, weights=(1, 1), newest=False, pruned=True):
        self.limits = limits
        wg, wh = (int(w) for w in weights)
        self.order = Order(wg, wh, np.array(hw, dtype=np.int64), bool(newest), bool(pruned))
        self.tt = np.zeros(3 * self.TABLE_START, dtype=np.uint64)
        self._spare = {}  # capacity -> an empty table, kept for reuse
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        self.buf = np.empty(MAX_MOVES, dtype=np.int32)
        self.scratch = new_scratch(MAX_MOVES)
        reserve = self.POOL_RESERVE
        if limits.max_bytes is not None:
            reserve = max(self.POOL_START, min(reserve, limits.max_bytes // (REC + 8)))
        self.pool = np.empty((reserve, REC), dtype=np.int8)
        self.heap = np.empty(reserve, dtype=np.int64)
        self.rows = self.POOL_START
        self._pathbuf = np.empty(0, dtype=np.int32)
        self.peak = 0
        self._nbytes = None
        self.win_g = 0

    def space(self):
        """The arrays as the kernel takes them (a new tuple: growth replaces arrays)."""
        return Space(self.tt, self.ctl, self.pool, self.rows, self.heap, self.buf, self.scratch)

    def _arrays(self):
        return (self.tt, self.pool, self.heap)

    # The core's driver asks for the memory in use after every kernel call; the sum is cached
    # and dropped whenever an array is replaced or ``rows`` changes.
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
        n = path_to(self.pool, k, out)
        self.win_g = int(rd32(self.pool, k, R_G))  # the atomic length of the path (g sums cost)
        return out[:n].tolist()

    def _call(self, root, budget):
        return fc_best_first(root, self.space(), budget, self.order)
