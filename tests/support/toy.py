"""A toy puzzle whose whole state space is known, as a search plug (tests of the search core).

``N`` tokens in a row; a move rotates three neighbours left (``i, i+1, i+2``); the puzzle is won
when the row is sorted.  3-cycles are even permutations, so exactly the even permutations are
reachable (N!/2 positions, ``EVEN``) and an odd start (``ODD``) is unsolvable -- a proof the
search must find by exhausting the space, and a count (``states_stored``) a test can check.
"""
import itertools

import numpy as np

from rules._jit import jit
from solvers.core.search import DEAD_END, GamePlug

N = 6
MAX_MOVES = N - 2  # one rotation per start position i = 0..N-3


@jit
def toy_legal(state, buf):
    for i in range(N - 2):
        buf[i] = i
    return np.int64(N - 2)


@jit
def toy_apply(state, move):
    i = move
    a = state[i]
    state[i] = state[i + 1]
    state[i + 1] = state[i + 2]
    state[i + 2] = a


@jit
def toy_won(state):
    for i in range(N):
        if state[i] != i:
            return np.int64(0)
    return np.int64(1)


@jit
def toy_hash1(state):
    h = np.uint64(14695981039346656037)
    for i in range(N):
        h = (h ^ np.uint64(state[i] + 1)) * np.uint64(1099511628211)
    return h


@jit
def toy_hash2(state):
    h = np.uint64(0)
    for i in range(N):
        h = h * np.uint64(31) + np.uint64(state[i] + 7)
    return h * np.uint64(0x9E3779B97F4A7C15)


@jit
def toy_weak_hash(state):
    """Collides all the time: only the two hashes together identify a position."""
    return np.uint64(state[0] == 0)


@jit
def toy_heuristic(state):
    h = 0
    for i in range(N):
        if state[i] != i:
            h += 1
    return np.int64(h)


@jit
def toy_cost(parent, child, move):
    return np.int64(1)


@jit
def toy_child_hashes(state, move, out, at):
    """toy_hash1/toy_hash2 of the rotated row, read through the rotation instead of built."""
    h1 = np.uint64(14695981039346656037)
    h2 = np.uint64(0)
    for j in range(N):
        src = j + 1 if move <= j < move + 2 else (move if j == move + 2 else j)
        h1 = (h1 ^ np.uint64(state[src] + 1)) * np.uint64(1099511628211)
        h2 = h2 * np.uint64(31) + np.uint64(state[src] + 7)
    out[at] = h1
    out[at + 1] = h2 * np.uint64(0x9E3779B97F4A7C15)


@jit
def toy_heuristic_marking(state):
    """Marks every row starting with the largest token as a dead end (for the core's test:
    the core must trust the mark, never expanding or passing through such a row)."""
    if state[0] == N - 1:
        return DEAD_END
    return toy_heuristic(state)


def plug(hash1=toy_hash1, hash2=toy_hash2, heuristic=toy_heuristic, child_hashes=None):
    return GamePlug(toy_legal, toy_apply, toy_won, hash1, hash2, heuristic, toy_cost,
                    MAX_MOVES, N, child_hashes)


def replay(start, moves):
    s = np.array(start, dtype=np.int16)
    for m in moves:
        assert 0 <= m < N - 2
        toy_apply(s, np.int32(m))
    return bool(toy_won(s))


def parity(perm):
    inv = sum(1 for i in range(len(perm)) for j in range(i + 1, len(perm)) if perm[i] > perm[j])
    return inv % 2


EVEN = [p for p in itertools.permutations(range(N)) if parity(p) == 0]
ODD = [p for p in itertools.permutations(range(N)) if parity(p) == 1]
