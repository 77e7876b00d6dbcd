"""The Yukon solver (thoughtful: every card known, face-down ones included) behind the one
solver contract (:class:`solvers.core.solver.Solver`), and its search schedule.

The pair test (:mod:`.pairs`) refutes a start without a search: best-first runs it first.
Depth-first (the default) runs the complete open-mode search for ``LEAD_NODES`` (it refutes most
of those deals at once too), then the pair test, then randomized probes (:func:`_probe`), the
triple test (:mod:`.triples`) on the start after the first ``EARLY_PROBES`` of them, then the
pair search (:func:`_pair_search`): the complete search with the pair test inside, for the rest
of the limits on one thread, or for a slice before it goes on as the plain complete search on
several threads; aisleriot mode takes the open-mode verdict when it carries over and searches
again in aisleriot mode only when it does not.  Why this order, and why an open-mode answer
decides aisleriot mode: docs/yukon.md, "Rule modes" and "Search schedule".
"""
import time

import numpy as np

from rules import yukon as yk
from rules._jit import jit
from rules.yukon import ONGOING, STATE_SIZE
from solvers.core import methods
from solvers.core.solver import DEFAULT_MEMORY_MB, Solver
from solvers.core.result import SOLVED, UNKNOWN, UNSOLVABLE, SolutionError, SolveResult
from solvers.core.search import BestFirst, DFS, Limits, core_steps, name_of, reached
from solvers.core.split_dfs import SplitDFS, run_dfs
from solvers.core.warm import needs
from solvers.games.yukon.classes import CLASS_MAX_MOVES, K_MAX, class_legal, expand_line
from solvers.games.yukon.hashing import store_all_terms
from solvers.games.yukon.pair_memo import attach, new_memo
from solvers.games.yukon.pairs import pair_dead_end
from solvers.games.yukon.triples import triple_dead_end
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.state import SALT, SOLVER_STATE_SIZE
from solvers.games.yukon import visible

# Randomized probes: the node budget of one probe, at most PROBES of them, and at most
# PROBE_SHARE of a time or node limit on them all; the first EARLY_PROBES run before the triple
# test (they decide most deals the probes decide), the others after it.
PROBE_NODES, PROBES, PROBE_SHARE, EARLY_PROBES = 200, 750, 0.3, 50
LEAD_NODES = 20000          # complete-search nodes before the probes
# The pair search after the probes: on one thread, all that is left of the limits; before
# the threads take over (``threads`` > 1), at most PAIR_SHARE of it, PAIR_SECONDS and
# PAIR_NODES classes.
PAIR_SHARE, PAIR_SECONDS, PAIR_NODES = 0.2, 2.0, 100_000
# The triple test on a deal the lead left open: at most about a second and
# TRIPLE_MB of memory, so only with at least TRIPLE_SECONDS left and 4 * TRIPLE_MB allowed.
TRIPLE_SECONDS, TRIPLE_MB = 2.0, 8
# After the probes the table is sized once from what is left of the limits: positions entered
# per expanded node (dead ends are not entered) and per second of a long proof (estimates), up
# to RESERVE_STATES (a 256 MB table; a bigger one costs more in fresh pages than rehashing
# saves).
STATES_PER_NODE, STATES_PER_SECOND, RESERVE_STATES = 1.0, 500_000, 10_000_000


class YukonSolver(Solver):
    """Yukon: depth-first with probes (``dfs``), greedy best-first, or weighted A*; rule modes
    ``aisleriot`` (Aisleriot's LOST positions end the game) and ``open`` (move rules only)."""

    GAME = "yukon"
    METHODS = methods.METHODS
    RULE_MODES = ("aisleriot", "open")
    visible_value = staticmethod(visible.value)

    def _search(self, start, method, rules, limits):
        return search(start.array, method, rules, limits)

    def _warm_steps(self, method, rules):
        """What a search needs from its start, each step run on deal 1 and cut short:
        depth-first, the lead's class search and the replay checks of its lines; best-first,
        the pair test and its plug.  The rest waits for :meth:`_stage_steps`."""
        limits = Limits(50, None, DEFAULT_MEMORY_MB)
        if method != "dfs":
            return {"yukon pair test": lambda: pair_dead_end(self.start_state(1).array),
                    **PLUGS[rules].warm_steps(), **core_steps("best-first"),
                    f"yukon {method} {rules}": lambda: search(self.start_state(1).array,
                                                              method, rules, limits)}

        def lead():
            state = self.start_state(1)
            start = state.array
            root, buf = solver_root(start), np.empty(CLASS_MAX_MOVES, dtype=np.int32)
            engine_moves(start, [int(buf[0])] if class_legal(root, buf) else [])
            never_lost(start, [state.legal_moves()[0].code])
        # the class search's legal moves first: the longest step, which this process starts
        # while a cold warm-up's helpers take the others in order (solvers.core.warm); the
        # core's kernels next (they call none of the plug's), so that the helper is busy
        # until this process is done; the lead's own step, which calls the class search's
        # legal moves, last and in this process
        plug = PLUGS["open_class"].warm_steps()
        first = next(iter(plug))
        return {first: plug[first], **core_steps("dfs"), **plug, "yukon lead": needs(lead, first)}

    def _stage_steps(self, method, rules):
        """Depth-first, the stages after the lead (:func:`search`): ``probes`` (the pair test
        and the probes' plug), ``pair search`` (the triple test and the pair search's plug:
        most deals the lead leaves open are decided by a probe, whose first solve so compiles
        about a third of the stages' work) and ``aisleriot`` (the second search, for an
        open-mode line Aisleriot would not let be played)."""
        if method != "dfs":
            return {}
        limits = Limits(50, None, DEFAULT_MEMORY_MB)

        def probes():
            start = self.start_state(1).array
            _probe(solver_root(start), range(1, 3), _ProbeBudget(None, None), limits, rules)

        def pair_search():
            start = self.start_state(1).array
            _pair_search(solver_root(start), start, 50, None, limits, rules, whole=True)
        # the pair search's plug: its two kernels of its own (the legal moves and the memo's
        # heuristic) around the triple test, so that two processes of a cold warm-up take the
        # longest two first and the search's own step waits for them rather than compiling them
        # again in a helper
        plug = PLUGS["pair_class"]
        pair_plug = plug.warm_steps()
        legal_step, memo_step = name_of(plug.legal), name_of(plug.heuristic)
        stages = {"probes": {"yukon pair test": lambda: pair_dead_end(self.start_state(1).array),
                             **PLUGS["open"].warm_steps(), "yukon probes": probes},
                  "pair search": {memo_step: pair_plug[memo_step],
                                  "yukon triple test": lambda: triple_dead_end(self.start_state(1).array),
                                  **pair_plug,
                                  "yukon pair search": needs(pair_search, memo_step, legal_step)}}
        if rules == "aisleriot":
            stages["aisleriot"] = PLUGS["aisleriot"].warm_steps()
        return stages


def solver_root(array):
    """The solver state for a rules state array: a copy, salt 0, every pile's hash terms."""
    root = np.zeros(SOLVER_STATE_SIZE, dtype=np.int16)
    root[:STATE_SIZE] = array[:STATE_SIZE]
    store_all_terms(root)
    return root


def never_lost(start, codes):
    """True if no position before the end of ``codes`` (move codes from array ``start``) is
    LOST, i.e. Aisleriot would let the whole line be played."""
    return bool(_never_lost(np.array(start, dtype=np.int16), np.asarray(codes, dtype=np.int32)))


@jit
def _never_lost(state, codes):
    """:func:`never_lost`, playing ``codes`` on ``state``."""
    for i in range(codes.shape[0]):
        if yk.status(state) != ONGOING:
            return False
        yk.apply(state, codes[i])
    return True


def _runner(method, rules, limits):
    if method == "dfs":
        plug = PLUGS["open_class" if rules == "open" else rules]
        return DFS(plug, limits, keys_only=True, store_dead_ends=False)
    return BestFirst(PLUGS[rules], limits, methods.WEIGHTS[method])


def engine_moves(start, codes):
    """The engine move codes of a line of the class search (``PLUGS["open_class"]``) played
    from rules state array ``start``: each code's member switches, then its move."""
    codes = np.asarray(codes, dtype=np.int32)
    out = np.empty(max(1, len(codes)) * (K_MAX + 1), dtype=np.int32)
    n = expand_line(np.asarray(start, dtype=np.int16), codes, out)
    if n < 0:
        raise SolutionError(f"move code {int(codes[-1 - n]):#x} names no member of its class")
    return out[:n].tolist()


def _run_complete(complete, root, start, threads=1):
    """Run (or resume) the complete open-mode search, on ``threads`` threads if more than one
    (it must have been paused then); its moves as engine moves."""
    r = complete.run(root) if threads == 1 else SplitDFS(complete, threads).run()
    r.moves = engine_moves(start, r.moves)
    return r


def _remaining(limits, t0, used_nodes):
    nodes = None if limits.max_nodes is None else max(0, limits.max_nodes - used_nodes)
    secs = None if limits.timeout is None else max(0.0, limits.timeout - (time.perf_counter() - t0))
    return nodes, secs


class _ProbeBudget:
    """What the probes may spend in all: at most PROBE_SHARE of ``max_nodes`` and ``timeout``
    (the limits left after the lead), PROBES * PROBE_NODES nodes at most; spent as they run."""

    def __init__(self, max_nodes, timeout):
        self.nodes = PROBES * PROBE_NODES
        if max_nodes is not None:
            self.nodes = min(self.nodes, int(max_nodes * PROBE_SHARE))
        self.seconds = None if timeout is None else timeout * PROBE_SHARE
        self.spent_nodes, self.spent_seconds = 0, 0.0

    def left(self):
        return self.spent_nodes + PROBE_NODES <= self.nodes and (
            self.seconds is None or self.spent_seconds < self.seconds)


def _probe(root, salts, budget, limits, rules):
    """Randomized restarts: a depth-first search of PROBE_NODES nodes for each salt of
    ``salts`` (the heuristic's noise) while ``budget`` (a :class:`_ProbeBudget`) lasts.  A probe
    that exhausts the space proves the deal unsolvable; in aisleriot mode a probe's (open-mode)
    solution counts only if :func:`never_lost` holds on it.  Returns the deciding result or
    None; the nodes spent are the budget's."""
    t0 = time.perf_counter()
    runner = DFS(PLUGS["open"], limits.replace(PROBE_NODES, None), keys_only=True,
                 store_dead_ends=False)
    for salt in salts:
        budget.spent_seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        if not budget.left():
            break
        root[SALT] = salt
        r = runner.reset(limits.replace(PROBE_NODES, None)).run(root)
        budget.spent_nodes += r.nodes_expanded
        if r.verdict == UNSOLVABLE or (r.verdict == SOLVED and (
                rules == "open" or never_lost(root[:STATE_SIZE], r.moves))):
            root[SALT] = 0
            return r
        if r.limit == "memory":
            break                          # the complete search reports the memory limit
    budget.spent_seconds += time.perf_counter() - t0
    root[SALT] = 0
    return None


def _pair_search(root, start, max_nodes, timeout, limits, rules, whole=False):
    """The class search with the pair test inside (:mod:`.pair_memo`) on ``max_nodes`` and
    ``timeout`` if ``whole``, else on at most PAIR_SHARE of them (PAIR_NODES, PAIR_SECONDS at
    most): complete, so it may prove the deal unsolvable too; in aisleriot mode its solution
    counts only if :func:`never_lost` holds on it.  Returns the deciding result (engine moves)
    or None, the nodes spent, and the paused search with its root, the memo detached from
    every state on its stack: from there it goes on as the plain complete search."""
    if whole:
        nodes, secs = max_nodes, timeout
    else:
        nodes = PAIR_NODES if max_nodes is None else min(PAIR_NODES, int(max_nodes * PAIR_SHARE))
        secs = PAIR_SECONDS if timeout is None else min(PAIR_SECONDS, timeout * PAIR_SHARE)
    memo = new_memo()                  # alive while states carry its address
    proot = root.copy()
    attach(proot, memo)
    runner = DFS(PLUGS["pair_class"], limits.replace(nodes, secs), keys_only=True,
                 store_dead_ends=False)
    r = runner.run(proot)
    r.moves = engine_moves(start, r.moves)
    if r.verdict == UNSOLVABLE or (r.verdict == SOLVED and (
            rules == "open" or never_lost(start, r.moves))):
        return r, r.nodes_expanded, None
    for state in runner.stack():
        attach(state, None)
    attach(proot, None)
    return None, r.nodes_expanded, (runner, proot)


def _triple_test_fits(limits, t0):
    """Room for the triple test (under a second, TRIPLE_MB of memory) within the limits."""
    secs = _remaining(limits, t0, 0)[1]
    return (secs is None or secs >= TRIPLE_SECONDS) and (
        limits.max_bytes is None or limits.max_bytes >= 4 * TRIPLE_MB * 2**20)


def search(start, method, rules, limits):
    """Search from rules state array ``start``: a SolveResult with int move codes.  The limits
    cover every search together (the open-mode one, the probes, the aisleriot-mode one)."""
    t0 = time.perf_counter()
    # the pair test: no win, in either mode, where it fires (docs/yukon.md, "The pair test")
    if method != "dfs" and pair_dead_end(start):
        return SolveResult(UNSOLVABLE, seconds=time.perf_counter() - t0)
    root = solver_root(start)
    if method != "dfs":
        return _runner(method, rules, limits).run(root)
    # the complete search starts first for LEAD_NODES (most proofs are short, and it refutes
    # most deals the pair test does at once), then the pair test, the probes and the pair
    # search, which goes on as the complete search (its arrays keep its state)
    max_nodes = limits.max_nodes
    lead = LEAD_NODES if max_nodes is None else min(LEAD_NODES, max_nodes)
    complete = _runner(method, "open", limits.replace(lead, limits.timeout))
    first = _run_complete(complete, root, start)
    if first.verdict == UNKNOWN:        # whatever the limit: the pair test takes a millisecond
        t0 += reached("probes")         # a stage's compile time is left out of the limits
        if pair_dead_end(start):
            first.verdict, first.limit = UNSOLVABLE, ""
            first.seconds = time.perf_counter() - t0
            return first
    if first.verdict != UNKNOWN or first.limit != "nodes" or lead == max_nodes:
        if rules == "open" or first.verdict != SOLVED or never_lost(start, first.moves):
            return first
    else:
        budget = _ProbeBudget(*_remaining(limits, t0, first.nodes_expanded))
        probed = _probe(root, range(1, EARLY_PROBES + 1), budget, limits, rules)
        if probed is None:                 # after the early probes, the triple test
            t0 += reached("pair search")
            if _triple_test_fits(limits, t0) and triple_dead_end(start):
                return SolveResult(UNSOLVABLE,
                                   nodes_expanded=first.nodes_expanded + budget.spent_nodes,
                                   states_stored=first.states_stored,
                                   seconds=time.perf_counter() - t0,
                                   peak_memory_bytes=first.peak_memory_bytes)
            probed = _probe(root, range(EARLY_PROBES + 1, PROBES + 1), budget, limits, rules)
        used = budget.spent_nodes
        if probed is not None:
            probed.nodes_expanded = first.nodes_expanded + used
            probed.seconds = time.perf_counter() - t0
            return probed
        nodes, secs = _remaining(limits, t0, first.nodes_expanded + used)
        paired, spent, paused = _pair_search(root, start, nodes, secs, limits, rules,
                                             whole=limits.threads == 1)
        if paired is not None:
            paired.nodes_expanded += first.nodes_expanded + used
            paired.seconds = time.perf_counter() - t0
            return paired
        # the pair search goes on as the complete search (on one thread it had all the limits:
        # this only reports where it stopped): its classes so far are part of it (a subtree the
        # pair test refuted has no win); the lead's search is dropped
        used += first.nodes_expanded
        complete, root = paused
        nodes, secs = _remaining(limits, t0, used + spent)
        complete.reserve(min(RESERVE_STATES,                # a hard deal: size the table once
                             STATES_PER_NODE * nodes if nodes is not None else np.inf,
                             STATES_PER_SECOND * secs if secs is not None else np.inf))
        secs = _remaining(limits, t0, 0)[1]                 # the growth's time counts too
        complete.limits = limits.replace(None if nodes is None else spent + nodes, secs)
        first = _run_complete(complete, root, start, limits.threads)   # resumes
        first.nodes_expanded += used
        first.seconds = time.perf_counter() - t0
    if rules == "open" or first.verdict == UNSOLVABLE or (
            first.verdict == SOLVED and never_lost(start, first.moves)):
        return first
    if first.verdict == UNKNOWN and first.limit != "seconds" and first.limit != "nodes":
        return first                                   # memory: no room for a second search
    nodes, secs = _remaining(limits, t0, first.nodes_expanded)
    if first.verdict == UNKNOWN or nodes == 0 or secs == 0.0:
        first.verdict, first.moves = UNKNOWN, []
        first.limit = first.limit or ("nodes" if nodes == 0 else "seconds")
        return first
    t0 += reached("aisleriot")
    second = run_dfs(_runner(method, "aisleriot", limits.replace(nodes, secs)), root,
                     limits.threads)
    second.nodes_expanded += first.nodes_expanded
    second.states_stored += first.states_stored
    second.seconds = time.perf_counter() - t0
    second.peak_memory_bytes = max(first.peak_memory_bytes, second.peak_memory_bytes)
    return second
