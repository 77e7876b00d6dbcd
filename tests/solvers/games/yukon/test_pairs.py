"""The Yukon pair and triple tests (solvers/games/yukon/pairs.py, triples.py): their kernels give
their plain h^2 and h^3 forms' answers, and they refute deals the dead-end test does not."""
import numpy as np
import pytest
from hypothesis import given, settings

from rules import yukon as yk
from solvers.games.yukon import SOLVER
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.pairs import pair_dead_end
from solvers.games.yukon.solver import EARLY_PROBES, LEAD_NODES, PROBE_NODES
from solvers.games.yukon.triples import triple_dead_end
from tests.support import yukon_reference as ref
from tests.support.yukon import GAME, small_positions, walk_positions


@pytest.mark.parametrize("seed", [105, 473])
def test_root_refuted_by_pair_test(seed):
    """The pair test refutes these deals at the deal, where the dead-end test does not (473's
    proof took 780,000 classes of search without it), in both modes: depth-first right after
    its lead, best-first without a search."""
    a = GAME.deal(seed).array
    assert pair_dead_end(a) and ref.pair_dead_end_plain(a) and not dead_end(a)
    for rules in ("open", "aisleriot"):
        r = SOLVER.solve(seed, rules=rules)
        assert r.verdict == "unsolvable" and r.nodes_expanded == LEAD_NODES and r.rules == rules
        r = SOLVER.solve(seed, rules=rules, method="greedy")
        assert r.verdict == "unsolvable" and r.nodes_expanded == 0 and r.rules == rules


def test_pair_kernel_agrees_with_plain_form_on_real_deals():
    """The pair test's kernel and its plain h^2 form give the same answer on positions of
    random walks from real deals (refuted and not)."""
    rng = np.random.default_rng(5)
    answers = []
    for seed in (1, 75, 473, 963):
        walk = list(walk_positions(seed, rng.integers(0, 1000, 40)))
        for a in walk[::10]:
            answers.append(pair_dead_end(a))
            assert answers[-1] == ref.pair_dead_end_plain(a), seed
    assert True in answers and False in answers
    rng = np.random.default_rng(6)                  # the most facts: 45 cards face down
    for _ in range(2):
        cards = rng.permutation(52).tolist()
        piles = [[(c, j == len(cards[p::7]) - 1) for j, c in enumerate(cards[p::7])]
                 for p in range(7)]
        a = yk.array_from_piles(piles)
        assert a[yk.DOWN:yk.DOWN + 7].sum() == 45
        assert pair_dead_end(a) == ref.pair_dead_end_plain(a)


@settings(max_examples=20, deadline=None)
@given(small_positions(max_out=12, full_piles=False))
def test_triple_kernel_agrees_with_plain_form(a):
    """The triple test's kernel gives its plain h^3 form's answer (at most 12 cards out: the
    plain form takes seconds on 12, minutes on 20)."""
    assert triple_dead_end(a) == ref.triple_dead_end_plain(a)


@pytest.mark.parametrize("seed", [963, 2852])
def test_triple_test_refutes_after_the_lead_and_the_early_probes(seed):
    """Deals whose proofs took minutes: the pair test does not refute the deal, the triple test
    does, so the search stops after its lead and the early probes, in both modes."""
    a = GAME.deal(seed).array
    assert not pair_dead_end(a) and triple_dead_end(a)
    for rules in ("open", "aisleriot"):
        r = SOLVER.solve(seed, rules=rules, timeout=60)
        assert r.verdict == "unsolvable"
        assert r.nodes_expanded == LEAD_NODES + EARLY_PROBES * PROBE_NODES
