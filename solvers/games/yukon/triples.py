"""The triple test: the pair test's task (:mod:`.pairs`) with *triples* of facts (h^3).

Triples see what pairs cannot: on the start of deals whose proofs take minutes (963, 2852,
600048, 600815, 600955) it finds a card that can never go home, where the pair test finds none.
It costs far more (a row of bits for each pair of facts, about 300 x 300 of them), so the
solver runs it once on a deal the search has not decided quickly.  The argument is the pair
test's with triples: docs/yukon.md, "The pair test".
"""
import numpy as np

from rules._jit import jit
from solvers.games.yukon.cards import bit_index
from solvers.games.yukon.pairs import A_WIDTH, read_task


@jit
def triple_dead_end(state):
    """True when the h^3 fixpoint shows a card not home that can never go home from ``state``
    (then no win is reachable)."""
    n, n_acts, acts, home, init = read_task(state)
    words = (n + 63) // 64
    # row (x, y), x <= y: the facts z such that the set {x, y, z} can hold together
    rows = np.zeros(n * n * words, np.uint64)
    for x in init:
        for y in init:
            for z in init:
                _mark(rows, n, words, x, y, z)
    return not _fixpoint(rows, n, words, acts, n_acts, home)


@jit
def _row(n, words, x, y):
    return (x * n + y) * words if x <= y else (y * n + x) * words


@jit
def _has(rows, n, words, x, y, z):
    return rows[_row(n, words, x, y) + (z >> 6)] >> np.uint64(z & 63) & np.uint64(1) != 0


@jit
def _put(rows, n, words, x, y, z):
    rows[_row(n, words, x, y) + (z >> 6)] |= np.uint64(1) << np.uint64(z & 63)


@jit
def _mark(rows, n, words, x, y, z):
    """Record that the set {x, y, z} (two or three of them may be equal) can hold together, in
    every row that names it; False if it was recorded already."""
    if _has(rows, n, words, x, y, z):
        return False
    _put(rows, n, words, x, y, z)
    _put(rows, n, words, x, z, y)
    _put(rows, n, words, y, z, x)
    if x == y or y == z or x == z:             # a pair {s, t} or a single: its other names
        s = x
        t = z if x == y else y
        _put(rows, n, words, s, s, t)
        _put(rows, n, words, t, t, s)
        _put(rows, n, words, s, t, s)
        _put(rows, n, words, s, t, t)
    return True


@jit
def _fixpoint(rows, n, words, acts, n_acts, home):
    """Grow ``rows`` towards the h^3 fixpoint; True as soon as every ``home`` fact can hold
    (pairs and triples of them are left unchecked), False if the fixpoint has one that cannot."""
    both = np.empty(words, np.uint64)        # facts that can join all the preconditions
    more = np.empty(words, np.uint64)        # ... together with q1 as well
    grown = True
    while grown:
        grown = False
        for a in range(n_acts):
            base = a * A_WIDTH
            for w in range(words):
                both[w] = ~np.uint64(0)
            for i in range(4):
                p = np.int64(acts[base + i])
                if p < 0:
                    continue
                for j in range(i, 4):
                    p2 = np.int64(acts[base + j])
                    if p2 >= 0:
                        r = _row(n, words, p, p2)
                        for w in range(words):
                            both[w] &= rows[r + w]
            ok = True
            for i in range(4):                 # the preconditions can hold together
                p = np.int64(acts[base + i])
                if p >= 0 and both[p >> 6] >> np.uint64(p & 63) & np.uint64(1) == 0:
                    ok = False
            if not ok:
                continue
            for i in range(4, 8):              # facts the action adds or deletes join the added
                f = np.int64(acts[base + i])   # facts only as one of them
                if f >= 0:
                    both[f >> 6] &= ~(np.uint64(1) << np.uint64(f & 63))
            a0 = np.int64(acts[base + 4])
            a1 = np.int64(acts[base + 5])
            grown |= _mark(rows, n, words, a0, a0, a0)
            if a1 >= 0:
                grown |= _mark(rows, n, words, a1, a1, a1)
                grown |= _mark(rows, n, words, a0, a1, a1)
            for w in range(words):
                m = both[w]
                while m != np.uint64(0):
                    low = m & (~m + np.uint64(1))
                    m ^= low
                    q1 = w * 64 + bit_index(low)
                    grown |= _mark(rows, n, words, a0, a0, q1)
                    if a1 >= 0:
                        grown |= _mark(rows, n, words, a1, a1, q1)
                        grown |= _mark(rows, n, words, a0, a1, q1)
                    # q2 > q1 that can join the preconditions and q1: {added, q1, q2}
                    r = _row(n, words, q1, q1)
                    for v in range(words):
                        more[v] = both[v] & rows[r + v]
                    for i in range(4):
                        p = np.int64(acts[base + i])
                        if p >= 0:
                            r = _row(n, words, p, q1)
                            for v in range(words):
                                more[v] &= rows[r + v]
                    for v in range(w, words):
                        if v == w:
                            more[v] &= ~((low << np.uint64(1)) - np.uint64(1))
                        for k in range(4, 6):
                            add = np.int64(acts[base + k])
                            if add < 0:
                                continue
                            new = more[v] & ~rows[_row(n, words, add, q1) + v]
                            while new != np.uint64(0):
                                low2 = new & (~new + np.uint64(1))
                                new ^= low2
                                grown |= _mark(rows, n, words, add, q1, v * 64 + bit_index(low2))
        done = True
        for c in range(52):
            h = home[c]
            if h >= 0 and not _has(rows, n, words, h, h, h):
                done = False
        if done:
            return True
    return False
