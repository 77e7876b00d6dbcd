"""One suite over every registered game: the API contract, round trips, and kernel == referee.

A new game registered in ``rules.registry`` gets all of these for free.  The referee of each game
(``rules/referee/<module>.py``) is plain Python written from the spec and shares no move
generation with the Numba kernels, so agreement on random playouts is real evidence.
"""
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import GAME_NAMES, IllegalMoveError, Outcome, get_game
from rules.layout import parse_layout
from rules.registry import get_referee


def referee_for(game, state):
    return get_referee(game.name)(parse_layout(state.layout()), dict(game.resolve_options()))


def cards_of(state):
    return Counter(card for slot in parse_layout(state.layout()).slots for card, _ in slot)


def deck_copies(game):
    return 2 if game.name == "zebra" else 1


@pytest.fixture(params=GAME_NAMES)
def game(request):
    return get_game(request.param)


def test_deal_has_every_card(game):
    for seed in (1, 2, 3000):
        state = game.deal(seed, "aisleriot")
        assert cards_of(state) == Counter(list(range(52)) * deck_copies(game))
        assert state.outcome == Outcome.ONGOING and not state.is_won()


def test_layout_round_trip_and_equal_hash(game):
    state = game.deal(7, "aisleriot")
    again = game.from_layout(state.layout())
    assert again == state and again.layout() == state.layout()
    assert again.canonical_hash() == state.canonical_hash()
    assert eval(repr(state), {"get_game": get_game}) == state


def test_distinct_moves_are_accepted_actions(game):
    state = game.deal(11, "aisleriot")
    rng = random.Random(11)
    for _ in range(40):
        faithful = set(state.legal_moves())
        distinct = state.legal_moves(distinct=True)
        assert len(distinct) == len(set(distinct))
        assert set(distinct) <= faithful
        if not faithful or state.is_over():
            break
        state.apply(rng.choice(sorted(faithful)))


def test_illegal_move_names_the_move(game):
    state = game.deal(5, "aisleriot")
    legal = {str(m) for m in state.legal_moves()}
    bad = next(f"drag {s} 1 {d}" for s in range(game.n_slots) for d in range(game.n_slots)
               if f"drag {s} 1 {d}" not in legal)
    before = state.layout()
    with pytest.raises(IllegalMoveError) as err:
        state.apply(bad)
    assert repr(bad) in str(err.value)
    assert state.layout() == before


def test_str_is_readable(game):
    text = str(game.deal(1, "aisleriot"))
    assert len(text.splitlines()) >= 3


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playout_kernel_matches_referee(name, seed, picks):
    """Along a random playout: referee == kernel on accepted actions, results and verdicts;
    cards conserved; apply/undo restores the exact array."""
    game = get_game(name)
    state = game.deal(seed, "aisleriot")
    referee = referee_for(game, state)
    deck = cards_of(state)
    for pick in picks:
        moves = state.legal_moves()
        assert sorted(str(m) for m in moves) == sorted(referee.legal_actions())
        assert int(state.outcome) == int(referee.outcome())
        assert state.is_won() == referee.won()
        if not moves or state.is_over():
            break
        move = moves[pick % len(moves)]
        before = state.array.copy()
        state.apply(move)
        state.undo()
        assert np.array_equal(state.array, before)
        state.apply(move)
        referee.apply(str(move))
        assert state.layout() == str(referee.layout())
        assert cards_of(state) == deck
