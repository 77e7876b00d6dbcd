"""Exact rules of five GNOME Aisleriot patience games: Clock, Freecell, Yukon, Ten Across, Zebra.

>>> from rules import get_game
>>> state = get_game("freecell").deal(1)          # Microsoft deal 1
>>> move = state.legal_moves()[0]; state.apply(move)
"""
from importlib.metadata import PackageNotFoundError as _NotInstalled, version as _version

from rules.errors import (AisleError, IllegalMoveError, InvalidCardError, InvalidDealError,
                     InvalidOptionError, InvalidSeedError, InvalidStateError, UnknownGameError)
from rules.game import Game, Kernels, Outcome, State
from rules.moves import Move
from rules.registry import GAME_NAMES, all_games, get_game

__all__ = [
    "AisleError", "IllegalMoveError", "InvalidCardError", "InvalidDealError", "InvalidOptionError",
    "InvalidSeedError", "InvalidStateError", "UnknownGameError", "Game", "Kernels", "Outcome", "State", "Move",
    "GAME_NAMES", "all_games", "get_game",
]
try:
    __version__ = _version("aisle-solvers")
except _NotInstalled:                  # a checkout that was never installed
    __version__ = "0+unknown"
