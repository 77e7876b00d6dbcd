"""Move analysis: what each move of a position leads to, and the move a player would make now.

:func:`analyze` gives every move of the solver's move set two verdicts: the thoughtful one (the
solver sees every card: winnable, lost or unknown) and, where cards are hidden, the share of
worlds sampled from what the player has seen in which the move wins -- which moves keep a game
winnable, as far as a player can tell.  ``aisle analyze`` prints it and ``aisle hint`` prints
:func:`choose_now`.
"""
import numpy as np

from rules.game import Outcome
from solvers.core.registry import get_solver
from solvers.players.base import MAX_BUDGET, _whole
from solvers.players.pimc import MAX_SAMPLES, wins_after

ANALYZE_SAMPLES, ANALYZE_BUDGET = 20, 2000


def choose_now(player, state):
    """The move ``player`` makes in ``state``: shown the observation, or the State when it peeks."""
    if player.peeks:
        return player.choose_peeking(state)
    return player.choose(state.observation())


def analyze(state, timeout=None, samples=ANALYZE_SAMPLES, budget=ANALYZE_BUDGET, seed=0):
    """One row per move of the solver's move set: ``(move, verdict, won, worlds)`` -- the
    thoughtful verdict of the position after the move (``winnable``, ``lost`` or ``unknown``)
    and the sampled worlds (0 when nothing is hidden) in which the move was found to win.
    Rows come winnable first, then unknown, then lost; within each, most worlds won first.
    ``samples`` is at most pimc's :data:`solvers.players.pimc.MAX_SAMPLES` (the worlds are kept),
    ``budget`` (nodes per world) at most ``MAX_BUDGET`` (100,000,000)."""
    samples = _whole("samples", samples, low=0, high=MAX_SAMPLES)
    budget = _whole("budget", budget, high=MAX_BUDGET)
    seed = _whole("player seed", seed, low=0)
    solver = get_solver(state.game)
    observation = state.observation()
    worlds = []
    if observation.hidden_count:
        rng = np.random.default_rng(seed)
        worlds = [observation.sample(rng) for _ in range(samples)]
    rows = []
    for move in observation.legal_moves(distinct=True):
        child = state.copy()
        child.apply(move)
        if child.is_won():
            verdict = "winnable"
        elif child.outcome != Outcome.ONGOING:
            verdict = "lost"
        else:
            result = solver.solve(child, timeout=timeout)
            verdict = {"solved": "winnable", "unsolvable": "lost"}.get(result.verdict, "unknown")
        won = sum(wins_after(solver, world, move, budget) for world in worlds)
        rows.append((move, verdict, won, len(worlds)))
    order = {"winnable": 0, "unknown": 1, "lost": 2}
    rows.sort(key=lambda row: (order[row[1]], -row[2]))
    return rows
