"""Zebra solver (thoughtful: the whole stock order is known): the Zebra plug for
:mod:`solvers.search`.

Rules come from :mod:`rules.zebra` (its solver move set, ``faithful=0``: no ``dbl``, a drag home
only to the first accepting foundation).  Two rule modes, reported as ``result.rules``:

* ``rules="aisleriot"`` (default): Aisleriot's continue predicate (the hint, spec 7.6) is
  terminal.  A LOST or ABORTED position (the hint's crash) is a dead end -- ``legal`` lists no
  moves there -- so every position of a reported solution before the win is one where the real
  game lets you go on; ``verify()`` checks exactly that with the independent referee.
* ``rules="open"``: only the move rules; a position without legal moves is a dead end.

Every deal solvable in aisleriot mode is solvable in open mode (same moves, fewer positions).
Measured: every Aisleriot seed 1-20000 is won in both modes, almost always straight down the
heuristic's first choice (see ``/work/notes/solvability-zebra.md``).

The endgame is free (goal test)
-------------------------------
*A position whose stock and waste are both empty is won by sending home, again and again, the
tableau pile whose top card has the lowest rank -- and in aisleriot mode every position on the
way is ONGOING.*  Proof: every card not home is in the tableau, in alternating descending runs,
so the lowest card ``c`` (rank ``m``, colour ``x``) not home is the top card of its pile.  Cards
of rank ``m`` and colour ``x`` fit only the 4 foundations whose Ace has colour
``x xor (m-1 odd)`` (a foundation's colour alternates with its height), and these 4 foundations
need exactly the 4 copies of that card (2 suits x 2 decks).  One copy, ``c``, is out, so one of
them has height below ``m``; it is not below ``m-1``, because its next card would be lower than
``m`` and still out.  So it shows rank ``m-1`` and takes ``c`` -- and the whole run of ``c``'s
pile with it (only the top card is tested, the run lands reversed in alternating colour).  The
same foundation takes ``c`` in the hint's step A, which therefore answers TRUE before step B
could read an empty pile: the position is ONGOING (or WON).  Nothing in this argument needs the
position to come from a deal, only a valid layout (each card exactly twice).

So the search's ``won`` kernel is this goal test (``stock and waste empty``; in aisleriot mode
also the status re-checked), and :func:`solve` appends the finishing drags (at most 8, one per
pile) to the moves the search found.

Canonical hashing
-----------------
No rule and no step of the hint looks at a card's suit, only at its colour and rank (foundations
alternate colour "regardless of suit"), so both hashes see a card as its *kind*
``2*(rank-1) + colour``: positions that differ only by swapping same-kind cards (4 copies of each
kind) have isomorphic futures and the same status.  The stock and the waste are hashed as
ordered sequences of kinds with the redeal counter (they decide what is dealt, what a refill
takes and what the redeal turns over); the foundations as the multiset of (Ace colour, height)
-- all the future can see of a foundation.  The tableau piles are hashed as a *multiset* of
ordered piles: the move rules are symmetric in the piles, and so is the hint's truth value
(step A and the recursion of step B only ask "is there some pile ..."), except for its crash,
which depends on where an *empty* pile lies in the scan order.  So whenever some pile is empty
(only possible in a deal once the stock and the waste are empty, i.e. at the goal, or in a
layout given as text) the piles are hashed in slot order instead.  The moves returned are the
ones actually played from the real start, so they replay as they are.  ``hash1`` and ``hash2``
use unrelated per-pile hashes and combining functions (see :mod:`solvers.table` for why two).
The score is not hashed.

Pruning, each with the argument that it never loses a solution
--------------------------------------------------------------
1. *Merged duplicates* (the engine's ``faithful=0`` set): ``dbl s`` equals the drag to the first
   accepting foundation, and all foundations accepting a card show the same colour and rank, so
   they are interchangeable for the rest of the game (the canonical hash does not see which).
2. *Safe home move* (both modes; listed alone).  The top card ``c`` (rank ``r``, colour ``x``)
   of a tableau pile *with at least 2 cards* may go home, and all 4 cards of rank ``r-1`` and
   colour ``1-x`` are home (always true for a 2: the Aces start home).  Then ``c home`` is the
   only move listed.  Proof: nothing can ever be dropped on ``c`` again (that takes a card of
   rank ``r-1``, colour ``1-x``), so in any winning line ``L`` from the position, ``c`` stays the
   top card of whatever pile holds it and the card under it never changes until ``c`` moves.
   Replay ``L`` after ``c home``, skipping ``c``'s own moves (``c`` alone to a pile or home) and
   dropping ``c`` from a group sent home from its pile.  Invariant: the replay's position is
   ``L``'s without ``c`` and with one foundation of height ``r-1`` raised to ``r`` (there is one
   in ``L``'s while ``c`` is out: the 4 foundations of ``c``'s group are all at ``r-1`` or more
   and one lacks its rank-``r`` card).  Every other move of ``L`` stays legal: the stock, the
   waste and every pile top other than ``c`` are the same; a foundation move finds a foundation
   of the needed height (for rank ``r`` the copies of ``c`` still out in ``L`` number at least 2,
   so a height ``r-1`` remains; a group with ``c`` on top becomes a group with the ``r+1`` card
   under ``c`` on top, which the raised foundation takes, and the heights then agree again).
   No pile empties at a different time (``c``'s pile keeps the card under ``c``; a whole pile
   sent home empties in both lines at once), so every refill takes the same card.  In
   aisleriot mode every replayed position is also ONGOING: while ``c`` is out in ``L``, the card
   under ``c``'s place (rank ``r+1``, colour ``1-x``) is a top in the replay and the raised
   foundation takes it (hint step A); afterwards the two lines coincide.  The kernel also
   re-checks the status of the forced child (cheap, belt and braces).
   Not used when ``c`` is alone in its pile: then ``c home`` refills the pile from the waste
   *now*, which changes what later refills and the redeal see, and no such exchange argument
   holds.  The move is ordered first instead, as is a waste card meeting the same condition.
3. Reversible moves (a card between two piles and back) are not pruned; the transposition table
   removes the repeats.

Why the search stays exact: at exhaustion the visited set is closed under the listed children
and holds no goal.  If the start were winnable, take a visited winnable position minimising
(moves to a win, -cards home); it is not a goal, and its listed children include a smaller one
-- the forced child of rule 2 (no more moves to a win, one more card home) or else the first move
of a shortest win, which rule 1 keeps up to the canonical symmetry -- and that child is visited:
a contradiction.  So ``unsolvable`` is a proof; limits give ``unknown``, never ``unsolvable``.
Offline, 1,500 random hard end-games x 2 modes were checked against a plain exhaustive search
over exact positions and the full action set, with no disagreement; the tests repeat a sample.

Move ordering (depth-first) and best-first ``h``: :func:`heuristic`, lower is better.
"""
import time

import numpy as np

from rules import zebra as zb
from rules._jit import jit
from rules.game import Outcome
from rules.moves import DRAG, Move, encode
from rules.registry import get_game
from .result import SOLVED, replay_with_referee
from .search import BestFirst, DFS, GamePlug, Limits
from .table import fmix64 as _fmix, splitmix64 as _splitmix
from .warm import ready_for_timing

STOCK_LEN, STOCK, WASTE_LEN, WASTE = zb.STOCK_LEN, zb.STOCK, zb.WASTE_LEN, zb.WASTE
FOUND_LEN, FOUND, TAB_LEN, TAB, REDEALS = zb.FOUND_LEN, zb.FOUND, zb.TAB_LEN, zb.TAB, zb.REDEALS
FOUND_CAP, TAB_CAP, N_FOUND, N_TAB = zb.FOUND_CAP, zb.TAB_CAP, zb.N_FOUND, zb.N_TAB
FOUND_SLOT0, TAB_SLOT0, WASTE_SLOT = zb.FOUND_SLOT0, zb.TAB_SLOT0, zb.WASTE_SLOT
STATE_SIZE, MAX_MOVES = zb.STATE_SIZE, zb.MAX_MOVES
ONGOING, WON = int(Outcome.ONGOING), int(Outcome.WON)
RULE_MODES = ("aisleriot", "open")

METHODS = {
    "dfs": ("dfs", None),              # depth-first, children by heuristic
    "greedy": ("best-first", (0, 1)),
    "astar": ("best-first", (1, 1)),   # weighted A*: shorter solutions
}

# heuristic weights (see heuristic())
W_WASTE, W_STOCK, W_OUT = 10, 11, 1


# ---- helpers -----------------------------------------------------------------------------
@jit
def _kind(c):
    """What the rules see of a card: ``2*(rank-1) + colour`` (0..25)."""
    s = (c % 52) // 13
    return 2 * (c % 13) + (1 if (s == 1 or s == 2) else 0)


@jit
def _rank(c):
    return c % 13 + 1


@jit
def _red(c):
    s = (c % 52) // 13
    return 1 if (s == 1 or s == 2) else 0


@jit
def _tab_top(state, t):
    return state[TAB + TAB_CAP * t + state[TAB_LEN + t] - 1]


@jit
def _first_home(state, c):
    """First foundation (0..7) taking card ``c``, or -1."""
    for f in range(N_FOUND):
        top = state[FOUND + FOUND_CAP * f + state[FOUND_LEN + f] - 1]
        if _red(top) != _red(c) and _rank(top) + 1 == _rank(c):
            return f
    return -1


@jit
def _safe_home(state, c):
    """All 4 cards of rank ``r-1`` and the other colour are home (so none can need ``c``).

    They sit at height ``r-1`` of the 4 foundations whose Ace has ``c``'s group colour, one
    each, so the test is: all 4 of those foundations have height ``r-1`` or more.
    """
    r = _rank(c)
    ace = _red(c) ^ ((r - 1) & 1)
    n = 0
    for f in range(N_FOUND):
        if _red(state[FOUND + FOUND_CAP * f]) == ace and state[FOUND_LEN + f] >= r - 1:
            n += 1
    return n == 4


@jit
def _legal(state, buf, open_mode):
    if open_mode == 0 and zb._status_kernel(state) != ONGOING:
        return np.int64(0)  # LOST or ABORTED: Aisleriot ends the game here
    # rule 2: a safe home move from a pile of 2 or more cards is played alone
    for t in range(N_TAB):
        if state[TAB_LEN + t] < 2:
            continue
        c = _tab_top(state, t)
        f = _first_home(state, c)
        if f < 0 or not _safe_home(state, c):
            continue
        m = np.int32(encode(DRAG, TAB_SLOT0 + t, 1, FOUND_SLOT0 + f))
        if open_mode == 0:
            # re-check the forced child's status, then take the move back (no refill happened:
            # the pile keeps at least one card)
            zb._apply_kernel(state, m)
            st = zb._status_kernel(state)
            n = state[FOUND_LEN + f] - 1
            state[FOUND + FOUND_CAP * f + n] = -1
            state[FOUND_LEN + f] = n
            k = state[TAB_LEN + t]
            state[TAB + TAB_CAP * t + k] = c
            state[TAB_LEN + t] = k + 1
            state[zb.SCORE] -= 1
            if st != ONGOING and st != WON:
                continue
        buf[0] = m
        return np.int64(1)
    return np.int64(zb._legal_moves_kernel(state, buf, 0))


# ---- plug kernels ------------------------------------------------------------------------
@jit
def legal_aisleriot(state, buf):
    return _legal(state, buf, 0)


@jit
def legal_open(state, buf):
    return _legal(state, buf, 1)


@jit
def apply(state, move):
    zb._apply_kernel(state, move)


@jit
def _goal(state):
    return state[STOCK_LEN] == 0 and state[WASTE_LEN] == 0


@jit
def won_open(state):
    """Goal: stock and waste empty (won by the finishing drags, see the module docstring)."""
    return np.int64(1) if _goal(state) else np.int64(0)


@jit
def won_aisleriot(state):
    """Goal as in open mode, the status re-checked (ONGOING or WON by the docstring's proof)."""
    if not _goal(state):
        return np.int64(0)
    st = zb._status_kernel(state)
    return np.int64(1) if (st == ONGOING or st == WON) else np.int64(0)


@jit
def _piles_ordered(state):
    """Hash piles in slot order when one is empty (the hint's crash depends on the order)."""
    for t in range(N_TAB):
        if state[TAB_LEN + t] == 0:
            return True
    return False


@jit
def _found_key(state):
    """Foundations as a multiset of (Ace colour, height): 4-bit counts at 26 positions."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for f in range(N_FOUND):
        i = 13 * _red(state[FOUND + FOUND_CAP * f]) + state[FOUND_LEN + f] - 1
        if i < 16:
            lo += np.uint64(1) << np.uint64(4 * i)
        else:
            hi += np.uint64(1) << np.uint64(4 * (i - 16))
    return lo, hi


@jit
def hash1(state):
    """FNV-1a over stock and waste kinds; piles as a sum of finalised per-pile FNV hashes."""
    prime = np.uint64(0x100000001B3)
    h = np.uint64(0xCBF29CE484222325)
    sn = state[STOCK_LEN]
    h = (h ^ np.uint64(100 + sn)) * prime
    for i in range(sn):
        h = (h ^ np.uint64(_kind(state[STOCK + i]))) * prime
    wn = state[WASTE_LEN]
    h = (h ^ np.uint64(200 + wn)) * prime
    for i in range(wn):
        h = (h ^ np.uint64(_kind(state[WASTE + i]))) * prime
    h = (h ^ np.uint64(300 + state[REDEALS])) * prime
    ordered = _piles_ordered(state)
    acc = np.uint64(0)
    for t in range(N_TAB):
        n = state[TAB_LEN + t]
        x = np.uint64(0xCBF29CE484222325)
        x = (x ^ np.uint64(64 + n + (16 * (t + 1) if ordered else 0))) * prime
        for i in range(n):
            x = (x ^ np.uint64(_kind(state[TAB + TAB_CAP * t + i]))) * prime
        acc += _splitmix(x)
    lo, hi = _found_key(state)
    h = (h ^ acc) * prime
    h = (h ^ lo) * prime
    h = (h ^ hi) * prime
    return _splitmix(h)


@jit
def hash2(state):
    """Independent: polynomial hashes, piles folded by a sum and a product of odd numbers."""
    mul = np.uint64(0x5851F42D4C957F2D)
    x = np.uint64(0x243F6A8885A308D3)
    sn = state[STOCK_LEN]
    for i in range(sn):
        x = x * mul + np.uint64(_kind(state[STOCK + i]) + 3)
    x = _fmix(x + np.uint64(sn))
    wn = state[WASTE_LEN]
    for i in range(wn):
        x = x * mul + np.uint64(_kind(state[WASTE + i]) + 5)
    x = _fmix(x + np.uint64(wn) * np.uint64(977) + np.uint64(state[REDEALS]) * np.uint64(31337))
    ordered = _piles_ordered(state)
    s_acc = np.uint64(0x13198A2E03707344)
    p_acc = np.uint64(1)
    for t in range(N_TAB):
        n = state[TAB_LEN + t]
        y = np.uint64(0xA4093822299F31D0) + np.uint64(n) * np.uint64(7919)
        if ordered:
            y += np.uint64(t + 1) * np.uint64(0x082EFA98EC4E6C89)
        for i in range(n):
            y = y * mul + np.uint64(_kind(state[TAB + TAB_CAP * t + i]) + 7)
        y = _fmix(y)
        s_acc += _fmix(y ^ np.uint64(0x452821E638D01377))
        p_acc *= y | np.uint64(1)
    lo, hi = _found_key(state)
    return _fmix(_fmix(x ^ s_acc) + p_acc + _fmix(lo * np.uint64(3) + hi))


@jit
def heuristic(state):
    """Lower is better: W_WASTE * waste cards + W_STOCK * stock cards + W_OUT * cards not home.

    Stock and waste cards dominate because emptying them is the goal.  A stock card weighs one
    more than a waste card so that dealing (stock -1, waste +1) is tried before lateral pile
    moves, which change nothing counted here; the redeal (waste back to stock) comes last.
    With equal weights depth-first solutions averaged 225 moves (max 472) on seeds 1-2000,
    with these 181 (max 222), and the nodes expanded fell likewise.
    """
    home = 0
    for f in range(N_FOUND):
        home += state[FOUND_LEN + f]
    return np.int64(W_WASTE * state[WASTE_LEN] + W_STOCK * state[STOCK_LEN] + W_OUT * (104 - home))


@jit
def cost(parent, child, move):
    return np.int64(1)


PLUGS = {
    "aisleriot": GamePlug(legal_aisleriot, apply, won_aisleriot, hash1, hash2, heuristic, cost,
                          MAX_MOVES, STATE_SIZE),
    "open": GamePlug(legal_open, apply, won_open, hash1, hash2, heuristic, cost, MAX_MOVES,
                     STATE_SIZE),
}


# ---- Python API --------------------------------------------------------------------------
def _start_state(state):
    return get_game("zebra").as_state(state)


def finish(array):
    """The finishing drags from a position with stock and waste empty (module docstring):
    the pile whose top card is lowest goes home whole, until the game is won.  Plays them on
    ``array`` in place and returns their codes."""
    codes = []
    while not zb._won_kernel(array):
        best, best_rank = -1, 99
        for t in range(N_TAB):
            n = int(array[TAB_LEN + t])
            if n and _rank(int(array[TAB + TAB_CAP * t + n - 1])) < best_rank:
                best, best_rank = t, _rank(int(array[TAB + TAB_CAP * t + n - 1]))
        f = int(_first_home(array, array[TAB + TAB_CAP * best + array[TAB_LEN + best] - 1]))
        if best < 0 or f < 0:   # impossible by the docstring's proof
            raise AssertionError(f"no finishing move in {get_game('zebra').array_to_layout(array)}")
        code = int(encode(DRAG, TAB_SLOT0 + best, int(array[TAB_LEN + best]), FOUND_SLOT0 + f))
        zb._apply_kernel(array, np.int32(code))
        codes.append(code)
    return codes


verify_result = replay_with_referee


def _runner(method, rules, limits):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    if rules not in RULE_MODES:
        raise ValueError(f"unknown Zebra rule mode {rules!r} (choose from {', '.join(RULE_MODES)})")
    kind, weights = METHODS[method]
    if kind == "dfs":
        return DFS(PLUGS[rules], limits)
    return BestFirst(PLUGS[rules], limits, weights)


def solve(state, method="dfs", max_nodes=None, timeout=None, max_memory_mb=None, rules="aisleriot"):
    """Solve a Zebra position (State, Aisleriot seed, layout text or Layout, or state array).

    ``rules`` is ``"aisleriot"`` (LOST and ABORTED positions are dead ends) or ``"open"``; the
    result carries it as ``result.rules``.  ``max_memory_mb=None`` means 4096 MiB.
    A solution's ``moves`` are Aisleriot actions from the start to the won position.
    """
    runner = _runner(method, rules, Limits(max_nodes, timeout,
                                           4096 if max_memory_mb is None else max_memory_mb))
    start = _start_state(state)
    compiled = ready_for_timing(__name__, warmup, timeout)
    result = runner.run(start.array)
    result.method = method
    result.rules = rules
    result.start = start
    result.compile_seconds = compiled
    result._verifier = verify_result
    if isinstance(state, (int, np.integer)):
        result.deal = int(state)
    if result.verdict == SOLVED:
        end = start.array.copy()
        for c in result.moves:
            zb._apply_kernel(end, np.int32(c))
        codes = list(result.moves) + finish(end)
        result.moves = [Move.from_code(c) for c in codes]
        result.atomic_length = sum(m.n if m.kind == DRAG else 1 for m in result.moves)
    return result


def solve_many(seeds, method="dfs", max_nodes=None, timeout=None, max_memory_mb=None,
               rules="aisleriot", progress=None):
    """Solve Aisleriot seeds one after another in this process; list of SolveResult."""
    out = []
    for i, seed in enumerate(seeds):
        out.append(solve(int(seed), method, max_nodes, timeout, max_memory_mb, rules))
        if progress is not None:
            progress(i, out[-1])
    return out


def warmup():
    """Compile (or load from the cache) every kernel on seed 1; returns seconds taken."""
    t0 = time.perf_counter()
    for rules in RULE_MODES:
        for method in METHODS:
            solve(1, method, max_nodes=50, rules=rules)
    return time.perf_counter() - t0
