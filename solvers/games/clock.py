"""Clock's solver is its forced play: exactly one move is possible at any time, so playing it
out decides the position.  A win is ``"solved"`` with the moves; a loss is ``"unsolvable"``, a
proof, since no other line of play exists.  Limits cannot be hit (at most 52 places and 4 King
turns).  Win-rate batches of seeds go through the Numba batch kernel
:func:`rules.clock.play_many`, on every core as threads of one process.
"""
import time

import numpy as np

from rules import clock
from solvers.core.solver import Solver, empty_columns
from solvers.core.result import SOLVED, UNSOLVABLE, SolveResult, VERDICT_CODE

KING_TURNS = 3      # every forced play from a deal turns three Kings (tests check it)


class ClockSolver(Solver):
    GAME = "clock"
    METHODS = ("forced",)
    RULE_MODES = ("aisleriot",)
    IN_PROCESS = True          # the batch kernel uses every core itself: no worker processes
    USES_LIMITS = False        # a forced play cannot hit a node, time or memory limit
    BATCH_SIZE = 50_000

    def visible_value(self, array):
        """The score: Clock offers no choice, so any value will do."""
        return int(array[clock.SCORE])

    def _search(self, start, method, rules, limits):
        t0 = time.perf_counter()
        state = start.copy()
        moves = clock.play(state)
        verdict = SOLVED if state.is_won() else UNSOLVABLE
        return SolveResult(verdict, [m.code for m in moves], len(moves), len(moves) + 1,
                           time.perf_counter() - t0)

    def solve_columns(self, seeds, numbering, options, rules, limits, method=None):
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        t0 = time.perf_counter()
        won, score = clock.play_many(seeds, parallel=True)
        elapsed = time.perf_counter() - t0
        out = empty_columns(seeds)
        moves = score + KING_TURNS             # places (one point each) + King turns
        out["verdict"] = np.where(won, VERDICT_CODE[SOLVED], VERDICT_CODE[UNSOLVABLE]).astype(np.int8)
        out["length"] = np.where(won, moves, -1)
        out["nodes"] = moves                   # positions on the forced line
        out["seconds"][:] = elapsed / max(1, seeds.shape[0])
        return out

    def _warm_steps(self, method, rules):
        return {"rules.clock.play": lambda: clock.play(self.game.deal(1))}

    def _batch_warm_steps(self):
        return {"rules.clock.play_many": lambda: clock.play_many(np.array([1], dtype=np.int64))}


SOLVER = ClockSolver()
