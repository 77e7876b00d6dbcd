"""Yukon solver: ``SOLVER``, the :class:`YukonSolver` that :func:`solvers.get_solver` returns.

Modules, in dependency order: :mod:`.cards` (card arithmetic and masks), :mod:`.state` (the
solver state's extra words), :mod:`.dead_end` (the dead-end test), :mod:`.heuristic`,
:mod:`.moves` (move generation and pruning), :mod:`.hashing` (canonical hashes),
:mod:`.plugs` (the search-core plugs), :mod:`.pairs` and :mod:`.triples` (the pair and
triple tests on a search's start) and :mod:`.solver` (the search schedule and the API).
The pruning rules and their proofs are in docs/yukon.md.
"""
from solvers.games.yukon.solver import YukonSolver

SOLVER = YukonSolver()

__all__ = ["SOLVER", "YukonSolver"]
