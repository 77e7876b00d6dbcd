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

from rules import GAME_NAMES, IllegalMoveError, InvalidSeedError, Move, Outcome, get_game
from rules import InvalidDealError, InvalidOptionError, InvalidStateError, State
from rules.layout import Layout, parse_layout
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


# ---- State(game, array): arrays from outside are checked like layout text -----------------------


def reached_states(game, seed, steps=60):
    """The deal for ``seed`` and the positions of one random playout from it."""
    state = game.deal(seed, "aisleriot")
    rng = random.Random(seed)
    yield state.copy()
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            return
        state.apply(rng.choice(moves))
        yield state.copy()


def test_arrays_of_reached_positions_are_accepted(game):
    for seed in (3, 4):
        for state in reached_states(game, seed):
            again = State(game, state.array)
            assert again == state and again.array is not state.array
            assert State(game, state.array.astype(np.int64)) == state
            assert State(game, state.array.tolist()) == state


def test_state_keeps_its_own_copy(game):
    array = game.deal(2, "aisleriot").array.copy()
    state = State(game, array)
    array[:] = -7
    assert state.layout() == game.deal(2, "aisleriot").layout()


@pytest.mark.parametrize("bad, fragment", [
    (lambda a: a[:-1], "shape"),
    (lambda a: np.stack([a, a]), "shape"),
    (lambda a: a.astype(np.float64) + 0.5, "not an integer"),
    (lambda a: a.astype(bool), "dtype"),
    (lambda a: a.astype(str), "dtype"),
    (lambda a: np.where(np.arange(a.size) == 0, 70000, a), "int16"),
    (lambda a: [1, [2]], "array"),
    (lambda a: "1 2 3", "dtype"),
    (lambda a: None, "dtype"),
])
def test_malformed_arrays_are_refused(game, bad, fragment):
    array = game.deal(5, "aisleriot").array.astype(np.int64)
    with pytest.raises(InvalidStateError) as err:
        State(game, bad(array))
    assert fragment in str(err.value) and len(str(err.value)) < 300


def test_arrays_that_describe_no_position_are_refused(game):
    """Every single entry set to a garbage value either still describes the same kind of
    position (the value was harmless there) or is refused; nothing else escapes."""
    base = game.deal(6, "aisleriot").array
    rng = random.Random(6)
    refused = 0
    for index in range(game.state_size):
        for value in (-32768, -2, 32767, 52, 104, rng.randrange(-5, 120)):
            array = base.copy()
            array[index] = value
            try:
                state = State(game, array)
            except InvalidStateError as err:
                assert len(str(err)) < 300
                refused += 1
                continue
            assert game.from_layout(state.layout()).layout() == state.layout()
    assert refused >= game.state_size


def test_duplicated_card_is_refused(game):
    state = game.deal(8, "aisleriot")
    cards = [c for slot in parse_layout(state.layout()).slots for c, _ in slot]
    array = state.array.copy()
    first, second = (int(i) for i in np.flatnonzero(np.isin(array, [cards[0], cards[1]]))[:2])
    array[second] = array[first]
    with pytest.raises(InvalidStateError):
        State(game, array)


def test_state_needs_a_game():
    array = get_game("clock").deal(1).array
    with pytest.raises(InvalidStateError, match="'clock'"):
        State("clock", array)


def test_as_state_checks_arrays_and_games(game):
    with pytest.raises(InvalidStateError):
        game.as_state(np.zeros(3, dtype=np.int16))
    other = get_game("clock" if game.name != "clock" else "yukon").deal(1)
    with pytest.raises(InvalidStateError):
        game.as_state(other)
    with pytest.raises(InvalidSeedError):
        game.as_state(True)


def test_layout_objects_are_checked(game):
    layout = parse_layout(game.deal(9, "aisleriot").layout())
    assert game.from_layout(layout) == game.deal(9, "aisleriot")
    for slots in ((((99, True),),) + layout.slots[1:], (((-1, True),),) + layout.slots[1:],
                  ((("Kc", True),),) + layout.slots[1:], (((5, "yes"),),) + layout.slots[1:], (5,)):
        with pytest.raises(InvalidDealError):
            game.from_layout(Layout(slots, layout.score, layout.redeals))
    for score in (1.5, 10**5000, None):
        with pytest.raises(InvalidDealError) as err:
            game.from_layout(Layout(layout.slots, score, 0))
        assert len(str(err.value)) < 300
    with pytest.raises(InvalidDealError):
        game.from_text(b"Kc|#0#0")


@pytest.mark.parametrize("options", [{"spots": 2}, {"spots": 0.5}, {"spots": [1]}, {"spots": None}, "spots", [1]])
def test_bad_option_values_are_refused(options):
    with pytest.raises(InvalidOptionError):
        get_game("ten-across").resolve_options(options)


def test_numbering_must_be_a_name(game):
    for numbering in (["aisleriot"], 3, "nope"):
        with pytest.raises(InvalidSeedError):
            game.deal(1, numbering)


def test_moves_that_are_not_moves_are_refused(game):
    state = game.deal(4, "aisleriot")
    for move in (-1, 2**40, True, 3 << 24, 1.5, None, b"drag 1 1 2", Move(5, 1), Move(0, 300, 1, 2),
                 Move("drag", 1, 1, 2)):
        with pytest.raises(IllegalMoveError) as err:
            state.apply(move)
        assert len(str(err.value)) < 300
    with pytest.raises(IllegalMoveError) as err:
        state.apply("drag " + "9" * 5_000_000)
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("name, room", [("clock", 48), ("yukon", 52), ("zebra", 96)])
def test_layout_scores_leave_room_for_the_rest_of_the_game(name, room):
    """The score is one int16 entry and each scoring move adds 1: a layout may start at most
    ``room`` (the most scoring moves a game has left) below 32767, or play would wrap it negative."""
    game = get_game(name)
    layout = parse_layout(game.deal(1).layout())
    assert game.from_layout(layout._replace(score=32767 - room)).score == 32767 - room
    with pytest.raises(InvalidDealError):
        game.from_layout(layout._replace(score=32767 - room + 1))


def test_freecell_high_may_lag_behind_after_the_homecell_quirk_only_upwards():
    """high[] is the one entry no layout carries: after ``dbl`` of a homecell (spec 4.4) it stays
    above the homecell top; a value below the top or above 13 is refused."""
    from rules.cards import aisleriot_card_str
    from rules.freecell import HIGH

    game = get_game("freecell")
    rest = [aisleriot_card_str(c) for c in range(5, 52)]
    columns = [" ".join(rest[i::8]) for i in range(8)]
    state = game.from_layout("||||Ac 2c 3c 4c 5c||||" + "|".join(columns) + "#5#0")
    state.apply("dbl 4")                       # 5c to free cell 0; autoplay leaves it there
    assert state.layout().startswith("5c|") and state.array[HIGH] == 5
    assert State(game, state.array) == state
    for high, ok in ((4, True), (13, True), (3, False), (14, False), (-1, False)):
        array = state.array.copy()
        array[HIGH] = high
        if ok:
            assert State(game, array).array[HIGH] == high
        else:
            with pytest.raises(InvalidStateError, match="high"):
                State(game, array)


def test_hides_cards_says_whether_a_deal_hides_any(game):
    """``Game.hides_cards`` (which players and the CLI read) agrees with what the game's
    ``hidden_entries`` hides in its deals."""
    hidden = [bool(game.hidden_entries(game.deal(seed).array, ())) for seed in (1, 2, 3)]
    assert hidden == [game.hides_cards] * 3
