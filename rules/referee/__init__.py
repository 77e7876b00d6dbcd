"""Independent plain-Python referees, one module per game, written from the spec and sharing no
move generation with the kernels: :func:`rules.registry.get_referee` finds a game's ``Referee``,
and :func:`replay` plays a solution on the engine and the referee side by side."""
from rules.errors import AisleError, IllegalMoveError
from rules.registry import get_referee


def replay(state, moves, options=None):
    """Play ``moves`` (text in any notation the game reads, e.g. Freecell's ``3a``) from a copy of
    ``state`` on the engine and on the game's referee.  True when they end in a win, False when
    every move is legal but the game is not won; IllegalMoveError names the first move refused
    (its number and text)."""
    state = state.copy()
    game = state.game
    referee = get_referee(game.name)(game.array_to_layout(state.array), options)
    for index, text in enumerate(moves, 1):
        try:
            action = str(state.parse_move(text))
            state.apply(action)
            referee.apply(action)
        except AisleError as exc:
            raise IllegalMoveError(f"move {index} ({text!r}) is illegal: {exc}") from None
    return bool(referee.won())
