"""Which solver plays which game: the one registry is :mod:`rules.registry`; a game's solver
lives in ``solvers/games/`` under the name of its rules module (``rules.ten_across`` is solved by
``solvers.games.ten_across``), so nothing here lists the games again."""
import importlib

from rules.game import Game
from rules.registry import get_game


def get_solver(game):
    """The :class:`solvers.core.solver.Solver` of a game (a name such as ``"ten-across"``, or a Game)."""
    game = game if isinstance(game, Game) else get_game(game)
    module = type(game).__module__.rsplit(".", 1)[-1]
    return importlib.import_module(f"solvers.games.{module}").SOLVER
