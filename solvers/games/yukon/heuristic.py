"""The search's heuristic (lower is better): depth-first move ordering and best-first ``h``.

:func:`heuristic` also reports proven dead ends (``DEAD_END``, :mod:`.dead_end`), so the search
core never expands them (:func:`memo_heuristic`, with a memo in the solver state, also those the
pair search's memo refutes, :mod:`.pair_memo`); with a salt in the solver state (a randomized
probe) it adds a tie-breaking noise term.  Rationale of the weights and of the probes: docs/yukon.md.
"""
import numpy as np
from numba import carray

from rules._jit import jit
from rules.yukon import CAP, DOWN, HEIGHT, N_PILES, TAB
from solvers.core.search import DEAD_END
from rules.cards import rank
from rules.hashing import splitmix64
from solvers.games.yukon.cards import PARENTS, bit, home_height, stack_scratch
from solvers.games.yukon.dead_end import blocker_scan, dead_end, stuck_for_ever
from solvers.games.yukon.pair_memo import memo_address, memo_at, memo_dead_end
from solvers.games.yukon.state import DIRTY, PILE_SCORE, SALT, SOLVER_STATE_SIZE

# weights: cards not home, face-down cards, face-up cards off their natural parent, cards lying
# on the next card a suit needs, Kings not at a pile's bottom, empty piles (a bonus)
W_OUT, W_DOWN, W_BAD, W_BURIED, W_KING, W_EMPTY = 6, 10, 2, 1, 3, 2
# a probe's value: NOISE_SCALE*h plus a pseudo-random term below noise_amp(salt), which cycles
# through NOISE_AMP << 0 .. NOISE_CYCLE - 1 with the salt
NOISE_SCALE, NOISE_AMP, NOISE_CYCLE = 8, 128, 3


@jit
def memo_heuristic(state):
    """:func:`heuristic`, and DEAD_END as well for what the memo of the pair search carried by
    the solver state refutes, tested on the positions the dead-end test leaves alive (the pair
    search's plug: a kernel of its own, so that the other searches need not compile it)."""
    h = heuristic(state)
    if h == DEAD_END:
        return h
    memo = memo_address(state)
    if memo != 0 and memo_dead_end(state, memo_at(memo)):
        return DEAD_END
    return h


@jit
def heuristic(state):
    """DEAD_END for a proven dead end, else :func:`score`.  Testing dead ends here, once per
    new position, spares the search expanding those leaves.  On a solver state one pass over
    the cards serves both, with the piles' stored score parts."""
    if state.shape[0] < SOLVER_STATE_SIZE:
        return DEAD_END if dead_end(state) else score(state)
    under = carray(stack_scratch(), 64)
    home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried = (
        blocker_scan(state, under))
    if stuck_for_ever(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
        return DEAD_END
    n_down = 0
    empty = 0
    piles = 0
    for p in range(N_PILES):
        n_down += np.int64(state[DOWN + p])
        empty += state[HEIGHT + p] == 0
    dirty = np.int64(state[DIRTY])
    for p in range(N_PILES):
        if (dirty >> p) & 1:
            piles += pile_score(state, p)
        else:
            piles += np.int64(state[PILE_SCORE + p])
    return _score_from(state, 52 - cards_home, n_down, piles, buried, empty)


@jit
def score(state):
    """W_OUT*cards not home + W_DOWN*face-down cards + W_BAD*face-up cards not on their natural
    parent (a King at a pile's bottom is fine) + W_BURIED*cards on top of the next card each
    suit needs + W_KING*Kings not at a pile's bottom - W_EMPTY*empty piles; with a salt, the
    probe's noise (:func:`_noise`)."""
    out = 52
    need = 0
    for suit in range(4):
        hh = home_height(state, suit)
        out -= hh
        need |= (hh + 1) << (4 * suit)
    n_down = 0
    piles = 0
    buried = 0
    empty = 0
    for p in range(N_PILES):
        n = np.int64(state[HEIGHT + p])
        n_down += np.int64(state[DOWN + p])
        if n == 0:
            empty += 1
        piles += pile_score(state, p)
        base = TAB + p * CAP
        for i in range(n):
            c = np.int64(state[base + i])
            if ((need >> (4 * (c // 13))) & 15) == rank(c):
                buried += n - 1 - i
    return _score_from(state, out, n_down, piles, buried, empty)


@jit
def pile_score(state, p):
    """Pile ``p``'s part of :func:`score` that depends on it alone: W_BAD*its face-up cards
    off their natural parent + W_KING*its Kings not at the bottom."""
    n = np.int64(state[HEIGHT + p])
    if n == 0:
        return np.int64(0)
    dn = np.int64(state[DOWN + p])
    base = TAB + p * CAP
    c = np.int64(state[base])
    bad = 1 if dn == 0 and rank(c) != 13 else 0
    kings = 0
    for i in range(1, n):
        u = c
        c = np.int64(state[base + i])
        if rank(c) == 13:
            kings += 1
        if i == dn:
            bad += 1
        elif i > dn and PARENTS[c] & bit(u) == np.uint64(0):
            bad += 1
    return W_BAD * bad + W_KING * kings


@jit
def _score_from(state, out, n_down, piles, buried, empty):
    """:func:`score` from its parts (``piles``: the sum of :func:`pile_score`), with the
    probe's noise when the state carries a salt."""
    h = np.int64(W_OUT * out + W_DOWN * n_down + piles + W_BURIED * buried - W_EMPTY * empty)
    salt = np.int64(state[SALT]) if state.shape[0] > SALT else 0
    if salt == 0:
        return h
    return NOISE_SCALE * h + _noise(state, salt)


@jit
def noise_amp(salt):
    """The bound of salt ``salt``'s noise: 128, 256 or 512 in turn, so that the probes mix
    orders close to the heuristic's with looser ones (hard deals differ in which they need)."""
    return NOISE_AMP << (salt % NOISE_CYCLE)


@jit
def _noise(state, salt):
    """A probe's tie-break term, below :func:`noise_amp`: the salt mixed with each pile's
    height, face-down count and top card (what a move changes), so each salt orders near-equal
    children differently."""
    mix = np.uint64(0)
    for p in range(N_PILES):
        n = np.int64(state[HEIGHT + p])
        top = np.int64(state[TAB + p * CAP + n - 1]) if n > 0 else 63
        word = n << 12 | np.int64(state[DOWN + p]) << 6 | top
        mix = mix * np.uint64(0x9E3779B97F4A7C15) + np.uint64(word)
    return np.int64(splitmix64(mix ^ (np.uint64(salt) * np.uint64(0xD1B54A32D192ED03)))
                    >> np.uint64(40)) % noise_amp(salt)
