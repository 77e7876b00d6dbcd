"""Solve one deal, or a batch of deals, of any game by name: the unit of work of a win-rate run.

* Clock has no choices: the forced play decides it.  Winning is ``"solved"``, losing is
  ``"unsolvable"`` -- a proof, since no other line of play exists.  Batches go through the Numba
  batch kernel :func:`rules.clock.play_many`; solver limits do not apply and are not part of a
  Clock run's settings.  A row's ``nodes`` and (when won) ``length`` are the moves of the forced
  play (places plus King turns; every win takes 51), ``seconds`` the batch's time per deal.
* Every other game uses ``solvers.<module>_solver`` (``solvers.freecell_solver`` ...) through its
  ``solve(state, max_nodes=..., timeout=...[, rules=...])`` API, one deal at a time; the rule
  mode is checked against the module's ``RULE_MODES``.  A game without a solver module raises
  :class:`NoSolverError` as soon as the settings are checked.

Batches are plain dicts of numpy columns (``seed``, ``verdict`` as codes of
:data:`solvers.store.VERDICT_CODES`, ``length`` and ``nodes`` with -1 for none, ``seconds``) so
they pickle cheaply between processes and Dask workers.
"""
import importlib
import inspect
import time

import numpy as np

from rules import get_game
from rules.errors import AisleError, InvalidOptionError, InvalidSeedError
from .seeds import parse_seeds
from .store import SOLVED_CODE, UNSOLVABLE_CODE, VERDICT_CODES
from .warm import make_ready

FORCED_GAMES = ("clock",)            # games decided by a forced play, no search
RULE_MODES_FORCED = ("aisleriot",)
_CODE = {verdict: code for code, verdict in enumerate(VERDICT_CODES)}
CLOCK_KING_TURNS = 3   # every forced Clock play turns three Kings (checked against autoplay in the tests)


class NoSolverError(AisleError, ValueError):
    """The game has no solver module yet."""


def _find_solver(game):
    """``solvers.<module>_solver`` for ``game`` (a Game), or None if there is none."""
    short = type(game).__module__.rsplit(".", 1)[-1]
    name = f"solvers.{short}_solver"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:          # a missing dependency inside the solver is a real error
            raise
        return None


def solver_module(game):
    """``solvers.<module>_solver`` for ``game`` (a Game), or raise NoSolverError."""
    module = _find_solver(game)
    if module is None:
        short = type(game).__module__.rsplit(".", 1)[-1]
        raise NoSolverError(f"no solver for {game.name} yet (solvers.{short}_solver does not exist); "
                            f"win rates are available for: {', '.join(available_games())}")
    return module


def available_games():
    """Names of the games a win-rate run can use now."""
    from rules import GAME_NAMES

    out = []
    for name in GAME_NAMES:
        try:
            game = get_game(name)
        except ImportError:           # game module not written yet
            continue
        if name in FORCED_GAMES or _find_solver(game) is not None:
            out.append(name)
    return out


def make_settings(game, numbering=None, rules="aisleriot", options=None, timeout=None, max_nodes=None):
    """Validated, canonical settings dict (the key of a run in the results store)."""
    g = get_game(game)
    numbering = numbering or g.default_numbering
    if numbering not in g.numberings:
        raise InvalidSeedError(f"{g.name} has no numbering {numbering!r} (choose from {', '.join(g.numberings)})")
    opts = g.resolve_options(options)
    if timeout is not None:
        timeout = float(timeout)
        if not timeout > 0:
            raise InvalidOptionError(f"timeout {timeout!r} must be a positive number of seconds")
    if max_nodes is not None:
        if int(max_nodes) != max_nodes or max_nodes < 1:
            raise InvalidOptionError(f"max_nodes {max_nodes!r} must be a positive integer")
        max_nodes = int(max_nodes)
    rules = str(rules)
    if g.name in FORCED_GAMES:
        if rules not in RULE_MODES_FORCED:
            raise InvalidOptionError(f"{g.name} has only the rule mode 'aisleriot', not {rules!r}")
        timeout = max_nodes = None               # a forced play has no limits to hit
    else:
        module = solver_module(g)
        if "rules" in inspect.signature(module.solve).parameters:
            modes = tuple(getattr(module, "RULE_MODES", (rules,)))   # no list: the solver checks
        else:
            modes = ("aisleriot",)
        if rules not in modes:
            raise InvalidOptionError(f"the {g.name} solver has no rule mode {rules!r} "
                                     f"(choose from {', '.join(modes)})")
    return {"game": g.name, "numbering": numbering, "rules": rules, "options": opts,
            "timeout": timeout, "max_nodes": max_nodes}


def solve_deal(game, seed, numbering=None, rules="aisleriot", options=None, timeout=None, max_nodes=None):
    """Solve one deal: ``{"seed", "verdict", "length", "nodes", "seconds"}`` (length None unless solved)."""
    settings = make_settings(game, numbering, rules, options, timeout, max_nodes)
    parse_seeds(seed, settings["numbering"])
    batch = solve_batch(settings, np.array([int(seed)], dtype=np.int64))
    verdict = VERDICT_CODES[int(batch["verdict"][0])]
    length, nodes = int(batch["length"][0]), int(batch["nodes"][0])
    return {"seed": int(seed), "verdict": verdict, "length": None if length < 0 else length,
            "nodes": None if nodes < 0 else nodes, "seconds": float(batch["seconds"][0])}


def solve_batch(settings, seeds):
    """Solve every seed of ``seeds`` (int64 array) under ``settings``; a batch dict of columns."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    if settings["game"] == "clock":
        return _clock_batch(seeds)
    return _solver_batch(settings, seeds)


def _empty_batch(seeds):
    n = seeds.shape[0]
    return {"seed": seeds.copy(), "verdict": np.zeros(n, np.int8), "length": np.full(n, -1, np.int64),
            "nodes": np.full(n, -1, np.int64), "seconds": np.zeros(n, np.float64)}


def _clock_batch(seeds):
    from rules.clock import play_many

    start = time.perf_counter()
    won, score = play_many(seeds, parallel=True)   # every core, as threads inside the one process
    elapsed = time.perf_counter() - start
    out = _empty_batch(seeds)
    moves = score + CLOCK_KING_TURNS          # places (one point each) + King turns
    out["verdict"] = np.where(won, SOLVED_CODE, UNSOLVABLE_CODE).astype(np.int8)
    out["length"] = np.where(won, moves, -1)
    out["nodes"] = moves                      # positions on the forced line
    out["seconds"][:] = elapsed / max(1, seeds.shape[0])
    return out


def _solver_batch(settings, seeds):
    game = get_game(settings["game"])
    solve = solver_module(game).solve
    extra = {"rules": settings["rules"]} if "rules" in inspect.signature(solve).parameters else {}
    out = _empty_batch(seeds)
    for i, seed in enumerate(seeds.tolist()):
        start = time.perf_counter()
        state = game.deal(seed, settings["numbering"], **settings["options"])
        result = solve(state, max_nodes=settings["max_nodes"], timeout=settings["timeout"], **extra)
        out["seconds"][i] = time.perf_counter() - start
        out["verdict"][i] = _CODE[result.verdict]
        out["nodes"][i] = int(result.nodes_expanded)
        if result.verdict == "solved":
            out["length"][i] = len(result.moves)
    return out


def warmup(settings):
    """Load the game's kernels (from Numba's on-disk cache) so the first batch is not slower."""
    if settings["game"] == "clock":
        from rules.clock import play_many

        play_many(np.array([1], dtype=np.int64))
    else:
        module = solver_module(get_game(settings["game"]))
        if hasattr(module, "warmup"):
            make_ready(module.__name__, module.warmup)
