"""The Yukon plugs for :mod:`solvers.core.search`, one per rule mode, on solver states
(:mod:`.state`): moves from :mod:`~solvers.games.yukon.moves` (pruning rules 1, 2, 5 and 6 of
docs/yukon.md), hashes from :mod:`solvers.games.yukon.hashing`, and the heuristic from :mod:`.heuristic`, which also
hands the core the dead ends to skip; and ``open_class``, the open-mode depth-first search over
classes under natural cuts and twin swaps (:mod:`.classes`), with ``pair_class`` its variant
for the pair search (:mod:`.pair_memo`)."""
import numpy as np

from rules._jit import jit
from rules.yukon import MAX_MOVES
from solvers.core.search import GamePlug
from solvers.games.yukon.hashing import child_hashes, hash1, hash2, refresh
from solvers.games.yukon.classes import (CLASS_MAX_MOVES, class_apply, class_child_hashes, class_hash1,
                      class_hash2, class_legal)
from solvers.games.yukon.heuristic import heuristic, memo_heuristic
from solvers.games.yukon.moves import OPEN_RULES, apply, legal, won
from solvers.games.yukon.pair_memo import stage_signature
from solvers.games.yukon.state import SOLVER_STATE_SIZE, STAGE


@jit
def legal_aisleriot_search(state, buf):
    refresh(state)                   # the parent of the children child_hashes will hash
    return legal(state, buf, 0)


@jit
def legal_open_search(state, buf):
    refresh(state)
    return legal(state, buf, OPEN_RULES)


@jit
def legal_pair_search(state, buf):
    state[STAGE] = stage_signature(state)     # the pair search's memo tests stage changes
    return class_legal(state, buf)


@jit
def cost(parent, child, move):
    return np.int64(1)


PLUGS = {
    "aisleriot": GamePlug(legal_aisleriot_search, apply, won, hash1, hash2, heuristic, cost,
                          MAX_MOVES, SOLVER_STATE_SIZE, child_hashes),
    "open": GamePlug(legal_open_search, apply, won, hash1, hash2, heuristic, cost, MAX_MOVES,
                     SOLVER_STATE_SIZE, child_hashes),
    # open mode, classes under natural cuts searched as one node (.classes); depth-first only
    "open_class": GamePlug(class_legal, class_apply, won, class_hash1, class_hash2,
                           heuristic, cost, CLASS_MAX_MOVES, SOLVER_STATE_SIZE,
                           class_child_hashes),
    # the same, with the pair search's memo (.pair_memo) tested on every new position
    "pair_class": GamePlug(legal_pair_search, class_apply, won, class_hash1, class_hash2,
                           memo_heuristic, cost, CLASS_MAX_MOVES, SOLVER_STATE_SIZE,
                           class_child_hashes),
}
