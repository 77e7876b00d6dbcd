"""Games by name.  Game modules are imported on first use, so importing ``rules`` stays cheap."""
import importlib

from rules.errors import UnknownGameError, shorten

_MODULES = {
    "clock": "rules.clock",
    "freecell": "rules.freecell",
    "yukon": "rules.yukon",
    "ten-across": "rules.ten_across",
    "zebra": "rules.zebra",
}
GAME_NAMES = tuple(_MODULES)
_ALIASES = {"tenacross": "ten-across", "ten_across": "ten-across", "free-cell": "freecell"}


def get_game(name):
    """The :class:`rules.game.Game` registered as ``name`` (e.g. ``"ten-across"``)."""
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _MODULES:
        raise UnknownGameError(f"unknown game {shorten(name)} (choose from {', '.join(GAME_NAMES)})")
    return importlib.import_module(_MODULES[key]).GAME


def all_games():
    return [get_game(n) for n in GAME_NAMES]


def get_referee(name):
    """The independent plain-Python ``Referee`` class of a game (``rules/referee/<module>.py``)."""
    module = _MODULES[get_game(name).name].split(".")[-1]
    return importlib.import_module(f"rules.referee.{module}").Referee
