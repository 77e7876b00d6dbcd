"""One solver per game; :func:`solvers.get_solver` finds them by game name."""
