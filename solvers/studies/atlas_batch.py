"""One batch of an atlas run: seeds solved and every solution replayed by the referee, or (a
re-check run) searched again by the plain search.  What :func:`solvers.studies.dispatch.solve_batch`
calls for a run whose settings carry ``"atlas"``; the runs themselves are made by
:mod:`solvers.studies.atlas_build`.
"""
from rules import get_game
from solvers.core.registry import get_solver
from solvers.core.result import SOLVED, VERDICT_CODE
from solvers.core.search import DFS, Limits
from solvers.core.solver import empty_columns

CHECK_TIMEOUT = 10.0       #: seconds a plain search gets by default
PLAIN_MEMORY_MB = 1024     #: a plain search's memory limit


def atlas_batch(settings, seeds):
    """Solve ``seeds`` under an atlas run's ``settings`` (see the module docstring): a batch of
    columns whose ``length`` is the atomic length of a solution the referee replayed."""
    if settings.get("check"):
        return _check_batch(settings, seeds)
    solver = get_solver(settings["game"])
    out = empty_columns(seeds)
    kw = dict(rules=settings["rules"], timeout=settings["timeout"], max_nodes=settings["max_nodes"])
    threads = settings.get("threads") or 1
    if threads == 1:
        results = solver.solve_many(seeds.tolist(), numbering=settings["numbering"],
                                    options=settings["options"], **kw)
    else:
        results = (solver.solve(solver.start_state(seed, settings["numbering"], settings["options"]),
                                threads=threads, **kw) for seed in seeds.tolist())
    for i, result in enumerate(results):
        out["verdict"][i] = VERDICT_CODE[result.verdict]
        out["nodes"][i] = int(result.nodes_expanded)
        out["seconds"][i] = result.seconds
        if result.solved:
            result.verify()                  # raises on a refused move: the batch is not stored
            out["length"][i] = int(result.atomic_length)
    return out


def _check_batch(settings, seeds):
    game = get_game(settings["game"])
    out = empty_columns(seeds)
    for i, seed in enumerate(seeds.tolist()):
        start = game.deal(seed, settings["numbering"], **settings["options"])
        verdict, states, seconds = plain_search(start, settings["rules"], settings["timeout"])
        out["verdict"][i], out["nodes"][i], out["seconds"][i] = VERDICT_CODE[verdict], states, seconds
        out["length"][i] = 0 if verdict == SOLVED else -1
    return out


def plain_search(state, rules="aisleriot", timeout=CHECK_TIMEOUT, max_memory_mb=PLAIN_MEMORY_MB):
    """Search every position reachable from ``state`` with the engine's kernels alone
    (:func:`solvers.core.plain.plain_plug`: every action Aisleriot accepts, no pruning, positions
    told apart by the rules' canonical hash), depth first, within ``timeout`` seconds and
    ``max_memory_mb``: ``(verdict, positions expanded, seconds)``; a limit gives ``unknown``."""
    from solvers.core.plain import plain_plug

    plug = plain_plug(state.game.name, rules == "aisleriot")
    runner = DFS(plug, Limits(timeout=timeout, max_memory_mb=max_memory_mb), keys_only=True,
                 store_dead_ends=False)
    result = runner.run(state.array.copy())
    return result.verdict, int(result.nodes_expanded), float(result.seconds)
