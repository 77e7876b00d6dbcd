"""Observations: what a player has seen, with memory; sampling the unseen cards uniformly."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import get_game
from rules.observation import HIDDEN, Observation, hidden_entries
from rules.moves import CLICK, Move
from tests.support.playouts import playout, twin_state

HIDDEN_GAMES = ("yukon", "ten-across", "zebra")


@pytest.mark.parametrize("name, hidden", [("yukon", 21), ("ten-across", 20), ("zebra", 88),
                                          ("clock", 51), ("freecell", 0)])
def test_deal_hides_the_face_down_cards(name, hidden):
    state = get_game(name).deal(1)
    obs = state.observation()
    assert obs.hidden_count == hidden and len(obs.unseen) == hidden
    assert int(np.sum(obs.array == HIDDEN)) == hidden
    assert obs == state.copy().observation() and hash(obs) == hash(state.observation())
    assert sorted(state.array[hidden_entries(state)].tolist()) == list(obs.unseen)
    with pytest.raises(ValueError):
        obs.array[0] = 5                       # read-only


def test_freecell_observation_is_the_position():
    state = get_game("freecell").deal(7)
    obs = state.observation()
    assert obs.determined and obs.world_count() == 1
    assert obs.sample(3) == state and obs.all_worlds() == [state]


def test_yukon_deal_text_shows_unknown_cards():
    text = str(get_game("yukon").deal(1).observation())
    assert "pile 2: ## KS 4C KC 8C 5H" in text and "unseen: 21 cards" in text
    assert "QH" not in text.split("pile 2:")[1].split("\n")[0]   # the face-down Qh stays unknown


@settings(max_examples=100)
@given(name=st.sampled_from(HIDDEN_GAMES + ("clock",)), seed=st.integers(1, 100000),
       n_moves=st.integers(0, 80), rng_seed=st.integers(0, 2**31))
def test_sample_is_consistent_and_moves_depend_on_visible_cards_only(name, seed, n_moves, rng_seed):
    state = playout(name, seed, n_moves, rng_seed)
    obs = state.observation()
    faithful = sorted(m.code for m in state.legal_moves())
    distinct = sorted(m.code for m in state.legal_moves(distinct=True))
    assert sorted(m.code for m in obs.legal_moves()) == faithful
    assert sorted(m.code for m in obs.legal_moves(distinct=True)) == distinct
    assert obs.outcome == state.outcome
    rng = np.random.default_rng(rng_seed)
    for _ in range(3):
        world = obs.sample(rng)
        assert np.array_equal(world.array[obs.array != HIDDEN], obs.array[obs.array != HIDDEN])
        assert sorted(world.array[obs.array == HIDDEN].tolist()) == list(obs.unseen)
        assert world.game.from_layout(world.layout()) == world     # a valid position of the game
        assert sorted(m.code for m in world.legal_moves()) == faithful
        assert world.outcome == state.outcome
        if name != "zebra":                # Zebra's memory lives in the history (tested below)
            assert world.observation() == obs


@settings(max_examples=100)
@given(name=st.sampled_from(HIDDEN_GAMES), seed=st.integers(1, 100000),
       n_moves=st.integers(0, 120), rng_seed=st.integers(0, 2**31))
def test_states_differing_only_in_unseen_cards_look_the_same(name, seed, n_moves, rng_seed):
    state = playout(name, seed, n_moves, rng_seed)
    twin = twin_state(state, np.random.default_rng(rng_seed))
    assert twin.observation() == state.observation()
    assert twin.observation().unseen == state.observation().unseen


def test_a_seen_card_changes_the_observation():
    state = get_game("yukon").deal(1)
    move = next(m for m in state.legal_moves() if _uncovers(state, m))
    before = state.observation()
    state.apply(move)
    after = state.observation()
    assert after != before and after.hidden_count == before.hidden_count - 1


def _uncovers(state, move):
    child = state.copy()
    child.apply(move)
    return child.observation().hidden_count < state.observation().hidden_count


def _zebra_to_redeal(seed):
    """Zebra after dealing the whole stock with clicks only, then the redeal."""
    state = get_game("zebra").deal(seed)
    while state.array[0] > 0:                   # STOCK_LEN
        state.apply(Move(CLICK, 0))
    first_pass_end = state.copy()
    state.apply(Move(CLICK, 0))                 # waste back to the stock
    return first_pass_end, state


def test_zebra_remembers_the_waste_turned_back_into_the_stock():
    end, state = _zebra_to_redeal(3)
    assert end.observation().hidden_count == 0          # everything dealt face up
    obs = state.observation()
    assert obs.hidden_count == 0 and obs.determined
    assert obs.sample(0) == state
    assert "## " not in str(obs)
    fresh = get_game("zebra").from_layout(state.layout())      # no history: no memory
    assert fresh.observation().hidden_count == int(state.array[0])
    state.undo()
    assert state.observation() == end.observation()


def test_zebra_first_pass_stock_is_hidden_and_dealt_cards_are_known():
    state = get_game("zebra").deal(5)
    for _ in range(10):
        state.apply(Move(CLICK, 0))
    obs = state.observation()
    assert obs.hidden_count == 78
    assert "waste:" in str(obs) and "78 unseen cards" in str(obs)


def test_layout_knows_only_what_is_face_up():
    state = playout("yukon", 11, 30, 4)
    fresh = get_game("yukon").from_layout(state.layout())
    assert fresh.observation() == state.observation()


def test_ten_across_face_down_top_hides_the_drops_onto_it():
    # A hand-made layout (Aisleriot cannot reach it): pile 2 ends in a face-down card.  A drop
    # onto it depends on that card, so the observation lists no drop there.
    state = get_game("ten-across").deal(1)
    layout = state.layout().split("#")[0].split("|")
    layout[2] = "2d* 6c*"                            # was 9c 2d 6c Qc 8c
    layout[5] = layout[5] + " 9c Qc 8c"
    text = "|".join(layout) + "#0#0"
    blind = get_game("ten-across").from_layout(text)
    obs = blind.observation()
    assert all(not (m.dst == 2) for m in obs.legal_moves())
    assert any(m.dst == 2 for m in blind.legal_moves())          # the 5c may drop on the 6c


def _small_yukon():
    """A late Yukon position with three face-down cards under pile 7 (3! = 6 worlds)."""
    home = "|".join(["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"])
    piles = ["", "", "", "", "", "", "Ks* Qs* Js* Ts 9s 8s 7s 6s 5s 4s 3s 2s As"]
    rest = ["Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", ""]
    return get_game("yukon").from_layout("|".join([home] + piles + rest) + "#0#0")


def _chi_square(counts, n_cells):
    total = sum(counts.values())
    expected = total / n_cells
    observed = list(counts.values()) + [0] * (n_cells - len(counts))
    return sum((o - expected) ** 2 / expected for o in observed)


# chi-square critical values at p = 0.001 for 5 and 2 degrees of freedom
CRITICAL_5, CRITICAL_2 = 20.515, 13.816


def test_sample_is_uniform_over_the_consistent_worlds():
    obs = _small_yukon().observation()
    assert obs.hidden_count == 3 and obs.world_count() == 6 and len(obs.all_worlds()) == 6
    rng = np.random.default_rng(12345)
    counts = Counter(obs.sample(rng).array.tobytes() for _ in range(3000))
    assert len(counts) == 6
    assert _chi_square(counts, 6) < CRITICAL_5


def test_sample_is_uniform_with_twin_cards():
    # Zebra holds every card twice: a stock of three cards two of which are twins has 3
    # distinct orders, not 3! = 6.  Find a deal whose last three stock cards are like that and
    # deal the stock down to them.
    zebra = get_game("zebra")
    seed = next(s for s in range(1, 5000) if len(set(zebra.deal(s).array[1:4].tolist())) == 2)
    state = zebra.deal(seed)
    for _ in range(85):
        state.apply(Move(CLICK, 0))
    obs = state.observation()
    assert obs.hidden_count == 3 and obs.world_count() == 3 and len(obs.all_worlds()) == 3
    rng = np.random.default_rng(7)
    counts = Counter(tuple(obs.sample(rng).array[1:4].tolist()) for _ in range(3000))
    assert len(counts) == 3
    assert _chi_square(counts, 3) < CRITICAL_2


def test_made_up_observation_worlds_are_checked():
    obs = get_game("ten-across").deal(2).observation()
    bad = Observation(obs.game, obs.array, [0] * obs.hidden_count)     # 20 aces of clubs
    with pytest.raises(ValueError):
        bad.sample(1)


def test_same_rng_seed_same_sample():
    obs = get_game("ten-across").deal(4).observation()
    assert obs.sample(9) == obs.sample(9)
    assert obs.sample(9) != obs.sample(10)
