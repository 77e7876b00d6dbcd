"""Solvers, win-rate estimation and the ``aisle`` command for the games in :mod:`rules`."""
__version__ = "0.1.0"


def __getattr__(name):
    # Lazy, so ``import solvers`` (and the CLI start-up) does not pull in the estimator.
    if name == "estimate_win_rate":
        from .winrate import estimate_win_rate

        return estimate_win_rate
    raise AttributeError(f"module 'solvers' has no attribute {name!r}")
