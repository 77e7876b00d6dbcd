"""Canonical hashing: the seven tableau piles as a multiset, the foundations as suit heights.

Why that is sound for duplicate detection (positions equal up to pile order have the same
future in both rule modes): docs/yukon.md, "Canonical hashing".  :func:`hash1` and
:func:`hash2` use unrelated per-pile terms and combining functions (see :mod:`solvers.core.table`
for why two).  A solver state (:mod:`.state`) keeps each pile's terms and their sums, so
:func:`child_hashes` hashes a child from the two piles a move changes without building it.
"""
import numpy as np

from rules._jit import jit
from rules.cards import EMPTY
from rules.hashing import fmix64, splitmix64
from rules.yukon import CAP, DOWN, FOUND, HEIGHT, N_PILES, TAB
from solvers.games.yukon.heuristic import pile_score
from solvers.games.yukon.moves import is_foundation
from solvers.games.yukon.state import DIRTY, PILE_H1, PILE_H2, PILE_SCORE, SOLVER_STATE_SIZE, SUM1, SUM2


@jit
def hash1(state):
    """Piles as a multiset: the sum of per-pile terms (:func:`_virtual_terms`, read from the
    solver state's stored terms when it has them); foundations by suit."""
    acc = np.uint64(0)
    for p in range(N_PILES):
        acc += _pile_terms(state, p)[0]
    return hash1_of(acc, found_key(state))


@jit
def hash2(state):
    """Independent multiset hash: the sum of per-pile terms (through :func:`mix2`), mixed with
    the foundations."""
    acc = np.uint64(0)
    for p in range(N_PILES):
        acc += mix2(_pile_terms(state, p)[1])
    return hash2_of(acc, found_key(state))


@jit
def source_after(state, move):
    """What a solver move does to its source pile, read without playing it: the pile ``s``
    (0-based), the cards moved ``k``, the destination slot ``d``, the pile's height ``hs`` and
    first index ``base_s``, the cards it keeps and its face-down count after the move."""
    s = ((move >> 16) & 0xFF) - 1
    k = np.int64((move >> 8) & 0xFF)
    d = move & 0xFF
    hs = np.int64(state[HEIGHT + s])
    base_s = TAB + s * CAP
    keep = hs - k
    down_s = np.int64(state[DOWN + s])
    if keep > 0 and down_s >= keep:
        down_s = keep - 1                     # the new top turns face up
    return s, k, d, hs, base_s, keep, down_s


@jit
def child_hashes(state, move, out, at):
    """:func:`hash1` and :func:`hash2` of the position after ``move`` (a solver move) into
    ``out[at]``, ``out[at + 1]``, without building it: only the source and destination piles
    change, so their terms are computed from the parent's cards and swapped into the sums
    the solver state keeps."""
    s, k, d, hs, base_s, keep, down_s = source_after(state, move)
    s1, s2 = _virtual_terms(state, base_s, keep, 0, 0, down_s)
    found = found_key(state)
    t = -1
    d1 = d2 = np.uint64(0)
    if is_foundation(d):
        found += np.uint64(1) << np.uint64(4 * (np.int64(state[base_s + hs - 1]) // 13))
    else:
        t = d - 1
        d1, d2 = _virtual_terms(state, TAB + t * CAP, np.int64(state[HEIGHT + t]),
                                base_s + keep, k, np.int64(state[DOWN + t]))
    if state[DIRTY] == 0:                     # as in the search, after legal's refresh
        sum1 = stored_word(state, SUM1) - stored_word(state, PILE_H1 + 4 * s) + s1
        sum2 = stored_word(state, SUM2) - mix2(stored_word(state, PILE_H2 + 4 * s)) + mix2(s2)
        if t >= 0:
            sum1 += d1 - stored_word(state, PILE_H1 + 4 * t)
            sum2 += mix2(d2) - mix2(stored_word(state, PILE_H2 + 4 * t))
    else:
        sum1 = np.uint64(0)
        sum2 = np.uint64(0)
        for p in range(N_PILES):
            if p == s:
                x1, x2 = s1, s2
            elif p == t:
                x1, x2 = d1, d2
            else:
                x1, x2 = _pile_terms(state, p)
            sum1 += x1
            sum2 += mix2(x2)
    out[at] = hash1_of(sum1, found)
    out[at + 1] = hash2_of(sum2, found)


@jit
def store_all_terms(state):
    """Fill in every pile's stored words and the sums (a fresh solver state)."""
    sum1 = np.uint64(0)
    sum2 = np.uint64(0)
    for p in range(N_PILES):
        _store_terms(state, p)
        a, b = _sum_parts(state, p)
        sum1 += a
        sum2 += b
    put_word(state, SUM1, sum1)
    put_word(state, SUM2, sum2)
    state[DIRTY] = 0


@jit
def refresh(state):
    """Recompute the stored words of the DIRTY piles and the sums (solver states only)."""
    if state.shape[0] >= SOLVER_STATE_SIZE and state[DIRTY] != 0:
        dirty = np.int64(state[DIRTY])
        sum1 = stored_word(state, SUM1)            # the sums still match the stale terms
        sum2 = stored_word(state, SUM2)
        for p in range(N_PILES):
            if dirty >> p & 1:
                a, b = _sum_parts(state, p)
                _store_terms(state, p)
                a2, b2 = _sum_parts(state, p)
                sum1 += a2 - a
                sum2 += b2 - b
        put_word(state, SUM1, sum1)
        put_word(state, SUM2, sum2)
        state[DIRTY] = 0


@jit
def mix2(x):
    """A pile's contribution to hash2's sum."""
    return fmix64(x ^ np.uint64(0xA4093822299F31D0))


@jit
def hash2_of(acc, found):
    return fmix64(acc + fmix64(found + np.uint64(0x243F6A8885A308D3)))


@jit
def hash1_of(acc, found):
    return splitmix64(acc ^ (found * np.uint64(0x9E3779B97F4A7C15)))


@jit
def found_key(state):
    """Each suit's height on the foundations, 4 bits per suit (slots hold one suit each)."""
    key = np.uint64(0)
    for k in range(4):
        f = np.int64(state[FOUND + k])
        if f != EMPTY:
            key |= np.uint64(f % 13 + 1) << np.uint64(4 * (f // 13))
    return key


@jit
def _word(state, at):
    """Entries ``at .. at+3`` packed into one 64-bit word (4 cards per multiply below).  Pile
    entries above the height hold EMPTY (rules.yukon keeps them so), so a pile's last word is
    the same for equal piles."""
    return (np.uint64(state[at] & 0xFFFF) | (np.uint64(state[at + 1] & 0xFFFF) << np.uint64(16))
            | (np.uint64(state[at + 2] & 0xFFFF) << np.uint64(32))
            | (np.uint64(state[at + 3] & 0xFFFF) << np.uint64(48)))


@jit
def _terms(state, p):
    """Pile ``p``'s terms of :func:`hash1` and :func:`hash2` (see :func:`_virtual_terms`)."""
    return _virtual_terms(state, TAB + p * CAP, np.int64(state[HEIGHT + p]), 0, 0,
                          np.int64(state[DOWN + p]))


@jit
def _store_terms(state, p):
    """Pile ``p``'s stored words: its two hash terms and its score part."""
    state[PILE_SCORE + p] = pile_score(state, p)
    t1, t2 = _terms(state, p)
    put_word(state, PILE_H1 + 4 * p, t1)
    put_word(state, PILE_H2 + 4 * p, t2)


@jit
def put_word(state, at, v):
    """Store 64-bit ``v`` in the four int16 words ``at .. at+3`` (read back by :func:`stored_word`)."""
    for k in range(4):
        state[at + k] = np.int16(np.int64((v >> np.uint64(16 * k)) & np.uint64(0xFFFF)) - 32768)


@jit
def stored_word(state, at):
    v = np.uint64(0)
    for k in range(4):
        v |= np.uint64(np.int64(state[at + k]) + 32768) << np.uint64(16 * k)
    return v


@jit
def _sum_parts(state, p):
    """Pile ``p``'s stored terms as they enter SUM1 and SUM2."""
    return stored_word(state, PILE_H1 + 4 * p), mix2(stored_word(state, PILE_H2 + 4 * p))


@jit
def _pile_terms(state, p):
    """Pile ``p``'s :func:`_terms`: stored unless the state has none or they are stale."""
    if state.shape[0] >= SOLVER_STATE_SIZE and (np.int64(state[DIRTY]) >> p) & 1 == 0:
        return stored_word(state, PILE_H1 + 4 * p), stored_word(state, PILE_H2 + 4 * p)
    return _terms(state, p)


@jit
def _virtual_terms(state, base, keep, extra_at, extra_n, down):
    """The two hash terms of a pile, given as its first ``keep`` cards from ``base``, then
    ``extra_n`` cards from ``extra_at``, ``down`` face down (so a child's piles need not be
    built): over the cards packed 4 to a 64-bit word (EMPTY past the top), FNV-1a style
    for :func:`hash1` and a polynomial for :func:`hash2`, each finalised."""
    n = keep + extra_n
    x1 = np.uint64(0xCBF29CE484222325)
    x1 = (x1 ^ np.uint64(down + 64 * n)) * np.uint64(0x100000001B3)
    x2 = np.uint64(0x13198A2E03707344) + np.uint64(down) * np.uint64(977)
    for i in range(0, n, 4):
        if i + 4 <= keep:
            w = _word(state, base + i)
        else:
            w = np.uint64(0)
            for q in range(4):
                j = i + q
                if j < keep:
                    v = np.int64(state[base + j])
                elif j < n:
                    v = np.int64(state[extra_at + j - keep])
                else:
                    v = np.int64(EMPTY)
                w |= np.uint64(v & 0xFFFF) << np.uint64(16 * q)
        x1 = (x1 ^ w) * np.uint64(0x100000001B3)
        x2 = x2 * np.uint64(0x5851F42D4C957F2D) + w
    return splitmix64(x1), fmix64(x2 + np.uint64(n))
