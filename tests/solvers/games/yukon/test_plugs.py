"""The Yukon solver's plugs (solvers/games/yukon/plugs.py) with every pruning rule at once give
the verdicts of the unpruned reference search (tests/support/yukon_reference.py), on small random
positions of every kind and on endgames of real deals."""
import numpy as np
import pytest
from hypothesis import find, given, settings

from solvers.games.yukon import SOLVER
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.pairs import pair_dead_end
from tests.support import yukon_reference as ref
from tests.support.yukon import (check_class_search, check_pruned_search_agrees, small_positions,
                                 verdict_of)


@settings(max_examples=150)
@given(small_positions())
def test_pruned_search_agrees_with_reference_on_small_positions(a):
    """The dead-end test, the safe-home rule and rule 5 never change a verdict."""
    check_pruned_search_agrees(a)


@pytest.mark.parametrize("case", ["solved", "unsolvable", "dead", "dead_new", "pair_only"])
def test_small_positions_reach_every_case(case):
    """The property above meets every kind of position: solvable, unsolvable, a dead end, one
    only the current dead-end test catches (not dead_end_basic), and one only the pair test
    refutes."""
    kinds = {"solved": lambda a: verdict_of("open", a, plain=True) == "solved",
             "unsolvable": lambda a: verdict_of("open", a, plain=True) == "unsolvable",
             "dead": lambda a: bool(dead_end(a)),
             "dead_new": lambda a: bool(dead_end(a)) and not ref.dead_end_basic(a),
             "pair_only": lambda a: bool(pair_dead_end(a)) and not dead_end(a)}
    a = find(small_positions(), kinds[case],
             settings=settings(max_examples=5000, derandomize=True, database=None))
    check_pruned_search_agrees(a)


def test_pruned_search_agrees_on_endgames_of_real_deals():
    """Positions from real deals: the position 60 moves before the end of a solution, then a
    random walk of 30 legal moves (open-mode verdicts compared)."""
    rng = np.random.default_rng(3)
    verdicts = []
    for seed in (1, 2, 3, 9):
        r = SOLVER.solve(seed, rules="open")
        st_ = r.start.copy()
        for m in r.moves[: max(0, len(r.moves) - 60)]:
            st_.apply(m)
        for _ in range(30):
            moves = st_.legal_moves(distinct=True)
            if not moves:
                break
            st_.apply(moves[int(rng.integers(len(moves)))])
        reference = verdict_of("open", st_.array, 2_000_000, plain=True)
        assert verdict_of("open", st_.array, 2_000_000) == reference
        assert check_class_search(st_.array, 2_000_000) == reference
        verdicts.append(reference)
    assert "solved" in verdicts
