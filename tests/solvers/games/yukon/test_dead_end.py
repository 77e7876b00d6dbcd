"""The Yukon dead-end test (solvers/games/yukon/dead_end.py): deals it refutes at once, and the
mask-and-worklist kernel against its plain sweep form; its rules (twin, held suit, twin pair) fire
only on positions the unpruned reference search cannot win (docs/yukon.md)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import yukon as yk
from solvers.games.yukon import SOLVER
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.moves import solver_moves
from tests.support import yukon_reference as ref
from tests.support.yukon import (GAME, SEEDS, check_dead_end, home_cards, lay, plant_twin_at,
                                 random_small_position, small_positions, twin_planted_positions,
                                 verdict_of, walk_positions)


def test_constructed_deadlock_is_unsolvable():
    """JH face down under QH with both black Kings home: QH can never leave (no parent left, its
    foundation needs JH) -- unsolvable in both modes, although a legal move (KH to an empty
    pile) remains."""
    text = ("{0} | JH* QH | KH | | | | | | {1} | {2} | {3}".format(
        home_cards("C", "K"), home_cards("D", "K"), home_cards("S", "K"), home_cards("H", "T")))
    state = GAME.from_layout(lay(text))
    assert state.legal_moves()                       # not stuck by the plain rules
    assert dead_end(state.array)
    for rules in ("aisleriot", "open"):
        r = SOLVER.solve(state, rules=rules)
        assert r.verdict == "unsolvable" and r.rules == rules


@pytest.mark.parametrize("seed", [8, 14, 143, 259, 324, 382])
def test_root_dead_end_seed(seed):
    """A blocker has no exit at the deal, so both modes are refuted without search.  Seed 14
    needs the foundation exit to require the card itself to be free (a card with a stuck card
    on it cannot go home); 143, 259, 324 and 382 need the twin rule (143: 7D face down on 7H,
    which lies on 8C)."""
    assert dead_end(GAME.deal(seed).array)
    assert SOLVER.solve(seed).verdict == SOLVER.solve(seed, rules="open").verdict == "unsolvable"


def test_root_dead_end_by_held_suit_rule():
    """Seed 627 is refuted at the deal by the held-suit rule alone: 8S lies face down on 6D and
    can only go onto 9D, so one of them stays out while JD, which can only go home, waits."""
    a = GAME.deal(627).array
    assert dead_end(a) and ref.dead_end_sweep(a)
    assert not ref.dead_end_sweep(a, held_rule=False)
    assert SOLVER.solve(627).verdict == SOLVER.solve(627, rules="open").verdict == "unsolvable"


def test_root_dead_end_by_held_twins():
    """Seed 205 is refuted at the deal by the twin form of the held-suit rule: TD (face down on
    AC) and TH (on 4C) have one open parent between them, so AC or 4C stays covered, and 6C,
    face down over its own parents, can only go home."""
    a = GAME.deal(205).array
    assert dead_end(a) and ref.dead_end_sweep(a)
    assert not ref.dead_end_sweep(a, held_rule=False)
    assert SOLVER.solve(205).verdict == SOLVER.solve(205, rules="open").verdict == "unsolvable"


def _twin_spots(a):
    """(pile, index) of the face-down blockers with a card on them that is face down too."""
    return [(p, i) for p in range(7)
            for i in range(1, min(int(a[yk.DOWN + p]), int(a[yk.HEIGHT + p]) - 1))]


def _plant_twin(rng, a):
    """Swap two tableau cards so that a random face-down blocker gets its twin above it, among
    the face-down cards or as the lowest face-up card; False if the position has no
    face-down blocker with a card on it (or it is a King, or its twin is home)."""
    spots = _twin_spots(a)
    if not spots:
        return False
    p, i = spots[rng.integers(len(spots))]
    if a[yk.TAB + p * yk.CAP + i] % 13 == 12:
        return False
    return plant_twin_at(a, p, i, i + int(rng.integers(1, int(a[yk.DOWN + p]) - i + 1)))


@settings(max_examples=300)
@given(twin_planted_positions().filter(lambda a: a is not None))
def test_twin_rule_is_sound_on_planted_twins(a):
    check_dead_end(a)


@settings(max_examples=300)
@given(small_positions(max_out=34))
def test_dead_end_rules_are_sound_on_small_positions(a):
    check_dead_end(a)


@settings(max_examples=60)
@given(SEEDS, st.lists(st.integers(0, 1000), max_size=80))
def test_dead_end_equals_reference_sweep_on_playouts(seed, walk):
    """The mask-and-worklist dead_end computes the same fixpoint as the plain sweep."""
    for a in walk_positions(seed, walk):
        assert bool(dead_end(a)) == bool(ref.dead_end_sweep(a)), str(GAME.array_to_layout(a))


@pytest.mark.slow
def test_twin_rule_fires_only_on_unsolvable_positions():
    """Small random positions with a face-down card under its twin: whenever the twin rule
    turns a position into a dead end, the reference search (no pruning) finds no win."""
    rng = np.random.default_rng(2)
    planted = fired = 0
    for _ in range(12000):
        a = random_small_position(rng, 22, bool(rng.integers(2)))
        if not _plant_twin(rng, a):
            continue
        planted += 1
        assert bool(dead_end(a)) == bool(ref.dead_end_sweep(a)), str(GAME.array_to_layout(a))
        if dead_end(a) and not ref.dead_end_without_twin_rule(a):
            fired += 1
            assert verdict_of("open", a, plain=True) == "unsolvable", str(GAME.array_to_layout(a))
    assert planted > 2000 and fired > 30, (planted, fired)


def _fired_on_small_positions(seed, max_out, samples, without_rule):
    """Random small positions: dead_end agrees with the sweep on each, and whenever the position
    is a dead end only with a rule (``without_rule(a)`` is false), the reference search (no
    pruning) finds no win.  Returns how often that happened."""
    rng = np.random.default_rng(seed)
    fired = 0
    for _ in range(samples):
        a = random_small_position(rng, max_out, bool(rng.integers(2)))
        dead = bool(dead_end(a))
        assert dead == bool(ref.dead_end_sweep(a)), str(GAME.array_to_layout(a))
        if dead and not without_rule(a):
            fired += 1
            assert verdict_of("open", a, 3_000_000, plain=True) == "unsolvable", \
                str(GAME.array_to_layout(a))
    return fired


@pytest.mark.slow
def test_twin_pair_rule_fires_only_on_unsolvable_positions():
    """Whenever the twin-pair rule alone makes a small random position a dead end, the
    reference search (no pruning) finds no win; the mask form agrees with the sweep, which
    builds the two positions.  (A first version without the check that q cannot go home
    first failed this kind of test: Jc could go home instead of taking Td.)"""
    fired = _fired_on_small_positions(9, 34, 40000, ref.fixpoint_dead_end)
    assert fired > 30, fired


@pytest.mark.slow
def test_held_suit_rule_fires_only_on_unsolvable_positions():
    """Whenever the held-suit rule is what makes a small random position a dead end, the
    reference search (no pruning) finds no win (at most 30 cards out, so that it decides)."""
    fired = _fired_on_small_positions(5, 30, 80000,
                                      lambda a: ref.dead_end_sweep(a, held_rule=False))
    assert fired > 25, fired


def test_dead_end_equals_reference_sweep():
    """The mask-and-worklist dead_end computes the same fixpoint as the plain sweep, on random
    playouts of real deals and on random small positions (empty piles, foundations), and both
    answers occur often."""
    rng = np.random.default_rng(11)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    seen = {True: 0, False: 0}
    for seed in range(1, 61):
        a = GAME.deal(seed).array.copy()
        for _ in range(80):
            got = bool(dead_end(a))
            assert got == bool(ref.dead_end_sweep(a)), (seed, str(GAME.array_to_layout(a)))
            seen[got] += 1
            n = solver_moves(a, buf)[0]
            if n == 0:
                break
            yk.apply(a, buf[rng.integers(n)])
    for _ in range(2000):
        a = random_small_position(rng, int(rng.integers(20, 52)), bool(rng.integers(2)))
        assert bool(dead_end(a)) == bool(ref.dead_end_sweep(a)), str(GAME.array_to_layout(a))
    assert seen[True] > 100 and seen[False] > 1000
