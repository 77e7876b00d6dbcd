"""Ten Across: deals, conformance with real Aisleriot, kernels vs referee, properties, quirks."""
import gzip
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ten_across as ta
from rules.cards import aisleriot_card_str, parse_card
from rules.conformance import run_trace
from rules.deals import aisleriot_shuffle
from rules.errors import IllegalMoveError, InvalidDealError
from rules.game import Outcome
from rules.layout import Layout, parse_layout
from rules.moves import Move
from rules.referee.ten_across import Referee
from rules.registry import get_game

GAME = get_game("ten-across")

SEED1_D = ("9c Qh 8d 3c 6s Ac 4d Ks Td Ad 2s Js 3h 9d 3d 5s Jc 3s 7h 2d 6c Jh As 8h 4h Kd 9h 9s 4c 5d "
           "5c Qs Kh 6d Kc Tc 6h Jd Qd Qc 8c 4s 8s 7d Ts 2c 5h Th 7c Ah 2h 7s").split()


def spec_deal_layout(deck):
    """The deal of section 6.2, written out again from the spec text (independent of the module)."""
    piles = [[] for _ in range(10)]
    it = iter(deck)
    for r in range(1, 6):
        order = range(10) if r % 2 else range(9, -1, -1)
        for i in order:
            piles[i].append((next(it), not r <= min(i, 9 - i)))
    spot1 = ((next(it), True),)
    spot0 = ((next(it), True),)
    return Layout((spot0, spot1) + tuple(tuple(p) for p in piles), 0, 0)


def trace_new_lines(path):
    with gzip.open(path, "rt") as fh:
        return [line[4:].rstrip("\n") for line in fh if line.startswith("NEW ")]


def make_layout(slot_texts, filler_slot=11):
    """Layout text from 12 slot strings; every card not named goes face down at the bottom of
    ``filler_slot`` (so hand-made positions always hold the 52 cards)."""
    named = {parse_card(tok.rstrip("*")) for text in slot_texts for tok in text.split()}
    rest = [aisleriot_card_str(c) + "*" for c in range(52) if c not in named]
    slots = list(slot_texts)
    slots[filler_slot] = " ".join(rest + slots[filler_slot].split())
    return "|".join(slots) + "#0#0"


def actions(state, distinct=False):
    return {str(m) for m in state.legal_moves(distinct=distinct)}


def expected_distinct(layout, faithful_actions):
    """The solver move set derived from the faithful set by the module docstring's rules."""
    empty_spots = [s for s in (0, 1) if not layout.slots[s]]
    empty_piles = [s for s in range(2, 12) if not layout.slots[s]]
    out = set()
    for a in faithful_actions:
        m = Move.parse(a)
        if m.dst < 2:
            if m.src < 2 or m.dst != empty_spots[0]:
                continue
        elif not layout.slots[m.dst]:
            whole_pile = m.src >= 2 and m.n == len(layout.slots[m.src])
            if whole_pile or m.dst != min(d for d in empty_piles if d != m.src):
                continue
        out.add(a)
    return out


# ---- deals ----------------------------------------------------------------------------------
def test_seed1_vector():
    layout = parse_layout(GAME.deal(1).layout())
    text = str(layout).split("#")[0].split("|")
    assert text[0] == "7s" and text[1] == "2h"
    assert text[2] == "9c 2d 6c Qc 8c"
    assert text[6] == "6s* 5s* 4h* Tc* Ts"
    assert [aisleriot_card_str(c) for c in aisleriot_shuffle(1)] == SEED1_D
    assert layout == spec_deal_layout([parse_card(t) for t in SEED1_D])


def test_face_down_pattern():
    arr = GAME.deal(7).array
    assert list(arr[ta.DOWN:ta.DOWN + 10]) == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]
    assert list(arr[ta.HEIGHT:ta.HEIGHT + 10]) == [5] * 10


@pytest.mark.parametrize("name,first,opts", [
    ("ten-across.txt.gz", 3000, {}),
    ("ten-across-nospots.txt.gz", 4000, {"spots": False}),
])
def test_trace_deals(conformance_dir, name, first, opts):
    news = trace_new_lines(conformance_dir / name)
    assert len(news) >= 12
    for k, text in enumerate(news):
        state = GAME.deal(first + k, **opts)
        assert state.layout() == text, f"seed {first + k}"
        deck = aisleriot_shuffle(first + k)
        assert str(spec_deal_layout(deck)) == text


def test_deal_many_matches_single_deals():
    seeds = [0, 1, 3000, 4011, 2**32 - 1]
    batch = ta.deal_many(seeds, spots=False)
    for row, seed in zip(batch, seeds):
        assert np.array_equal(row, GAME.deal(seed, spots=False).array)


def test_option_stored_in_state():
    assert GAME.options == {"spots": True}
    assert GAME.deal(1).array[ta.OPT] == 1
    assert GAME.deal(1, spots=False).array[ta.OPT] == 0
    assert GAME.deal(1, spots="off").array[ta.OPT] == 0
    assert GAME.from_layout(GAME.deal(1).layout(), spots=False).array[ta.OPT] == 0


# ---- conformance ----------------------------------------------------------------------------
def test_conformance_spots_on(conformance_dir):
    report = run_trace(conformance_dir / "ten-across.txt.gz")
    assert report.ok, report.summary() + "\n" + "\n".join(report.mismatches)
    assert report.games == 30


def test_conformance_spots_off(conformance_dir):
    report = run_trace(conformance_dir / "ten-across-nospots.txt.gz", options={"spots": False})
    assert report.ok, report.summary() + "\n" + "\n".join(report.mismatches)
    assert report.games == 12


def test_conformance_detects_wrong_option(conformance_dir):
    """The option matters: replaying the no-spots trace with spots allowed must disagree."""
    report = run_trace(conformance_dir / "ten-across-nospots.txt.gz", options={"spots": True})
    assert report.mismatch_count > 0


# ---- kernels vs referee ---------------------------------------------------------------------
def check_against_referee(state, opts):
    layout = parse_layout(state.layout())
    ref = Referee(layout, opts)
    ours = actions(state)
    theirs = ref.legal_actions()
    assert len(theirs) == len(set(theirs))
    assert ours == set(theirs)
    assert len(state.legal_moves()) == len(ours)          # no duplicate codes
    assert len(ours) <= ta.MAX_MOVES
    assert state.outcome == ref.outcome() and state.is_won() == ref.won()
    assert state.outcome in (Outcome.ONGOING, Outcome.WON)
    assert bool(ta.has_any_move(state.array)) == bool(ours)
    distinct = actions(state, distinct=True)
    assert distinct <= ours
    assert distinct == expected_distinct(layout, ours)
    for a in sorted(ours):
        child = state.copy()
        child.apply(a)
        r = Referee(layout, opts)
        r.apply(a)
        assert child.layout() == str(r.layout()), a
    return ours


@pytest.mark.parametrize("spots", [True, False])
def test_kernels_match_referee_on_playouts(spots):
    rng = random.Random(12345 + spots)
    opts = {"spots": spots}
    positions = both_spots_empty = 0
    for game_no in range(12):
        state = GAME.deal(rng.randrange(2**32), **opts)
        for _ in range(120):
            legal = check_against_referee(state, opts)
            positions += 1
            if not legal:
                break
            # half the time avoid drops into spots, so playouts also reach two empty spots
            pool = sorted(legal)
            if rng.random() < 0.5:
                pool = [a for a in pool if Move.parse(a).dst >= 2] or pool
            state.apply(rng.choice(pool))
            both_spots_empty += bool((state.array[ta.SPOT:ta.SPOT + 2] == -1).all())
    assert positions > 500 and both_spots_empty > 0


# ---- properties -----------------------------------------------------------------------------
playout = st.tuples(st.integers(0, 2**32 - 1), st.booleans(), st.lists(st.integers(0, 10**6), max_size=80))


def play(seed, spots, choices):
    state = GAME.deal(seed, spots=spots)
    for k in choices:
        legal = state.legal_moves()
        if not legal:
            break
        state.apply(legal[k % len(legal)])
    return state


def assert_well_formed(state):
    layout = parse_layout(state.layout())
    cards = sorted(c for slot in layout.slots for c, _ in slot)
    assert cards == list(range(52))
    for s, slot in enumerate(layout.slots):
        faces = [up for _, up in slot]
        if s < 2:
            assert len(slot) <= 1 and all(faces)
        else:
            assert faces == sorted(faces)          # face-down cards form the bottom
            assert not slot or faces[-1]           # tops are always turned up
    for p in range(10):
        base = ta.PILES + 52 * p
        assert (state.array[base + state.array[ta.HEIGHT + p]: base + 52] == -1).all()


@settings(deadline=None, max_examples=60)
@given(playout)
def test_cards_conserved(args):
    seed, spots, choices = args
    state = GAME.deal(seed, spots=spots)
    assert_well_formed(state)
    for k in choices:
        legal = state.legal_moves()
        if not legal:
            break
        state.apply(legal[k % len(legal)])
        assert_well_formed(state)


@settings(deadline=None, max_examples=60)
@given(playout)
def test_apply_undo_round_trip(args):
    seed, spots, choices = args
    state = GAME.deal(seed, spots=spots)
    snapshots = [state.array.copy()]
    for k in choices:
        legal = state.legal_moves()
        if not legal:
            break
        state.apply(legal[k % len(legal)])
        snapshots.append(state.array.copy())
    while len(snapshots) > 1:
        snapshots.pop()
        state.undo()
        assert np.array_equal(state.array, snapshots[-1])
    with pytest.raises(IllegalMoveError):
        state.undo()


@settings(deadline=None, max_examples=60)
@given(playout)
def test_layout_round_trip(args):
    state = play(*args)
    text = state.layout()
    assert str(parse_layout(text)) == text
    again = GAME.from_layout(text, spots=args[1])
    assert np.array_equal(again.array, state.array)


@settings(deadline=None, max_examples=60)
@given(playout)
def test_hash_treats_spots_as_a_set(args):
    state = play(*args)
    swapped = state.array.copy()
    swapped[ta.SPOT], swapped[ta.SPOT + 1] = state.array[ta.SPOT + 1], state.array[ta.SPOT]
    assert ta.hash_state(swapped) == state.canonical_hash()
    # a real change of the position changes the hash
    for move in state.legal_moves(distinct=True):
        child = state.copy()
        child.apply(move)
        assert child.canonical_hash() != state.canonical_hash()


def test_hash_sees_faces_and_option():
    """5h can leave 6h* and come back onto the turned-up 6h: same cards, different position."""
    down = make_layout(["", "", "4s* 6h* 5h", "Jd", "Qs", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    state = GAME.from_layout(down)
    state.apply("drag 2 1 0")
    state.apply("drag 0 1 2")
    up = down.replace("6h* 5h", "6h 5h")
    assert state.layout() == up
    assert state.canonical_hash() != GAME.from_layout(down).canonical_hash()
    assert GAME.from_layout(up, spots=False).canonical_hash() != state.canonical_hash()


def test_hash_distinguishes_playout_positions():
    rng = random.Random(7)
    seen = {}
    for _ in range(5):
        state = GAME.deal(rng.randrange(2**32))
        for _ in range(100):
            layout = parse_layout(state.layout())
            spots = frozenset(layout.slots[:2])
            key = (spots, layout.slots[2:])
            h = state.canonical_hash()
            assert seen.setdefault(h, key) == key
            legal = state.legal_moves()
            if not legal:
                break
            state.apply(rng.choice(legal))
    assert len(seen) > 100


# ---- quirks and edge cases ------------------------------------------------------------------
EMPTY_PILES = [""] * 10


def test_group_need_not_be_a_run():
    text = make_layout(["Jd", "", "5h Kc 2s", "6h", "Qs", "9c", "", "", "", "", "", "Ac"])
    state = GAME.from_layout(text)
    legal = actions(state)
    assert "drag 2 3 3" in legal                 # 5h Kc 2s onto 6h: only the deepest card counts
    assert "drag 2 2 6" in legal                 # Kc 2s: King-led group to an empty pile
    assert "drag 2 1 3" not in legal
    state.apply("drag 2 3 3")
    assert state.layout().split("|")[3] == "6h 5h Kc 2s"


def test_face_down_cards_cannot_be_lifted_and_source_flips():
    text = make_layout(["", "", "4s* 9h* Td", "Jd", "Qs", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    state = GAME.from_layout(text)
    legal = actions(state)
    assert not any(a.startswith("drag 2 2 ") or a.startswith("drag 2 3 ") for a in legal)
    state.apply("drag 2 1 3")
    assert state.layout().split("|")[2] == "4s* 9h"   # the new top is turned up
    state.apply("drag 2 1 0")
    assert state.layout().split("|")[2] == "4s"


def test_empty_pile_takes_only_king_led_groups():
    text = make_layout(["Kh", "Qd", "", "Jd", "3s", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    state = GAME.from_layout(text)
    legal = actions(state)
    assert "drag 0 1 2" in legal                 # King from a spot to an empty pile
    assert not any(a.endswith(" 2") for a in legal if not a.startswith("drag 0 "))
    assert "drag 1 1 2" not in legal


def test_spot_rules_and_option():
    text = make_layout(["", "Qd", "Jd", "5h Ks", "3s", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    on = GAME.from_layout(text)
    legal = actions(on)
    assert "drag 1 1 0" in legal                 # spot to the other spot
    assert "drag 3 1 0" in legal and "drag 3 2 0" not in legal   # one card only
    assert not any(Move.parse(a).dst == 1 for a in legal)   # a full spot takes nothing
    off = GAME.from_layout(text, spots=False)
    legal_off = actions(off)
    assert legal_off == {a for a in legal if Move.parse(a).dst >= 2}
    assert not any(Move.parse(a).dst < 2 for a in legal_off)


def test_spot_full_refuses_and_cards_still_leave_with_option_off():
    text = make_layout(["Kh", "Qh", "", "Jd", "3s", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    off = GAME.from_layout(text, spots=False)
    legal = actions(off)
    assert "drag 0 1 2" in legal                 # out of a spot with the option off
    off.apply("drag 0 1 2")
    assert "drag 1 1 2" in actions(off)          # Qh onto Kh
    assert not any(Move.parse(a).dst < 2 for a in actions(off))


def test_drop_on_face_down_top_like_droppable():
    """Hand-made layout: Aisleriot's droppable? reads the top card without checking its face."""
    text = make_layout(["", "", "8h*", "7h", "3s", "9c", "2c", "3c", "4c", "5c", "6c", "Ac"])
    state = GAME.from_layout(text)
    assert "drag 3 1 2" in actions(state)
    assert not any(a.startswith("drag 2 ") for a in actions(state))
    check_against_referee(state, {"spots": True})


def won_layout_text(spots=("", "")):
    runs = [" ".join(aisleriot_card_str(13 * s + r) for r in range(12, -1, -1)) for s in range(4)]
    return "|".join(list(spots) + ["", runs[0], "", runs[1], runs[2], "", "", runs[3], "", ""]) + "#0#0"


def test_won_position():
    state = GAME.from_layout(won_layout_text())
    assert state.is_won() and state.outcome == Outcome.WON
    ref = Referee(parse_layout(state.layout()))
    assert ref.won() and ref.outcome() == Outcome.WON
    # moving a whole King run to an empty pile is still accepted (Aisleriot would show the win dialog)
    assert "drag 3 13 2" in actions(state)
    assert "drag 3 13 2" not in actions(state, distinct=True)


def test_not_won_variants():
    text = won_layout_text().replace("Kc Qc", "Kc* Qc")
    state = GAME.from_layout(text)
    assert not state.is_won() and state.outcome == Outcome.ONGOING
    # a run of the wrong order or an Ace in a spot is not won
    text = won_layout_text(spots=("Ac", "")).replace(" Ac|", "|", 1)
    state = GAME.from_layout(text)
    assert not state.is_won()
    assert not Referee(parse_layout(text)).won()


def test_stuck_position_is_never_lost():
    tops = ["Ac", "3c", "5c", "7c", "9c", "Jc", "Kc", "Ad", "3d", "5d"]
    rest = [c for c in range(52) if aisleriot_card_str(c) not in tops]
    piles = [[] for _ in range(10)]
    for k, c in enumerate(rest):
        piles[k % 10].append(aisleriot_card_str(c) + "*")
    slots = ["", ""] + [" ".join(p + [t]) for p, t in zip(piles, tops)]
    text = "|".join(slots) + "#0#0"
    off = GAME.from_layout(text, spots=False)
    assert off.legal_moves() == [] and not ta.has_any_move(off.array)
    assert off.outcome == Outcome.ONGOING and not off.is_over()
    assert Referee(parse_layout(text), {"spots": False}).outcome() == Outcome.ONGOING
    on = GAME.from_layout(text)
    assert ta.has_any_move(on.array) and len(actions(on)) == 20
    assert len(actions(on, distinct=True)) == 10   # one empty spot is enough
    check_against_referee(on, {"spots": True})
    check_against_referee(off, {"spots": False})


def test_solver_moves_merge_duplicates():
    text = make_layout(["", "", "Kh Qh Jh", "", "", "Tc", "2c", "3c", "4c", "5c", "6c", "Ac Ks 7d"])
    state = GAME.from_layout(text)
    faithful = actions(state)
    distinct = actions(state, distinct=True)
    assert {"drag 2 1 0", "drag 2 1 1"} <= faithful
    assert "drag 2 1 0" in distinct and "drag 2 1 1" not in distinct
    assert {"drag 2 3 3", "drag 2 3 4"} <= faithful      # whole King pile to an empty pile
    assert not any(a.startswith("drag 2 3 ") for a in distinct)
    assert {"drag 11 2 3", "drag 11 2 4"} <= faithful    # King-led group: lowest empty pile only
    assert "drag 11 2 3" in distinct and "drag 11 2 4" not in distinct
    state.apply("drag 2 1 1")
    assert "drag 1 1 0" in actions(state) and "drag 1 1 0" not in actions(state, distinct=True)
    assert "drag 2 1 0" in actions(state, distinct=True)  # lowest EMPTY spot, here 0
    check_against_referee(state, {"spots": True})


def test_move_bound_on_a_wide_fan():
    """All cards in one pile, four Kings lifted to nine empty piles: well under MAX_MOVES."""
    order = [c for c in range(52) if c % 13 != 12]
    pile = [aisleriot_card_str(c) for c in order[:12]] + ["Kc"] + \
           [aisleriot_card_str(c) for c in order[12:24]] + ["Kd"] + \
           [aisleriot_card_str(c) for c in order[24:36]] + ["Kh"] + \
           [aisleriot_card_str(c) for c in order[36:]] + ["Ks"]
    text = "||" + " ".join(pile) + "|" * 9 + "#0#0"
    state = GAME.from_layout(text)
    n = len(state.legal_moves())
    assert n == 4 * 9 + 2 <= ta.MAX_MOVES
    check_against_referee(state, {"spots": True})


def test_illegal_moves_refused():
    state = GAME.deal(1)
    for bad in ["drag 2 1 2", "drag 3 2 4", "click 2", "dbl 5", "drag 0 1 1", "drag 12 1 2"]:
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
    ref = Referee(parse_layout(state.layout()))
    for bad in ["drag 3 2 4", "click 2", "drag 0 1 1", "drag 12 1 2"]:
        with pytest.raises(IllegalMoveError):
            ref.apply(bad)


@pytest.mark.parametrize("text,needle", [
    ("7s|2h|9c#0#0", "12 slots"),
    (GAME.deal(1).layout().replace("7s|", "|", 1), "missing 7s"),
    (GAME.deal(1).layout().replace("|2h|", "|7s|", 1), "duplicate 7s"),
    (GAME.deal(1).layout().replace("9c 2d 6c", "9c 2d* 6c", 1), "face-down"),
    (GAME.deal(1).layout().replace("7s|", "7s*|", 1), "face down"),
    (GAME.deal(1).layout().replace("7s|2h|", "7s 2h||", 1), "at most one card"),
    (GAME.deal(1).layout().replace("#0#0", "#5#0"), "#5#0"),
])
def test_layout_validation(text, needle):
    with pytest.raises(InvalidDealError, match=needle):
        GAME.from_layout(text)
