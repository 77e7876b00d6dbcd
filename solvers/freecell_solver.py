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

Methods (``METHODS``; measured on MS 1-1000, see benchmarks/freecell_vs_fcsolve.py):

* ``fast`` (default): best-first f = g + h with ``heuristic_breaks`` for 1000 nodes, then
  restarts with ``heuristic`` and runs to a verdict.  The two heuristics fail on different
  deals, so the short first try cuts the heavy tail (mean nodes ~350 vs ~610 for either alone).
* ``astar``: f = g + h with ``heuristic_short`` -- shorter solutions (~101 atomic moves).
* ``short``: f = 3g + 2h, shorter still (~96) and, on MS 1-1000, faster than ``astar``.
  Both fall back to ``fast``'s second search after 20000 nodes, so they always decide.
* ``greedy`` (f = h) and ``dfs`` (depth-first, children by heuristic): kept for comparison;
  both have heavier tails here.
"""
import threading
import time

import numpy as np

from rules import freecell as fc
from rules._jit import jit
from rules.cards import EMPTY
from rules.game import State
from rules.moves import DBL, DRAG, Move
from rules.registry import get_game
from .result import SOLVED, UNSOLVABLE
from .search import BestFirst, DFS, GamePlug, Limits

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
def _fmix(k):
    """MurmurHash3's 64-bit finaliser (different from the engine's splitmix64)."""
    k ^= k >> np.uint64(33)
    k *= np.uint64(0xFF51AFD7ED558CCD)
    k ^= k >> np.uint64(33)
    k *= np.uint64(0xC4CEB9FE1A85EC53)
    k ^= k >> np.uint64(33)
    return k


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


def _plug(h):
    return GamePlug(legal, apply, won, hash1, hash2, h, cost, MAX_MOVES, STATE_SIZE)


PLUG = _plug(heuristic)
PLUG_BREAKS = _plug(heuristic_breaks)
PLUG_SHORT = _plug(heuristic_short)
PLUG_COMPLETE = GamePlug(legal_complete, apply, won, hash1, hash2, heuristic, cost, MAX_MOVES,
                         STATE_SIZE)

# method -> stages (plug, search, weights (g, h), node budget or None = the rest of the limits)
METHODS = {
    "fast": ((PLUG_BREAKS, "best-first", (1, 1), 1000), (PLUG, "best-first", (1, 1), None)),
    "astar": ((PLUG_SHORT, "best-first", (1, 1), 20000), (PLUG, "best-first", (1, 1), None)),
    # f = 3g + 2h: shorter still, more nodes; after 20000 nodes it falls back to "fast"'s search
    "short": ((PLUG_SHORT, "best-first", (3, 2), 20000), (PLUG, "best-first", (1, 1), None)),
    "greedy": ((PLUG, "best-first", (0, 1), None),),
    "dfs": ((PLUG, "dfs", None, None),),
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
    """A reusable runner per (plug, search, weights) in this thread."""
    key = (id(plug), kind, weights, threading.get_ident())
    runner = _RUNNERS.get(key)
    if runner is None:
        runner = DFS(plug, limits) if kind == "dfs" else BestFirst(plug, limits, weights)
        _RUNNERS[key] = runner
        return runner
    return runner.reset(limits)


def _run_stages(array, method, max_nodes, timeout, max_memory_mb):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    t0 = time.perf_counter()
    nodes = stored = peak = 0
    result = None
    for plug, kind, weights, budget in METHODS[method]:
        left_nodes = None if max_nodes is None else max_nodes - nodes
        left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
        stage_nodes = left_nodes if budget is None else (
            budget if left_nodes is None else min(budget, left_nodes))
        limits = Limits(stage_nodes, left_time, max_memory_mb)
        runner = _runner(plug, kind, weights, limits)
        result = runner.run(array)
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
        result = DFS(PLUG_COMPLETE, Limits(left_nodes, left_time, max_memory_mb)).run(array)
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
    start = _start_state(state)
    result = _run_stages(start.array, method, max_nodes, timeout,
                         4096 if max_memory_mb is None else max_memory_mb)
    result.start = start
    result._verifier = verify_result
    if isinstance(state, (int, np.integer)):
        result.deal = int(state)
    if result.verdict == SOLVED:
        codes = np.array(result.moves, dtype=np.int32)
        result.moves = [Move.from_code(c) for c in result.moves]
        result.atomic_length = int(replay_atomic(start.array, codes))
    return result


def solve_many(deal_numbers, method=DEFAULT_METHOD, max_nodes=None, timeout=None,
               max_memory_mb=None, progress=None):
    """Solve Microsoft deals one after another in this process; list of SolveResult."""
    out = []
    for i, n in enumerate(deal_numbers):
        out.append(solve(int(n), method, max_nodes, timeout, max_memory_mb))
        if progress is not None:
            progress(i, out[-1])
    return out


def warmup():
    """Compile (or load from the cache) every kernel on deal 1; returns seconds taken."""
    t0 = time.perf_counter()
    for method in METHODS:
        solve(1, method, max_nodes=50)
    return time.perf_counter() - t0
