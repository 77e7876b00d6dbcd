"""Positions reached by playing: a deal after random legal moves, and the same game with its
unseen cards dealt differently (observation and player tests share them)."""
import random

import numpy as np

from rules import get_game
from rules.game import State
from rules.observation import hidden_entries


def playout(game_name, seed, n_moves, rng_seed, **options):
    """The deal of ``seed`` after up to ``n_moves`` random legal moves (history kept)."""
    state = get_game(game_name).deal(seed, **options)
    rng = random.Random(rng_seed)
    for _ in range(n_moves):
        moves = state.legal_moves()
        if not moves or state.is_over():
            break
        state.apply(rng.choice(moves))
    return state


def twin_state(state, rng):
    """The same game with the still-unseen cards dealt differently: the start of the history
    with the hidden cards shuffled among their places, and the same moves replayed.

    In Yukon, Ten Across and Zebra the cards still hidden have not moved since the deal (face-down
    cards never move; Zebra's first-pass stock only loses cards from its top), so their places
    are the same entries of the first position.
    """
    hidden = hidden_entries(state)
    first = state._history[0][1] if state._history else state.array
    start = first.copy()
    cards = start[hidden].copy()
    start[hidden] = cards[rng.permutation(len(cards))]
    twin = State(state.game, start)
    for move in state.moves_played:
        twin.apply(move)
    differ = np.flatnonzero(twin.array != state.array).tolist()
    assert set(differ) <= set(hidden)
    return twin
