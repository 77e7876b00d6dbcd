"""The unit of work of a win-rate run: validated settings, and one batch of seeds solved.

Every game goes through its :class:`solvers.core.solver.Solver` (``solve_columns``), so this module
knows no game by name.  Batches are plain dicts of numpy columns (``seed``, ``verdict`` as codes
of :data:`solvers.core.result.VERDICT_CODES`, ``length`` and ``nodes`` with -1 for none,
``seconds``) so they pickle cheaply between processes and Dask workers.
"""
import numpy as np

from rules import get_game
from rules.errors import InvalidSeedError
from solvers.core.registry import get_solver
from solvers.core.solver import check_limits, empty_columns
from solvers.core.result import SOLVED, UNSOLVABLE, VERDICT_CODE, VERDICT_CODES
from solvers.studies.atlas_batch import atlas_batch
from solvers.studies.seeds import parse_seeds


def make_settings(game, numbering=None, rules="aisleriot", options=None, timeout=None, max_nodes=None,
                  player=None):
    """Validated, canonical settings dict (the key of a run in the results store).  A solver
    whose play cannot hit a limit (Clock's forced play) records no limits.  ``player`` (a dict:
    ``name``, ``seed`` and the player's parameters) makes it a run of an auto-player's games
    instead of the solver's verdicts; its settings are recorded in full."""
    g = get_game(game)
    solver = get_solver(g)
    numbering = g.default_numbering if numbering is None else numbering
    if numbering not in g.numberings:
        raise InvalidSeedError(f"{g.name} has no numbering {numbering!r} (choose from {', '.join(g.numberings)})")
    opts = g.resolve_options(options)
    rules = solver.check_rules(rules)
    limits = check_limits(max_nodes, timeout)
    if not solver.USES_LIMITS:
        limits.timeout = limits.max_nodes = None
    settings = {"game": g.name, "numbering": numbering, "rules": rules, "options": opts,
                "timeout": limits.timeout, "max_nodes": limits.max_nodes}
    if player is not None:              # a player's own budget bounds its searches: no limits
        settings.update(player=make_player(player).settings(), timeout=None, max_nodes=None)
    return settings


def make_player(spec):
    """A fresh auto-player from a settings dict (``name`` or ``player``, ``seed``, parameters):
    the same player a run with these settings plays with."""
    from solvers.players import get_player

    params = {k: v for k, v in dict(spec).items() if k not in ("name", "player", "seed", "peeks")}
    return get_player(spec.get("name", spec.get("player")), seed=spec.get("seed", 0), **params)


def solve_deal(game, seed, numbering=None, rules="aisleriot", options=None, timeout=None, max_nodes=None):
    """Solve one deal: ``{"seed", "verdict", "length", "nodes", "seconds"}`` (length None unless solved)."""
    settings = make_settings(game, numbering, rules, options, timeout, max_nodes)
    parse_seeds(seed, settings["numbering"])
    batch = solve_batch(settings, np.array([int(seed)], dtype=np.int64))
    length, nodes = int(batch["length"][0]), int(batch["nodes"][0])
    return {"seed": int(seed), "verdict": VERDICT_CODES[int(batch["verdict"][0])],
            "length": None if length < 0 else length, "nodes": None if nodes < 0 else nodes,
            "seconds": float(batch["seconds"][0])}


def solve_batch(settings, seeds):
    """Solve every seed of ``seeds`` (int64 array) under ``settings``; a batch dict of columns.
    A player run plays each deal instead: won is code SOLVED, any other end code UNSOLVABLE
    (the store writes them as "won" and "lost"), length the moves of a won game."""
    if settings.get("player"):
        return _play_batch(settings, np.ascontiguousarray(seeds, dtype=np.int64))
    if settings.get("atlas"):
        return atlas_batch(settings, np.ascontiguousarray(seeds, dtype=np.int64))
    solver = get_solver(settings["game"])
    limits = check_limits(settings["max_nodes"], settings["timeout"])
    return solver.solve_columns(seeds, settings["numbering"], settings["options"], settings["rules"], limits)


def warmup(settings):
    """Load the game's kernels (from Numba's on-disk cache) so the first batch is not slower."""
    get_solver(settings["game"]).ready()


def verdict_texts(settings):
    """How a run's verdict codes are written in the store: a player's games are won or lost."""
    return PLAYER_VERDICTS if settings.get("player") else VERDICT_CODES


PLAYER_VERDICTS = ("unknown", "won", "lost")


def _play_batch(settings, seeds):
    from solvers.players import play_game

    game = get_game(settings["game"])
    player = make_player(settings["player"])      # its choices depend on its seed and what it sees
    out = empty_columns(seeds)
    for i, seed in enumerate(seeds.tolist()):
        record = play_game(game.deal(seed, settings["numbering"], **settings["options"]), player)
        out["verdict"][i] = VERDICT_CODE[SOLVED] if record.won else VERDICT_CODE[UNSOLVABLE]
        out["length"][i] = len(record.moves) if record.won else -1
        out["nodes"][i] = len(record.moves)
        out["seconds"][i] = record.seconds
    return out
