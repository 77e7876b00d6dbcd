"""Zebra solver (thoughtful: the whole stock order is known): the Zebra plug for the search core.

Rules come from :mod:`rules.zebra` (its solver move set).  ``rules="aisleriot"`` treats
Aisleriot's continue predicate as terminal, ``rules="open"`` only the move rules.  A position
with stock and waste empty is a win (the finishing drags are appended to the solution); both
hashes see cards by colour and rank and the tableau as a multiset of piles; a safe home move
is listed alone.  The arguments that each of these keeps the search exact are in
``docs/zebra.md``.
"""
import numpy as np

from rules import zebra as zb
from rules._jit import jit
from rules.cards import colour, rank
from rules.game import Outcome
from rules.hashing import fmix64, splitmix64
from rules.moves import DRAG, encode
from rules.observation import HIDDEN
from rules.registry import get_game
from solvers.core.solver import Solver, check_limits
from solvers.core.result import SOLVED
from solvers.core import methods
from solvers.core.search import GamePlug, core_steps

STOCK_LEN, STOCK, WASTE_LEN, WASTE = zb.STOCK_LEN, zb.STOCK, zb.WASTE_LEN, zb.WASTE
FOUND_LEN, FOUND, TAB_LEN, TAB, REDEALS = zb.FOUND_LEN, zb.FOUND, zb.TAB_LEN, zb.TAB, zb.REDEALS
FOUND_CAP, TAB_CAP, N_FOUND, N_TAB = zb.FOUND_CAP, zb.TAB_CAP, zb.N_FOUND, zb.N_TAB
FOUND_SLOT0, TAB_SLOT0, WASTE_SLOT = zb.FOUND_SLOT0, zb.TAB_SLOT0, zb.WASTE_SLOT
STATE_SIZE, MAX_MOVES = zb.STATE_SIZE, zb.MAX_MOVES
ONGOING, WON = int(Outcome.ONGOING), int(Outcome.WON)
RULE_MODES = ("aisleriot", "open")


# heuristic weights (see heuristic())
W_WASTE, W_STOCK, W_OUT = 10, 11, 1


# ---- helpers -----------------------------------------------------------------------------
@jit
def _kind(c):
    """What the rules see of a card: ``2*(rank-1) + colour`` (0..25)."""
    s = (c % 52) // 13
    return 2 * (c % 13) + (1 if (s == 1 or s == 2) else 0)


@jit
def _tab_top(state, t):
    return state[TAB + TAB_CAP * t + state[TAB_LEN + t] - 1]


@jit
def _first_home(state, c):
    """First foundation (0..7) taking card ``c``, or -1."""
    for f in range(N_FOUND):
        top = state[FOUND + FOUND_CAP * f + state[FOUND_LEN + f] - 1]
        if colour(top) != colour(c) and rank(top) + 1 == rank(c):
            return f
    return -1


@jit
def _safe_home(state, c):
    """All 4 cards of rank ``r-1`` and the other colour are home (so none can need ``c``).

    They sit at height ``r-1`` of the 4 foundations whose Ace has ``c``'s group colour, one
    each, so the test is: all 4 of those foundations have height ``r-1`` or more.
    """
    r = rank(c)
    ace = colour(c) ^ ((r - 1) & 1)
    n = 0
    for f in range(N_FOUND):
        if colour(state[FOUND + FOUND_CAP * f]) == ace and state[FOUND_LEN + f] >= r - 1:
            n += 1
    return n == 4


@jit
def _legal(state, buf, open_mode):
    if open_mode == 0 and zb.status(state) != ONGOING:
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
            zb.apply(state, m)
            st = zb.status(state)
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
    return np.int64(zb.legal_moves(state, buf, 0))


# ---- plug kernels ------------------------------------------------------------------------
@jit
def legal_aisleriot(state, buf):
    return _legal(state, buf, 0)


@jit
def legal_open(state, buf):
    return _legal(state, buf, 1)


@jit
def apply(state, move):
    zb.apply(state, move)


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
    st = zb.status(state)
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
        i = 13 * colour(state[FOUND + FOUND_CAP * f]) + state[FOUND_LEN + f] - 1
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
        acc += splitmix64(x)
    lo, hi = _found_key(state)
    h = (h ^ acc) * prime
    h = (h ^ lo) * prime
    h = (h ^ hi) * prime
    return splitmix64(h)


@jit
def hash2(state):
    """Independent: polynomial hashes, piles folded by a sum and a product of odd numbers."""
    mul = np.uint64(0x5851F42D4C957F2D)
    x = np.uint64(0x243F6A8885A308D3)
    sn = state[STOCK_LEN]
    for i in range(sn):
        x = x * mul + np.uint64(_kind(state[STOCK + i]) + 3)
    x = fmix64(x + np.uint64(sn))
    wn = state[WASTE_LEN]
    for i in range(wn):
        x = x * mul + np.uint64(_kind(state[WASTE + i]) + 5)
    x = fmix64(x + np.uint64(wn) * np.uint64(977) + np.uint64(state[REDEALS]) * np.uint64(31337))
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
        y = fmix64(y)
        s_acc += fmix64(y ^ np.uint64(0x452821E638D01377))
        p_acc *= y | np.uint64(1)
    lo, hi = _found_key(state)
    return fmix64(fmix64(x ^ s_acc) + p_acc + fmix64(lo * np.uint64(3) + hi))


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


#: The search plug of each rule mode.
PLUGS = {
    "aisleriot": GamePlug(legal_aisleriot, apply, won_aisleriot, hash1, hash2, heuristic, cost,
                          MAX_MOVES, STATE_SIZE),
    "open": GamePlug(legal_open, apply, won_open, hash1, hash2, heuristic, cost, MAX_MOVES,
                     STATE_SIZE),
}


# ---- the solver ---------------------------------------------------------------------------
def finish(array):
    """The finishing drags from a position with stock and waste empty (``docs/zebra.md``): the
    pile whose top card is lowest goes home whole, until the game is won.  Plays them on
    ``array`` in place and returns their codes."""
    codes = []
    while not zb.won(array):
        best, best_rank = -1, 99
        for t in range(N_TAB):
            n = int(array[TAB_LEN + t])
            if n and rank(int(array[TAB + TAB_CAP * t + n - 1])) < best_rank:
                best, best_rank = t, rank(int(array[TAB + TAB_CAP * t + n - 1]))
        f = -1 if best < 0 else int(_first_home(array, array[TAB + TAB_CAP * best + array[TAB_LEN + best] - 1]))
        if f < 0:   # impossible by the argument in docs/zebra.md
            raise AssertionError(f"no finishing move in {get_game('zebra').array_to_layout(array)}")
        code = int(encode(DRAG, TAB_SLOT0 + best, int(array[TAB_LEN + best]), FOUND_SLOT0 + f))
        zb.apply(array, np.int32(code))
        codes.append(code)
    return codes


class ZebraSolver(Solver):
    """Depth-first (default), greedy or weighted A* over :data:`PLUGS`."""
    # TenAcrossSolver's shape, by the solver contract: they differ in plugs and solution finishing

    GAME = "zebra"
    METHODS = methods.METHODS
    RULE_MODES = RULE_MODES

    def visible_value(self, array):
        """Cards home and on the tableau, fewer cards waiting in stock and waste, and cards a
        move would turn up (foreseen, still hidden, in the waste or a refilled pile)."""
        a = array.tolist()
        home = sum(a[zb.FOUND_LEN:zb.FOUND_LEN + zb.N_FOUND])
        tableau = sum(a[zb.TAB_LEN:zb.TAB_LEN + zb.N_TAB])
        waiting = a[zb.WASTE_LEN] + a[zb.STOCK_LEN]
        revealed = sum(1 for i in range(zb.WASTE, zb.WASTE + a[zb.WASTE_LEN]) if a[i] == HIDDEN)
        revealed += sum(1 for t in range(zb.N_TAB) if a[zb.TAB_LEN + t] and a[zb.TAB + zb.TAB_CAP * t] == HIDDEN)
        return 10 * home + 2 * tableau - waiting + revealed

    def _search(self, start, method, rules, limits):
        result = methods.run(method, PLUGS[rules], start.array, limits)
        if result.verdict == SOLVED:
            end = start.array.copy()
            for c in result.moves:
                zb.apply(end, np.int32(c))
            result.moves = list(result.moves) + finish(end)
        return result

    def _warm_steps(self, method, rules):
        def search():
            self._search(self.game.deal(1), method, rules, check_limits(50))
            encode(DRAG, TAB_SLOT0, 1, FOUND_SLOT0)     # as finish() calls it, on Python ints
        return {**PLUGS[rules].warm_steps(), **core_steps("dfs" if method == "dfs" else "best-first"),
                f"zebra {method} {rules}": search}


SOLVER = ZebraSolver()
