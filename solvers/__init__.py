"""Solvers, win-rate estimation and the ``aisle`` command for the games in :mod:`rules`.

>>> from solvers import get_solver
>>> result = get_solver("freecell").solve(1)        # Microsoft deal 1
>>> result.verdict, len(result.moves), result.verify()
"""
from rules import __version__, get_game  # noqa: F401  (the one version, re-exported)
from solvers.core.registry import get_solver  # noqa: F401


def __getattr__(name):
    # Lazy, so ``import solvers`` (and the CLI start-up) does not pull in the estimator.
    if name == "estimate_win_rate":
        from solvers.studies.winrate import estimate_win_rate

        return estimate_win_rate
    raise AttributeError(f"module 'solvers' has no attribute {name!r}")
