"""Auto-players: fair (the same choice wherever the unseen cards lie), deterministic, and every
game they win replays under the game's referee."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import get_game
from rules.errors import AisleError, IllegalMoveError, InvalidOptionError
from solvers.players import PLAYER_NAMES, default_player, get_player, play_game
from tests.support.playouts import playout, twin_state

FAST_PIMC = {"samples": 4, "budget": 300, "checks": 2, "extend": 1}


def no_peek_players(seed):
    return [get_player("greedy", seed=seed), get_player("pimc", seed=seed, **FAST_PIMC),
            get_player("study", seed=seed, **FAST_PIMC), get_player("quick", seed=seed, **FAST_PIMC)]


def test_names_and_defaults():
    assert set(PLAYER_NAMES) == {"greedy", "pimc", "study", "quick", "thoughtful"}
    assert get_player("study").params == {"samples": 5, "budget": 1000, "checks": 3, "extend": 1}
    assert get_player("quick").params == get_player("pimc").params
    assert default_player("yukon") == "pimc" and default_player("freecell") == "thoughtful"
    pimc = get_player("pimc")
    assert pimc.params == {"samples": 10, "budget": 2000, "checks": 3, "extend": 3}
    assert pimc.label() == "pimc (samples 10, budget 2000, checks 3, extend 3, seed 0)"
    assert get_player("thoughtful").peeks and not pimc.peeks and not get_player("greedy").peeks


@pytest.mark.parametrize("name, params, fragment", [
    ("expert", {}, "'expert'"),
    ("pimc", {"samples": 0}, "samples 0"),
    ("pimc", {"budget": -5}, "budget -5"),
    ("pimc", {"budget": 2.5}, "budget 2.5"),
    ("pimc", {"budget": 10**23}, "budget 100000000000000000000000 is too large: at most 100000000"),
    ("thoughtful", {"budget": 10**9}, "budget 1000000000 is too large"),
    ("pimc", {"samples": 10**11}, "samples 100000000000 is too large"),
    ("pimc", {"extend": 101}, "extend 101 is too large"),
    ("greedy", {"budget": 10}, "'budget'"),
    ("pimc", {"seed_offset": 1}, "'seed_offset'"),
])
def test_bad_players_and_parameters(name, params, fragment):
    with pytest.raises(InvalidOptionError, match=fragment):
        get_player(name, **params)
    with pytest.raises(InvalidOptionError, match="-1"):
        get_player("greedy", seed=-1)


def test_players_take_observations_not_states():
    state = get_game("yukon").deal(1)
    for player in no_peek_players(0):
        with pytest.raises(InvalidOptionError, match="observation"):
            player.choose(state)
    with pytest.raises(InvalidOptionError, match="peeks"):
        get_player("thoughtful").choose(state.observation())


@pytest.mark.parametrize("game", ["yukon", "ten-across", "zebra"])
def test_same_seed_same_observation_same_move(game):
    obs = get_game(game).deal(3).observation()
    for make in (lambda s: get_player("greedy", seed=s), lambda s: get_player("pimc", seed=s, **FAST_PIMC),
                 lambda s: get_player("study", seed=s, **FAST_PIMC),
                 lambda s: get_player("quick", seed=s, **FAST_PIMC)):
        first, again = make(5), make(5)
        choice = first.choose(obs)
        assert again.choose(obs) == choice and first.choose(obs) == choice
        assert choice in obs.legal_moves()


@settings(max_examples=25)
@given(name=st.sampled_from(("yukon", "ten-across", "zebra")), seed=st.integers(1, 100000),
       n_moves=st.integers(0, 80), rng_seed=st.integers(0, 2**31), player_seed=st.integers(0, 99))
def test_players_choose_the_same_move_whatever_the_unseen_cards(name, seed, n_moves, rng_seed,
                                                               player_seed):
    state = playout(name, seed, n_moves, rng_seed)
    if state.is_over() or not state.legal_moves(distinct=True):
        return
    twin = twin_state(state, np.random.default_rng(rng_seed))
    assert twin.observation() == state.observation()
    for player in no_peek_players(player_seed):
        assert player.choose(state.observation()) == player.choose(twin.observation())


def test_choose_without_moves_raises():
    # Ten Across never declares a loss; this deal is stuck after a few moves of greedy play.
    state = get_game("ten-across").deal(2)
    record = play_game(state, get_player("greedy"))
    assert record.result == "stuck"
    end = state.copy()
    for move in record.moves:
        end.apply(move)
    if record.reason == "no legal move":
        with pytest.raises(IllegalMoveError):
            get_player("greedy").choose(end.observation())


@pytest.mark.parametrize("game, seed, player, params", [
    ("zebra", 1, "greedy", {}),
    ("zebra", 2, "pimc", {"samples": 4}),
    ("yukon", 1, "pimc", {}),
    ("ten-across", 9, "pimc", {}),
    ("yukon", 1, "study", {}),
    ("yukon", 1, "quick", {}),
    ("yukon", 2, "thoughtful", {}),
    ("ten-across", 1, "thoughtful", {}),
])
def test_won_games_replay_under_the_referee(game, seed, player, params):
    record = play_game(get_game(game).deal(seed), get_player(player, seed=0, **params))
    assert record.won, record.summary()
    assert record.verify()
    assert record.peeked == (player == "thoughtful")


def test_verify_rejects_a_record_that_is_not_a_win():
    record = play_game(get_game("yukon").deal(5), get_player("greedy"))
    assert not record.won
    with pytest.raises(AisleError, match="only won games"):
        record.verify()
    record.result = "won"                  # a record that claims a win it does not reach
    with pytest.raises(AisleError, match="does not end in a won position"):
        record.verify()


def test_thoughtful_follows_the_solver_and_gives_up_on_a_lost_deal():
    player = get_player("thoughtful", budget=200000)
    record = play_game(get_game("yukon").deal(5), player)      # seed 5 is proven unsolvable
    assert player.last_verdict == "unsolvable" and not record.won


def test_thoughtful_is_fair_where_nothing_is_hidden():
    state = get_game("freecell").deal(1)
    player = get_player("thoughtful")
    move = player.choose(state.observation())
    assert move in state.legal_moves()


def test_clock_plays_its_forced_game():
    from rules.clock import play

    state = get_game("clock").deal(1)
    forced = play(state.copy())
    record = play_game(state, get_player("greedy"))
    assert record.moves == forced and record.result == "lost"


def test_play_game_keeps_the_start_and_calls_back():
    state = get_game("zebra").deal(4)
    before = state.copy()
    seen = []
    record = play_game(state, get_player("greedy"), max_moves=5, on_move=lambda m, s: seen.append(m))
    assert state == before and record.start == before
    assert record.result == "stuck" and record.reason == "5 moves played" and seen == record.moves


def test_study_keeps_to_its_plan_while_it_sees_what_it_foresaw(monkeypatch):
    """After a decision whose plan goes on, ``study`` plays the plan's next move in the position
    it foresaw without sampling again; in any other position it decides afresh."""
    state = get_game("yukon").deal(3)
    player = get_player("study", seed=0)
    while True:                       # play until a decision leaves a plan to follow
        move = player.choose(state.observation())
        state.apply(move)
        if player._rest:
            break
    planned = player._rest[0]
    decided = []
    monkeypatch.setattr(type(player), "tally", lambda *a: decided.append(1) or pytest.fail("sampled"))
    assert player.choose(state.observation()) == planned and not decided
    player.new_game()                 # no plan: it decides (here, the patched tally fails)
    with pytest.raises(BaseException, match="sampled"):
        player.choose(state.observation())


def test_quick_deals_more_worlds_only_for_moves_that_won_different_worlds():
    """pimc's extension rule extends two close moves; quick's also wants a world that one of
    them won and the other did not."""
    from rules.moves import Move
    from solvers.players.pimc import _Tally

    a, b = Move.parse("drag 1 1 0"), Move.parse("drag 2 1 0")
    tally = {}
    for extend_agreeing in (True, False):
        t = _Tally(None, [a, b], 100, extend_agreeing)
        t.candidates, t.n_worlds = [(a,), (b,)], 10
        t.wins = {(a,): 7, (b,): 7}
        t.solved = [(None, {(a,), (b,)}, set())] * 7 + [(None, set(), set())] * 3
        tally[extend_agreeing] = t
    assert tally[True].close() and not tally[False].close()      # the same 7 worlds
    for t in tally.values():                                       # one world apart
        t.solved[0] = (None, {(a,)}, set())
        t.solved[7] = (None, {(b,)}, set())
        assert t.close()
        t.wins = {(a,): 10, (b,): 2}                               # far apart: no more worlds
        assert not t.close()
