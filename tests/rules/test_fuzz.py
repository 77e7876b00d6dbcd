"""Fuzz: whatever the input, no crash and no false verdict.

Every parser -- layout text of each game, fc-solve boards, moves in both notations, seed ranges,
seeds, conformance traces, user text files -- gets random bytes, random text and near-valid text
(real inputs with a few edits), and must either succeed or raise an ``AisleError`` subclass whose
message stays short.  State arrays handed to ``State(game, array)`` -- random int16 values and
mutations of real positions -- must be refused with InvalidStateError or give a state whose
kernels work; that part calls the Numba kernels, so it runs in a child process (a crash there
fails one test instead of killing pytest), a few hundred arrays per game.
"""
import gzip
import os
import pathlib
import random
import subprocess
import sys
import tempfile
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules import GAME_NAMES, AisleError, Move, State, get_game
from rules.conformance import run_trace
from rules.errors import InvalidStateError, InvalidTraceError
from rules.freecell import format_fcs_board, parse_fcs_board
from rules.layout import parse_layout
from rules.textfile import read_text
from tests.support import REPO, SHARED

TRACES = SHARED / "conformance"
MAX_MESSAGE = 300
# Characters the formats use, plus some that break naive parsers: BOM, Kelvin sign (lower-cases
# to k), long s (upper-cases to S), Arabic-Indic digits (int() takes them), NUL, other spaces.
ALPHABET = "A23456789TJQKcdhsCDHS*|#:- 0123456789abvx\n\t\ufeff\u212a\u017f\u0663\x00\u00a0"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def refused_or_done(call, *args, **kwargs):
    """Run ``call``; an AisleError with a short message is a fine answer, anything else fails."""
    try:
        return call(*args, **kwargs)
    except AisleError as exc:
        assert len(str(exc)) < MAX_MESSAGE, str(exc)[:MAX_MESSAGE * 2]
        return None


@st.composite
def edited(draw, base, alphabet=ALPHABET):
    """``base`` with one to four random edits: delete, insert, replace, repeat, swap words, cut."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        kind = draw(st.sampled_from(["delete", "insert", "replace", "repeat", "swap", "cut"]))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.text(alphabet, min_size=1, max_size=4)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(st.text(alphabet, min_size=1, max_size=3)) + text[j:]
        elif kind == "repeat":
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        elif kind == "swap":
            words = text.split(" ")
            a, b = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[a], words[b] = words[b], words[a]
            text = " ".join(words)
        else:
            text = text[:i]
    return text


def any_text(base):
    """Random text, text decoded from random bytes, or ``base`` edited."""
    return st.one_of(st.text(max_size=80), st.text(ALPHABET, max_size=200),
                     st.binary(max_size=120).map(lambda b: b.decode("latin-1")), edited(base))


@lru_cache(maxsize=None)
def sample_layouts(name):
    """Layout texts of real positions: two deals and positions along a random playout."""
    game = get_game(name)
    rng = random.Random(name)
    texts = []
    for seed in (1, 2):
        state = game.deal(seed, "aisleriot")
        texts.append(state.layout())
        for _ in range(rng.randrange(5, 40)):
            moves = state.legal_moves()
            if not moves:
                break
            state.apply(rng.choice(moves))
        texts.append(state.layout())
    return tuple(texts)


def layouts(name):
    return st.sampled_from(sample_layouts(name)).flatmap(any_text)


# ---- layout text ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
@FUZZ
@given(data=st.data())
def test_layout_text_never_crashes(name, data):
    game = get_game(name)
    text = data.draw(layouts(name))
    state = refused_or_done(game.from_layout, text)
    refused_or_done(game.from_text, text)
    if state is not None:
        assert parse_layout(state.layout()) == parse_layout(text)


# ---- fc-solve boards -----------------------------------------------------------------------------
@lru_cache(maxsize=None)
def sample_boards():
    game = get_game("freecell")
    boards = [format_fcs_board(game.deal(n)) for n in (1, 617)]
    later = game.deal(5)
    for _ in range(30):
        later.apply(later.legal_moves(distinct=True)[0])
    return tuple(boards + [format_fcs_board(later)])


@FUZZ
@given(data=st.data())
def test_fc_solve_boards_never_crash(data):
    text = data.draw(st.sampled_from(sample_boards()).flatmap(any_text))
    state = refused_or_done(parse_fcs_board, text)
    refused_or_done(get_game("freecell").from_text, text)
    if state is not None:
        assert parse_fcs_board(format_fcs_board(state)) == state


# ---- moves ---------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def sample_moves(name):
    game = get_game(name)
    state = game.deal(3, "aisleriot")
    texts = [str(m) for m in state.legal_moves()] + ["drag 8 3 12", "click 6", "dbl 7"]
    if name == "freecell":
        texts += [state.format_move(m, "standard") for m in state.legal_moves(distinct=True)]
        texts += ["3a", "a5", "2h", "ah", "58", "58v3", "ab"]
    return tuple(texts)


@pytest.mark.parametrize("name", GAME_NAMES)
@FUZZ
@given(data=st.data())
def test_moves_never_crash(name, data):
    game = get_game(name)
    state = game.deal(3, "aisleriot")
    text = data.draw(st.sampled_from(sample_moves(name)).flatmap(any_text))
    refused_or_done(Move.parse, text)
    move = refused_or_done(state.parse_move, text)
    if move is not None:
        refused_or_done(state.format_move, move, "standard" if name == "freecell" else "aisleriot")
        played = refused_or_done(state.copy().apply, move)
        assert played is None or played in state.legal_moves()


@FUZZ
@given(fields=st.tuples(st.integers(0, 2), st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_any_encodable_move_formats_or_is_refused(fields):
    for name in GAME_NAMES:
        state = get_game(name).deal(2, "aisleriot")
        for notation in ("aisleriot", "standard"):
            text = refused_or_done(state.format_move, Move(*fields), notation)
            if text is not None and name == "freecell" and notation == "standard":
                assert refused_or_done(state.parse_move, text) is not None


@FUZZ
@given(code=st.one_of(st.integers(), st.integers(-10, 3 << 24), st.floats(), st.booleans(), st.none()))
def test_move_codes_never_crash(code):
    state = get_game("clock").deal(1)
    move = refused_or_done(state.parse_move, code)
    if move is not None:
        refused_or_done(state.copy().apply, move)


# ---- seeds ---------------------------------------------------------------------------------------
@FUZZ
@given(data=st.data())
def test_seed_ranges_never_crash(data):
    from solvers.studies.seeds import parse_seeds

    text = data.draw(st.sampled_from(["1-1000,5000,7000-7100", "42", "0-4294967295", "8589934591"]).flatmap(any_text))
    for numbering in ("aisleriot", "microsoft"):
        refused_or_done(parse_seeds, text, numbering)


@pytest.mark.parametrize("seeds", [
    "1-" + "9" * 5000, "9" * 5000, "x" * 5_000_000, "1-5," * 1_000_000 + "x", b"12", "5-1", "", ",", "-",
    "1--2", "\u0661\u0662"])
def test_seed_range_edge_cases_are_refused_in_one_short_line(seeds):
    from solvers.studies.seeds import parse_seeds

    from rules.errors import InvalidSeedError

    with pytest.raises(InvalidSeedError) as err:
        parse_seeds(seeds)
    assert len(str(err.value)) < MAX_MESSAGE


@FUZZ
@given(seed=st.one_of(st.integers(), st.floats(), st.booleans(), st.text(ALPHABET, max_size=12),
                      st.just("9" * 5000), st.none()))
def test_seeds_never_crash(seed):
    for name in ("clock", "freecell"):
        state = refused_or_done(get_game(name).deal, seed)
        if state is not None:
            assert isinstance(seed, (int, float, str)) and not isinstance(seed, bool)


# ---- conformance traces --------------------------------------------------------------------------
@lru_cache(maxsize=None)
def sample_trace(name, positions=3):
    """The start of a recorded trace: its first ``positions`` positions."""
    with gzip.open(TRACES / f"{name}.txt.gz", "rt", encoding="utf-8") as fh:
        lines = []
        for line in fh:
            if line.startswith("DO ") and sum(x.startswith("DO ") for x in lines) == positions - 1:
                break
            lines.append(line.rstrip("\n"))
    return tuple(lines)


@st.composite
def edited_traces(draw, name):
    lines = list(sample_trace(name))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "repeat", "swap", "edit", "insert", "cut"]))
        if kind == "delete":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "edit":
            lines[i] = draw(edited(lines[i]))
        elif kind == "insert":
            lines.insert(i, draw(st.sampled_from(["OVER maybe", "DO", "ACT", "STATE", "NEW", "ACT drag 1 1 2",
                                                  "DO click 99", "OVER #t WON", "garbage"])))
        else:
            lines = lines[:i]
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


def write(directory, name, data):
    path = pathlib.Path(directory) / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def run_or_refuse(path):
    """run_trace: a report, or InvalidTraceError / another AisleError naming the file."""
    try:
        return run_trace(path)
    except AisleError as exc:
        assert len(str(exc)) < MAX_MESSAGE, str(exc)[:MAX_MESSAGE * 2]
        if isinstance(exc, InvalidTraceError):
            assert str(path)[-20:] in str(exc)
        return None


@pytest.mark.parametrize("name", ["clock", "freecell", "ten-across"])
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_edited_traces_never_crash(name, data):
    text = data.draw(edited_traces(name))
    with tempfile.TemporaryDirectory() as tmp:
        run_or_refuse(write(tmp, "t.txt", text))


@FUZZ
@given(data=st.binary(max_size=300), packed=st.booleans())
def test_random_trace_files_never_crash(data, packed):
    with tempfile.TemporaryDirectory() as tmp:
        run_or_refuse(write(tmp, "t.txt.gz" if packed else "t.txt", gzip.compress(data) if packed else data))
        run_or_refuse(write(tmp, "raw.gz", data))


@pytest.mark.parametrize("lines, fragment", [
    (["OVER maybe"], "line 1"),
    (["DO drag 1 1 2"], "line 1"),
    (["ACT drag 1 1 2 => x"], "line 1"),
    (["STATE x"], "line 1"),
])
def test_records_before_the_first_game_are_named(tmp_path, lines, fragment):
    path = write(tmp_path, "t.txt", "\n".join(lines + list(sample_trace("clock"))) + "\n")
    with pytest.raises(InvalidTraceError) as err:
        run_trace(path)
    assert fragment in str(err.value) and "t.txt" in str(err.value)


@pytest.mark.parametrize("bad, line", [
    ("OVER maybe", 3), ("OVER #t WON", 3), ("ACT drag 6 1 7", 4), ("ACT jump => x", 4), ("DO jump", 6),
    ("NEW Kc|#0#0", 1), ("hello", 2),
])
def test_malformed_records_are_named_with_their_line(tmp_path, bad, line):
    lines = list(sample_trace("clock"))
    lines[line - 1] = bad
    path = write(tmp_path, "t.txt", "\n".join(lines) + "\n")
    with pytest.raises(InvalidTraceError) as err:
        run_trace(path)
    assert f"line {line}" in str(err.value) and "t.txt" in str(err.value)


@pytest.mark.parametrize("data, fragment", [
    (b"NEW \xff\xfe\n", "not UTF-8"), (b"\x1f\x8b\x08\x00garbage", "gzip"), (b"plain text", "gzip"),
])
def test_unreadable_traces_are_one_error(tmp_path, data, fragment):
    path = write(tmp_path, "t.txt.gz" if fragment == "gzip" else "t.txt", data)
    with pytest.raises(InvalidTraceError) as err:
        run_trace(path)
    assert fragment in str(err.value) and "t.txt" in str(err.value)


def test_truncated_gzip_trace_is_one_error(tmp_path):
    data = (TRACES / "clock.txt.gz").read_bytes()
    with pytest.raises(InvalidTraceError, match="t.txt.gz"):
        run_trace(write(tmp_path, "t.txt.gz", data[: len(data) // 2]))


def test_a_whole_recorded_trace_still_passes(tmp_path):
    text = "\n".join(sample_trace("clock", positions=40)) + "\n"
    assert run_trace(write(tmp_path, "t.txt", "\ufeff" + text)).ok


# ---- user text files -----------------------------------------------------------------------------
@FUZZ
@given(data=st.binary(max_size=200), packed=st.booleans())
def test_random_files_never_crash(data, packed):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(tmp, "f.txt.gz" if packed else "f.txt", data)
        text = refused_or_done(read_text, path, "board", max_bytes=150)
        if text is not None:
            refused_or_done(parse_fcs_board, text)
            refused_or_done(get_game("zebra").from_text, text)


# ---- state arrays: in a child process, since they reach the kernels -------------------------------
CHILD = """
import sys
sys.path.insert(0, {repo!r})
from tests.rules import test_fuzz
test_fuzz.array_fuzz(sys.argv[1], int(sys.argv[2]))
print("ok")
"""


def run_child(name, examples):
    proc = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO)), name, str(examples)],
                          capture_output=True, text=True, timeout=600, cwd=str(REPO),
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), (
        f"child exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_state_arrays_are_refused_or_safe(name):
    run_child(name, 400)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_state_arrays_are_refused_or_safe_many(name):
    run_child(name, 3000)


def exercise(game, state, picks):
    """Every kernel on ``state``, every accepted action once, then a short walk; each position
    reached must still be a well-formed array (the kernels keep what check_array demands)."""

    def look(s):
        moves = s.legal_moves()
        assert len(moves) <= game.max_moves
        assert set(s.legal_moves(distinct=True)) <= set(moves)
        int(s.outcome), s.is_won(), s.score, s.canonical_hash(), s.layout(), str(s)
        if abs(s.score) < 32767 - 104:          # a layout keeps int16 room for the rest of the game
            assert State(game, s.array) == s
        return moves

    moves = look(state)
    for move in moves:
        child = state.copy()
        child.apply(move)
        look(child)
    for pick in picks:
        if not moves:
            break
        state.apply(moves[pick % len(moves)])
        moves = look(state)


def array_fuzz(name, examples):
    """Child process: ``examples`` arrays for ``name`` through State(game, array) and the kernels."""
    from hypothesis.extra.numpy import arrays

    game = get_game(name)
    bases = [State(game, game.from_layout(text).array) for text in sample_layouts(name)]
    size = game.state_size
    entry = st.integers(0, size - 1)
    value = st.one_of(st.integers(-3, 110), st.integers(-32768, 32767), st.sampled_from([-1, 0, 1, 12, 13, 51, 52]))

    @st.composite
    def mutated(draw):
        """A real position with one to four edits: an entry set, nudged by one, or swapped with
        another entry -- often two cards, which keeps every card once."""
        a = draw(st.sampled_from(bases)).array.copy()
        cards = np.flatnonzero((a >= 0) & (a < 52))
        for _ in range(draw(st.integers(1, 4))):
            i = draw(entry)
            kind = draw(st.sampled_from(["set", "nudge", "swap", "swap cards"]))
            if kind == "set":
                a[i] = draw(value)
            elif kind == "nudge":
                a[i] += draw(st.sampled_from([-1, 1]))
            else:
                if kind == "swap cards":
                    i = int(cards[draw(st.integers(0, len(cards) - 1))])
                j = draw(entry) if kind == "swap" else int(cards[draw(st.integers(0, len(cards) - 1))])
                a[i], a[j] = a[j], a[i]
        return a

    candidates = st.one_of(
        arrays(np.int16, size),
        arrays(np.int16, size, elements=st.integers(-2, 110)),
        mutated(), mutated(), mutated(),
        st.sampled_from(sample_layouts(name)).flatmap(edited),
    )

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(candidate=candidates, picks=st.lists(st.integers(0, 10**6), max_size=15))
    def check(candidate, picks):
        try:
            state = State(game, candidate) if not isinstance(candidate, str) else game.from_layout(candidate)
        except AisleError as exc:
            assert isinstance(exc, InvalidStateError) or isinstance(candidate, str), repr(exc)
            assert len(str(exc)) < MAX_MESSAGE, str(exc)
            return
        exercise(game, state, picks)

    check()


# ---- the Python API refuses what it cannot use, in AisleErrors (issue 55) --------------------
def _finished(name):
    """A won Ten Across (its solver's line played out) or a lost Clock (its forced play)."""
    from rules.clock import play
    from solvers import get_solver

    state = get_game(name).deal(1)
    if name == "clock":
        play(state)
    else:
        for move in get_solver(name).solve(state).moves:
            state.apply(move)
    return state


@pytest.mark.parametrize("name, outcome", [("ten-across", "won"), ("clock", "lost")])
def test_no_player_offers_a_move_on_a_finished_game(name, outcome):
    from solvers.players import PLAYER_NAMES, get_player

    state = _finished(name)
    assert state.outcome.name.lower() == outcome
    for player_name in PLAYER_NAMES:
        player = get_player(player_name)
        with pytest.raises(AisleError, match=outcome):
            if player.peeks:
                player.choose_peeking(state)
            else:
                player.choose(state.observation())


def test_play_game_and_sample_refuse_wrong_arguments_in_aisle_errors():
    from solvers.players import get_player, play_game

    state = get_game("yukon").deal(1)
    greedy = get_player("greedy")
    for args, kwargs in [((state.observation(), greedy), {}), ((state, "greedy"), {}),
                         ((state, greedy), {"max_moves": None}), ((state, greedy), {"max_moves": 0}),
                         ((state, greedy), {"on_move": 3})]:
        with pytest.raises(AisleError):
            play_game(*args, **kwargs)
    for rng in ("x", -1, 1.5, True):
        with pytest.raises(AisleError):
            state.observation().sample(rng)
    assert state.observation().sample(7) == state.observation().sample(np.random.default_rng(7))


def test_all_worlds_counts_first_and_lists_few_without_repeats():
    from itertools import permutations

    from rules.observation import HIDDEN, MAX_WORLDS, Observation, _arrangements

    clock = get_game("clock").deal(1).observation()
    assert clock.world_count() > MAX_WORLDS
    with pytest.raises(AisleError, match="worlds"):           # was killed at 24 GB
        clock.all_worlds()
    state = get_game("yukon").deal(1)                          # three cards left unseen
    hidden = np.flatnonzero(state.observation().array == HIDDEN)
    array = state.observation().array.copy()
    array[hidden[3:]] = state.array[hidden[3:]]
    few = Observation(state.game, array, state.array[hidden[:3]].tolist())
    worlds = few.all_worlds()
    assert len(worlds) == few.world_count() == 6 and state in worlds
    assert len({world.array.tobytes() for world in worlds}) == 6
    cards = [3, 1, 3, 2, 1]                                      # repeated cards: distinct orders
    assert list(_arrangements(cards)) == sorted(set(permutations(cards)))


def test_player_parameters_that_would_hold_unbounded_worlds_are_refused():
    from solvers.players import get_player

    with pytest.raises(AisleError, match="at most"):
        get_player("pimc", samples=10**23)
    with pytest.raises(AisleError, match="at most"):
        get_player("pimc", extend=10**9)
