"""``thoughtful``: plays the solver's line, seeing every card -- it PEEKS.

Its win rate is the thoughtful solvability of the deals (under its node budget), the upper bound
no fair player can pass.  Because it needs the true position it is given the State through
:meth:`ThoughtfulPlayer.choose_peeking`; its :meth:`choose <ThoughtfulPlayer.choose>` accepts only
observations that hide nothing (Freecell, or any position once every card is known), where it is a
fair player.

It solves once and follows the line; if the solver finds no win (proven lost, or the budget ran
out) it plays greedy moves for the rest of the game without solving again.
"""
from rules.errors import InvalidOptionError
from rules.game import State
from rules.observation import Observation
from solvers.players.base import MAX_BUDGET, Player, refuse_finished
from solvers.players.greedy import GreedyPlayer

DEFAULT_BUDGET = 3_000_000


class ThoughtfulPlayer(Player):
    name = "thoughtful"
    PARAMS = {"budget": DEFAULT_BUDGET}
    PARAM_MAX = {"budget": MAX_BUDGET}
    peeks = True

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        self._fallback = GreedyPlayer(seed)
        self.new_game()

    def new_game(self):
        """Forget the line of the previous game."""
        self._line = {}            # state array bytes -> the move the line plays there
        self._gave_up = False
        self.last_verdict = None   # the solver's verdict on the first position it was given

    def choose(self, observation, visited=None):
        if not isinstance(observation, Observation):
            raise InvalidOptionError(f"a player chooses from an observation (state.observation()), "
                                     f"not a {type(observation).__name__}; the thoughtful player "
                                     f"takes the true position through choose_peeking(state)")
        if observation.hidden_count:
            raise InvalidOptionError(
                "the thoughtful player peeks at hidden cards: give it the true position with "
                "choose_peeking(state) (it is an upper bound, not a fair player)")
        return self.choose_peeking(observation.sample())

    def choose_peeking(self, state):
        """The move of the solver's line from the true ``state`` (greedy when it has none)."""
        if not isinstance(state, State):
            raise InvalidOptionError(f"choose_peeking() takes the true position (a State), not a "
                                     f"{type(state).__name__}")
        refuse_finished(state)
        key = state.array.tobytes()
        if key not in self._line and not self._gave_up:
            self._plan(state)
        move = self._line.get(key)
        if move is not None:
            return move
        return self._fallback.choose(state.observation())

    def _plan(self, state):
        from solvers.core.registry import get_solver

        result = get_solver(state.game).solve(state, max_nodes=self.params["budget"])
        if self.last_verdict is None:
            self.last_verdict = result.verdict
        if not result.solved:
            self._gave_up = True
            return
        replay = state.copy()
        for move in result.moves:
            self._line[replay.array.tobytes()] = move
            replay.apply(move)
