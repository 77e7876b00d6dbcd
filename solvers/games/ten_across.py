"""Ten Across solver (thoughtful: every card known, face-down ones included): the Ten Across
plug for the search core.

Rules come from :mod:`rules.ten_across` (its solver move set), with the temporary-spots option
the state carries.  The two rule modes are the same search (the game never declares a loss).
Both hashes see the spots as a set and the piles as a multiset; four pruning rules (symmetric
moves, the safe successor move, no settled card into a spot, spot moves only as macros) keep
the search exact, as argued in ``docs/ten-across.md``.
"""
import numpy as np

from rules import ten_across as ta
from rules._jit import jit
from rules.cards import EMPTY
from rules.hashing import fmix64, splitmix64
from rules.observation import HIDDEN
from solvers.core.solver import Solver, check_limits
from solvers.core.result import SOLVED, UNKNOWN
from solvers.core import methods
from solvers.core.search import DFS, GamePlug, core_steps
from solvers.core.split_dfs import run_dfs

OPT, SPOT, HEIGHT, DOWN, PILES = ta.OPT, ta.SPOT, ta.HEIGHT, ta.DOWN, ta.PILES
PILE_CAP, N_PILES, N_SPOTS, FIRST_PILE = ta.PILE_CAP, ta.N_PILES, ta.N_SPOTS, ta.FIRST_PILE
STATE_SIZE, MAX_MOVES = ta.STATE_SIZE, ta.MAX_MOVES
KING = ta.KING_INDEX
RULE_MODES = ("aisleriot", "open")
SETTLED_MIN = 4     # rule 2/3: a settled pile of at least this many cards never loses its top

# heuristic weights: cards not on their successor, face-down cards, empty piles (a bonus),
# occupied spots, face-up cards lying on face-down ones (chosen by node counts on seeds 1-200)
W_MISPLACED, W_DOWN, W_EMPTY, W_SPOT, W_BLOCK = 2, 3, 1, 2, 2



# ---- helpers -----------------------------------------------------------------------------
@jit
def _settled(state, p, min_height):
    """Pile ``p`` is K, Q, ... of one suit from the bottom, all face up, ``min_height`` or more."""
    h = state[HEIGHT + p]
    if h < min_height or h == 0 or state[DOWN + p] != 0:
        return False
    base = PILES + PILE_CAP * p
    bottom = state[base]
    if bottom % 13 != KING:
        return False
    for k in range(1, h):
        if state[base + k] != bottom - k:
            return False
    return True


@jit
def _safe_successor(state, move):
    """Rule 2: ``move`` drops a card on its successor and can be played without choice."""
    dst = move & 0xFF
    if dst < FIRST_PILE:
        return False
    p = dst - FIRST_PILE
    if state[HEIGHT + p] == 0:
        return False            # a King group to an empty pile: a real choice
    return _settled(state, p, SETTLED_MIN if state[OPT] != 0 else 1)


# ---- plug kernels ------------------------------------------------------------------------
@jit
def _moves_or_safe(state, buf):
    """The engine's solver moves in ``buf`` and their count, or -1 with ``buf[0]`` the safe
    successor move when there is one (rule 2: then it is the only child)."""
    n = ta.legal_moves(state, buf, 0)
    for i in range(n):
        if _safe_successor(state, buf[i]):
            buf[0] = buf[i]
            return np.int64(-1)
    return n


@jit
def legal_plain(state, buf):
    """Rules 1-3 only (no spot macros): kept for the differential tests and measurements.
    :func:`legal` starts the same way on purpose: it is this plus rule 4."""
    n = _moves_or_safe(state, buf)
    if n < 0:
        return np.int64(1)
    if state[OPT] == 0:
        return np.int64(n)
    kept = 0
    for i in range(n):
        m = buf[i]
        src = (m >> 16) & 0xFF
        dst = m & 0xFF
        if dst < N_SPOTS and src >= FIRST_PILE and _settled(state, src - FIRST_PILE, SETTLED_MIN):
            continue            # rule 3
        buf[kept] = m
        kept += 1
    return np.int64(kept)


# Rule 4 (spot macros): a move code with bit MACRO set stands for "the top card of pile P into
# the lowest empty spot [, then the new top of P into the other spot], then the dependent move
# DEP", where DEP has P as its source or destination.  Bits: 0-3 P, 4 double, 5-18 DEP packed
# as src << 10 | n << 4 | dst (slots < 16, n < 64).
MACRO = 1 << 30
PAIR = 1 << 19
# OUT_MAX: a proven bound on the moves legal() lists.  Plain moves with a tableau destination:
# <= 37 (rules.ten_across MAX_MOVES proof).  Macros per source pile P (<= 10): after the spot
# move, groups from P onto non-empty piles <= 9 (each pile top accepts one card, hence one
# group), King groups from P to the lowest empty pile <= 4, a drop onto P's new top <= 1 (its
# predecessor sits in one place), or with P emptied King groups into P <= 4: <= 14 one-spot
# macros, and as many two-spot macros (the spot move of the new top replaced by the same count
# of dependents).  Pair macros (tops of two piles into the two spots, then a move between the
# two piles): per ordered pair of piles at most one group fits the destination's new top, or
# with the destination emptied at most 4 King groups: 45 pairs * 2 * 4 = 360.
# 37 + 10 * 28 + 360 = 677 <= 680.
OUT_MAX = 680


@jit
def _pack_dep(m):
    return (((m >> 16) & 0xFF) << 10) | (((m >> 8) & 0xFF) << 4) | (m & 0xFF)


@jit
def _lowest_empty_spot(state):
    return 0 if state[SPOT] == EMPTY else 1


@jit
def _spot_out(state, p):
    """Top card of pile ``p`` into the lowest empty spot; returns 2*spot + flipped (for undo)."""
    s = _lowest_empty_spot(state)
    h = state[HEIGHT + p]
    k = PILES + PILE_CAP * p + h - 1
    state[SPOT + s] = state[k]
    state[k] = EMPTY
    state[HEIGHT + p] = h - 1
    flipped = 0
    if h - 1 > 0 and state[DOWN + p] == h - 1:
        state[DOWN + p] = h - 2
        flipped = 1
    return 2 * s + flipped


@jit
def _spot_back(state, p, token):
    s = token >> 1
    h = state[HEIGHT + p]
    state[PILES + PILE_CAP * p + h] = state[SPOT + s]
    state[SPOT + s] = EMPTY
    state[HEIGHT + p] = h + 1
    if token & 1:
        state[DOWN + p] = h


@jit
def _dependents(state, p, xspot, flipped, buf, count, prefix):
    """Write ``prefix | dep`` for every solver move (``faithful=0`` set) that has pile ``p`` as
    its source or destination, except moves out of spot ``xspot`` (the card that just left
    ``p``), which may only come straight back and only if it ``flipped`` the card below.  A spot
    move of ``p``'s top is not written; returns ``(count, it_was_legal)``."""
    slot = p + FIRST_PILE
    h = state[HEIGHT + p]
    start = count
    if h > 0:
        base = PILES + PILE_CAP * p
        for n in range(1, h - state[DOWN + p] + 1):
            count = ta.drops(state, buf, count, 0, slot, n, np.int64(state[base + h - n]), n == h)
        y = np.int64(state[base + h - 1])
        if y % 13 != 0 and h > state[DOWN + p]:
            want = y - 1                           # the only card that may drop onto y
            for s in range(N_SPOTS):
                # the card that just left may come back only when that turned y face up
                if (s != xspot or flipped) and state[SPOT + s] == want:
                    buf[count] = ta.encode(ta.DRAG, s, 1, slot)
                    count += 1
            for q in range(N_PILES):
                if q == p:
                    continue
                hq = state[HEIGHT + q]
                bq = PILES + PILE_CAP * q
                for k in range(state[DOWN + q], hq):
                    if state[bq + k] == want:
                        buf[count] = ta.encode(ta.DRAG, q + FIRST_PILE, hq - k, slot)
                        count += 1
    else:
        lowest = True                               # King groups go to the lowest empty pile
        for q in range(p):
            if state[HEIGHT + q] == 0:
                lowest = False
        if lowest:
            for s in range(N_SPOTS):
                c = state[SPOT + s]
                if s != xspot and c != EMPTY and c % 13 == KING:
                    buf[count] = ta.encode(ta.DRAG, s, 1, slot)
                    count += 1
            for q in range(N_PILES):
                hq = state[HEIGHT + q]
                bq = PILES + PILE_CAP * q
                for k in range(max(1, state[DOWN + q]), hq):   # whole piles: a renaming
                    if state[bq + k] % 13 == KING:
                        buf[count] = ta.encode(ta.DRAG, q + FIRST_PILE, hq - k, slot)
                        count += 1
    kept = start
    spot_move = False
    for i in range(start, count):
        m = buf[i]
        if (m & 0xFF) < N_SPOTS:
            spot_move = True
            continue
        buf[kept] = prefix | (_pack_dep(m) << 5)
        kept += 1
    return kept, spot_move


@jit
def _pair_moves(state, q, p, buf, count):
    """Macros ``PAIR | dep`` for the solver moves between piles ``q`` and ``p`` (either way)."""
    start = count
    for a, b in ((q, p), (p, q)):
        slot = a + FIRST_PILE
        h = state[HEIGHT + a]
        base = PILES + PILE_CAP * a
        for n in range(1, h - state[DOWN + a] + 1):
            count = ta.drops(state, buf, count, 0, slot, n, np.int64(state[base + h - n]), n == h)
        kept = start
        for i in range(start, count):
            m = buf[i]
            if (m & 0xFF) == b + FIRST_PILE:
                buf[kept] = MACRO | PAIR | (_pack_dep(m) << 5)
                kept += 1
        count = kept
        start = kept
    return count


@jit
def legal(state, buf):
    """Rules 1-3 as in :func:`legal_plain`, then rule 4: spot moves only as macros."""
    n = _moves_or_safe(state, buf)
    if n < 0:
        return np.int64(1)
    kept = 0
    spot_from = 0            # bit p: the top of pile p may go into a spot (after rule 3)
    for i in range(n):
        m = buf[i]
        src = (m >> 16) & 0xFF
        dst = m & 0xFF
        if dst < N_SPOTS:
            if src >= FIRST_PILE and not _settled(state, src - FIRST_PILE, SETTLED_MIN):
                spot_from |= 1 << (src - FIRST_PILE)
            continue
        buf[kept] = m
        kept += 1
    both_free = state[SPOT] == EMPTY and state[SPOT + 1] == EMPTY
    for p in range(N_PILES):
        if (spot_from >> p) & 1 == 0:
            continue
        t1 = _spot_out(state, p)
        prefix = MACRO | p
        kept, again = _dependents(state, p, t1 >> 1, t1 & 1, buf, kept, prefix)
        if again and not _settled(state, p, SETTLED_MIN):
            t2 = _spot_out(state, p)
            kept, _ = _dependents(state, p, t2 >> 1, t2 & 1, buf, kept, prefix | 16)
            _spot_back(state, p, t2)
        # the pair case: tops of p and q < p into the two spots, then a move between p and q
        for q in range(p if both_free else 0):
            if (spot_from >> q) & 1 == 0:
                continue
            t2 = _spot_out(state, q)
            kept = _pair_moves(state, q, p, buf, kept)
            _spot_back(state, q, t2)
        _spot_back(state, p, t1)
    return np.int64(kept)


@jit
def unpack(state, code, out):
    """The plain moves a (macro) code stands for in ``state``; writes them to ``out``, returns
    how many.  ``state`` is left unchanged."""
    if code & MACRO == 0:
        out[0] = code
        return 1
    dep = (code >> 5) & 0x3FFF
    piles = np.zeros(2, dtype=np.int64)
    if code & PAIR:
        a = (dep >> 10) - FIRST_PILE
        b = (dep & 15) - FIRST_PILE
        piles[0] = max(a, b)
        piles[1] = min(a, b)
        k = 2
    else:
        piles[0] = code & 15
        piles[1] = code & 15
        k = 1 + ((code >> 4) & 1)
    tokens = np.zeros(2, dtype=np.int64)
    for j in range(k):
        tokens[j] = _spot_out(state, piles[j])
        out[j] = ta.encode(ta.DRAG, piles[j] + FIRST_PILE, 1, tokens[j] >> 1)
    for j in range(k - 1, -1, -1):
        _spot_back(state, piles[j], tokens[j])
    out[k] = ta.encode(ta.DRAG, dep >> 10, (dep >> 4) & 63, dep & 15)
    return k + 1


@jit
def apply(state, move):
    if move & MACRO == 0:
        ta.apply(state, move)
        return
    dep = (move >> 5) & 0x3FFF
    if move & PAIR:
        a = (dep >> 10) - FIRST_PILE
        b = (dep & 15) - FIRST_PILE
        _spot_out(state, max(a, b))
        _spot_out(state, min(a, b))
    else:
        for j in range(1 + ((move >> 4) & 1)):
            _spot_out(state, move & 15)
    ta.apply(state, ta.encode(ta.DRAG, dep >> 10, (dep >> 4) & 63, dep & 15))


@jit
def won(state):
    return np.int64(1) if ta.won(state) else np.int64(0)


@jit
def _spot_key(state):
    a = np.int64(state[SPOT])
    b = np.int64(state[SPOT + 1])
    if a > b:
        a, b = b, a
    return np.uint64((a + 2) * 64 + (b + 2)) | (np.uint64(state[OPT]) << np.uint64(16))


@jit
def hash1(state):
    """Piles as a multiset: sum of splitmix-finalised FNV hashes of each pile."""
    acc = np.uint64(0)
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        x = np.uint64(0xCBF29CE484222325)
        x = (x ^ np.uint64(state[DOWN + p] + 1)) * np.uint64(0x100000001B3)
        base = PILES + PILE_CAP * p
        for k in range(h):
            x = (x ^ np.uint64(state[base + k] + 2)) * np.uint64(0x100000001B3)
        acc += splitmix64(x)
    return splitmix64(acc ^ (_spot_key(state) * np.uint64(0x9E3779B97F4A7C15)))


@jit
def hash2(state):
    """Independent of hash1: polynomial per pile (one MurmurHash3 finaliser), piles folded by a
    sum and an odd product."""
    s_acc = np.uint64(0)
    p_acc = np.uint64(1)
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        x = np.uint64(0x13198A2E03707344) + np.uint64(state[DOWN + p]) * np.uint64(131)
        base = PILES + PILE_CAP * p
        for k in range(h):
            x = x * np.uint64(0x5851F42D4C957F2D) + np.uint64(state[base + k] + 3)
        x = fmix64(x + np.uint64(h))
        s_acc += x
        p_acc *= x | np.uint64(1)
    return fmix64(fmix64(s_acc ^ fmix64(_spot_key(state) + np.uint64(7))) + p_acc)


@jit
def heuristic(state):
    """``W_MISPLACED * cards not on their successor (spot cards included; a King counts as
    placed at the bottom of a pile) + W_DOWN * face-down cards + W_SPOT * occupied spots
    + W_BLOCK * face-up cards lying above face-down ones - W_EMPTY * empty piles``.

    Zero misplaced cards means won (each suit then lies K..A in one pile), so the first term
    measures the distance to the goal; face-down cards, and the cards that cover them, are
    what stands between; full spots and no empty pile leave no room to manoeuvre.
    """
    misplaced = 0
    down = 0
    empty = 0
    spots = 0
    block = 0
    for s in range(N_SPOTS):
        if state[SPOT + s] != EMPTY:
            spots += 1
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        if h == 0:
            empty += 1
            continue
        d = state[DOWN + p]
        down += d
        if d > 0:
            block += h - d
        base = PILES + PILE_CAP * p
        if state[base] % 13 != KING:
            misplaced += 1
        for k in range(1, h):
            c = state[base + k]
            if c % 13 == KING or state[base + k - 1] != c + 1:
                misplaced += 1
    return np.int64(W_MISPLACED * (misplaced + spots) + W_DOWN * down + W_SPOT * spots
                    + W_BLOCK * block - W_EMPTY * empty)


@jit
def cost(parent, child, move):
    return np.int64(1)


PLUG = GamePlug(legal, apply, won, hash1, hash2, heuristic, cost, OUT_MAX, STATE_SIZE)
#: Rules 1-3 only (:func:`legal_plain`): the probe of :func:`_probe_then_dfs`.
PLUG_PLAIN = GamePlug(legal_plain, apply, won, hash1, hash2, heuristic, cost, MAX_MOVES, STATE_SIZE)


# ---- the solver ---------------------------------------------------------------------------
def expand_codes(start, codes):
    """Plain move codes for a line of (macro) codes played from the array ``start``."""
    state = np.array(start, dtype=np.int16)
    out = np.empty(3, dtype=np.int32)
    plain = []
    for code in codes:
        for j in range(unpack(state, np.int32(code), out)):
            plain.append(int(out[j]))
            ta.apply(state, np.int32(out[j]))
    return plain


PROBE_NODES = 30000


def _probe_then_dfs(root, limits):
    """Depth-first search with a short probe first: ``PROBE_NODES`` nodes with rules 1-3 only
    (:data:`PLUG_PLAIN`), then the full search with the rest of the limits.

    Why: depth-first search is heavy-tailed on solvable deals, and the macros of rule 4 order
    children differently, so a probe without them solves some deals the full search finds
    hard at a small fixed cost.  Both searches are exact, so either one's "solved" or
    "unsolvable" is the answer.
    """
    max_nodes = limits.max_nodes
    budget = PROBE_NODES if max_nodes is None else min(PROBE_NODES, max_nodes)
    first = DFS(PLUG_PLAIN, limits.replace(budget, limits.timeout)).run(root)
    if first.verdict != UNKNOWN or first.limit != "nodes" or budget == max_nodes:
        return first
    rest_nodes = None if max_nodes is None else max_nodes - first.nodes_expanded
    rest_time = None if limits.timeout is None else max(0.0, limits.timeout - first.seconds)
    second = run_dfs(DFS(PLUG, limits.replace(rest_nodes, rest_time)), root, limits.threads)
    second.nodes_expanded += first.nodes_expanded
    second.seconds += first.seconds
    second.peak_memory_bytes = max(first.peak_memory_bytes, second.peak_memory_bytes)
    return second


class TenAcrossSolver(Solver):
    """Depth-first with a probe (default), greedy or weighted A*; spots as the state says."""

    GAME = "ten-across"
    METHODS = methods.METHODS
    RULE_MODES = RULE_MODES

    def visible_value(self, array):
        """Cards out of place, face-down cards, occupied spots and cards covering face-down ones
        cost; empty piles help."""
        # walks the piles as Yukon's visible value does; the terms are Ten Across's own, and
        # one game's solver does not import another's
        a = array.tolist()
        spots = sum(1 for s in range(ta.N_SPOTS) if a[ta.SPOT + s] != EMPTY)
        down = misplaced = covering = empty = 0
        for p in range(ta.N_PILES):
            h, d = a[ta.HEIGHT + p], a[ta.DOWN + p]
            base = ta.PILES + ta.PILE_CAP * p
            down += d
            if h == 0:
                empty += 1
                continue
            if d > 0:
                covering += h - d
            for i in range(d, h):
                card = a[base + i]
                if card == HIDDEN:
                    continue
                king = card % 13 == ta.KING_INDEX
                placed = king if i == 0 else (not king and i > d and a[base + i - 1] == card + 1)
                misplaced += not placed
        return -(2 * misplaced + 3 * down + 2 * spots + covering) + empty

    def _search(self, start, method, rules, limits):
        result = methods.run(method, PLUG, start.array, limits, dfs=_probe_then_dfs)
        if result.verdict == SOLVED:
            result.moves = expand_codes(start.array, result.moves)
        return result

    def referee_options(self, start):
        return {"spots": bool(start.array[OPT])}

    def _warm_steps(self, method, rules):
        kind = "dfs" if method == "dfs" else "best-first"
        plugs = (PLUG_PLAIN, PLUG) if kind == "dfs" else (PLUG,)

        def search():
            for spots in (True, False):
                self._search(self.game.deal(1, spots=spots), method, rules, check_limits(50))
            start, buf = self.game.deal(1).array, np.empty(OUT_MAX, dtype=np.int32)
            expand_codes(start, buf[:legal(start, buf)][:1])     # a solution's unpacking
        return {**{k: v for plug in plugs for k, v in plug.warm_steps().items()},
                **core_steps(kind), f"ten-across {method}": search}


SOLVER = TenAcrossSolver()
