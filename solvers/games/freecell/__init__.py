"""Freecell solver under Aisleriot's rules: ``SOLVER``, the :class:`FreecellSolver` that
:func:`solvers.get_solver` returns.

The rules come from :mod:`rules.freecell` (its solver move set): Aisleriot's supermove
capacity ``(F+1) * 2^(empty fields other than source and destination)`` and forced safe
autoplay, which runs inside each move -- so a solution is a list of player actions in
Aisleriot's vocabulary, and replaying it from the deal reproduces every autoplay.

Modules, in dependency order: :mod:`.inlining` (how the fused kernel's helpers are
compiled), :mod:`.plug` (the generic core's kernels: ``dfs`` and the proof re-check),
:mod:`.moves`, :mod:`.columns` and :mod:`.rows` (the fused kernel's incremental pieces),
:mod:`.fused` (the best-first kernel and its driver), :mod:`.portfolio` (what each method
runs), :mod:`.batch` (many Microsoft deals per kernel call) and :mod:`.solver` (the API).  The pruning, and why
each piece keeps the search exact: docs/freecell.md.
"""
from solvers.games.freecell.batch import ms_deal_array
from solvers.games.freecell.plug import replay_atomic
from solvers.games.freecell.solver import FreecellSolver

SOLVER = FreecellSolver()

__all__ = ["SOLVER", "FreecellSolver", "ms_deal_array", "replay_atomic"]
