"""Freecell: deal vectors, conformance, referee differential, spec 4.3/4.4/4.5 edge cases,
notations (standard moves, fc-solve boards) and hypothesis properties."""
import copy
import gzip
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalMoveError, InvalidDealError, Move, Outcome, get_game
from rules.cards import parse_card
from rules.conformance import run_trace
from rules.freecell import (COL_WIDTH, COLS, FREE, HEIGHT, HIGH, HOME, MAX_MOVES, _array_from_columns,
                            format_fcs_board, parse_fcs_board)
from rules.game import State
from rules.layout import Layout, parse_layout
from rules.referee.freecell import Referee

GAME = get_game("freecell")


def cards(text):
    return [parse_card(t) for t in text.split()]


def build(columns, free=(), homes=()):
    """A State from explicit columns ('*' = filler column), free cells and homecell TOP cards.

    Cards not placed go round-robin into the filler columns (built directly as an array, so
    legal-move tests are not limited by the layout validator's column-growth bound)."""
    placed = set()
    cols = []
    free_cards = [parse_card(c) if c != "-" else -1 for c in free]
    home_cards = [parse_card(c) if c != "-" else -1 for c in homes]
    for c in free_cards:
        placed.add(c)
    for top in home_cards:
        if top >= 0:
            placed.update(range(13 * (top // 13), top + 1))
    for col in columns:
        cols.append(None if col == "*" else cards(col))
        if col != "*":
            placed.update(cols[-1])
    rest = [c for c in range(52) if c not in placed]
    fillers = [i for i, c in enumerate(cols) if c is None]
    for i in fillers:
        cols[i] = []
    for k, c in enumerate(rest):
        cols[fillers[k % len(fillers)]].append(c)
    # hand-made positions whose filler columns may exceed the engine's column bound: unchecked
    state = State.trusted(GAME, _array_from_columns(cols, free_cards + [-1] * (4 - len(free_cards)),
                                                     home_cards + [-1] * (4 - len(home_cards))))
    assert _all_cards(state)
    return state


def _all_cards(state):
    layout = state.game.array_to_layout(state.array)
    return sorted(c for slot in layout.slots for c, _ in slot) == list(range(52))


def legal(state, faithful=True):
    return {str(m) for m in state.legal_moves(distinct=not faithful)}


def ns_to(state, src, dst):
    return sorted(m.n for m in state.legal_moves() if m.kind == 0 and m.src == src and m.dst == dst)


# ---------------------------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------------------------
def test_aisleriot_seed_1_vectors():
    layout = parse_layout(GAME.deal(1, numbering="aisleriot").layout())
    assert [c for c, _ in layout.slots[8]] == cards("9c Td Jc 4h Kh 8c 7c")
    assert [c for c, _ in layout.slots[15]] == cards("Ks 5s 8h Qs Qc Th")
    assert [len(s) for s in layout.slots] == [0] * 8 + [7] * 4 + [6] * 4


def test_microsoft_deal_1():
    state = GAME.deal(1)  # microsoft is the default numbering
    layout = parse_layout(state.layout())
    assert [slot[0][0] for slot in layout.slots[8:]] == cards("JD 2D 9H JC 5D 7H 7C 5H")
    assert [c for c, _ in layout.slots[8]] == cards("JD KD 2S 4C 3S 6D 6S")
    assert format_fcs_board(state).splitlines()[2] == ": JD KD 2S 4C 3S 6D 6S"
    assert state == GAME.deal(1, numbering="microsoft")


def test_trace_first_positions_are_seed_deals(conformance_dir):
    with gzip.open(conformance_dir / "freecell.txt.gz", "rt") as fh:
        firsts = [line[4:].rstrip("\n") for line in fh if line.startswith("NEW ")]
    assert len(firsts) == 30
    for k, layout in enumerate(firsts):
        assert GAME.deal(3000 + k, numbering="aisleriot").layout() == layout


def test_aces_on_top_stay_at_the_deal():
    # trace game 0 (seed 3000) has Ah second from the top of slot 15; seed 1 has Ah on top of slot 9
    state = GAME.deal(1, numbering="aisleriot")
    assert parse_layout(state.layout()).slots[9][-1][0] == parse_card("AH")
    assert state.score == 0


# ---------------------------------------------------------------------------------------------
# Conformance
# ---------------------------------------------------------------------------------------------
def test_conformance_trace(conformance_dir):
    report = run_trace(conformance_dir / "freecell.txt.gz")
    assert report.games == 30 and report.positions > 2000
    assert report.ok, report.summary() + "\n" + "\n".join(report.mismatches)


def test_referee_on_trace(conformance_dir):
    """The referee alone against the first 8 games of the trace: positions and action sets."""
    referee, expected, games, checked = None, None, 0, 0

    def finish():
        nonlocal expected, checked
        if expected is None:
            return
        ours = {}
        for action in referee.legal_actions():
            child = copy.deepcopy(referee)
            child.apply(action)
            ours[action] = str(child.layout())
        assert ours == expected
        checked += 1
        expected = None

    with gzip.open(conformance_dir / "freecell.txt.gz", "rt") as fh:
        for line in fh:
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind == "NEW":
                finish()
                games += 1
                if games > 8:
                    break
                referee = Referee(parse_layout(rest))
            elif kind == "STATE":
                finish()
                assert str(referee.layout()) == rest
                expected = {}
            elif kind == "ACT":
                action, _, after = rest.partition(" => ")
                expected[action] = after
            elif kind == "DO":
                finish()
                referee.apply(rest)
    assert checked > 500


# ---------------------------------------------------------------------------------------------
# Random playouts: kernel vs referee
# ---------------------------------------------------------------------------------------------
def playout_positions(seed, steps, numbering="aisleriot", faithful=True, deal=None, start=None):
    """Positions along a random playout, biased so that columns empty out and cards go home,
    with the odd homecell double click (which leaves high[] stale)."""
    rng = random.Random(seed)
    state = start.copy() if start is not None else GAME.deal(deal if deal is not None else seed,
                                                             numbering=numbering)
    out = [state.copy()]
    for _ in range(steps):
        moves = state.legal_moves(distinct=not faithful)
        if not moves:
            break
        home = [m for m in moves if m.kind == 0 and 4 <= m.dst < 8]
        farm = [m for m in moves if m.kind == 2 and 4 <= m.src < 8]
        cols = [m for m in moves if m.kind == 0 and m.dst >= 8]
        emptying = [m for m in cols if m.src >= 8 and m.n == state.array[HEIGHT + m.src - 8]]
        r = rng.random()
        if farm and r < 0.05:
            pick = farm
        elif home and r < 0.6:
            pick = home
        elif emptying and r < 0.8:
            pick = emptying
        elif cols and r < 0.95:
            pick = cols
        else:
            pick = moves
        state.apply(rng.choice(pick))
        out.append(state.copy())
    return out


def near_won():
    """Everything home but a few high cards, spread over columns and free cells."""
    homes = [parse_card(c) for c in ("9C", "TD", "8H", "JS")]
    rest = [c for c in range(52) if c not in [x for t in homes for x in range(13 * (t // 13), t + 1)]]
    slots = [()] * 4 + [tuple((x, True) for x in range(13 * (t // 13), t + 1)) for t in homes] + [()] * 8
    slots = list(slots)
    slots[0] = ((rest[0], True),)
    for k, c in enumerate(rest[1:]):
        slots[8 + k % 8] += ((c, True),)
    return GAME.from_layout(Layout(tuple(slots), 38, 0))


@pytest.mark.parametrize("seed", range(8))
def test_kernel_matches_referee_on_playouts(seed):
    positions = playout_positions(100 + seed, 90)[::2]
    positions += playout_positions(seed, 30, start=near_won())[:16]
    for state in positions:
        referee = Referee(parse_layout(state.layout()))
        # high[] is hidden state: sync it from the kernel (a stale high[] after a homecell dbl)
        referee.high = [int(x) for x in state.array[HIGH:HIGH + 4]]
        ours = {}
        for move in state.legal_moves():
            child = state.copy()
            child.apply(move)
            ours[str(move)] = (child.layout(), child.outcome)
        theirs = {}
        for action in referee.legal_actions():
            child = copy.deepcopy(referee)
            child.apply(action)
            theirs[action] = (str(child.layout()), Outcome(child.outcome()))
        assert ours == theirs
        assert state.outcome == referee.outcome() and state.is_won() == referee.won()
        assert len(ours) <= MAX_MOVES


@pytest.mark.parametrize("seed", range(4))
def test_solver_moves_cover_faithful_moves(seed):
    """faithful=0 is a subset of faithful=1, and reaches every faithful child up to canonical
    symmetry except the homecell-dbl quirk and moves that leave the canonical position alone."""
    for state in playout_positions(200 + seed, 80, numbering="microsoft", faithful=False, deal=seed + 1):
        faithful = state.legal_moves()
        solver = state.legal_moves(distinct=True)
        assert set(solver) <= set(faithful)
        assert len(set(solver)) == len(solver)

        def child_hash(m):
            c = state.copy()
            c.apply(m)
            return c.canonical_hash()

        reached = {child_hash(m) for m in solver} | {state.canonical_hash()}
        for m in faithful:
            if m.kind == 2 and 4 <= m.src < 8:
                continue
            assert child_hash(m) in reached, str(m)


# ---------------------------------------------------------------------------------------------
# Supermove capacity (spec 4.3), on constructed positions
# ---------------------------------------------------------------------------------------------
RUN6 = "7S 6H 5S 4H 3S 2H"  # n = 5 needs a black 7 below, n = 6 a red 8


def test_capacity_no_empty_field_four_free_cells():
    state = build(["KC " + RUN6, "KD 7C", "KH 8D", "*", "*", "*", "*", "*"])
    assert ns_to(state, 8, 9) == [5]   # (4 + 1) * 2^0 = 5
    assert ns_to(state, 8, 10) == []   # 6 cards do not fit


def test_capacity_two_free_cells_one_empty_field_to_non_empty():
    run7 = "8S 7H 6S 5H 4S 3H 2S"
    state = build(["KC " + run7, "KD 8C", "KH 9D", "", "*", "*", "*", "*"], free=["-", "-", "QC", "QD"])
    assert ns_to(state, 8, 9) == [6]   # (2 + 1) * 2^1 = 6
    assert ns_to(state, 8, 10) == []   # 7 > 6


def test_capacity_only_empty_field_is_destination():
    state = build(["KC " + RUN6, "", "*", "*", "*", "*", "*", "*"], free=["-", "QC", "-", "QD"])
    assert ns_to(state, 8, 9) == [1, 2, 3]   # (2 + 1) * 2^0


def test_capacity_two_empty_fields_moving_to_one():
    run7 = "8S 7H 6S 5H 4S 3H 2S"
    state = build(["KC " + run7, "", "", "*", "*", "*", "*", "*"], free=["QC", "-", "QD", "-"])
    assert ns_to(state, 8, 9) == [1, 2, 3, 4, 5, 6]   # (2 + 1) * 2^(2 - 1)
    assert ns_to(state, 8, 10) == [1, 2, 3, 4, 5, 6]


def test_capacity_whole_column_counts_source_after_lifting():
    # no other empty field: the emptied source does not count, capacity F + 1 = 3
    state = build(["4S 3H 2S", "", "*", "*", "*", "*", "*", "*"], free=["QC", "QD", "-", "-"])
    assert ns_to(state, 8, 9) == [1, 2, 3]
    state = build(["5H 4S 3H 2S", "", "*", "*", "*", "*", "*", "*"], free=["QC", "QD", "-", "-"])
    assert ns_to(state, 8, 9) == [1, 2, 3]   # the whole 4-card column may not go


def test_capacity_empty_fields_double_per_field():
    run7 = "8S 7H 6S 5H 4S 3H 2S"
    # 0 free cells empty, 3 empty fields, to a non-empty column: 1 * 2^3 = 8 >= 7
    state = build(["KC " + run7, "KH 9D", "", "", "", "*", "*", "*"], free=["QC", "QD", "JC", "JD"])
    assert ns_to(state, 8, 9) == [7]


# ---------------------------------------------------------------------------------------------
# Moves and double clicks
# ---------------------------------------------------------------------------------------------
def test_free_cell_to_free_cell_is_legal_and_dbl_needs_an_empty_cell():
    state = build(["*"] * 8, free=["KC", "-", "-", "-"])
    moves = legal(state)
    assert {"drag 0 1 1", "drag 0 1 2", "drag 0 1 3", "dbl 0"} <= moves
    assert not any(m.startswith("click") for m in moves)
    assert "drag 0 1 1" not in legal(state, faithful=False)
    full = build(["*"] * 8, free=["KC", "KD", "KH", "KS"])
    assert not any(m.startswith("dbl") for m in legal(full))
    with pytest.raises(IllegalMoveError):
        full.apply("dbl 8")


def test_dbl_free_cell_goes_to_lowest_empty_cell_chosen_before_lifting():
    state = build(["*"] * 8, free=["QC", "KC", "-", "-"])
    state.apply("dbl 1")
    assert state.layout().startswith("Qc||Kc|")


def test_homecell_dbl_score_farm():
    """Spec 4.4: dbl on a homecell lifts its top card; a 2 bounces straight back with +1."""
    state = build(["*"] * 8, homes=["2C", "-", "-", "-"])
    state.array[12] = 2  # score 2 for the two clubs home
    before = state.layout()
    assert "dbl 4" in legal(state) and "dbl 4" not in legal(state, faithful=False)
    for k in range(1, 6):
        state.apply("dbl 4")
        layout = parse_layout(state.layout())
        assert layout.slots == parse_layout(before).slots
        assert state.score == 2 + k
    # a higher card stays in the free cell, high[] stays stale
    state = build(["*"] * 8, homes=["5C", "-", "-", "-"])
    state.apply("dbl 4")
    layout = parse_layout(state.layout())
    assert [c for c, _ in layout.slots[0]] == cards("5C")
    assert [c for c, _ in layout.slots[4]] == cards("AC 2C 3C 4C")
    assert int(state.array[HIGH]) == 5 and state.score == 0


def test_any_empty_homecell_takes_an_ace():
    state = build(["KC AH", "*", "*", "*", "*", "*", "*", "*"], homes=["-", "AD", "-", "-"])
    assert {"drag 8 1 4", "drag 8 1 6", "drag 8 1 7"} <= legal(state)
    solver = {m for m in legal(state, faithful=False) if m.startswith("drag 8 1 ") and m.split()[-1] in "4567"}
    assert solver == {"drag 8 1 4"}
    state.apply("drag 8 1 7")
    assert parse_layout(state.layout()).slots[7][0][0] == parse_card("AH")


# ---------------------------------------------------------------------------------------------
# Autoplay (spec 4.5)
# ---------------------------------------------------------------------------------------------
def test_autoplay_restarts_scan_at_slot_0():
    # slot 8 ends AH AS, slot 9 ends AD; a restart puts AS, AH, AD in homecells 4, 5, 6
    # (continuing the scan instead would give AS, AD, AH)
    state = build(["KC AH AS", "KD AD", "*", "*", "*", "*", "*", "*"])
    state.apply("dbl 10")  # any action triggers autoplay
    slots = parse_layout(state.layout()).slots
    assert [slots[h][0][0] for h in (4, 5, 6)] == cards("AS AH AD")
    assert state.score == 3


def test_autoplay_scans_free_cells_first():
    state = build(["KC AS", "*", "*", "*", "*", "*", "*", "*"], free=["-", "-", "-", "AH"])
    state.apply("dbl 11")
    slots = parse_layout(state.layout()).slots
    assert slots[4][0][0] == parse_card("AH") and slots[5][0][0] == parse_card("AS")


def test_autoplay_safe_limits():
    # red card: limit = min(2 + min(hC, hS), 3 + min(hD, hH))
    goes = build(["*"] * 8, free=["4H"], homes=["2C", "AD", "3H", "2S"])
    goes.apply("dbl 8")   # limit red = min(4, 4) = 4: 4H goes home
    assert parse_layout(goes.layout()).slots[6][-1][0] == parse_card("4H")
    stays = build(["*"] * 8, free=["4H"], homes=["AC", "AD", "3H", "2S"])
    stays.apply("dbl 8")  # limit red = min(3, 4) = 3: 4H stays
    assert parse_card("4H") in [s[0][0] for s in parse_layout(stays.layout()).slots[:4] if s]
    # black card: limit = min(2 + min(hD, hH), 3 + min(hC, hS))
    goes = build(["*"] * 8, free=["5S"], homes=["2C", "3D", "3H", "4S"])
    goes.apply("dbl 8")   # min(5, 5) = 5
    assert parse_layout(goes.layout()).slots[7][-1][0] == parse_card("5S")


def test_autoplay_uses_high_not_homecell_tops():
    # after a homecell dbl, high[C] = 5 while clubs top is 4C: 3S (limit uses high) may go home
    state = build(["KD 3S", "*", "*", "*", "*", "*", "*", "*"], homes=["5C", "3D", "3H", "2S"])
    limit_black_before = min(2 + 3, 3 + min(5, 2))
    assert limit_black_before == 5
    state.apply("dbl 4")   # 5C to a free cell; tops now C4 D3 H3 S2, high C5 D3 H3 S2
    slots = parse_layout(state.layout()).slots
    assert slots[7][-1][0] == parse_card("3S")  # 3S went home on the first action
    assert int(state.array[HIGH]) == 5


# ---------------------------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------------------------
def test_won_and_never_lost():
    layout = Layout(tuple([()] * 4 + [tuple((13 * s + r, True) for r in range(13)) for s in range(4)]
                          + [()] * 8), 52, 0)
    done = GAME.from_layout(layout)
    assert done.is_won() and done.outcome == Outcome.WON and done.legal_moves() == [
        Move.parse(f"dbl {h}") for h in range(4, 8)]
    assert GAME.deal(5).outcome == Outcome.ONGOING
    for state in playout_positions(7, 60):
        assert state.outcome in (Outcome.ONGOING, Outcome.WON)


def test_layout_validation():
    good = GAME.deal(3).layout()
    swapped = good.replace("Ad", "Ac", 1)
    with pytest.raises(InvalidDealError, match="missing AD.*duplicate AC"):
        GAME.from_layout(swapped)
    with pytest.raises(InvalidDealError, match="16 slots"):
        GAME.from_layout("|" + good)
    with pytest.raises(InvalidDealError, match="face-down"):
        GAME.from_layout(good.replace("Ad", "Ad*", 1))
    with pytest.raises(InvalidDealError, match="homecell"):
        GAME.from_layout(_homecell_layout("Ac 3c"))


def _homecell_layout(home):
    layout = parse_layout(GAME.deal(3).layout())
    homecards = cards(home)
    slots = [tuple(x for x in s if x[0] not in homecards) for s in layout.slots]
    slots[4] = tuple((c, True) for c in homecards)
    return str(Layout(tuple(slots), 0, 0))


# ---------------------------------------------------------------------------------------------
# Standard notation
# ---------------------------------------------------------------------------------------------
def test_standard_notation_examples():
    state = build(["KC " + RUN6, "KD 7C", "", "*", "*", "*", "*", "*"], free=["AH", "-", "-", "-"])
    p = lambda t: state.parse_move(t)  # noqa: E731
    assert p("1b") == Move.parse("drag 8 1 1")
    assert p("ah") == Move.parse("drag 0 1 4")
    assert p("a3") == Move.parse("drag 0 1 10")
    assert p("12") == Move.parse("drag 8 5 9")
    assert p("13") == Move.parse("drag 8 4 10")     # maximal that fits an empty column: (3+1) * 2^0
    assert p("13v2") == Move.parse("drag 8 2 10") and p("1B") == p("1b")
    assert p("drag 8 1 2") == Move.parse("drag 8 1 2") and p("dbl 4") == Move.parse("dbl 4")
    assert state.format_move("drag 8 2 10", "standard") == "13v2"
    assert state.format_move("drag 8 4 10", "standard") == "13"
    assert state.format_move("drag 8 5 9", "standard") == "12"
    assert state.format_move("dbl 9", "standard") == "2b"
    with pytest.raises(IllegalMoveError):
        state.format_move("dbl 4", "standard")
    with pytest.raises(IllegalMoveError):
        p("2h")
    with pytest.raises(IllegalMoveError):
        p("9a")


@pytest.mark.parametrize("seed", range(3))
def test_standard_notation_round_trip(seed):
    for state in playout_positions(300 + seed, 60):
        for m in state.legal_moves():
            if m.kind == 2:
                continue
            text = state.format_move(m, "standard")
            back = state.parse_move(text)
            if 4 <= m.dst < 8 and back != m:
                # 'h' names no homecell slot: an Ace goes to the first empty one; same position
                # up to homecell order
                assert back.src == m.src and 4 <= back.dst < m.dst
                assert _child(state, back).canonical_hash() == _child(state, m).canonical_hash()
            else:
                assert back == m, (str(m), text)


def _child(state, move):
    child = state.copy()
    child.apply(move)
    return child


# ---------------------------------------------------------------------------------------------
# fc-solve boards
# ---------------------------------------------------------------------------------------------
def test_fcs_board_parse_variants():
    deal = GAME.deal(1)
    plain = "\n".join(" ".join(line.split()[1:]) for line in format_fcs_board(deal).splitlines()[2:])
    assert parse_fcs_board(plain) == deal
    assert parse_fcs_board(plain.lower().replace("t", "10")) == deal
    text = ("Foundations: H-0 C-2 D-A S-0\nFreecells: 5D - 7D\n"
            + "\n".join(": " + line for line in plain.replace("AC ", "").replace("2C ", "")
                        .replace("AD ", "").replace("5D ", "").replace("7D ", "").splitlines()))
    state = parse_fcs_board(text)
    slots = parse_layout(state.layout()).slots
    assert [c for c, _ in slots[4]] == cards("AC 2C") and [c for c, _ in slots[5]] == cards("AD")
    assert slots[0][0][0] == parse_card("5D") and slots[1] == () and slots[2][0][0] == parse_card("7D")
    assert state.score == 3 and list(state.array[HIGH:HIGH + 4]) == [2, 1, 0, 0]
    assert parse_fcs_board(format_fcs_board(state)) == state


def test_fcs_board_errors():
    plain = "\n".join(format_fcs_board(GAME.deal(2)).splitlines()[2:])
    with pytest.raises(InvalidDealError, match="missing 6S"):
        parse_fcs_board(plain.replace(" 6S", ""))
    with pytest.raises(InvalidDealError, match="duplicate JD"):
        parse_fcs_board(plain.replace(" 6S", " JD"))
    with pytest.raises(InvalidDealError, match="'XQ'"):
        parse_fcs_board(plain + " XQ")
    with pytest.raises(InvalidDealError, match="twice"):
        parse_fcs_board("Foundations: H-0 H-2\n" + plain)


def _suit_ordered_homes(array):
    """The array with homecells moved to slot 4 + suit (parse_fcs_board's convention)."""
    a = array.copy()
    tops = [int(t) for t in array[HOME:HOME + 4] if t >= 0]
    a[HOME:HOME + 4] = -1
    for t in tops:
        a[HOME + t // 13] = t
    return a


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 32000), st.integers(0, 120))
def test_fcs_board_round_trip(deal, steps):
    state = playout_positions(deal, steps, numbering="microsoft", faithful=False, deal=deal)[-1]
    back = parse_fcs_board(format_fcs_board(state))
    assert np.array_equal(back.array, _suit_ordered_homes(state.array))
    assert back.canonical_hash() == state.canonical_hash()


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 10**6), max_size=80))
def test_cards_conserved_and_undo(seed, choices):
    state = GAME.deal(seed, numbering="aisleriot")
    start = state.copy()
    snapshots = []
    for x in choices:
        moves = state.legal_moves()
        if not moves:
            break
        snapshots.append(state.array.copy())
        state.apply(moves[x % len(moves)])
        assert _all_cards(state)
        heights = state.array[HEIGHT:HEIGHT + 8]
        assert heights.max() <= COL_WIDTH
        for col in range(8):  # cells above the height stay EMPTY
            assert (state.array[COLS + col * COL_WIDTH + heights[col]: COLS + (col + 1) * COL_WIDTH] == -1).all()
        assert parse_layout(state.layout()) == GAME.array_to_layout(state.array)
        assert GAME.from_layout(state.layout()).layout() == state.layout()
    while snapshots:
        state.undo()
        assert np.array_equal(state.array, snapshots.pop())
    assert state == start


def _permuted(state, rng):
    layout = parse_layout(state.layout())
    slots = list(layout.slots)
    free, homes, cols = slots[:4], slots[4:8], slots[8:]
    rng.shuffle(free)
    rng.shuffle(homes)
    rng.shuffle(cols)
    other = State(GAME, GAME.layout_to_array(Layout(tuple(free + homes + cols), layout.score + 7, 0), {}))
    other.array[HIGH:HIGH + 4] = state.array[HIGH:HIGH + 4]
    return other


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 10**6), st.integers(0, 100), st.integers(0, 1000))
def test_canonical_hash_symmetry(deal, steps, perm_seed):
    state = playout_positions(deal, steps, numbering="microsoft", deal=deal)[-1]
    other = _permuted(state, random.Random(perm_seed))
    assert other.canonical_hash() == state.canonical_hash()
    # over all children: equal hashes exactly when the canonical positions are equal
    keys = {}
    for m in state.legal_moves():
        c = _child(state, m)
        keys.setdefault(c.canonical_hash(), set()).add(_canonical_key(c))
    keys.setdefault(state.canonical_hash(), set()).add(_canonical_key(state))
    assert all(len(v) == 1 for v in keys.values())
    assert len({k for v in keys.values() for k in v}) == len(keys)


def _canonical_key(state):
    """Plain-Python canonical position: free cells and columns as multisets, foundations by suit."""
    slots = parse_layout(state.layout()).slots
    free = tuple(sorted(s[0][0] for s in slots[:4] if s))
    found = tuple(sorted(s[-1][0] for s in slots[4:8] if s))
    cols = tuple(sorted(tuple(c for c, _ in s) for s in slots[8:]))
    return free, found, tuple(int(x) for x in state.array[HIGH:HIGH + 4]), cols


def test_hash_sees_high_and_cards_not_score():
    state = GAME.deal(9)
    other = state.copy()
    other.array[12] += 5
    assert other.canonical_hash() == state.canonical_hash()
    other.array[HIGH] = 3
    assert other.canonical_hash() != state.canonical_hash()
    moved = state.copy()
    moved.apply("dbl 8")
    assert moved.canonical_hash() != state.canonical_hash()


def test_kernel_writes_nothing_past_its_count():
    buf = np.full(MAX_MOVES, -7, dtype=np.int32)
    state = GAME.deal(11)
    n = GAME.kernels.legal_moves(state.array, buf, 1)
    assert (buf[n:] == -7).all() and n == len(state.legal_moves())
    assert FREE == 0
