"""``pimc``: perfect-information Monte Carlo, the default no-peek player.

For each decision it deals ``samples`` worlds consistent with the observation
(:meth:`Observation.sample`; every distinct world when there are no more than that) and
solves each with the game's thoughtful solver under ``budget`` nodes:

1. A solved world credits the first move of its solution (its *lead*).
2. The ``checks`` moves with the most leads (then the best by the heuristic of visible things,
   :mod:`.heuristics`) are candidates.  One solution names one winning move, but a world is
   often won by several, so each candidate is tried in every solved world it does not lead
   (the world after the move, solved under the same budget).
3. While the two best candidates are close (within a tenth of the worlds, and not both winning
   them all), ``samples`` more worlds are dealt and the candidates tried there, up to
   ``extend`` times: effort goes to the decisions where sampling noise could flip the choice.

It plays the move that wins most worlds; among equals the one more solutions start with (a
move that merely keeps every world winnable wins them all too, and following the solutions'
lines is what makes progress), then the heuristic order.  When no world is won it plays the
heuristic's best move.

Why this shape rather than solving the position after every move in every world: most worlds
are decided by one solve of a few hundred nodes and most moves are never close to the best,
so trying a few candidates, and sampling more only when they are close, buys the same choices
for a fraction of the solves.  What limits it is PIMC's known blind spot (strategy fusion:
each world's line assumes the hidden cards are known, so moves that gather information earn
nothing), the node budget (worlds left "unknown" credit nothing) and the sample size
(docs/players.md has the measurements).

Deterministic: the worlds come from the player's seed and the observation, and the budgets are
node counts, never seconds.
"""
from rules.game import Outcome
from ..result import SOLVED
from .base import Player, candidate_moves, ranked_by_value

DEFAULT_SAMPLES, DEFAULT_BUDGET, DEFAULT_CHECKS, DEFAULT_EXTEND = 10, 2000, 3, 3
CLOSE_SHARE = 0.1           # two candidates this close (share of the worlds) are "close"


class PimcPlayer(Player):
    name = "pimc"
    PARAMS = {"samples": DEFAULT_SAMPLES, "budget": DEFAULT_BUDGET, "checks": DEFAULT_CHECKS,
              "extend": DEFAULT_EXTEND}
    PARAM_MIN = {"checks": 0, "extend": 0}

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        self.last_wins = {}        # move -> worlds it won in, at the last decision (for analysis)
        self.last_worlds = 0

    def choose(self, observation, visited=None):
        moves = candidate_moves(observation, visited)
        self.last_wins, self.last_worlds = {}, 0
        if len(moves) == 1:
            return moves[0]
        rng = self.rng_for(observation)
        ranked = ranked_by_value(observation, moves, rng)
        wins, leads = self.world_wins(observation, ranked, rng)
        if not any(wins.values()):
            return ranked[0]
        return max(ranked, key=lambda m: (wins[m], leads[m]))   # max keeps the first of equals

    def world_wins(self, observation, ranked, rng):
        """``(wins, leads)`` for the moves ``ranked`` (best heuristic first): move -> sampled
        worlds it was found to win, and worlds whose solution starts with it."""
        from solvers import get_solver

        tally = _Tally(get_solver(observation.game), ranked, self.params["budget"])
        samples = self.params["samples"]
        if observation.world_count() <= samples:
            worlds = observation.all_worlds()
            if len(worlds) == 1:
                tally.budget *= samples
            extend = 0
        else:
            worlds = [observation.sample(rng) for _ in range(samples)]
            extend = self.params["extend"]
        tally.add_worlds(worlds)
        tally.pick_candidates(self.params["checks"])
        tally.try_candidates()
        for _ in range(extend):
            if not tally.close():
                break
            tally.add_worlds([observation.sample(rng) for _ in range(samples)])
            tally.try_candidates()
        self.last_wins, self.last_worlds = dict(tally.wins), tally.n_worlds
        return tally.wins, tally.leads


class _Tally:
    """Wins and leads per move over the worlds solved so far."""

    def __init__(self, solver, ranked, budget):
        self.solver, self.ranked, self.budget = solver, ranked, budget
        self.wins = {m: 0 for m in ranked}
        self.leads = dict(self.wins)
        self.solved = []            # solved worlds: (world, moves known to win it, moves tried)
        self.candidates = []
        self.n_worlds = 0

    def add_worlds(self, worlds):
        for world in worlds:
            self.n_worlds += 1
            result = self.solver.solve(world, max_nodes=self.budget)
            if result.verdict == SOLVED and result.moves and result.moves[0] in self.wins:
                lead = result.moves[0]
                self.wins[lead] += 1
                self.leads[lead] += 1
                self.solved.append((world, {lead}, {lead}))
            # a world proven lost is lost whatever the move; one left unknown is not tried
            # again (each try could cost the whole budget), so it counts as won by none

    def pick_candidates(self, count):
        order = sorted(range(len(self.ranked)), key=lambda i: (-self.leads[self.ranked[i]], i))
        self.candidates = [self.ranked[i] for i in order[:count]]

    def try_candidates(self):
        for world, won, tried in self.solved:
            for move in self.candidates:
                if move not in tried:
                    tried.add(move)
                    if wins_after(self.solver, world, move, self.budget):
                        won.add(move)
                        self.wins[move] += 1

    def close(self):
        """The two best candidates are near enough that more worlds could swap them."""
        if len(self.candidates) < 2:
            return False
        best, second = sorted((self.wins[m] for m in self.candidates), reverse=True)[:2]
        if second == best == self.n_worlds:
            return False
        return best - second <= max(1, CLOSE_SHARE * self.n_worlds)


def wins_after(solver, world, move, budget):
    """``move`` played in ``world`` leads to a position the solver wins within ``budget``."""
    child = world.copy()
    child.apply(move)
    if child.is_won():
        return True
    if child.outcome != Outcome.ONGOING:
        return False
    return solver.solve(child, max_nodes=budget).verdict == SOLVED
