"""Solvers, win-rate estimation and the ``aisle`` command for the games in :mod:`rules`."""
__version__ = "0.1.0"
