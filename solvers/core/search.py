"""Game-agnostic search core: depth-first with move ordering, and weighted best-first (A*).

A game plugs in through a :class:`GamePlug` of small Numba kernels with fixed signatures::

    legal(state, buf) -> int64                 solver moves (faithful=0, plus the game's safe pruning)
    apply(state, move int32) -> None           in place, automatic follow-ups included
    won(state) -> int64                        1 when won
    hash1(state), hash2(state) -> uint64       two independent canonical hashes (see solvers.core.table)
    heuristic(state) -> int64                  lower is closer to a win; orders DFS children,
                                               is ``h`` of best-first; DEAD_END or more: a
                                               proven dead end (no win below it)
    cost(parent, child, move int32) -> int64   step cost (Freecell: atomic single-card moves)
    child_hashes(state, move int32, out uint64[::1], at int64) -> None
                                               optional: hash1, hash2 of the child into
                                               out[at], out[at+1] without building it, so
                                               depth-first builds only unseen children

States are 1-D ``int16`` arrays, moves ``int32`` codes (:mod:`rules.moves`).  The core owns the
searches; the game owns rules, canonical form, ordering and pruning.

Why the plugs are function pointers with fixed signatures (the core compiles once, caches
across processes, and serves every game): ``docs/search.md``.

Resumable runs and limits
-------------------------
All search state lives in arrays owned by the Python driver (:class:`DFS`, :class:`BestFirst`),
so a kernel runs for at most a node budget and returns; the driver checks seconds, grows the
table / stack / pool when they fill (up to the memory limit), reports progress (inside
:func:`reporting`) and resumes.  Hitting any limit gives ``unknown``; ``unsolvable`` is only
returned when the kernel reports the reachable space exhausted.
"""
import contextlib
import contextvars
import time

import numpy as np
from numba import carray, types
from numba.core import event
from numba.extending import intrinsic, typeof_impl
from numba.core.types import WrapperAddressProtocol
from numba.experimental.function_type import _get_wrapper_address

from rules._jit import cached_jit, compile_declared, jit
from solvers.core.result import SOLVED, UNKNOWN, UNSOLVABLE, SolveResult
from solvers.core.warm import needs
from solvers.core.table import (MAX_LOAD, _slot, fix_h1, heap_pop, heap_push, new_table, rehash,
                    tt_insert, tt_prefetch)

# ---- plug signatures ----------------------------------------------------------------------
_S = types.int16[::1]
LEGAL_T = types.FunctionType(types.int64(_S, types.int32[::1]))
APPLY_T = types.FunctionType(types.none(_S, types.int32))
WON_T = types.FunctionType(types.int64(_S))
HASH_T = types.FunctionType(types.uint64(_S))
HEUR_T = types.FunctionType(types.int64(_S))
COST_T = types.FunctionType(types.int64(_S, _S, types.int32))
CHILD_HASHES_T = types.FunctionType(types.none(_S, types.int32, types.uint64[::1], types.int64))


def _typed_jit(*argtypes):
    """rules._jit.jit's options (cache, nogil, no fastmath) with an explicit signature, compiled
    on the first call (or at :func:`core_steps`), not at import."""
    return cached_jit(types.int64(*argtypes))

# kernel return codes
EXHAUSTED, FOUND, PAUSED, TABLE_FULL, STACK_FULL = 0, 1, 2, 3, 4

# A heuristic value at least DEAD_END says the game proved no win is reachable from the
# position (Yukon's dead_end).  The searches then keep it in the table as seen but never list
# or expand it: the proof is checked once, when the child is generated and scored anyway,
# instead of expanding a leaf that has no moves.
DEAD_END = np.int64(1) << np.int64(60)

# ctl (int64 control array) slots
C_SP, C_NODES, C_STORED, C_INIT, C_WIN_MOVE, C_HEAP, C_POOL, C_WIN_NODE = range(8)
CTL_SIZE = 8


class _Fn(WrapperAddressProtocol):
    """A kernel as a function pointer, resolved once, with its Numba type made once.

    Passing the dispatcher itself also works, but Numba then looks its address up again on
    every call into the core (measured ~0.1 ms per kernel per call, 0.7 ms for a plug), which
    dominates when a batch solves a deal in about a millisecond; typing a pointer anew on each
    call (Numba's default for this protocol) still cost about 0.1 ms a call into the core.
    The address is resolved (the kernel compiled) at the first call into the core or at
    :meth:`compile`, not when the plug is made at import.
    """

    def __init__(self, dispatcher, ftype):
        self.dispatcher = dispatcher
        self._type = ftype
        self._addr = None

    def compile(self):
        """Compile the kernel for its plug signature (or load it from the cache)."""
        if self._addr is None:
            self._addr = _get_wrapper_address(self.dispatcher, self._type.signature)

    def __wrapper_address__(self):
        if self._addr is None:
            self.compile()
        return self._addr

    def signature(self):
        return self._type.signature


@typeof_impl.register(_Fn)
def _typeof_fn(val, c):
    """The type made when the pointer was: the same for every call."""
    return val._type


@jit
def _no_child_hashes(state, move, out, at):
    """Stand-in for a game without ``child_hashes`` (never called: the flag is off)."""


class GamePlug:
    """The kernels a game gives the core, plus its move-buffer size (a proven bound)."""

    def __init__(self, legal, apply, won, hash1, hash2, heuristic, cost, max_moves, state_size,
                 child_hashes=None):
        self.has_child_hashes = int(child_hashes is not None)
        self.child_hashes = _Fn(_no_child_hashes if child_hashes is None else child_hashes,
                                CHILD_HASHES_T)
        self.legal = _Fn(legal, LEGAL_T)
        self.apply = _Fn(apply, APPLY_T)
        self.won = _Fn(won, WON_T)
        self.hash1 = _Fn(hash1, HASH_T)
        self.hash2 = _Fn(hash2, HASH_T)
        self.heuristic = _Fn(heuristic, HEUR_T)
        self.cost = _Fn(cost, COST_T)
        self.max_moves, self.state_size = int(max_moves), int(state_size)

    def warm_steps(self):
        """``{name: compile}`` for each of the plug's kernels, as a solver's warm-up lists
        them (:meth:`solvers.core.solver.Solver._warm_steps`)."""
        fns = [self.legal, self.apply, self.won, self.hash1, self.hash2, self.heuristic,
               self.cost] + ([self.child_hashes] if self.has_child_hashes else [])
        return {name_of(fn): fn.compile for fn in fns}


def name_of(fn):
    """``module.function`` of a plug's kernel: its name in a warm-up's steps."""
    return _name(fn.dispatcher)


def _name(dispatcher):
    """``module.function`` of a kernel: its name in a warm-up's steps."""
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def core_steps(method):
    """``{name: compile}`` for the core's kernel of ``method`` ("dfs" or "best-first") and the
    table growth its driver calls."""
    kernel = dfs_kernel if method == "dfs" else best_first_kernel
    return {_name(kernel): lambda: compile_declared(kernel), "core table growth": _grow_tables}


def with_callees(steps, name, *calls):
    """Warm-up ``steps`` with the big callees of step ``name``'s kernel first, each
    ``(kernel, *argtypes)`` with the plain Numba types that kernel passes it, compiled for them
    into the disk cache: a cold warm-up's processes share them out, and step ``name``, marked to
    need them (:func:`solvers.core.warm.needs`), loads them instead of compiling its whole call
    tree on one core.  A type that is not the caller's costs a second compile, never a wrong
    result (``tests/solvers/core/test_cold_start.py`` checks the declared ones)."""
    parts = {f"{_name(kernel)} as callee": _callee_step(kernel, argtypes)
             for kernel, *argtypes in calls}
    step = steps[name]

    def caller():
        step()
    needs(caller, *getattr(step, "needs", ()), *parts)
    out = {}
    for key, value in steps.items():
        if key == name:
            out.update(parts)
            value = caller
        out[key] = value
    return out


def _callee_step(kernel, argtypes):
    def step():
        kernel.compile(tuple(argtypes))
    step.callee = kernel, tuple(argtypes)
    return step


def _grow_tables():
    """Compile the rehashes a growing table calls (the drivers call them with these types)."""
    keys, vals = new_table(2)
    big_keys, big_vals = new_table(4)
    rehash(keys, vals, big_keys, big_vals)
    rehash_keys(keys, np.zeros_like(big_keys))


@jit
def _copy(dst, src):
    """``dst[:] = src`` as an element loop: for state-sized arrays Numba's slice assignment
    costs more than the copy itself (about 5 % of Freecell's generic best-first time)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@intrinsic
def _data_pointer(typingctx, arr):
    """Pointer to the data of array ``arr``."""
    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data
    return types.CPointer(arr.dtype)(arr), codegen


@jit
def unowned(a):
    """``a`` (C-contiguous, 1-D or 2-D) as a view that holds no reference: a kernel passes
    it to other kernels, and takes its rows, without reference counting (an atomic add and
    subtract per array per call otherwise).  Valid while the caller's array lives."""
    return carray(_data_pointer(a), a.shape)


# ---- depth-first ---------------------------------------------------------------------------
@jit
def tt_lookup(keys, h1, h2):
    """Slot of ``(h1, h2)`` (``h1`` through ``fix_h1``) if present, else ``-1 - slot`` of the
    empty slot where :func:`solvers.core.table.tt_insert` would enter it (valid until the next
    insertion)."""
    mask = (keys.shape[0] >> 1) - 1
    i = _slot(h1, mask)
    while True:
        k = keys[2 * i]
        if k == np.uint64(0):
            return -1 - i
        if k == h1 and keys[2 * i + 1] == h2:
            return i
        i = (i + 1) & mask


@jit
def _expand(d, st_states, st_moves, st_cnt, st_idx, keys, buf, kids, kh, scores, ctl,
            legal, apply, won, hash1, hash2, heur, child_hashes, has_child_hashes,
            store_dead_ends):
    """List the unseen children of depth ``d`` ordered by heuristic; True if one is won.

    Children are entered in the table as they are generated (not when they are entered), so
    a child is hashed and looked up once: each one listed is expanded later unless a win
    comes first, so the search stays complete, and a position reached again deeper down
    before its turn is simply left to its first parent.  Two passes: all children are hashed
    first (``kh``) with their table slots prefetched, then entered and scored, so the cache
    misses of a large table overlap instead of queueing.  With ``child_hashes`` only the
    unseen children are built (most children in a hard proof are positions seen before);
    without, all are built (``kids``) in the first pass.  With ``store_dead_ends`` 0 a child
    the heuristic proves dead is not entered (it has no win, so forgetting it loses nothing;
    reached again, it is tested again): the table holds only positions the search expands."""
    parent = st_states[d]
    n = legal(parent, buf)
    for i in range(n):
        if has_child_hashes != 0:
            child_hashes(parent, buf[i], kh, 2 * i)
            h1 = fix_h1(kh[2 * i])
        else:
            kid = kids[i]
            _copy(kid, parent)
            apply(kid, buf[i])
            if won(kid) != 0:
                ctl[C_WIN_MOVE] = buf[i]
                return True
            h1 = fix_h1(hash1(kid))
            kh[2 * i + 1] = hash2(kid)
        kh[2 * i] = h1
        tt_prefetch(keys, h1)
    cnt = 0
    for i in range(n):
        if store_dead_ends != 0:
            if tt_insert(keys, kh[2 * i], kh[2 * i + 1]) < 0:
                continue
            ctl[C_STORED] += 1
            slot = np.int64(0)
        else:
            slot = tt_lookup(keys, kh[2 * i], kh[2 * i + 1])
            if slot >= 0:
                continue
        m = buf[i]
        if has_child_hashes != 0:
            _copy(kids[i], parent)
            apply(kids[i], m)
            if won(kids[i]) != 0:      # a won position is always new: the search stops there
                ctl[C_WIN_MOVE] = m
                return True
        s = heur(kids[i])
        if s >= DEAD_END:
            continue
        if store_dead_ends == 0:
            # the empty slot tt_lookup found is still the insertion point: nothing was entered
            # since (a child equal to an earlier one was entered then and is found above)
            keys[2 * (-1 - slot)] = kh[2 * i]
            keys[2 * (-1 - slot) + 1] = kh[2 * i + 1]
            ctl[C_STORED] += 1
        # stable insertion sort by score
        j = cnt
        while j > 0 and scores[j - 1] > s:
            scores[j] = scores[j - 1]
            st_moves[d, j] = st_moves[d, j - 1]
            j -= 1
        scores[j] = s
        st_moves[d, j] = m
        cnt += 1
    st_cnt[d] = cnt
    st_idx[d] = 0
    ctl[C_NODES] += 1
    return False


@_typed_jit(_S, types.uint64[::1], types.int64[::1], types.int16[:, ::1], types.int32[:, ::1],
            types.int64[::1], types.int64[::1], types.int32[::1], types.int16[:, ::1],
            types.uint64[::1], types.int64[::1], types.int64, LEGAL_T, APPLY_T, WON_T, HASH_T,
            HASH_T, HEUR_T, CHILD_HASHES_T, types.int64, types.int64)
def dfs_kernel(root, keys, ctl, st_states, st_moves, st_cnt, st_idx, buf, kids, kh, scores,
               budget, legal, apply, won, hash1, hash2, heur, child_hashes, has_child_hashes,
               store_dead_ends):
    """Depth-first search with ordered children and a visited table; resumable.

    Returns FOUND (path: ``st_moves[k, st_idx[k]-1]`` for k < ctl[C_SP], then
    ``ctl[C_WIN_MOVE]``), EXHAUSTED (no win reachable), PAUSED (budget spent), TABLE_FULL
    or STACK_FULL (grow and call again).
    """
    root, keys, ctl, buf, kids, kh = (unowned(root), unowned(keys), unowned(ctl),
                                      unowned(buf), unowned(kids), unowned(kh))
    st_states, st_moves, st_cnt, st_idx, scores = (
        unowned(st_states), unowned(st_moves), unowned(st_cnt), unowned(st_idx),
        unowned(scores))
    cap = keys.shape[0] >> 1
    max_stored = np.int64(cap * MAX_LOAD)
    depth_cap = st_states.shape[0]
    stop = ctl[C_NODES] + budget          # the root's expansion counts against the budget too
    if ctl[C_INIT] == 0:
        ctl[C_INIT] = 1
        _copy(st_states[0], root)
        tt_insert(keys, fix_h1(hash1(root)), hash2(root))
        ctl[C_STORED] = 1
        ctl[C_SP] = 0
        if won(root) != 0:
            ctl[C_WIN_MOVE] = -1
            return FOUND
        if heur(root) >= DEAD_END:
            ctl[C_SP] = -1
            return EXHAUSTED
        # np.int64(0), not 0: a literal argument makes Numba compile _expand a second time
        if _expand(np.int64(0), st_states, st_moves, st_cnt, st_idx, keys, buf, kids, kh,
                   scores, ctl, legal, apply, won, hash1, hash2, heur, child_hashes,
                   has_child_hashes, store_dead_ends):
            return FOUND
    while ctl[C_SP] >= 0:
        d = ctl[C_SP]
        if st_idx[d] >= st_cnt[d]:
            ctl[C_SP] = d - 1
            continue
        if ctl[C_NODES] >= stop:
            return PAUSED
        if d + 1 >= depth_cap:
            return STACK_FULL
        if ctl[C_STORED] + buf.shape[0] >= max_stored:
            return TABLE_FULL  # the next expansion may enter up to max_moves children
        m = st_moves[d, st_idx[d]]
        st_idx[d] += 1
        child = st_states[d + 1]
        _copy(child, st_states[d])
        apply(child, m)
        ctl[C_SP] = d + 1
        if _expand(d + 1, st_states, st_moves, st_cnt, st_idx, keys, buf, kids, kh, scores, ctl,
                   legal, apply, won, hash1, hash2, heur, child_hashes, has_child_hashes,
                   store_dead_ends):
            return FOUND
    return EXHAUSTED


# ---- best-first ----------------------------------------------------------------------------
@_typed_jit(_S, types.uint64[::1], types.int64[::1], types.int64[::1], types.int16[:, ::1],
            types.int32[::1], types.int32[::1], types.int32[::1], types.int64[::1],
            types.int32[::1], types.int32[::1], _S, types.int64, types.int64, types.int64,
            LEGAL_T, APPLY_T, WON_T, HASH_T, HASH_T, HEUR_T, COST_T)
def best_first_kernel(root, keys, vals, ctl, pool, parent, pmove, g, hkey, hnode, buf, tmp,
                      budget, wg, wh, legal, apply, won, hash1, hash2, heur, cost):
    """Weighted A*: pop the least ``wg*g + wh*h`` (ties: least h); resumable.

    A position seen again with a smaller ``g`` is re-opened as a new node (the old one is
    marked superseded with ``g = -1`` once popped).  Returns FOUND (winning node in
    ctl[C_WIN_NODE], path through ``parent``/``pmove``), EXHAUSTED, PAUSED, TABLE_FULL, or
    STACK_FULL meaning the node pool is full.
    """
    cap = keys.shape[0] >> 1
    max_stored = np.int64(cap * MAX_LOAD)
    pool_cap = pool.shape[0]
    max_moves = buf.shape[0]
    if ctl[C_INIT] == 0:
        ctl[C_INIT] = 1
        _copy(pool[0], root)
        parent[0] = -1
        pmove[0] = -1
        g[0] = 0
        slot = tt_insert(keys, fix_h1(hash1(root)), hash2(root))
        vals[slot] = 0
        ctl[C_STORED] = 1
        ctl[C_POOL] = 1
        if won(root) != 0:
            ctl[C_WIN_NODE] = 0
            return FOUND
        if heur(root) >= DEAD_END:
            return EXHAUSTED
        ctl[C_HEAP] = heap_push(hkey, hnode, np.int64(0), np.int64(0), np.int32(0))
    stop = ctl[C_NODES] + budget
    while ctl[C_HEAP] > 0:
        if ctl[C_NODES] >= stop:
            return PAUSED
        if ctl[C_STORED] + max_moves >= max_stored:
            return TABLE_FULL
        if ctl[C_POOL] + max_moves >= pool_cap:
            return STACK_FULL
        node = hnode[0]
        ctl[C_HEAP] = heap_pop(hkey, hnode, ctl[C_HEAP])
        gn = g[node]
        if gn < 0:
            continue  # superseded by a cheaper path
        ctl[C_NODES] += 1
        st = pool[node]
        n = legal(st, buf)
        for i in range(n):
            m = buf[i]
            k = ctl[C_POOL]
            child = pool[k]
            _copy(child, st)
            apply(child, m)
            gc = gn + cost(st, child, m)
            h1 = fix_h1(hash1(child))
            h2 = hash2(child)
            slot = tt_insert(keys, h1, h2)
            if slot < 0:
                slot = -1 - slot
                old = vals[slot]
                if wg == 0 or g[old] <= gc:
                    continue  # greedy never re-opens
                g[old] = -1  # re-open with the cheaper path
            else:
                ctl[C_STORED] += 1
            vals[slot] = k
            parent[k] = node
            pmove[k] = m
            g[k] = gc
            ctl[C_POOL] = k + 1
            if won(child) != 0:
                ctl[C_WIN_NODE] = k
                return FOUND
            h = heur(child)
            if h >= DEAD_END:
                continue
            key = (wg * gc + wh * h) * 4096 + max(0, min(h, 4095))
            ctl[C_HEAP] = heap_push(hkey, hnode, ctl[C_HEAP], key, np.int32(k))
    return EXHAUSTED


# ---- Python drivers ------------------------------------------------------------------------
_NO_VALUES = np.zeros(0, dtype=np.int64)    # a keys-only table's value array


@jit
def rehash_keys(old_keys, new_keys):
    """Move every key of the old table into the (empty, larger) new one (no values)."""
    for i in range(old_keys.shape[0] >> 1):
        h1 = old_keys[2 * i]
        if h1 != np.uint64(0):
            tt_insert(new_keys, h1, old_keys[2 * i + 1])


class _Meter:
    """Positions expanded by every run of one solve, passed on to its ``progress`` callback."""

    def __init__(self, callback):
        self.callback = callback
        self.nodes = 0
        self.t0 = time.perf_counter()

    def add(self, nodes):
        self.nodes += nodes
        self.callback(self.nodes, time.perf_counter() - self.t0)


_meter = contextvars.ContextVar("search_progress", default=None)


@contextlib.contextmanager
def compiling():
    """Within this block, the Numba timing listener it gives (``done``, ``duration``) sums
    the time Numba spent compiling (a kernel missing from the warm-up compiles at its first
    call): what a solve reports as compile time rather than search time."""
    timer = event.TimingListener()
    with event.install_listener("numba:compile", timer):
        yield timer


_stages = contextvars.ContextVar("search_stages", default=None)


def reached(stage):
    """Called by a game's search as it reaches ``stage``, a later part of it that its solver
    compiles only when needed (``Solver._stage_steps``): compiles what the stage needs, if not
    done yet, and returns the seconds that took (0.0 outside :func:`staging`), which the search
    leaves out of its clock and its time limit."""
    callback = _stages.get()
    return 0.0 if callback is None else callback(stage)


@contextlib.contextmanager
def staging(callback):
    """Within this block :func:`reached` calls ``callback(stage)``."""
    token = _stages.set(callback)
    try:
        yield
    finally:
        _stages.reset(token)


@contextlib.contextmanager
def reporting(callback):
    """Within this block every search calls ``callback(nodes, seconds)`` after each kernel
    call (at most ``Run.CHUNK`` positions): the positions all its runs have expanded so far
    (a solver may run several searches for one answer) and the seconds since the block
    began.  ``callback`` None: nothing is reported."""
    if callback is None:
        yield
        return
    token = _meter.set(_Meter(callback))
    try:
        yield
    finally:
        _meter.reset(token)


class Limits:
    """Node, time and memory limits; ``None`` means no limit of that kind.  ``threads``: how
    many threads a solver's long search may use (:mod:`solvers.core.split_dfs`)."""

    def __init__(self, max_nodes=None, timeout=None, max_memory_mb=None, threads=1):
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.max_bytes = None if max_memory_mb is None else int(max_memory_mb * 2**20)
        self.threads = threads

    def replace(self, max_nodes, timeout):
        """These limits with ``max_nodes`` and ``timeout`` instead (memory and threads kept):
        what a solver gives one of its several searches."""
        out = Limits(max_nodes, timeout, threads=self.threads)
        out.max_bytes = self.max_bytes
        return out


def verdict_for(code, limit):
    """A kernel's last return code and the limit that stopped it as a verdict."""
    if code == FOUND:
        return SOLVED
    return UNSOLVABLE if code == EXHAUSTED and not limit else UNKNOWN


# Under a time limit each kernel call aims at this share of the seconds left, so that a call
# slower than the last one's rate still ends by the limit; the calls converge on it and the
# last overshoots by at most one FIRST_CHUNK.  A growth that could pass the limit is not
# started (Run._grows_in_time).
AIM_SHARE, GROWTH_MARGIN, GROWTH_BYTES_PER_SECOND = 0.8, 2.5, 250e6


def rate_budget(done, call_seconds, left, most):
    """The next kernel call's budget under a time limit: what the last call's rate (``done``
    positions in ``call_seconds``) expands in the ``left`` seconds, within ``Run.FIRST_CHUNK``
    and ``most``, so that the call ends by the limit."""
    rate = done / max(call_seconds, 1e-6)
    return int(min(most, max(Run.FIRST_CHUNK, rate * left)))


class Run:
    """A resumable search driver: calls its kernel in chunks, checks the limits, grows the
    table and stacks; :class:`DFS`, :class:`BestFirst` and Freecell's fused search extend it."""

    CHUNK = 1 << 15
    FIRST_CHUNK = 1 << 10       # under a time limit: the first call, and the least one; later
                                # calls are sized by the last call's rate to end by the limit

    SLOT_BYTES = 24             # two key words and a value per table slot

    def __init__(self, plug, limits, table_capacity=1 << 14):
        self.plug = plug
        self.limits = limits
        self.table_capacity = table_capacity
        self.keys, self.vals = self._new_table(table_capacity)
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        self.buf = np.empty(plug.max_moves, dtype=np.int32)
        self.peak = 0

    def _arrays(self):
        return (self.keys, self.vals)

    def _new_table(self, capacity):
        return new_table(capacity)

    def _rehash(self, keys, vals):
        rehash(self.keys, self.vals, keys, vals)

    def capacity(self):
        """Table slots (positions it can hold before growing: ``MAX_LOAD`` of them)."""
        return self.keys.shape[0] >> 1

    def reset(self, limits):
        """Make ready for a new search, reusing the arrays (already-mapped memory is much
        cheaper than fresh pages when a batch solves thousands of small deals)."""
        self.limits = limits
        self.ctl[:] = 0
        self.peak = 0
        if self.capacity() > 4 * self.table_capacity:
            self.keys, self.vals = self._new_table(self.table_capacity)
        else:
            self.keys[:] = 0
        return self

    def nbytes(self):
        return sum(a.nbytes for a in self._arrays())

    def _fits(self, extra):
        mb = self.limits.max_bytes
        return mb is None or self.nbytes() + extra <= mb

    def _grow_table(self, factor=2):
        cap = self.capacity()
        if not self._fits(self._growth_bytes(cap, factor)):
            return False
        keys, vals = self._new_table(factor * cap)
        self._rehash(keys, vals)
        self.keys, self.vals = keys, vals
        return True

    def _growth_bytes(self, cap, factor):
        """Memory a growth by ``factor`` adds while the old table still exists (counted with
        a margin of one more table)."""
        return (factor + 1) * (cap * self.SLOT_BYTES)

    def reserve(self, states):
        """Grow the table at once to hold about ``states`` positions, as far as the memory
        limit allows: a long search then rehashes once instead of at every doubling
        (measured: 13% of a 2.9M-node Yukon proof).  Ask for what the search will use: a
        table much larger than its contents is slower per lookup (seed 417, 4.7M positions:
        5.0 s with 8M slots, 5.6 s with 16M)."""
        factor = 1
        while self.capacity() * factor * MAX_LOAD < states:
            factor *= 2
        while factor > 1 and not self._grow_table(factor):
            factor //= 2

    def run(self, root):
        """Search (or resume) from ``root`` within ``self.limits``; a SolveResult."""
        t0 = time.perf_counter()
        code, limit = self._advance(root)
        return self._result(code, limit, time.perf_counter() - t0)

    def _advance(self, root):
        """Call the kernel in chunks until a verdict or a limit: ``(code, limit)``, the last
        return code and the limit that stopped it ("" if none)."""
        t0 = time.perf_counter()
        lim = self.limits
        meter, counted = _meter.get(), int(self.ctl[C_NODES])
        if not self._fits(0):
            return PAUSED, "memory"               # even the starting arrays do not fit
        budget = self.FIRST_CHUNK if lim.timeout is not None else self.CHUNK
        while True:
            if lim.max_nodes is not None:
                budget = min(budget, lim.max_nodes - int(self.ctl[C_NODES]))
                if budget <= 0:
                    return PAUSED, "nodes"
            before, t_call = int(self.ctl[C_NODES]), time.perf_counter()
            code = self._call(root, budget)
            self.peak = max(self.peak, self.nbytes())
            if meter is not None:
                meter.add(int(self.ctl[C_NODES]) - counted)
                counted = int(self.ctl[C_NODES])
            if code == FOUND or code == EXHAUSTED:
                return code, ""
            if code == TABLE_FULL or code == STACK_FULL:
                grow = self._grow_table if code == TABLE_FULL else self._grow_stack
                if lim.timeout is not None and not self._grows_in_time(grow, t0):
                    return code, "seconds"
                if not self._timed_growth(grow):
                    return code, "memory"
            budget = self.CHUNK
            if lim.timeout is not None:
                now = time.perf_counter()
                left = lim.timeout - (now - t0)
                if left <= 0:
                    return code, "seconds"
                budget = rate_budget(int(self.ctl[C_NODES]) - before, now - t_call,
                                     left * AIM_SHARE, self.CHUNK)

    def _timed_growth(self, grow):
        """``grow()``, its seconds kept for :meth:`_grows_in_time`."""
        t_grow = time.perf_counter()
        grown = grow()
        vars(self).setdefault("_growth_seconds", {})[grow.__name__] = time.perf_counter() - t_grow
        return grown

    def _grows_in_time(self, grow, t0):
        """Whether the next growth by ``grow`` ends before the time limit; a search that would
        end inside one stops now instead (a late 1M-entry pool took 1.7 s: ten-across 140
        astar overshot its limit by that).  A growth doubles arrays and copies them: it takes
        about twice the last one of its kind, and on a busy machine up to a copy of every
        array at GROWTH_BYTES_PER_SECOND (measured: 0.01 s, then 0.4 s for the next)."""
        last = vars(self).get("_growth_seconds", {}).get(grow.__name__, 0.0)
        needs = max(GROWTH_MARGIN * last, self.nbytes() / GROWTH_BYTES_PER_SECOND)
        return time.perf_counter() - t0 + needs <= self.limits.timeout

    def _result(self, code, limit, seconds):
        verdict = verdict_for(code, limit)
        moves = self._path() if verdict == SOLVED else []
        return SolveResult(verdict, moves, int(self.ctl[C_NODES]), int(self.ctl[C_STORED]),
                           seconds, self.peak, limit=limit)


class DFS(Run):
    """Depth-first search driver.  ``keys_only=True`` keeps no value beside each key (the
    kernel never reads one): 16 bytes per table slot instead of 24, same search.
    ``store_dead_ends=False`` enters no child the heuristic proves dead: same nodes expanded
    and moves, fewer positions stored, dead ends reached again are tested again.  A keys-only
    table grows when the old and the new table fit the memory limit together (the default
    keeps a margin of one more table)."""

    def __init__(self, plug, limits, table_capacity=1 << 14, depth=1 << 10, keys_only=False,
                 store_dead_ends=True):
        self.keys_only = bool(keys_only)
        self.store_dead_ends = int(bool(store_dead_ends))
        if self.keys_only:
            self.SLOT_BYTES = 16
        super().__init__(plug, limits, table_capacity)
        self.st_states = np.empty((depth, plug.state_size), dtype=np.int16)
        self.st_moves = np.empty((depth, plug.max_moves), dtype=np.int32)
        self.st_cnt = np.zeros(depth, dtype=np.int64)
        self.st_idx = np.zeros(depth, dtype=np.int64)
        self.scores = np.empty(plug.max_moves, dtype=np.int64)
        self.kids = np.empty((plug.max_moves, plug.state_size), dtype=np.int16)
        self.kh = np.empty(2 * plug.max_moves, dtype=np.uint64)

    def _arrays(self):
        return (self.keys, self.vals, self.st_states, self.st_moves, self.st_cnt, self.st_idx)

    def _growth_bytes(self, cap, factor):
        """A keys-only table counts exactly what a growth adds: the new table (the old one is
        in ``nbytes`` already, the rehash allocates nothing else)."""
        if not self.keys_only:
            return super()._growth_bytes(cap, factor)
        return factor * cap * self.SLOT_BYTES

    def _new_table(self, capacity):
        if not self.keys_only:
            return new_table(capacity)
        if capacity & (capacity - 1):
            raise ValueError(f"table capacity {capacity} is not a power of two")
        return np.zeros(2 * capacity, dtype=np.uint64), _NO_VALUES

    def _rehash(self, keys, vals):
        if self.keys_only:
            rehash_keys(self.keys, keys)
        else:
            rehash(self.keys, self.vals, keys, vals)

    def _grow_stack(self):
        depth = self.st_states.shape[0]
        per = self.st_states[0].nbytes + self.st_moves[0].nbytes + 16
        if not self._fits(per * depth):
            return False
        self.st_states = np.concatenate([self.st_states, np.empty_like(self.st_states)])
        self.st_moves = np.concatenate([self.st_moves, np.empty_like(self.st_moves)])
        self.st_cnt = np.concatenate([self.st_cnt, np.zeros_like(self.st_cnt)])
        self.st_idx = np.concatenate([self.st_idx, np.zeros_like(self.st_idx)])
        return True

    def _call(self, root, budget):
        p = self.plug
        return dfs_kernel(root, self.keys, self.ctl, self.st_states, self.st_moves, self.st_cnt,
                          self.st_idx, self.buf, self.kids, self.kh, self.scores, budget,
                          p.legal, p.apply, p.won, p.hash1, p.hash2, p.heuristic,
                          p.child_hashes, p.has_child_hashes, self.store_dead_ends)

    def stack(self):
        """The states on a paused search's stack, root first (a view: a change to a state
        reaches the children it will build)."""
        return self.st_states[:int(self.ctl[C_SP]) + 1]

    def _path(self):
        sp = int(self.ctl[C_SP])
        moves = [int(self.st_moves[k, self.st_idx[k] - 1]) for k in range(sp)]
        if self.ctl[C_WIN_MOVE] >= 0:
            moves.append(int(self.ctl[C_WIN_MOVE]))
        return moves


class BestFirst(Run):
    def __init__(self, plug, limits, weights=(1, 1), table_capacity=1 << 14, pool=1 << 14):
        super().__init__(plug, limits, table_capacity)
        self.wg, self.wh = (int(w) for w in weights)
        self.tmp = np.empty(plug.state_size, dtype=np.int16)
        self._alloc_pool(pool)

    def _alloc_pool(self, size, old=None):
        arrs = dict(pool=np.empty((size, self.plug.state_size), dtype=np.int16),
                    parent=np.empty(size, dtype=np.int32), pmove=np.empty(size, dtype=np.int32),
                    g=np.empty(size, dtype=np.int32), hkey=np.empty(size, dtype=np.int64),
                    hnode=np.empty(size, dtype=np.int32))
        for name, a in arrs.items():
            if old is not None:
                a[:old] = getattr(self, name)[:old]
            setattr(self, name, a)

    def _arrays(self):
        return (self.keys, self.vals, self.pool, self.parent, self.pmove, self.g, self.hkey,
                self.hnode)

    def _grow_stack(self):
        size = self.pool.shape[0]
        per = self.pool[0].nbytes + 4 + 4 + 4 + 8 + 4
        if not self._fits(2 * per * size):
            return False
        self._alloc_pool(2 * size, old=size)
        return True

    def _call(self, root, budget):
        p = self.plug
        return best_first_kernel(root, self.keys, self.vals, self.ctl, self.pool, self.parent,
                                 self.pmove, self.g, self.hkey, self.hnode, self.buf, self.tmp,
                                 budget, self.wg, self.wh, p.legal, p.apply, p.won, p.hash1,
                                 p.hash2, p.heuristic, p.cost)

    def _path(self):
        moves = []
        k = int(self.ctl[C_WIN_NODE])
        while k > 0:
            moves.append(int(self.pmove[k]))
            k = int(self.parent[k])
        return moves[::-1]


def search(plug, root, method="dfs", max_nodes=None, timeout=None, max_memory_mb=None,
           weights=(1, 1)):
    """Search from ``root`` (1-D int16 array); ``moves`` in the result are int move codes."""
    limits = Limits(max_nodes, timeout, max_memory_mb)
    root = np.ascontiguousarray(root, dtype=np.int16)
    if method == "dfs":
        runner = DFS(plug, limits)
    elif method == "best-first":
        runner = BestFirst(plug, limits, weights)
    else:
        raise ValueError(f"unknown search method {method!r}: expected 'dfs' or 'best-first'")
    result = runner.run(root)
    result.method = method
    return result
