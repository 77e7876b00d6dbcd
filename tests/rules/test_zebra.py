"""Zebra (spec section 7): deals, the real-Aisleriot trace, kernel vs referee, properties, quirks.

Hand-built positions use the J/Q/K family: all eight foundations stop at a Ten unless said
otherwise, so every Jack, Queen and King is in play, and ``make_layout`` works the foundations
out from whatever cards the test leaves off the tableau, waste and stock.
"""
import copy
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import IllegalMoveError, InvalidDealError, Outcome, get_game
from rules.cards import parse_card
from rules.conformance import read_trace_lines, run_trace
from rules.layout import Layout, parse_layout
from tests.support.zebra import col, random_pile, rk
from rules.referee.zebra import (FOUNDATIONS, STOCK, TABLEAU, WASTE, Referee, _SchemeError,
                                 is_red, rank)
from rules import zebra as Z

GAME = get_game("zebra")
ACE_ORDER = (0, 13, 26, 39, 0, 13, 26, 39)   # Ac Ad Ah As Ac Ad Ah As


# ---- helpers ---------------------------------------------------------------------------------
def cards(text):
    return [parse_card(t) for t in text.split()]


def make_layout(tableau, waste="", stock="", redeals=1, score=0):
    """Layout with the given piles; the foundations (Aces C D H S C D H S) get every other card.

    A foundation whose Ace has colour a holds colour a ^ ((k-1) & 1) at rank k, so the cards left
    over fix each foundation's height; raise if they cannot form eight such runs.
    """
    pool = Counter(c for c in range(52) for _ in range(2))
    piles = [cards(p) for p in tableau] + [[]] * (8 - len(tableau))
    for c in cards(waste) + cards(stock) + [c for p in piles for c in p]:
        pool[c] -= 1
        assert pool[c] >= 0, f"too many {c}"
    for ace in ACE_ORDER:
        pool[ace] -= 1
    found = [[ace] for ace in ACE_ORDER]
    for k in range(2, 14):
        for pile in found:
            if len(pile) == k - 1:
                want = col(pile[0]) ^ ((k - 1) & 1)
                options = sorted(c for c in pool if pool[c] and rk(c) == k and col(c) == want)
                if options:
                    pool[options[0]] -= 1
                    pile.append(options[0])
    assert not +pool, f"cards that fit no foundation: {sorted(+pool)}"
    slots = [tuple((c, False) for c in cards(stock)), tuple((c, True) for c in cards(waste))]
    slots += [tuple((c, True) for c in p) for p in found + piles]
    return Layout(tuple(slots), score, redeals)


def state_of(layout):
    return GAME.from_layout(layout)


def moves_of(state, distinct=False):
    return sorted(str(m) for m in state.legal_moves(distinct))


def card_count(state):
    return Counter(c for slot in parse_layout(state.layout()).slots for c, _ in slot)


def hint_branch(ref):
    """Which step of the spec 7.6 hint decides, read off the referee's piles."""
    if ref.won():
        return "won"
    sources = [WASTE, *TABLEAU]
    for s in sources:
        if ref.slots[s]:
            c = ref.slots[s][-1]
            if any(is_red(c) != is_red(ref.slots[f][-1]) and rank(ref.slots[f][-1]) + 1 == rank(c)
                   for f in FOUNDATIONS):
                return "A"
    try:
        for s in sources:
            if ref.slots[s] and ref._tt(s, ref.slots[s][::-1]):
                return "B-waste" if s == WASTE else "B-single" if len(ref.slots[s]) == 1 else "B-deep"
    except _SchemeError:
        return "crash"
    if ref.slots[STOCK]:
        return "C"
    if ref.slots[WASTE] and ref.redeals < 1:
        return "D"
    return "none"


BRANCH_OUTCOME = {"won": Outcome.WON, "A": Outcome.ONGOING, "B-waste": Outcome.ONGOING,
                  "B-single": Outcome.ONGOING, "B-deep": Outcome.ONGOING, "C": Outcome.ONGOING,
                  "D": Outcome.ONGOING, "none": Outcome.LOST, "crash": Outcome.ABORTED}


def random_layout(rng):
    """A valid layout (each card twice, proper runs), usually not reachable from a deal.

    Biased towards the rare verdicts: foundations tall, sometimes no top card that goes home,
    sometimes no stock with the low cards buried in the waste, sometimes empty tableau piles.
    """
    p_empty = rng.choice([0.0, 0.0, 0.1, 0.3])
    aces = list(ACE_ORDER)
    rng.shuffle(aces)
    pool = {c: 2 for c in range(52) if c % 13}
    found = []
    for ace in aces:
        h = rng.randint(8, 13) if rng.random() < 0.7 else rng.randint(1, 13)
        pile = [ace]
        for k in range(2, h + 1):
            want = col(ace) ^ ((k - 1) & 1)
            c = rng.choice([c for c in pool if pool[c] and rk(c) == k and col(c) == want])
            pool[c] -= 1
            pile.append(c)
        found.append(pile)
    rest = [c for c, n in pool.items() for _ in range(n)]
    rng.shuffle(rest)
    stuck = rng.random() < 0.4
    no_home = stuck or rng.random() < 0.3
    low = []
    if stuck and rest:
        rest.sort(key=rk)
        k = rng.randint(0, len(rest) // 2)
        low, rest = rest[:k], rest[k:]
    heights = {(col(p[0]), len(p)) for p in found}

    def homeable(c):
        ace_colour = 1 - col(c) if rk(c) % 2 == 0 else col(c)
        return (ace_colour, rk(c) - 1) in heights

    tab = []
    for _ in range(8):
        pile = random_pile(rng, rest, p_empty, 0.75)
        while no_home and pile and homeable(pile[-1]):
            low.append(pile.pop())
        tab.append(pile)
    if stuck:
        rest.sort(key=lambda c: rk(c) + rng.random() * 3 + 20 * (not homeable(c)))
        stock, waste = [], low + rest
        redeals = 1 if rng.random() < 0.9 else 0
    else:
        rest += low
        rng.shuffle(rest)
        mode = rng.random()
        cut = 0 if mode < 0.3 else len(rest) if mode < 0.5 else rng.randint(0, len(rest))
        stock, waste = rest[:cut], rest[cut:]
        redeals = rng.randint(0, 1)
    slots = [tuple((c, False) for c in stock), tuple((c, True) for c in waste)]
    slots += [tuple((c, True) for c in p) for p in found + tab]
    return Layout(tuple(slots), rng.randint(0, 96), redeals)


def assert_same_as_referee(state, ref):
    """Accepted actions, each resulting layout, and the verdicts agree."""
    ours = moves_of(state)
    assert ours == sorted(ref.legal_actions())
    for action in ours:
        child = state.copy()
        child.apply(action)
        other = copy.deepcopy(ref)
        other.apply(action)
        assert child.layout() == str(other.layout()), action
    assert int(state.outcome) == int(ref.outcome())
    assert state.is_won() == ref.won()


# ---- deals -------------------------------------------------------------------------------------
def test_seed_1_vector():
    state = GAME.deal(1)
    layout = parse_layout(state.layout())
    tab = " ".join(Z.aisleriot_card_str(p[0][0]) for p in layout.slots[10:18])
    assert tab == "2d 6c 5d 6h 4c Kh 2h 9d"
    assert all(len(p) == 1 for p in layout.slots[10:18])
    assert len(layout.slots[0]) == 88 and layout.slots[0][-1] == (parse_card("Kh"), False)
    assert layout.slots[1] == ()
    assert [p for p in layout.slots[2:10]] == [((a, True),) for a in ACE_ORDER]
    assert (layout.score, layout.redeals) == (0, 0)
    assert card_count(state) == Counter(list(range(52)) * 2)


def test_deck_index_mapping():
    assert [Z.deck_index_card(i) for i in (0, 11, 12, 47, 48, 95)] == cards("2c Kc 2d Ks 2c Ks")


def test_first_position_of_every_trace_game_is_the_seed_deal(conformance_dir):
    firsts = [line[4:] for line in read_trace_lines(conformance_dir / "zebra.txt.gz") if line.startswith("NEW ")]
    assert len(firsts) == 30
    for k, layout in enumerate(firsts):
        assert GAME.deal(3000 + k).layout() == layout


# ---- the real-Aisleriot trace ------------------------------------------------------------------
def test_conformance_trace(conformance_dir):
    report = run_trace(conformance_dir / "zebra.txt.gz")
    assert report.mismatch_count == 0, "\n".join(report.mismatches)
    assert report.ok and report.games == 30 and report.positions == 6030 and report.actions == 21242


# ---- kernel vs referee -------------------------------------------------------------------------
def test_playouts_match_referee_to_the_end():
    """Three whole games (a home-first policy) checked step by step against the referee."""
    for seed in (4, 17, 123):
        state = GAME.deal(seed)
        ref = Referee(parse_layout(state.layout()))
        rng = random.Random(seed)
        while True:
            moves = state.legal_moves()
            assert sorted(map(str, moves)) == sorted(ref.legal_actions())
            assert int(state.outcome) == int(ref.outcome())
            if state.is_over():
                break
            home = [m for m in moves if m.kind == 0 and 2 <= m.dst <= 9]
            move = rng.choice(home) if home and rng.random() < 0.7 else rng.choice(moves)
            state.apply(move)
            ref.apply(str(move))
            assert state.layout() == str(ref.layout())
        assert state.outcome in (Outcome.WON, Outcome.LOST)


@settings(deadline=None, max_examples=300)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_positions_match_referee(seed):
    """Unreachable-but-valid positions reach every hint branch; kernel == referee on all."""
    layout = random_layout(random.Random(seed))
    state = state_of(layout)
    assert str(GAME.array_to_layout(state.array)) == str(layout)
    assert_same_as_referee(state, Referee(layout))
    assert len(state.legal_moves()) <= Z.MAX_MOVES


def test_every_hint_branch_is_reached_and_judged_right():
    seen = Counter()
    for seed in range(1500):
        layout = random_layout(random.Random(seed))
        branch = hint_branch(Referee(layout))
        seen[branch] += 1
        assert state_of(layout).outcome == BRANCH_OUTCOME[branch], (branch, str(layout))
    assert set(seen) >= {"A", "B-waste", "B-single", "B-deep", "C", "D", "none", "crash"}, seen


# ---- properties --------------------------------------------------------------------------------
@settings(deadline=None, max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=120))
def test_playout_properties(seed, picks):
    """Cards conserved, undo exact, layout text round-trips, every solver move is an action."""
    state = GAME.deal(seed)
    deck = Counter(list(range(52)) * 2)
    for pick in picks:
        moves = state.legal_moves()
        if not moves or state.is_over():
            break
        solver = state.legal_moves(distinct=True)
        assert set(solver) <= set(moves) and len(solver) == len(set(solver))
        move = moves[pick % len(moves)]
        before = state.array.copy()
        state.apply(move)
        assert card_count(state) == deck
        text = state.layout()
        assert str(parse_layout(text)) == text
        assert np.array_equal(GAME.from_layout(text).array, state.array)
        state.undo()
        assert np.array_equal(state.array, before)
        state.apply(move)


@settings(deadline=None, max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_solver_moves_lose_nothing(seed, steps):
    """The merged move set reaches exactly the canonical positions the faithful set reaches."""
    state = GAME.deal(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_moves()))

    def results(distinct):
        out = set()
        for m in state.legal_moves(distinct):
            child = state.copy()
            child.apply(m)
            out.add(child.canonical_hash())
        return out

    assert results(True) == results(False)
    assert not any(m.kind == 2 for m in state.legal_moves(distinct=True))


def permuted_foundations(layout, rng):
    """Same canonical position: foundations shuffled, same-level cards swapped between them."""
    found = [list(p) for p in layout.slots[2:10]]
    for _ in range(6):
        a, b = rng.sample(range(8), 2)
        if col(found[a][0][0]) == col(found[b][0][0]):
            k = rng.randrange(min(len(found[a]), len(found[b])) - 1) if min(len(found[a]), len(found[b])) > 1 else 0
            found[a][k], found[b][k] = found[b][k], found[a][k]
    rng.shuffle(found)
    slots = layout.slots[:2] + tuple(tuple(p) for p in found) + layout.slots[10:]
    return Layout(slots, layout.score + 7, layout.redeals)


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 2**32 - 1))
def test_canonical_hash_symmetry(seed):
    rng = random.Random(seed)
    layout = random_layout(rng)
    state = state_of(layout)
    other = state_of(permuted_foundations(layout, rng))
    assert other.canonical_hash() == state.canonical_hash()
    # The stock order is part of the position.
    stock = layout.slots[0]
    if len(set(stock)) > 1:
        swapped = Layout((stock[1:] + stock[:1],) + layout.slots[1:], layout.score, layout.redeals)
        assert state_of(swapped).canonical_hash() != state.canonical_hash()
    if layout.redeals == 0:
        assert state_of(layout._replace(redeals=1)).canonical_hash() != state.canonical_hash()


def test_hashes_distinct_along_a_game():
    state = GAME.deal(99)
    seen = {}
    rng = random.Random(99)
    while not state.is_over():
        key = state.layout().rsplit("#", 2)[0] + "#" + state.layout().rsplit("#", 1)[1]
        seen.setdefault(key, state.canonical_hash())
        state.apply(rng.choice(state.legal_moves()))
    assert len(set(seen.values())) == len(seen)


def test_reachable_positions_never_crash():
    """Module docstring claim: an empty pile means no stock and no waste, and then the lowest
    card left is a top card that goes home, so step A answers before step B can crash."""
    for seed in range(40):
        state = GAME.deal(seed)
        rng = random.Random(seed)
        while not state.is_over():
            a = state.array
            if min(a[Z.TAB_LEN:Z.TAB_LEN + 8]) == 0:
                assert a[Z.STOCK_LEN] == 0 and a[Z.WASTE_LEN] == 0
                assert any(m.kind == 0 and 2 <= m.dst <= 9 for m in state.legal_moves())
            moves = state.legal_moves()
            home = [m for m in moves if m.kind == 0 and 2 <= m.dst <= 9]
            state.apply(rng.choice(home) if home and rng.random() < 0.8 else rng.choice(moves))
        assert state.outcome != Outcome.ABORTED


# ---- moves: the rules of 7.4 ----------------------------------------------------------------------
def test_deal_moves_dbl_and_refill_from_stock():
    state = GAME.deal(1)
    assert moves_of(state) == sorted([
        "drag 10 1 2", "drag 10 1 5", "drag 10 1 6", "drag 10 1 9", "drag 12 1 11", "drag 14 1 12",
        "drag 16 1 2", "drag 16 1 5", "drag 16 1 6", "drag 16 1 9", "click 0", "dbl 10", "dbl 16"])
    assert moves_of(state, distinct=True) == sorted([
        "drag 10 1 2", "drag 12 1 11", "drag 14 1 12", "drag 16 1 2", "click 0"])
    state.apply("dbl 10")                      # 2d to the first foundation that takes it (Ac)
    layout = parse_layout(state.layout())
    assert layout.slots[2] == ((parse_card("Ac"), True), (parse_card("2d"), True))
    assert layout.slots[10] == ((parse_card("Kh"), True),)       # refilled from the stock top
    assert len(layout.slots[0]) == 87 and layout.score == 1
    with pytest.raises(IllegalMoveError):
        state.apply("dbl 11")                  # 6c: no foundation takes it, so dbl is refused


def test_stock_one_redeal_in_the_same_order():
    state = GAME.deal(2)
    stock = parse_layout(state.layout()).slots[0]
    for _ in range(88):
        state.apply("click 0")
    layout = parse_layout(state.layout())
    assert layout.slots[0] == () and [c for c, _ in layout.slots[1]] == [c for c, _ in stock][::-1]
    assert "click 0" in moves_of(state)
    state.apply("click 0")                     # the redeal
    layout = parse_layout(state.layout())
    assert layout.slots[0] == stock and layout.slots[1] == () and layout.redeals == 1
    for _ in range(88):
        state.apply("click 0")
    assert "click 0" not in moves_of(state)    # no second redeal, and a no-op click is refused
    with pytest.raises(IllegalMoveError):
        state.apply("click 0")


def test_group_goes_home_reversed_and_refill_from_waste():
    # Black-Ace foundations hold up to a black Jack, red-Ace ones up to a black Ten.
    layout = make_layout(["Kc Qh", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qs", "Kd Qc", "Kh Qs", "Kh Qc"],
                         waste="Jh Jd Jd", stock="Jh", redeals=0)
    state = state_of(layout)
    legal = moves_of(state)
    for f in (2, 5, 6, 9):
        assert f"drag 10 1 {f}" in legal and f"drag 10 2 {f}" in legal
    assert "drag 10 2 11" not in legal         # groups never go to the tableau
    assert "dbl 1" in legal and "dbl 10" in legal
    assert moves_of(state, distinct=True).count("drag 10 2 2") == 1
    assert not any(m.startswith("drag 10 2 ") and m != "drag 10 2 2" for m in moves_of(state, True))
    state.apply("drag 10 2 5")
    after = parse_layout(state.layout())
    assert [c for c, _ in after.slots[5][-3:]] == cards("Jc Qh Kc") or \
        [c for c, _ in after.slots[5][-3:]] == cards("Js Qh Kc")
    assert after.slots[10] == ((parse_card("Jd"), True),)       # waste top, before the stock
    assert after.score == 2 and [c for c, _ in after.slots[1]] == cards("Jh Jd")


def test_emptied_pile_stays_empty_and_cannot_be_built_on():
    layout = make_layout(["Kc Qh", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qs Jd", "Kd Qc Jd", "Kh Qs Jh",
                          "Kh Qc Jh"])
    state = state_of(layout)
    assert "click 0" not in moves_of(state)
    state.apply("drag 10 2 2")
    assert parse_layout(state.layout()).slots[10] == ()
    assert not any(m.endswith(" 10") and m.startswith("drag") for m in moves_of(state))
    with pytest.raises(IllegalMoveError):
        state.apply("drag 14 1 10")            # a Jack onto the empty pile
    assert state.outcome == Outcome.ONGOING    # Qd still goes home (step A)


def test_only_single_cards_move_between_piles():
    layout = make_layout(["Kd", "Kh Qs", "Kh Qc", "Qc", "Kc Qd", "Ks Qh", "Ks Qh", "Kc Qd"],
                         waste="Jc Jc Js Js Jd Jd Jh Jh Qs Kd")
    state = state_of(layout)
    assert sorted(m for m in moves_of(state) if m.startswith("drag")) == [
        "drag 11 1 10", "drag 12 1 10", "drag 13 1 10"]
    state.apply("drag 13 1 10")
    after = parse_layout(state.layout())
    assert [c for c, _ in after.slots[10]] == cards("Kd Qc")
    assert [c for c, _ in after.slots[13]] == cards("Kd")  # refilled from the waste
    assert state.score == 0


# ---- the continue predicate, hand-built (spec 7.6) ----------------------------------------------
JACKS = "Jc Jc Js Js Jd Jd Jh Jh"


def verdict(layout):
    state = state_of(layout)
    ref = Referee(layout)
    assert int(state.outcome) == int(ref.outcome())
    return state.outcome, hint_branch(ref)


def test_hint_step_a():
    assert verdict(parse_layout(GAME.deal(1).layout())) == (Outcome.ONGOING, "A")
    # Step A runs before step B, so an empty pile does not crash when something goes home.
    layout = make_layout(["Kc Qh", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qs Jd", "Kd Qc Jd", "Kh Qs Jh", ""],
                         waste="Kh Qc Jh")
    assert verdict(layout) == (Outcome.ONGOING, "A")


def test_hint_step_b_waste_and_pile_order_crash():
    piles = ["Kc", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qs", "Kd Qc", "Kh Qs", "Kh Qc"]
    assert verdict(make_layout(piles, waste=JACKS + " Qh")) == (Outcome.ONGOING, "B-waste")
    # Same cards, Kc moved to the waste: the scan for Qh meets the empty pile 10 and throws.
    aborted = make_layout([""] + piles[1:], waste=JACKS + " Kc Qh")
    assert verdict(aborted) == (Outcome.ABORTED, "crash")
    assert state_of(aborted).legal_moves() == []
    # Only the scan order decides: the match in pile 10 comes before the empty pile 11 ...
    first = ["Kc", "", "Kd Qs", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qc", "Kh Qs"]
    assert verdict(make_layout(first, waste=JACKS + " Kh Qc Qh")) == (Outcome.ONGOING, "B-waste")
    # ... and here the empty pile 11 comes first.
    second = ["Kd Qs", "", "Kc", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qc", "Kh Qs"]
    state = state_of(make_layout(second, waste=JACKS + " Kh Qc Qh"))
    assert verdict(make_layout(second, waste=JACKS + " Kh Qc Qh")) == (Outcome.ABORTED, "crash")
    assert state.canonical_hash() != state_of(make_layout(first, waste=JACKS + " Kh Qc Qh")).canonical_hash()


def test_hint_step_b_single_card_and_recursion_crash():
    piles = ["Kd", "Kh Qs", "Kh Qc", "Qc", "Kc Qd", "Ks Qh", "Ks Qh", "Kc Qd"]
    assert verdict(make_layout(piles, waste=JACKS + " Qs Kd")) == (Outcome.ONGOING, "B-single")
    # Qs onto Kh counts only if Kd could move too; scanning for Kd meets the empty pile 12.
    rest = "Kc Kc Ks Ks Kd Kh Qd Qd Qh Qh Qs Qc Qc"
    assert verdict(make_layout(["Kd Qs", "Kh", ""], stock=JACKS + " " + rest)) == (Outcome.ABORTED, "crash")
    assert verdict(make_layout(["Qs", "Kh", ""], stock=JACKS + " Kd " + rest)) == (Outcome.ONGOING, "B-single")


def test_hint_lost_then_redeal_steps_d_and_c():
    piles = ["Kc Qh", "Ks Qd", "Ks Qh", "Kd Qs", "Kd Qc", "Kh Qs", "Kh Qc", "Qd"]
    lost = make_layout(piles, waste=JACKS + " Kc", redeals=1)
    assert verdict(lost) == (Outcome.LOST, "none")
    assert state_of(lost).legal_moves() == [] and not state_of(lost).is_won()
    state = state_of(make_layout(piles, waste=JACKS + " Kc", redeals=0))
    assert verdict(parse_layout(state.layout())) == (Outcome.ONGOING, "D")
    assert moves_of(state) == ["click 0"]
    state.apply("click 0")
    assert verdict(parse_layout(state.layout())) == (Outcome.ONGOING, "C")


def test_lost_with_legal_moves_left():
    """Moving a Queen between Kings empties nothing, so the hint ignores it: the game is lost."""
    for seed in range(3000):
        layout = random_layout(random.Random(seed))
        if hint_branch(Referee(layout)) == "none" and state_of(layout).legal_moves():
            assert state_of(layout).outcome == Outcome.LOST
            return
    pytest.fail("no lost position with legal moves among the random layouts")


def test_won():
    full = make_layout([], redeals=0, score=96)
    state = state_of(full)
    assert state.is_won() and state.outcome == Outcome.WON and state.legal_moves() == []
    assert Referee(full).won() and verdict(full) == (Outcome.WON, "won")


def test_max_moves_bound_is_nearly_reached():
    """Every card in eight K..2 runs: 4 foundations take each pile's 2, any group size."""
    piles = []
    for king in ("Kc", "Ks", "Kd", "Kh", "Kc", "Ks", "Kd", "Kh"):
        black = "c" if king in ("Kc", "Kd") else "s"
        red = "d" if king in ("Kc", "Kd") else "h"
        red_first = king[1] in "dh"
        run = []
        for r, rank_char in enumerate("KQJT98765432"):
            is_red_card = (r % 2 == 0) == red_first
            run.append(rank_char + (red if is_red_card else black))
        piles.append(" ".join(run))
    state = state_of(make_layout(piles, redeals=1))
    assert len(state.legal_moves()) == 8 * 4 * 12 + 8 <= Z.MAX_MOVES


# ---- layout validation ----------------------------------------------------------------------------
def test_layout_errors_name_the_problem():
    text = GAME.deal(1).layout()
    bad = text.replace("|2d|", "|Qs|", 1)             # a third Qs, no second 2d
    with pytest.raises(InvalidDealError, match="missing 2d x1; extra Qs x1"):
        GAME.from_layout(bad)
    with pytest.raises(InvalidDealError, match="18 slots"):
        GAME.from_layout(text.replace("|9d#", "#"))
    with pytest.raises(InvalidDealError, match="redeal"):
        GAME.from_layout(text[:-1] + "2")
    with pytest.raises(InvalidDealError, match="face-down"):
        GAME.from_layout(text.replace("Kh*|", "Kh|", 1))
    with pytest.raises(InvalidDealError, match="face-up"):
        GAME.from_layout(text.replace("|2d|", "|2d*|", 1))
    layout = make_layout(["Kc Qh", "Kc Qd", "Ks Qh", "Ks Qd", "Kd Qs Jd", "Kd Qc Jd", "Kh Qs Jh", "Kh Qc Jh"])
    swapped = list(layout.slots)
    swapped[10], swapped[11] = (swapped[10][1], swapped[10][0]), swapped[11]
    with pytest.raises(InvalidDealError, match="tableau slot 10"):
        GAME.from_layout(Layout(tuple(swapped), 0, 1))
    swapped = list(layout.slots)
    swapped[2], swapped[3] = swapped[3][:1] + swapped[2][1:], swapped[2][:1] + swapped[3][1:]
    with pytest.raises(InvalidDealError, match="foundation slot 2"):
        GAME.from_layout(Layout(tuple(swapped), 0, 1))
