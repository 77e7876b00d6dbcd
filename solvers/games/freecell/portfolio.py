"""What each method runs: a portfolio of fused searches, or stages, and the proof re-check.

* ``fast`` (default): a :class:`Portfolio` of eight best-first searches run round-robin, each
  resuming its own search; the first verdict wins.  Hard deals differ between heuristics
  (and between tie orders and weights of one heuristic), so a deal that is hard for one member
  is often easy for another, which cuts the heavy tail.  The first member (f = 4g + 5h)
  decides most deals with short solutions; the others are mostly greedy (f = h), cheap and diverse.
  Each member has its own first slice and all slices grow 2.5x a round.  Members and slices
  were chosen by simulating schedules from 36 candidates' node counts on MS 1-8000, checked
  on MS 8001-16000 (docs/freecell.md, "Methods").
* ``astar``: f = g + h with ``HW_SHORT`` -- shorter solutions -- falling back to f = g + h
  with ``HW_MAIN`` after 20000 nodes, so it decides.
* ``short``: a portfolio whose first member is f = 4g + 3h with ``HW_SHORT_BREAKS`` (shorter
  solutions still), alone for its first 5000 nodes, then round-robin with ``fast``'s members:
  the few deals it finds hard (one or two in a hundred) are decided as ``fast`` decides them,
  while it goes on, so a deal hard for ``fast`` and not for it is not lost either.
* ``greedy`` (f = h) and ``dfs`` (depth-first on the generic core, children by heuristic).

The fused searches list the *search move set* (``moves.legal_masked`` with ``pruned``: no
in-sequence card to a free cell, only the largest group to an empty column), so one that runs
out of positions proves nothing: the verdict then comes from ``EXACT``, a fused search over
every solver move, and each ``unsolvable`` verdict is re-checked by a depth-first search with
the homecell ``dbl`` too (``plug("complete")``), which the solver move set leaves out
(docs/freecell.md).
"""
import threading
import time
from typing import NamedTuple

from solvers.core.result import SOLVED, UNKNOWN, UNSOLVABLE
from solvers.core.search import C_NODES, C_STORED, DFS, Limits
from solvers.games.freecell.fused import FreecellBestFirst
from solvers.games.freecell.plug import (HW_BREAKS, HW_CELLS, HW_MAIN, HW_MAIN_BREAKS, HW_NO_BURIED,
                                         HW_SHORT, HW_SHORT_BREAKS, plug)


class Portfolio(NamedTuple):
    """Searches run round-robin on one deal (see :func:`run_portfolio`)."""
    members: tuple  # (heuristic weights, kind, (wg, wh)) as in a stage
    first: tuple    # each member's node total after the first round, one per member
    factor: float   # ... multiplied by this every round (rounded down to whole nodes)


# The fused kernel's search kinds: True when equal keys are taken newest first.
FC_KINDS = {"fc": False, "fc-newest": True}

FAST = Portfolio(((HW_BREAKS, "fc-newest", (4, 5)), (HW_MAIN_BREAKS, "fc", (0, 1)),
                  (HW_BREAKS, "fc", (0, 1)), (HW_CELLS, "fc-newest", (1, 1)),
                  (HW_BREAKS, "fc-newest", (0, 1)), (HW_NO_BURIED, "fc", (0, 1)),
                  (HW_MAIN, "fc-newest", (0, 1)), (HW_NO_BURIED, "fc-newest", (0, 1))),
                 (300, 200, 150, 1600, 300, 2400, 20, 50), 2.5)
SHORT_FIRST = 5000          # short's own search alone before the fast members join it

# method -> Portfolio, or stages (heuristic weights for the fused kernel, or a plug name for the
# generic depth-first core; kind; weights (g, h); node budget, None = the rest of the limits)
METHODS = {
    "fast": FAST,
    "astar": ((HW_SHORT, "fc", (1, 1), 20000), (HW_MAIN, "fc", (1, 1), None)),
    "short": Portfolio(((HW_SHORT_BREAKS, "fc", (4, 3)),) + FAST.members,
                       (SHORT_FIRST,) + FAST.first, FAST.factor),
    "greedy": ((HW_MAIN, "fc", (0, 1), None),),
    "dfs": (("main", "dfs", None, None),),
}

# The search that decides when a fused search over the search move set ran out of positions:
# greedy over every solver move (heuristic weights, kind, weights (g, h)).
EXACT = (HW_MAIN, "fc", (0, 1))

_RUNNERS = {}


def runner(hw, kind, weights, limits, pruned=True):
    """A search driver per (heuristic, kind, weights, move set) and thread, reused (and
    ``reset``) from one search to the next.  ``hw``: heuristic weights for the fused kernel
    (``kind`` in ``FC_KINDS``; ``pruned``: the search move set), or a plug name for the
    generic depth-first core (``kind`` "dfs")."""
    key = (hw, kind, weights, pruned, threading.get_ident())
    found = _RUNNERS.get(key)
    if found is not None:
        return found.reset(limits)
    if kind in FC_KINDS:
        found = FreecellBestFirst(hw, limits, weights, FC_KINDS[kind], pruned)
    else:
        found = DFS(plug(hw), limits)
    _RUNNERS[key] = found
    return found


def memory_mb(limits):
    """The memory limit of ``limits`` in MiB, as :class:`solvers.core.search.Limits` takes it."""
    return None if limits.max_bytes is None else limits.max_bytes / 2**20


def run_portfolio(array, pf, limits, first_runner=None):
    """Round-robin over ``pf.members``, each resuming its own search; the first verdict wins.

    Member j gets node slices so that after round r it has expanded ``first[j] * factor**r``
    nodes in all (fewer if it finished), so the total is bounded by about (members x the
    luckiest member's cost).  The node and memory limits cover all members together (each is
    given what the others leave).  ``first_runner``: member 0's search, already under way.
    Returns ``(result, runners, nodes)``.
    """
    t0 = time.perf_counter()
    max_nodes, timeout, max_memory_mb = limits.max_nodes, limits.timeout, memory_mb(limits)
    runners = [None] * len(pf.members)
    spent = [0] * len(pf.members)
    if first_runner is not None:
        runners[0] = first_runner
        spent[0] = int(first_runner.ctl[C_NODES])
    scale = 1.0
    result = None
    while True:
        for j, (hw, kind, weights) in enumerate(pf.members):
            total = sum(spent)
            goal = int(pf.first[j] * scale)
            if max_nodes is not None:
                goal = min(goal, spent[j] + max_nodes - total)
            left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
            out_of_time = left_time is not None and left_time <= 0
            if result is not None and (goal <= spent[j] or out_of_time):
                result.limit = "nodes" if goal <= spent[j] else "seconds"
                return result, runners, sum(spent)
            mem = max_memory_mb
            if mem is not None and total > spent[j]:  # another member has run: its memory counts
                others = sum(r.nbytes() for i, r in enumerate(runners) if r is not None and i != j)
                mem -= others / 2**20
            member_limits = Limits(goal, left_time, mem)
            if runners[j] is None:
                runners[j] = runner(hw, kind, weights, member_limits)
            else:
                runners[j].limits = member_limits
            result = runners[j].run(array)
            spent[j] = result.nodes_expanded
            if result.verdict == SOLVED and kind in FC_KINDS:
                result.atomic_length = runners[j].win_g
            if result.verdict != UNKNOWN or result.limit != "nodes":
                return result, runners, sum(spent)
        scale *= pf.factor


def run_stages(array, method, limits, first_runner=None):
    """Search from the state array ``array`` with ``method`` (a key of ``METHODS``) within
    ``limits``: a SolveResult with int move codes, totals over every search it ran, and
    ``atomic_length`` when a fused search found the win (its g).  ``first_runner``: the
    method's first fused search (the portfolio's first member, or the first stage), already
    under way (the batch path)."""
    t0 = time.perf_counter()
    max_nodes, timeout, max_memory_mb = limits.max_nodes, limits.timeout, memory_mb(limits)
    nodes = stored = peak = 0
    result = None
    if isinstance(METHODS[method], Portfolio):
        result, runners, nodes = run_portfolio(array, METHODS[method], limits, first_runner)
        stored = max(int(r.ctl[C_STORED]) for r in runners if r is not None)
        peak = sum(r.peak for r in runners if r is not None)
    fused = result is not None       # the verdict so far comes from a fused search
    stages = () if result is not None else METHODS[method]
    for k, (hw, kind, weights, budget) in enumerate(stages):
        fused = kind in FC_KINDS
        left_nodes = None if max_nodes is None else max_nodes - nodes
        left_time = None if timeout is None else timeout - (time.perf_counter() - t0)
        stage_nodes = left_nodes if budget is None else (
            budget if left_nodes is None else min(budget, left_nodes))
        stage_limits = Limits(stage_nodes, left_time, max_memory_mb)
        if k == 0 and first_runner is not None:         # resumed: its nodes so far count
            search = first_runner
            search.limits = stage_limits
        else:
            search = runner(hw, kind, weights, stage_limits)
        result = search.run(array)
        if result.verdict == SOLVED and kind in FC_KINDS:
            result.atomic_length = search.win_g
        nodes, stored, peak = _add(result, nodes, stored, peak)
        if result.verdict != UNKNOWN or budget is None or result.limit != "nodes":
            break
        if left_nodes is not None and left_nodes - result.nodes_expanded <= 0:
            break

    def left():  # what the searches so far leave of the limits
        return Limits(None if max_nodes is None else max(0, max_nodes - nodes),
                      None if timeout is None else timeout - (time.perf_counter() - t0),
                      max_memory_mb)

    if result.verdict == UNSOLVABLE and fused:
        # a fused search ran out of the search move set: decide over every solver move
        search = runner(*EXACT, left(), pruned=False)
        result = search.run(array)
        if result.verdict == SOLVED:
            result.atomic_length = search.win_g
        nodes, stored, peak = _add(result, nodes, stored, peak)
    if result.verdict == UNSOLVABLE:
        # confirm the proof with the homecell dbl allowed too
        result = DFS(plug("complete"), left()).run(array)
        nodes, stored, peak = _add(result, nodes, stored, peak)
    result.nodes_expanded, result.states_stored, result.peak_memory_bytes = nodes, stored, peak
    result.seconds = time.perf_counter() - t0
    result.method = method
    return result


def _add(result, nodes, stored, peak):
    """The totals of a method's searches with one more search's ``result``: nodes summed,
    states stored and peak memory the largest."""
    return (nodes + result.nodes_expanded, max(stored, result.states_stored),
            max(peak, result.peak_memory_bytes))
