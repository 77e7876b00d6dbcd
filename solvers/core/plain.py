"""A plug with none of a solver's knowledge: the engine's own kernels, every action Aisleriot
accepts, no pruning, no heuristic.

:func:`plain_plug` wraps a game's rules kernels (:class:`rules.game.Kernels`) as a
:class:`solvers.core.search.GamePlug`, so the search core's depth-first search explores every
position reachable under Aisleriot's rules, told apart by the rules' canonical hash (the second
table hash is a remix of it: positions are one when their 64-bit canonical hashes are equal).
It shares no code with the game's solver (its move generation, pruning rules, solver hashes or
dead-end tests), which is what makes it a check of the solver's "unsolvable" verdicts
(:mod:`solvers.studies.atlas_build`).  In ``strict`` (aisleriot) mode a position Aisleriot
ends has no moves.

The wrappers are closures over one game's kernels, so Numba compiles them in each process
(seconds) instead of caching them on disk: only the atlas's re-check uses them.
"""
import functools

import numpy as np
from numba import njit

from rules import get_game
from rules.kernel_types import Outcome
from solvers.core.search import GamePlug

_ONGOING = int(Outcome.ONGOING)
_MIX = np.uint64(0xBF58476D1CE4E5B9)


@functools.lru_cache(maxsize=None)
def plain_plug(game_name, strict):
    """The plain plug of ``game_name`` (made once a process); ``strict``: aisleriot rule mode."""
    game = get_game(game_name)
    k = game.kernels
    legal_moves, apply_k, status, won_k, hash_k = k.legal_moves, k.apply, k.status, k.won, k.hash
    strict = bool(strict)

    @njit(nogil=True)
    def legal(state, buf):
        if strict and status(state) != _ONGOING:
            return np.int64(0)
        return np.int64(legal_moves(state, buf, 1))

    @njit(nogil=True)
    def apply(state, move):
        apply_k(state, move)

    @njit(nogil=True)
    def won(state):
        return np.int64(1) if won_k(state) else np.int64(0)

    @njit(nogil=True)
    def hash1(state):
        return np.uint64(hash_k(state))

    @njit(nogil=True)
    def hash2(state):
        h = np.uint64(hash_k(state))
        return (h ^ (h >> np.uint64(31))) * _MIX

    @njit(nogil=True)
    def heuristic(state):
        return np.int64(0)

    @njit(nogil=True)
    def cost(parent, child, move):
        return np.int64(1)

    return GamePlug(legal, apply, won, hash1, hash2, heuristic, cost, game.max_moves, game.state_size)
