"""Solvers, win-rate estimation and the ``aisle`` command for the games in :mod:`rules`.

>>> from solvers import get_solver
>>> result = get_solver("freecell").solve(1)        # Microsoft deal 1
>>> result.verdict, len(result.moves), result.verify()
"""
import importlib

from rules import __version__, get_game  # noqa: F401  (the one version, re-exported)

_MODULES = {
    "clock": "solvers.clock",
    "freecell": "solvers.freecell",
    "yukon": "solvers.yukon",
    "ten-across": "solvers.ten_across",
    "zebra": "solvers.zebra",
}


def get_solver(game):
    """The :class:`solvers.base.Solver` of a game (a name such as ``"ten-across"``, or a Game)."""
    name = game.name if hasattr(game, "name") else get_game(game).name
    return importlib.import_module(_MODULES[name]).SOLVER


def __getattr__(name):
    # Lazy, so ``import solvers`` (and the CLI start-up) does not pull in the estimator.
    if name == "estimate_win_rate":
        from .winrate import estimate_win_rate

        return estimate_win_rate
    raise AttributeError(f"module 'solvers' has no attribute {name!r}")
