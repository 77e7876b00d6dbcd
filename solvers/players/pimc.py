"""``pimc``: perfect-information Monte Carlo, the default no-peek player.

For each decision it deals ``samples`` worlds consistent with the observation
(:meth:`.Observation.sample`; every distinct world when there are no more than that) and
solves each with the game's thoughtful solver under ``budget`` nodes:

1. A solved world yields a *plan*: its solution up to and including the first move that turns
   a card up.  Until then every world shows the same cards, so the plan is legal in all of
   them and a player can commit to it without knowing which world it is in.
2. The ``checks`` first moves most solutions start with (then the heuristic's best) are
   candidates, each with its most common plans (a lone move when no solution starts with it).
   Every candidate plan is tried in every solved world it did not come from: the world after
   the plan, solved under the same budget.
3. While the two best candidate moves are close (within a tenth of the worlds, and not both
   winning all of them), ``samples`` more worlds are dealt and the candidates tried there, up to
   ``extend`` times: effort goes where sampling noise could flip the choice.

It plays the move whose best plan wins most worlds; among equals the one more solutions start
with (a move that merely keeps every world winnable wins them all too; following the
solutions is what makes progress), then the heuristic's order (the solver's ``visible_value``).
When no world is won it plays the heuristic's best move.

Why plans and not single moves: a world's line may make choices that only its own hidden cards
justify (which group to move, which pile to open next); crediting only its first move lets
those choices count for every world (PIMC's "strategy fusion").  Trying the whole plan in the
other worlds removes that until the next card is turned up.  Why candidates and not every move:
most worlds are decided by one solve of a few hundred nodes and most moves are never close to
the best, so trying a few, and sampling more only when they are close, buys the same choices for
a fraction of the solves.  docs/players.md has the measurements.

Deterministic: the worlds come from the player's seed and the observation, and the budgets are
node counts, never seconds.
"""
from rules.game import Outcome
from rules.moves import Move
from rules.observation import hidden_entries
from solvers.core.result import SOLVED
from solvers.players.base import MAX_BUDGET, Player, candidate_moves, ranked_by_value

DEFAULT_SAMPLES, DEFAULT_BUDGET, DEFAULT_CHECKS, DEFAULT_EXTEND = 10, 2000, 3, 3
MAX_SAMPLES, MAX_EXTEND = 10_000, 100    #: at most ~10 MB of worlds per round
CLOSE_SHARE = 0.1           # two candidates this close (share of the worlds) are "close"
PLANS_PER_MOVE = 2          # plans tried per candidate move: its most common ones


class PimcPlayer(Player):
    name = "pimc"
    PARAMS = {"samples": DEFAULT_SAMPLES, "budget": DEFAULT_BUDGET, "checks": DEFAULT_CHECKS,
              "extend": DEFAULT_EXTEND}
    PARAM_MIN = {"checks": 0, "extend": 0}
    # each sampled world is kept while the decision lasts (up to 1 + extend rounds of samples)
    PARAM_MAX = {"samples": MAX_SAMPLES, "extend": MAX_EXTEND, "budget": MAX_BUDGET}

    #: whether two close candidates that have won exactly the same worlds are extended too
    #: (``quick`` stops there: more worlds cannot tell such moves apart unless they differ)
    EXTEND_AGREEING = True

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        self.last_wins = {}        # move -> worlds it won in, at the last decision (for analysis)
        self.last_worlds = 0
        self.last_plan = ()        # the plan the last decision's move begins (its best found)

    def choose(self, observation, visited=None):
        moves = candidate_moves(observation, visited)
        self.last_wins, self.last_worlds = {}, 0
        if len(moves) == 1:
            self.last_plan = (moves[0],)
            return moves[0]
        rng = self.rng_for(observation)
        ranked = ranked_by_value(observation, moves, rng)
        tally = self.tally(observation, ranked, rng)
        value = {m: tally.value(m) for m in ranked}
        self.last_wins, self.last_worlds = value, tally.n_worlds
        if not any(value.values()):
            self.last_plan = (ranked[0],)
            return ranked[0]
        move = max(ranked, key=lambda m: (value[m], tally.move_leads.get(m, 0)))
        self.last_plan = tally.best_plan(move)
        return move

    def tally(self, observation, ranked, rng):
        """The :class:`_Tally` over the sampled worlds, its candidates tried."""
        from solvers.core.registry import get_solver

        tally = _Tally(get_solver(observation.game), ranked, self.params["budget"],
                       self.EXTEND_AGREEING)
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
        return tally


class _Tally:
    """Wins per plan over the worlds solved so far.

    A plan is a world's solution up to and including its first move that turns a card up (all
    of it if none does).  Until that move every world shows the same cards, so the plan is legal
    in all of them, and a player can commit to it without knowing which world it is in; trying
    whole plans, not just their first moves, in the other worlds keeps a world's line from
    counting choices that only its hidden cards justify.
    """

    def __init__(self, solver, ranked, budget, extend_agreeing=True):
        self.solver, self.ranked, self.budget = solver, ranked, budget
        self.extend_agreeing = extend_agreeing
        self.wins = {}              # plan -> worlds it was found to win
        self.plan_leads = {}        # plan -> worlds whose solution it begins
        self.move_leads = {}        # first move -> worlds whose solution starts with it
        self.solved = []            # solved worlds: (world, plans known to win it, plans tried)
        self.candidates = []        # plans tried in every solved world
        self.n_worlds = 0

    def add_worlds(self, worlds):
        for world in worlds:
            self.n_worlds += 1
            result = self.solver.solve(world, max_nodes=self.budget)
            if result.verdict == SOLVED and result.moves and result.moves[0] in self.ranked:
                plan = plan_of(world, result.moves)
                self.wins[plan] = self.wins.get(plan, 0) + 1
                self.plan_leads[plan] = self.plan_leads.get(plan, 0) + 1
                self.move_leads[plan[0]] = self.move_leads.get(plan[0], 0) + 1
                self.solved.append((world, {plan}, {plan}))
            # a world proven lost is lost whatever the move; one left unknown is not tried
            # again (each try could cost the whole budget), so it counts as won by none

    def pick_candidates(self, count):
        """The ``count`` moves most solutions start with (then the heuristic's best), each with
        its most common plans (``PLANS_PER_MOVE``; a lone move when no solution starts with it)."""
        rank = {m: i for i, m in enumerate(self.ranked)}
        moves = sorted(self.ranked, key=lambda m: (-self.move_leads.get(m, 0), rank[m]))[:count]
        self.candidates = []
        for move in moves:
            plans = sorted((p for p in self.plan_leads if p[0] == move),
                           key=lambda p: (-self.plan_leads[p], len(p)))[:PLANS_PER_MOVE]
            for plan in plans or [(move,)]:
                self.wins.setdefault(plan, 0)
                self.candidates.append(plan)

    def try_candidates(self):
        for world, won, tried in self.solved:
            for plan in self.candidates:
                if plan not in tried:
                    tried.add(plan)
                    if wins_after(self.solver, world, plan, self.budget):
                        won.add(plan)
                        self.wins[plan] += 1

    def value(self, move):
        """Worlds won by the best plan starting with ``move`` found so far."""
        return max((w for p, w in self.wins.items() if p[0] == move), default=0)

    def best_plan(self, move):
        """The plan starting with ``move`` that won most worlds (then the one most solutions
        began, then the shortest), or ``(move,)``."""
        plans = [p for p in self.wins if p[0] == move]
        return min(plans, key=lambda p: (-self.wins[p], -self.plan_leads.get(p, 0), len(p)),
                   default=(move,))

    def close(self):
        """The two best candidate moves are near enough that more worlds could swap them (and,
        unless ``extend_agreeing``, a move that near the best has not won exactly its worlds)."""
        values = {p[0]: self.value(p[0]) for p in self.candidates}
        if len(values) < 2:
            return False
        order = sorted(values, key=lambda m: -values[m])
        best, second = values[order[0]], values[order[1]]
        if second == best == self.n_worlds:
            return False
        margin = max(1, CLOSE_SHARE * self.n_worlds)
        if best - second > margin:
            return False
        return self.extend_agreeing or any(
            self._differ(order[0], m) for m in order[1:] if best - values[m] <= margin)

    def _differ(self, move, other):
        """Some solved world is won by a plan of one of the two moves and by none of the other."""
        return any(any(p[0] == move for p in won) != any(p[0] == other for p in won)
                   for _, won, _ in self.solved)


def plan_of(world, moves):
    """``moves`` up to and including the first one that turns a card up in ``world``."""
    state = world.copy()
    hidden = len(hidden_entries(state))
    for i, move in enumerate(moves):
        state.apply(move)
        now = len(hidden_entries(state))
        if now < hidden:
            return tuple(moves[:i + 1])
    return tuple(moves)


def wins_after(solver, world, plan, budget):
    """``plan`` (a move, or a sequence of moves) played in ``world`` leads to a position the
    solver wins within ``budget``."""
    child = world.copy()
    for move in ((plan,) if isinstance(plan, Move) else plan):
        child.apply(move)
    if child.is_won():
        return True
    if child.outcome != Outcome.ONGOING:
        return False
    return solver.solve(child, max_nodes=budget, moves=False).verdict == SOLVED
