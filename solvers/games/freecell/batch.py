"""Many Microsoft deals per kernel call: the batch path of ``solve_many`` and win-rate runs.

Most deals end in a method's first fused search -- the first slice of the ``fast`` or ``short``
portfolio's first member, or the first stage of ``astar`` -- so those run many deals to a
call of :func:`fc_batch`, and only a deal that needs more continues in Python, resuming that
very search: the results are the ones a deal-by-deal solve gives, without the Python cost per
deal.  A deal solved inside a batch call is given that call's time in proportion to its nodes.
"""
import time

import numpy as np

from rules import freecell as fc
from rules._jit import jit
from rules.cards import EMPTY
from solvers.core.result import SOLVED, SolveResult
from solvers.core.search import C_NODES, C_POOL, C_STORED, C_WIN_NODE, FOUND, Limits
from solvers.games.freecell.fused import fc_best_first
from solvers.games.freecell.portfolio import FC_KINDS, METHODS, Portfolio, memory_mb, run_stages, runner
from solvers.games.freecell.rows import R_G, path_to, rd32, tt3_clear_rows

FREE, HOME, HEIGHT, COLS, COL_WIDTH = fc.FREE, fc.HOME, fc.HEIGHT, fc.COLS, fc.COL_WIDTH
STATE_SIZE = fc.STATE_SIZE
MAX_MS_DEAL = 2**31 - 1          # the batch kernel deals 1 .. 2**31 - 1 (the original numbering)
MIN_MEMORY_BYTES = 256 * 2**20   # limits a first slice cannot break: at least this memory ...
MIN_TIMEOUT = 1.0                # ... and seconds, and nodes for the whole first slice


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


@jit
def fc_batch(deals, i0, roots, space, budget, order, codes, info):
    """The first slice (``budget`` nodes) of a fused search for Microsoft deals ``deals[i0:]``,
    in one call: each deal is dealt into ``roots[i]`` and searched in ``space`` (emptied
    between deals as the driver's ``reset`` does).  A solved deal's moves go to
    ``codes[info[i, 0] : info[i, 0] + info[i, 1]]``, its g, nodes, stored states and rows to
    ``info[i, 2:6]``.  Returns the index of the first deal not solved in its slice (its
    search is left in the arrays, to be resumed from Python), or ``len(deals)``, or
    ``-1 - i`` when ``codes`` might not hold another path (deal ``i`` not started).
    """
    tt, ctl, pool = space.tt, space.ctl, space.pool
    off = 0
    for i in range(i0, deals.shape[0]):
        if off + budget + 2 > codes.shape[0]:
            return -1 - i
        root = roots[i]
        ms_deal_array(deals[i], root)
        tt3_clear_rows(tt, pool, ctl[C_POOL])
        for j in range(ctl.shape[0]):
            ctl[j] = 0
        code = fc_best_first(root, space, budget, order)
        if code != FOUND:
            return i
        k = ctl[C_WIN_NODE]
        n = path_to(pool, k, codes[off:])
        info[i, 0] = off
        info[i, 1] = n
        info[i, 2] = rd32(pool, k, R_G)
        info[i, 3] = ctl[C_NODES]
        info[i, 4] = ctl[C_STORED]
        info[i, 5] = ctl[C_POOL]
        off += n
    return deals.shape[0]


def first_search(method):
    """``(heuristic weights, kind, weights (g, h), nodes)``: the fused search ``method``
    starts with and the nodes it gets before anything else runs (a portfolio's first member
    and its first slice, or a first stage with a node budget), or None."""
    plan = METHODS.get(method)
    if isinstance(plan, Portfolio):
        return (*plan.members[0], plan.first[0]) if plan.members[0][1] in FC_KINDS else None
    if plan and plan[0][1] in FC_KINDS and plan[0][3] is not None:
        return plan[0]
    return None


def batchable(method, limits):
    """True when ``method`` starts with a fused search (:func:`first_search`) whose first
    nodes ``limits`` cannot cut short (the batch then gives what one-by-one solves give)."""
    first = first_search(method)
    return (first is not None
            and (limits.max_nodes is None or limits.max_nodes >= first[3])
            and (limits.timeout is None or limits.timeout >= MIN_TIMEOUT)
            and (limits.max_bytes is None or limits.max_bytes >= MIN_MEMORY_BYTES))


def is_ms_deal(item):
    """An int Microsoft deal number the batch kernel deals itself."""
    return (isinstance(item, (int, np.integer)) and not isinstance(item, bool)
            and 1 <= item <= MAX_MS_DEAL)


def solve_batch(deals, method, limits, chunk=1024):
    """Solve Microsoft deals (ints, each ``is_ms_deal``) with a ``batchable`` method: yields
    ``(index, SolveResult with int move codes, start array)`` in order."""
    hw, kind, weights, first = first_search(method)
    max_nodes, timeout = limits.max_nodes, limits.timeout
    mem = memory_mb(limits)
    first_limits = Limits(first if max_nodes is None else min(first, max_nodes), timeout, mem)
    for c0 in range(0, len(deals), chunk):
        part = np.array(deals[c0:c0 + chunk], dtype=np.int64)
        roots = np.empty((part.shape[0], STATE_SIZE), dtype=np.int16)
        codes = np.empty(64 * chunk + 4 * first, dtype=np.int32)
        info = np.zeros((part.shape[0], 6), dtype=np.int64)
        i = 0
        while i < part.shape[0]:
            r0 = runner(hw, kind, weights, first_limits)  # reset, ready
            t0 = time.perf_counter()
            j = fc_batch(part, i, roots, r0.space(), first_limits.max_nodes, r0.order, codes,
                         info)
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
                yield c0 + d, res, roots[d]
            if j < part.shape[0] and not full:  # deal j needs more than its first slice
                t1 = time.perf_counter()
                rest = Limits(max_nodes, None if timeout is None else timeout - dt, mem)
                res = run_stages(roots[j], method, rest, first_runner=r0)
                res.seconds = time.perf_counter() - t1 + dt * started / total
                yield c0 + j, res, roots[j]
                j += 1
            i = j
