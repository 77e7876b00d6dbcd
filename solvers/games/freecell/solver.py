"""The Freecell solver class: the contract's hooks, and the batch path for Microsoft deals.

Freecell never declares a loss, so both rule modes run the same search.  ``atomic_length``
counts single-card moves: n for a drag of n cards, plus every card autoplay sends home (a
drag to a homecell is that one card).
"""

import numpy as np
from numba import types as nt

from rules.game import State
from rules.moves import DRAG, Move
from rules.registry import get_game, get_referee
from solvers.core.search import core_steps, with_callees
from solvers.core.solver import Solver, check_limits, cyclic_gc_paused, empty_columns
from solvers.core.result import SOLVED, VERDICT_CODE, SolutionError
from solvers.games.freecell.batch import MAX_MS_DEAL, batchable, is_ms_deal, solve_batch
from solvers.games.freecell import fused, moves
from solvers.games.freecell.fused import FreecellBestFirst
from solvers.games.freecell.plug import HW_MAIN, plug, replay_atomic
from solvers.games.freecell.portfolio import run_stages
from solvers.games.freecell import visible


class FreecellSolver(Solver):
    """Freecell: ``fast`` (a portfolio of best-first searches), ``astar`` and ``short``
    (shorter solutions), ``greedy`` and ``dfs``; see :mod:`solvers.games.freecell.portfolio`."""

    GAME = "freecell"
    METHODS = ("fast", "astar", "short", "greedy", "dfs")
    RULE_MODES = ("aisleriot", "open")
    visible_value = staticmethod(visible.value)

    def _search(self, start, method, rules, limits):
        return run_stages(start.array, method, limits)

    def _warm_steps(self, method, rules):
        """The method's search on deal 1, cut short, and what a longer fused search reaches
        besides, ``atomic_length``'s replay, and the depth-first core with the ``complete``
        plug, which re-checks an ``unsolvable`` verdict (and the ``main`` plug for ``dfs``)."""
        steps = plug("main").warm_steps() if method == "dfs" else _driver_steps()
        return {**steps, **plug("complete").warm_steps(), **core_steps("dfs"),
                f"freecell {method}": lambda: self._search(self.game.deal(1), method, rules,
                                                           check_limits(max_nodes=50)),
                "freecell replay_atomic": lambda: replay_atomic(self.game.deal(1).array,
                                                                np.zeros(0, np.int32))}

    def _batch_warm_steps(self):
        def batch():
            for _ in solve_batch([1], self.default_method, check_limits()):
                pass
        return {"freecell batch": batch}

    def atomic_length(self, start, moves):
        """Single-card moves of ``moves`` from ``start``, autoplay included."""
        codes = np.array([m.code for m in moves], dtype=np.int32)
        return int(replay_atomic(start.array, codes))

    def verify(self, result):
        """The referee replay of :meth:`Solver.verify`, and ``atomic_length`` checked against
        the referee's own count (cards moved, plus cards its autoplay sent home)."""
        super().verify(result)
        counted = referee_atomic_length(result)
        if counted != result.atomic_length:
            raise SolutionError(f"atomic length {result.atomic_length} != the referee's count "
                                f"{counted}")
        return True

    def _batch_ok(self, deals, numbering, options, method, limits):
        return (numbering in (None, "microsoft") and not options and batchable(method, limits)
                and all(is_ms_deal(d) for d in deals))

    def _solve_many(self, items, numbering, options, method, rules, limits, progress):
        """Microsoft deal numbers with a batchable method go through the batch kernel
        (:mod:`.batch`: same results as one by one); anything else through the base loop."""
        if not self._batch_ok(items, numbering, options, method, limits):
            return super()._solve_many(items, numbering, options, method, rules, limits,
                                       progress)
        game = self.game
        known = _MOVES.get  # Moves are non-empty tuples: ``or`` only misses on a new code
        out = []      # with the cyclic collector paused (Solver.solve_many, _solve_chunk)
        for i, result, root in solve_batch([int(d) for d in items], method, limits):
            result.moves = [known(c) or _move(c) for c in result.moves]
            result = self._finish(result, State.trusted(game, root.copy()), method, rules)
            result.deal = int(items[i])
            out.append(result)
            if progress is not None:
                progress(i, result)
        return out

    def solve_columns(self, seeds, numbering, options, rules, limits, method=None):
        """:meth:`Solver.solve_columns`, through the batch kernel for Microsoft deals."""
        method = self.check_method(method)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        in_range = seeds.size == 0 or (seeds.min() >= 1 and seeds.max() <= MAX_MS_DEAL)
        if not (in_range and self._batch_ok((), numbering, options, method, limits)):
            return super().solve_columns(seeds, numbering, options, rules, limits, method)
        self.ready()
        out = empty_columns(seeds)
        with cyclic_gc_paused():
            for i, result, _ in solve_batch(seeds.tolist(), method, limits):
                out["seconds"][i] = result.seconds
                out["verdict"][i] = VERDICT_CODE[result.verdict]
                out["nodes"][i] = result.nodes_expanded
                if result.verdict == SOLVED:
                    out["length"][i] = len(result.moves)
        return out


_I, _I8, _I16, _I32, _I64 = nt.int64, nt.int8[::1], nt.int16[::1], nt.int32[::1], nt.int64[::1]
_U64, _U64_2D, _I64_2D = nt.uint64[::1], nt.uint64[:, ::1], nt.int64[:, ::1]
# the kernels the fused driver calls, with the types of its calls: a cold warm-up compiles
# them on several cores ahead of it (solvers.core.search.with_callees)
DRIVER_CALLEES = (
    (moves.apply_child, _I8, nt.int32, nt.boolean),
    (moves.legal_masked, _I8, _I32, _I64, nt.boolean),
    (fused._start, _I16, _U64, _I64, nt.int8[:, ::1], _I64, _I64, nt.UniTuple(_I, 4)),
    (fused._shares_after_home, _I8, _I, _I, _I, _I64, _I64, _I64),
    (fused._drop, _I8, _I, _I, _I, _I, _I64, _U64_2D, _I64_2D),
    (fused._lift, _I8, _I, _I, _I, _I64, _U64_2D, _I64_2D))


def _driver_steps():
    """The fused driver, the longest kernel to compile, after the kernels it calls."""
    return with_callees({"freecell driver": _driver}, "freecell driver", *DRIVER_CALLEES)


def _driver():
    """The fused search driver's kernels beyond a search cut short: a table growth, a win's
    path and the reset before the next search."""
    limits = check_limits(max_nodes=50)
    run = FreecellBestFirst(HW_MAIN, limits)
    run.run(get_game("freecell").deal(1).array)
    run._grow_table()
    run._path()
    run.reset(limits)


def referee_atomic_length(result):
    """Single-card moves of a solved result, counted by replaying it with the referee."""
    ref = get_referee("freecell")(result.start.game.array_to_layout(result.start.array))
    atomic = 0
    for m in result.moves:
        score0 = ref.score
        ref.apply(str(m))
        home = ref.score - score0
        to_home = m.kind == DRAG and 4 <= m.dst < 8
        atomic += (m.n if m.kind == DRAG else 1) + home - (1 if to_home else 0)
    return atomic


_MOVES = {}


def _move(code):
    """``Move.from_code`` memoised: Moves are immutable, and a batch builds ~50 per deal."""
    m = _MOVES.get(code)
    if m is None:
        m = _MOVES[code] = Move.from_code(code)
    return m

