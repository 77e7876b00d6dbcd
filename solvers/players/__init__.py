"""Auto-players: play a game as a person at the table would, seeing only what is face up.

>>> from rules import get_game
>>> from solvers.players import get_player, play_game
>>> player = get_player("pimc", seed=0)
>>> state = get_game("yukon").deal(1)
>>> move = player.choose(state.observation())      # the player never receives the State
>>> record = play_game(state, player); record.result, record.won and record.verify()

Players (docs/players.md):

* ``greedy`` -- one ply with a heuristic of visible things (:mod:`.greedy`);
* ``pimc`` -- the default: sampled worlds solved by the thoughtful solver (:mod:`.pimc`);
* ``study`` -- a cheaper pimc that keeps to its plans, for studies over many seeds (:mod:`.study`);
* ``quick`` -- pimc's settings, its plans kept and no extra worlds for moves that agree on
  every world: pimc's strength in a fraction of its time (:mod:`.quick`);
* ``thoughtful`` -- plays the solver's line; it PEEKS at hidden cards, so it is the upper bound,
  and it takes the true State through ``choose_peeking`` (:mod:`.thoughtful`).

Freecell hides nothing, so its default player is the solver itself (``thoughtful``, which does
not peek there).
"""
from rules.errors import InvalidOptionError
from rules.registry import get_game
from solvers.players.greedy import GreedyPlayer
from solvers.players.pimc import PimcPlayer
from solvers.players.play import DEFAULT_MAX_MOVES, GameRecord, play_game
from solvers.players.quick import QuickPlayer
from solvers.players.study import StudyPlayer
from solvers.players.thoughtful import ThoughtfulPlayer

PLAYERS = {cls.name: cls for cls in (GreedyPlayer, PimcPlayer, StudyPlayer, QuickPlayer,
                                     ThoughtfulPlayer)}
PLAYER_NAMES = tuple(PLAYERS)
DEFAULT_PLAYER = "pimc"


def default_player(game):
    """The player ``aisle play`` uses when none is named (``game``: a Game or its name): the
    solver where the game hides no card (:attr:`rules.game.Game.hides_cards`)."""
    game = get_game(game) if isinstance(game, str) else game
    return DEFAULT_PLAYER if game.hides_cards else "thoughtful"


def get_player(name, seed=0, **params):
    """A new player by name with its seed and parameters (``samples=``, ``budget=`` ...)."""
    cls = PLAYERS.get(str(name).strip().lower()) if isinstance(name, str) else None
    if cls is None:
        raise InvalidOptionError(f"unknown player {name!r} (choose from {', '.join(PLAYER_NAMES)})")
    return cls(seed, **params)


__all__ = ["DEFAULT_MAX_MOVES", "DEFAULT_PLAYER", "GameRecord", "PLAYER_NAMES", "default_player",
           "get_player", "play_game"]
