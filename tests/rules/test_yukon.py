"""Yukon: deal vectors, the real-Aisleriot trace, kernel == referee (moves, results and the hint
that ends the game), properties, and the quirks of spec section 5."""
import copy
import gzip
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import IllegalMoveError, InvalidDealError, Move, Outcome, get_game
from rules.cards import EMPTY, parse_card, rank
from rules.conformance import run_trace
from rules.deals import AisleriotRandom
from rules.layout import Layout, parse_layout
from rules.referee.yukon import Referee
from rules import yukon
from rules.yukon import (FOUND, MAX_MOVES, array_from_piles, deal_from_rng, has_any_move,
                         piles_from_order)

GAME = get_game("yukon")
C = parse_card


def slot_text(layout_text, slot):
    return str(parse_layout(layout_text)).split("#")[0].split("|")[slot]


def referee_of(state):
    return Referee(parse_layout(state.layout()))


def child_layouts(state):
    out = {}
    for move in state.legal_moves():
        child = state.copy()
        child.apply(move)
        out[str(move)] = child.layout()
    return out


def check_against_referee(state, referee):
    """Same accepted actions, same result of each, same verdicts; bound respected."""
    actions = referee.legal_actions()
    assert len(actions) <= MAX_MOVES
    ours = child_layouts(state)
    assert sorted(ours) == sorted(actions)
    for action in actions:
        r = copy.deepcopy(referee)
        r.apply(action)
        assert ours[action] == str(r.layout()), action
    assert int(state.outcome) == int(referee.outcome())
    assert state.is_won() == referee.won()
    assert bool(has_any_move(state.array)) == bool(actions)


# ---- deals --------------------------------------------------------------------------------
def test_seed_1_vector():
    text = GAME.deal(1).layout()
    assert slot_text(text, 1) == "9c"
    assert slot_text(text, 2) == "Qh* Ks 4c Kc 8c 5h"
    assert slot_text(text, 7) == "4d* 3h* 3s* Jh* 4h* 9h* 9s 6d Qc 2c 7s"
    lay = parse_layout(text)
    assert [len(lay.slots[p]) for p in range(1, 8)] == [1, 6, 7, 8, 9, 10, 11]
    assert all(not lay.slots[f] for f in (0, 8, 9, 10)) and lay.score == 0


def test_trace_deals_are_seeds_3000_up(conformance_dir):
    with gzip.open(conformance_dir / "yukon.txt.gz", "rt") as fh:
        news = [line[4:].rstrip("\n") for line in fh if line.startswith("NEW ")]
    assert len(news) == 30
    for k, text in enumerate(news):
        assert GAME.deal(3000 + k).layout() == text, k


def test_conformance_trace(conformance_dir):
    report = run_trace(conformance_dir / "yukon.txt.gz")
    assert report.ok, report.summary() + "\n" + "\n".join(report.mismatches)
    assert report.games == 30 and report.positions > 1500


def _stuck_deal_order():
    """A ``D`` whose deal has a false hint: Aces and Queens face down, tops 2s and black/red Ks
    that nothing face up fits, no empty pile."""
    tops = [C(t) for t in ("2c", "2d", "2h", "2s", "Kc", "Kd", "Kh")]
    hidden = [c for c in range(52) if rank(c) in (1, 12)]
    others = [c for c in range(52) if c not in tops and c not in hidden]
    positions = piles_from_order(range(52))          # which D index lands where
    order = [None] * 52
    for p, pile in enumerate(positions):
        for i, (k, up) in enumerate(pile):
            if i == len(pile) - 1:
                order[k] = tops[p]
            elif not up and hidden:
                order[k] = hidden.pop()
            else:
                order[k] = others.pop()
    assert sorted(order) == list(range(52))
    return order


def test_redeal_loop_continues_the_rng_stream():
    """Spec 1.4: while the continue predicate is false on a fresh deal, deal again from where
    the generator stopped."""
    stuck = _stuck_deal_order()
    stuck_array = array_from_piles(piles_from_order(stuck))
    assert GAME.kernels.status(stuck_array) == Outcome.LOST
    assert Referee(GAME.array_to_layout(stuck_array)).outcome() == Outcome.LOST

    class FirstDealStuck(AisleriotRandom):
        calls = 0

        def shuffle(self, deck):
            real = super().shuffle(deck)       # consumes the 52 draws, as Aisleriot would
            self.calls += 1
            return stuck if self.calls == 1 else real

    rng = FirstDealStuck(77)
    dealt = deal_from_rng(rng)
    assert rng.calls == 2
    expected = AisleriotRandom(77)
    expected.shuffle(range(52))
    second = array_from_piles(piles_from_order(expected.shuffle(range(52))))
    assert np.array_equal(dealt, second)
    assert not np.array_equal(dealt, GAME.deal(77).array)


# ---- kernel vs referee --------------------------------------------------------------------
def test_random_playouts_match_referee():
    """Random games (played on past LOST, where legal moves remain) against the referee."""
    positions = 0
    for seed in range(12):
        rnd = random.Random(seed)
        state = GAME.deal(5000 + seed)
        referee = referee_of(state)
        for _ in range(80):
            check_against_referee(state, referee)
            positions += 1
            moves = state.legal_moves()
            if not moves:
                break
            move = rnd.choice(moves)
            state.apply(move)
            referee.apply(str(move))
    assert positions > 500


def test_referee_accepts_exactly_its_listed_actions():
    """The referee's apply checks one action with the same tests legal_actions lists them by:
    every action of every slot pair and group size is accepted exactly when listed."""
    rnd = random.Random(7)
    checked = 0
    for _ in range(40):
        referee = Referee(random_position(rnd))
        listed = set(referee.legal_actions())
        every = [f"drag {s} {n} {d}" for s in range(11) for n in range(1, 20) for d in range(11)]
        every += [f"dbl {s}" for s in range(11)] + [f"click {s}" for s in range(11)]
        for action in every:
            trial = copy.deepcopy(referee)
            try:
                trial.apply(action)
                accepted = True
            except IllegalMoveError:
                accepted = False
            assert accepted == (action in listed), action
            checked += accepted
    assert checked > 100


def random_position(rnd):
    """A valid, run-rich Yukon position (stresses the hint's recursion): foundations random
    same-suit runs, tableau built from chunks that mostly follow alternating-colour order."""
    foundation_slots = rnd.sample([0, 8, 9, 10], 4)
    slots = [[] for _ in range(11)]
    home = set()
    for s in range(4):
        h = rnd.choice([0, 0, 0, 1, 2, 3, 4, 6, 9, 13])
        cards = [13 * s + r for r in range(h)]
        slots[foundation_slots[s]] = [(c, True) for c in cards]
        home.update(cards)
    rest = [c for c in range(52) if c not in home]
    rnd.shuffle(rest)
    remaining = set(rest)
    piles = [p for p in range(1, 8) if rnd.random() < 0.85] or [1]
    while remaining:
        card = rnd.choice(sorted(remaining))
        chunk = [card]
        remaining.discard(card)
        while rnd.random() < 0.8:
            fits = [c for c in remaining if rank(c) + 1 == rank(chunk[-1]) and
                    ((c // 13) in (1, 2)) != ((chunk[-1] // 13) in (1, 2))]
            if not fits:
                break
            chunk.append(rnd.choice(sorted(fits)))
            remaining.discard(chunk[-1])
        slots[rnd.choice(piles)].extend((c, True) for c in chunk)
    for p in range(1, 8):
        n = len(slots[p])
        down = 0 if n == 0 else min(n - 1, rnd.choice([0, 0, 1, 2, 3, 5, 8, 20]))
        slots[p] = [(c, i >= down) for i, (c, _) in enumerate(slots[p])]
    score = sum(len(slots[f]) for f in (0, 8, 9, 10))
    return Layout(tuple(tuple(s) for s in slots), score, 0)


class DepthReferee(Referee):
    max_depth = 0
    _depth = 0

    def _T(self, *args):
        DepthReferee._depth += 1
        DepthReferee.max_depth = max(DepthReferee.max_depth, DepthReferee._depth)
        try:
            return super()._T(*args)
        finally:
            DepthReferee._depth -= 1


def test_hint_kernel_matches_referee_transcription_on_random_positions():
    """Differential test of the Numba hint against the literal transcription: the verdict, and
    T(top(s1), s1, pile s2, s2) for every ordered pair of piles, so the recursion is compared
    directly (step A would otherwise decide most random positions)."""
    verdicts, pair_answers = set(), {True: 0, False: 0}
    DepthReferee.max_depth = 0
    for seed in range(1500):
        layout = random_position(random.Random(seed))
        state = GAME.from_layout(layout)
        assert state.layout() == str(layout)
        referee = DepthReferee(layout)
        assert int(GAME.kernels.status(state.array)) == int(referee.outcome()), str(layout)
        verdicts.add(int(referee.outcome()))
        for s1 in range(1, 8):
            if not layout.slots[s1]:
                continue
            top = layout.slots[s1][-1][0]
            for s2 in range(1, 8):
                if s2 != s1:
                    want = referee._T(top, s1, list(reversed(layout.slots[s2])), s2)
                    got = yukon._t(state.array, top, s1, s2, len(layout.slots[s2]))
                    assert got == want, (str(layout), s1, s2)
                    pair_answers[want] += 1
        if seed % 10 == 0:
            check_against_referee(state, referee)
    assert {Outcome.ONGOING, Outcome.LOST} <= verdicts
    assert min(pair_answers.values()) > 1000
    assert 3 <= DepthReferee.max_depth <= 5       # the bound proved at rules.yukon._t


# ---- properties ---------------------------------------------------------------------------
@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 10**6), max_size=60))
def test_conservation_undo_and_round_trip(seed, picks):
    state = GAME.deal(seed)
    deck = sorted(c for slot in parse_layout(state.layout()).slots for c, _ in slot)
    assert deck == list(range(52))
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            break
        before = state.array.copy()
        move = moves[pick % len(moves)]
        state.apply(move)
        text = state.layout()
        assert sorted(c for slot in parse_layout(text).slots for c, _ in slot) == deck
        assert GAME.from_layout(text) == state                      # parse(print(x)) == x
        assert str(parse_layout(text)) == text
        assert state.score == sum(len(parse_layout(text).slots[f]) for f in (0, 8, 9, 10))
        state.undo()
        assert np.array_equal(state.array, before)
        state.apply(move)


def permute_foundations(layout, perm):
    slots = list(layout.slots)
    found = [layout.slots[f] for f in (0, 8, 9, 10)]
    for f, k in zip((0, 8, 9, 10), perm):
        slots[f] = found[k]
    return Layout(tuple(slots), layout.score, layout.redeals)


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 10**9), perm=st.permutations(range(4)))
def test_canonical_hash_treats_foundations_as_a_set(seed, perm):
    layout = random_position(random.Random(seed))
    a = GAME.from_layout(layout)
    b = GAME.from_layout(permute_foundations(layout, perm))
    assert a.canonical_hash() == b.canonical_hash()
    assert a.outcome == b.outcome
    c = GAME.from_layout(layout._replace(score=layout.score + 5))
    assert c.canonical_hash() == a.canonical_hash()           # score is not part of the position
    moves = a.legal_moves(distinct=True)
    tableau = [m for m in moves if m.dst in range(1, 8)]
    if tableau:                                               # a different position, a new hash
        d = a.copy()
        d.apply(tableau[0])
        assert d.canonical_hash() != a.canonical_hash()


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_solver_moves_lose_nothing(seed, picks):
    """faithful=0 drops dbl and duplicate Ace drops only: same set of canonical successors."""
    state = GAME.deal(seed)
    for pick in picks:
        faithful = state.legal_moves()
        distinct = state.legal_moves(distinct=True)
        assert set(distinct) <= set(faithful) and len(distinct) == len(set(distinct))
        assert all(m.kind != 2 for m in distinct)

        def successors(moves):
            out = set()
            for m in moves:
                child = state.copy()
                child.apply(m)
                out.add(child.canonical_hash())
            return out

        assert successors(distinct) == successors(faithful)
        if not faithful:
            break
        state.apply(faithful[pick % len(faithful)])


# ---- quirks and edge cases ----------------------------------------------------------------
SPEC_5_6 = ("Ah|Kc|4h* 7d Ks Kd 8c 2h Ac 3s|Qd* 3c* 6h 5c 4d 5h 8d 7s 8h 7c|4c* 5s* Jd* 2s Js|"
            "Td* Kh Qs Jh Ts|6d* Qc* 2c* 6c* Jc Th 9c As 4s|3h* Qh* 9d* 9h* 8s 7h 6s 5d 9s Tc|||"
            "Ad 2d 3d#0#0")


def test_spec_5_6_lost_with_a_legal_move_left():
    state = GAME.from_layout(SPEC_5_6)
    assert Move.parse("drag 6 4 4") in state.legal_moves()
    assert state.outcome == Outcome.LOST and state.is_over() and not state.is_won()
    assert has_any_move(state.array)
    assert Referee(parse_layout(SPEC_5_6)).outcome() == Outcome.LOST
    state.apply("drag 6 4 4")                   # still playable through the API
    assert slot_text(state.layout(), 4) == "4c* 5s* Jd* 2s Js Th 9c As 4s"


def test_any_face_up_group_moves_not_only_runs():
    state = GAME.deal(1)
    # pile 5 = 6s* 2s* 5s* 2d* As Qs Jd 7d Ah: As..Ah is no run, yet As fits pile 6's 2h
    assert Move.parse("drag 5 5 6") in state.legal_moves()
    assert Move.parse("drag 5 6 6") not in state.legal_moves()          # deepest face down
    state.apply("drag 5 5 6")
    assert slot_text(state.layout(), 5) == "6s* 2s* 5s* 2d"             # auto-flip
    assert slot_text(state.layout(), 6).endswith("2h As Qs Jd 7d Ah")


def test_aces_foundations_and_dbl():
    state = GAME.deal(1)
    moves = {str(m) for m in state.legal_moves()}
    # Ah on pile 5: any of the four empty foundations by drag, dbl picks slot 0
    assert {"drag 5 1 0", "drag 5 1 8", "drag 5 1 9", "drag 5 1 10", "dbl 5"} <= moves
    assert [str(m) for m in state.legal_moves(distinct=True) if m.src == 5 and m.n == 1
            and m.dst in (0, 8, 9, 10)] == ["drag 5 1 0"]
    state.apply("drag 5 1 9")
    assert state.score == 1
    assert "dbl 5" not in {str(m) for m in state.legal_moves()}          # 7d has nowhere to go
    # dbl sends an Ace to the first empty foundation in the order 0, 8, 9, 10
    aces = [C(a) for a in ("Ac", "Ad", "Ah", "As")]
    rest = " ".join("A23456789TJQK"[c % 13] + "cdhs"[c // 13] for c in range(52) if c not in aces)
    text = f"|Ac|Ad|Ah|As|{rest}|||||#0#0"
    state = GAME.from_layout(text)
    # 4 Aces x 4 empty foundations + 4 dbl, and 4 King-led groups x 2 empty piles
    assert len(state.legal_moves()) == 16 + 4 + 8
    assert len(state.legal_moves(distinct=True)) == 4 + 8
    for pile, slot in ((1, 0), (2, 8), (3, 9), (4, 10)):
        state.apply(f"dbl {pile}")
        assert slot_text(state.layout(), slot) == slot_text(text, pile)
    state = GAME.from_layout(text)
    state.apply("drag 1 1 8")
    state.apply("drag 2 1 10")
    state.apply("dbl 3")
    assert slot_text(state.layout(), 0) == "Ah"
    state.apply("dbl 4")
    assert slot_text(state.layout(), 9) == "As" and state.score == 4
    assert "dbl" not in " ".join(str(m) for m in state.legal_moves())   # Ks on pile 5 stays


def _lone_king_layout(ks_on_stash):
    """Pile 1 empty, Kc alone in pile 2, black tops nothing fits; 20 cards home."""
    home = {0: "c", 8: "d", 9: "h", 10: "s"}
    found = {f: " ".join(f"{r}{s}" for r in "A2345") for f, s in home.items()}
    tops = ["Qc", "Qs", "Jc", "Js"]
    used = {"Kc", "Ks", *tops} | {f"{r}{s}" for s in "cdhs" for r in "A2345"}
    stash = [f"{r}{s}" for s in "cdhs" for r in "6789TJQK" if f"{r}{s}" not in used]
    piles = {2: "Kc", 3: "Ks"}
    if ks_on_stash:
        piles[3] = stash.pop() + "* Ks"
    for p, top in zip((4, 5, 6, 7), tops):
        piles[p] = " ".join(c + "*" for c in stash[:7]) + " " + top
        stash = stash[7:]
    piles[7] = " ".join(c + "*" for c in stash) + " " + piles[7]
    slots = [found[0], ""] + [piles[p] for p in range(2, 8)] + [found[8], found[9], found[10]]
    return "|".join(slots) + "#20#0"


def test_hint_step_c_ignores_a_king_at_the_bottom():
    lone = GAME.from_layout(_lone_king_layout(False))
    assert Move.parse("drag 2 1 1") in lone.legal_moves()
    assert lone.outcome == Outcome.LOST and has_any_move(lone.array)
    raised = GAME.from_layout(_lone_king_layout(True))
    assert raised.outcome == Outcome.ONGOING
    for state in (lone, raised):
        assert int(state.outcome) == int(referee_of(state).outcome())


def test_king_groups_to_empty_piles_only():
    state = GAME.from_layout(_lone_king_layout(True))
    moves = {str(m) for m in state.legal_moves()}
    assert {"drag 2 1 1", "drag 3 1 1"} <= moves
    assert not any(m.startswith("drag 4 ") or m.startswith("drag 5 ") for m in moves)
    state.apply("drag 3 1 1")
    assert slot_text(state.layout(), 1) == "Ks"
    assert not slot_text(state.layout(), 3).count("*")                # auto-flip of the stash card


def test_won_position():
    runs = [" ".join(f"{r}{s}" for r in "A23456789TJQK") for s in "cdhs"]
    slots = [runs[0], "Ks", "", "", "", "", "", "", runs[1], runs[2], runs[3][:-3]]
    state = GAME.from_layout("|".join(slots) + "#51#0")
    assert state.outcome == Outcome.ONGOING
    expected = {"drag 1 1 10", "dbl 1"} | {f"drag 1 1 {t}" for t in range(2, 8)}
    assert {str(m) for m in state.legal_moves()} == expected
    state.apply("dbl 1")
    assert state.is_won() and state.outcome == Outcome.WON and state.score == 52
    assert state.legal_moves() == [] and not has_any_move(state.array)


@pytest.mark.parametrize("text, words", [
    ("|9c|" + "|" * 8 + "#0#0", "missing"),
    (SPEC_5_6.replace("Ad 2d 3d", "Ad 2d 3d 3d"), "duplicate 3d"),
    (SPEC_5_6.replace("|Kc|", "|Kc*|"), "top card face up"),
    (SPEC_5_6.replace("4h* 7d Ks", "4h 7d* Ks"), "face-down cards must lie under"),
    (SPEC_5_6.replace("Ad 2d 3d", "2d Ad 3d"), "foundation slot 10"),
    (SPEC_5_6.replace("#0#0", "#0#1"), "redeal"),
    (SPEC_5_6.replace("Ah|Kc|", "Ah Kc|"), "11 slots"),
])
def test_bad_layouts_are_refused(text, words):
    with pytest.raises(InvalidDealError) as err:
        GAME.from_layout(text)
    assert words in str(err.value)


def test_illegal_moves_are_refused():
    state = GAME.from_layout(SPEC_5_6)
    for bad in ("drag 0 1 2", "drag 6 5 4", "drag 6 4 6", "click 1", "dbl 3"):
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
        with pytest.raises(IllegalMoveError):
            Referee(parse_layout(SPEC_5_6)).apply(bad)
    assert state.layout() == str(parse_layout(SPEC_5_6))


def test_module_layout_constants():
    a = GAME.deal(3).array
    assert a.shape == (yukon.STATE_SIZE,) and a.dtype == np.int16
    assert list(a[FOUND:FOUND + 4]) == [EMPTY] * 4
