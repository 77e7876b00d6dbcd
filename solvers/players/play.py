"""Playing a whole game with a player: :func:`play_game` and its :class:`GameRecord`.

The loop is the table: it holds the true State, shows the player the observation (or the State,
to a player that peeks), applies the move, and stops when the game's own verdict says won or
lost, or when the game is stuck -- no legal move left, a position met before (the player went
round in a circle: deterministic from there on), or ``max_moves`` moves.  Every win can be
replayed by the game's independent referee (:meth:`GameRecord.verify`).
"""
import time
from dataclasses import dataclass, field

from rules.errors import InvalidOptionError
from rules.game import Outcome, State
from solvers.players.base import Player, _whole
from solvers.core.result import SOLVED, SolutionError, SolveResult, replay_with_referee

DEFAULT_MAX_MOVES = 1000
WON, LOST, STUCK, ABORTED = "won", "lost", "stuck", "aborted"


@dataclass
class GameRecord:
    """One game: the start, the moves, how it ended and why, the player's settings."""

    game: str
    start: object                     # rules.game.State before the first move
    player: dict
    moves: list = field(default_factory=list)
    result: str = ""                  # won, lost, stuck or aborted
    reason: str = ""
    seconds: float = 0.0
    peeked: bool = False              # the player saw hidden cards (thoughtful)

    @property
    def won(self):
        return self.result == WON

    def verify(self):
        """Replay the moves from the start with the game's referee: True, or raise
        :class:`solvers.core.result.SolutionError` (also for a game that was not won)."""
        from solvers.core.registry import get_solver

        if not self.won:
            raise SolutionError(f"only won games can be verified; this {self.game} game was "
                                f"{self.result}{' (' + self.reason + ')' if self.reason else ''}")
        record = SolveResult(SOLVED, moves=list(self.moves), start=self.start, rules="aisleriot")
        try:
            options = get_solver(self.game).referee_options(self.start)
        except ModuleNotFoundError:     # a game whose solver is not installed has no options
            options = None
        return replay_with_referee(record, options)

    def summary(self):
        kind = "peeking" if self.peeked else "no-peek"
        why = f" ({self.reason})" if self.reason else ""
        return (f"{self.result}{why} after {len(self.moves)} moves, {self.seconds:.2f} s, "
                f"{self.player.get('player')} player ({kind})")


def play_game(state, player, max_moves=DEFAULT_MAX_MOVES, on_move=None):
    """Play from ``state`` (not changed; its history is the player's memory) until the game ends.
    ``on_move(move, state)`` is called after each move.  Returns a :class:`GameRecord`.
    Arguments of the wrong kind raise :class:`rules.errors.InvalidOptionError`."""
    if not isinstance(state, State):
        raise InvalidOptionError(f"play_game() starts from a State (the table holds the true "
                                 f"position), not a {type(state).__name__}")
    if not isinstance(player, Player):
        raise InvalidOptionError(f"play_game() takes a player (solvers.players.get_player(name)), "
                                 f"not {player!r:.60}")
    max_moves = _whole("max_moves", max_moves)
    if on_move is not None and not callable(on_move):
        raise InvalidOptionError(f"on_move must be a callable, not {on_move!r:.60}")
    state = state.copy()
    start = state.copy()
    if hasattr(player, "new_game"):
        player.new_game()
    first = state.observation()
    record = GameRecord(state.game.name, start, player.settings(),
                        peeked=player.peeks and first.hidden_count > 0)
    visited = {first.key}
    t0 = time.perf_counter()
    while True:
        outcome = state.outcome
        if outcome != Outcome.ONGOING:
            record.result = {Outcome.WON: WON, Outcome.LOST: LOST}.get(outcome, ABORTED)
            break
        if len(record.moves) >= max_moves:
            record.result, record.reason = STUCK, f"{max_moves} moves played"
            break
        observation = state.observation()
        if not observation.legal_moves(distinct=True):
            record.result, record.reason = STUCK, "no legal move"
            break
        if player.peeks:
            move = player.choose_peeking(state)
        else:
            move = player.choose(observation, visited)
        record.moves.append(state.apply(move))
        if on_move is not None:
            on_move(record.moves[-1], state)
        key = state.observation().key
        if key in visited:
            record.result, record.reason = STUCK, "position repeated"
            break
        visited.add(key)
    record.seconds = time.perf_counter() - t0
    return record
