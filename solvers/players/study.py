"""``study``: a cheaper ``pimc`` that keeps to its plans, for win-rate studies over many seeds.

``pimc`` decides every move afresh.  Its move begins a *plan*, a line that turns no card up
before its last move, and until that move is played the player sees nothing it did not foresee:
deciding again in between samples the same knowledge.  ``study`` plays the rest of its plan
without deciding again, as long as each position is the one it foresaw and the plan's next move
is still a candidate (it leads to no position met before); it then decides afresh.  Its defaults
are cheaper too (5 worlds, budget 1000, one extension round: the atlas's grading player).
Like every player it is given the observation only; unlike ``pimc`` its move depends on its
plan, i.e. on this game's earlier observations, which a person at the table also has.
"""
import numpy as np

from solvers.players.base import candidate_moves
from solvers.players.pimc import PimcPlayer


class StudyPlayer(PimcPlayer):
    name = "study"
    PARAMS = {"samples": 5, "budget": 1000, "checks": 3, "extend": 1}

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        self.new_game()

    def new_game(self):
        """Forget the plan (``play_game`` calls this before a game)."""
        self._rest, self._foreseen = (), None

    def choose(self, observation, visited=None):
        if self._rest and np.array_equal(observation.array, self._foreseen) and (
                self._rest[0] in candidate_moves(observation, visited)):
            move, rest = self._rest[0], self._rest[1:]
            self.last_wins, self.last_worlds, self.last_plan = {}, 0, self._rest
        else:
            move = super().choose(observation, visited)
            rest = self.last_plan[1:]
        self._rest = rest
        self._foreseen = observation.view_after(move) if rest else None
        return move
