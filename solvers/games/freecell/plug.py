"""Freecell's plug for the generic search core (:mod:`solvers.core.search`).

The kernels wrap :mod:`rules.freecell` (its solver move set, ``faithful=0``) in the core's
fixed signatures, and add what the core needs from a game: a second canonical hash computed
independently of the engine's, the heuristic, and the step cost in atomic single-card moves.
The generic core runs the ``dfs`` method and the re-check of every ``unsolvable`` verdict
(``plug("complete")``); the best-first methods run the fused kernel
(:mod:`solvers.games.freecell.fused`), which computes the same things incrementally.  Why the move
set and the hashes keep the search exact: docs/freecell.md.
"""
import numpy as np

from rules import freecell as fc
from rules._jit import jit
from rules.cards import EMPTY, colour, rank
from rules.errors import InvalidOptionError
from rules.hashing import fmix64
from rules.moves import DBL, DRAG
from solvers.core.search import GamePlug

FREE, HOME, HEIGHT, COLS, COL_WIDTH = fc.FREE, fc.HOME, fc.HEIGHT, fc.COLS, fc.COL_WIDTH
STATE_SIZE, MAX_MOVES = fc.STATE_SIZE, fc.MAX_MOVES
FIRST_HOME, FIRST_COL = fc.FIRST_HOME, fc.FIRST_COL

# Heuristic weights (w_out, w_unsorted, w_buried, w_free, w_empty, w_breaks), see
# weighted_heuristic; the methods' searches are listed in solvers.games.freecell.portfolio.
HW_MAIN = (3, 2, 1, 3, 3, 0)
HW_BREAKS = (3, 0, 1, 3, 3, 2)          # every sequence break instead of the unsorted cards
HW_SHORT = (3, 2, 1, 1, 2, 0)           # light cell/column terms: shorter solutions with g
HW_SHORT_BREAKS = (3, 1, 1, 3, 1, 1)    # method short: breaks, cells weighing as in the main one
HW_MAIN_BREAKS = (3, 2, 1, 3, 3, 1)
HW_NO_BURIED = (3, 2, 0, 3, 3, 0)
HW_CELLS = (3, 2, 1, 10, 6, 1)          # full free cells weigh most: a different order of play


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
        x = fmix64(np.uint64(c + 2) * np.uint64(0x9FB21C651E98DF25))
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
        x = fmix64(x)
        s_acc += fmix64(x ^ np.uint64(0xA4093822299F31D0))
        p_acc *= x | np.uint64(1)
    return fmix64(fmix64(s_acc ^ found) + p_acc)


@jit
def foundation_count(state):
    """Cards on the foundations (moves.need_bits reads the same tops, packed for the pruning)."""
    n = 0
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            n += top % 13 + 1
    return n


@jit
def weighted_heuristic(state, w_out, w_unsorted, w_buried, w_free, w_empty, w_breaks):
    """Lower is closer to a win.

    The value::

        w_out * cards not home + w_unsorted * cards above the first break of each column
        + w_buried * cards above the next card each suit needs + w_free * full free cells
        - w_empty * empty columns + w_breaks * sequence breaks in the columns
    """
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
            if rank(lo) != rank(up) + 1 or colour(lo) == colour(up):
                breaks += 1
                if first_break == n:
                    first_break = i
        unsorted += n - first_break
        for i in range(n):
            c = state[base + i]
            if ((need >> (4 * (c // 13))) & 15) == rank(c):
                buried += n - 1 - i
    full_free = 0
    for i in range(4):
        if state[FREE + i] != EMPTY:
            full_free += 1
    return np.int64(w_out * out + w_unsorted * unsorted + w_buried * buried + w_free * full_free
                    - w_empty * empty_cols + w_breaks * breaks)


@jit
def heuristic(state):
    """The plug's heuristic: ``weighted_heuristic`` with ``HW_MAIN``."""
    return weighted_heuristic(state, 3, 2, 1, 3, 3, 0)


@jit
def cost(parent, child, move):
    """Atomic single-card moves of one action: ``n`` for a drag of n cards, 1 for a double
    click, plus every card autoplay sent home (a drag to a homecell is that one card, not two;
    a card double-clicked off a homecell is one move out, and one more if it goes back)."""
    n = (move >> 8) & 0xFF
    if (move >> 24) != DRAG:
        n = 1
    src = (move >> 16) & 0xFF
    dst = move & 0xFF
    home = foundation_count(child) - foundation_count(parent)
    if (move >> 24) == DRAG and FIRST_HOME <= dst < FIRST_COL:
        home -= 1
    if (move >> 24) == DBL and FIRST_HOME <= src < FIRST_COL:
        home += 1
    return np.int64(n + home)


@jit
def replay_atomic(start, codes):
    """Atomic length of the moves ``codes`` played from ``start`` (on a copy)."""
    s = start.copy()
    total = 0
    for k in range(codes.shape[0]):
        before = s.copy()
        fc.apply(s, codes[k])
        total += cost(before, s, codes[k])
    return total


_PLUGS = {}


def plug(name="main"):
    """The generic-core plug ``"main"`` (solver moves) or ``"complete"`` (plus the homecell
    ``dbl``, for proofs), built on first use: resolving a plug loads its kernels, which a
    process solving only with the fused kernel never needs."""
    found = _PLUGS.get(name)
    if found is None:
        if name not in ("main", "complete"):
            raise InvalidOptionError(f"no Freecell plug {name!r} (choose from main, complete)")
        moves = legal if name == "main" else legal_complete
        found = _PLUGS[name] = GamePlug(moves, apply, won, hash1, hash2, heuristic, cost,
                                        MAX_MOVES, STATE_SIZE)
    return found
