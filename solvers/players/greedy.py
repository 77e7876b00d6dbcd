"""``greedy``: one ply, no search -- the human-like baseline.

It plays the legal move whose foreseen position (:meth:`.Observation.view_after`) has the best
heuristic value of visible things (the game's solver's ``visible_value``), equal values broken at
random from the player's seed.  Moves back to a position already met are left out while others remain.
"""
from solvers.players.base import Player, candidate_moves, ranked_by_value


class GreedyPlayer(Player):
    name = "greedy"
    PARAMS = {}

    def choose(self, observation, visited=None):
        moves = candidate_moves(observation, visited)
        if len(moves) == 1:
            return moves[0]
        return ranked_by_value(observation, moves, self.rng_for(observation))[0]
