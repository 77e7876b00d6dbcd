"""Yukon solver move generation (solvers/games/yukon/moves.py): the safe-home rule (bound children
too), rules 5 and 6 drop or force exactly the documented moves and change no verdict, aisleriot
mode lists nothing in a LOST position, and the solver's generator lists the engine's moves."""
import numpy as np
from hypothesis import find, given, settings, strategies as st

from rules import yukon as yk
from rules.game import Outcome
from rules.moves import Move
from solvers.games.yukon import SOLVER
from solvers.games.yukon.cards import home_height
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.moves import is_foundation, king_room_move, safe_home, solver_moves
from tests.support import yukon_reference as ref
from tests.support.yukon import (GAME, LOST_TEXT, SEEDS, WALKS, check_pruned_search_agrees,
                                 check_rule5, home_cards, king_room_positions, lay, move_set,
                                 random_small_position, small_positions, verdict_of,
                                 walk_positions)


def test_safe_home_rule_ace_forced_two_not():
    """An Ace on top is the only move listed (open mode); a 2 whose opposite-colour Aces are not
    home is not forced, because the Ace-group may need to go onto it (Yukon groups need not be
    runs) -- here ``drag 1 2 2`` puts Ah 9c on 2c to uncover Th."""
    text = ("AC | TH* AH 9C | 2C | KH QH JH 9H 8H 7H 6H 5H 4H 3H 2H | KC QC JC TC 8C 7C 6C 5C 4C 3C"
            " | | | | {0} | {1} | ".format(home_cards("D", "K"), home_cards("S", "K")))
    state = GAME.from_layout(lay(text))
    moves = {str(Move.from_code(c)) for c in move_set(ref.legal_open, state.array)}
    assert len(moves) > 1 and "drag 1 2 2" in moves and "drag 2 1 0" in moves
    r = SOLVER.solve(state, rules="open")
    assert r.verdict == "solved" and r.verify()

    # AD on top: forced alone in open mode; aisleriot mode still lists the lateral QH -> KS
    ace = GAME.from_layout(lay("| KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD | KH QH | KS | JH | | | | "
                           "{0} | {1} | {2}".format(home_cards("C", "K"), home_cards("S", "Q"),
                                                    home_cards("H", "T"))))
    assert [str(Move.from_code(c)) for c in move_set(ref.legal_open, ace.array)] == ["drag 1 1 0"]
    moves = {str(Move.from_code(c)) for c in move_set(ref.legal_aisleriot, ace.array)}
    assert {"drag 1 1 0", "drag 2 1 3"} <= moves


@st.composite
def bound_home_positions(draw):
    """Small positions where rule 2 fires only through a *bound* child: a pile top ``c`` that can
    go home, a child ``e`` of ``c`` face down, the next card of its suit with both its own
    children home, and ``c``'s other child home or bound too."""
    r = draw(st.integers(7, 12))                    # c's rank
    sc = draw(st.integers(0, 3))
    kids = (0, 3) if sc in (1, 2) else (1, 2)         # the suits of c's children
    se = draw(st.sampled_from(kids))
    so = kids[0] + kids[1] - se
    heights = [0] * 4
    heights[sc] = r - 1
    heights[3 - sc] = draw(st.integers(r - 2, 13))    # e's children: rank r - 2, c's colour
    heights[se] = r - 2
    heights[so] = draw(st.sampled_from([r - 2] + list(range(r - 1, 14))))
    c, e, e2 = sc * 13 + r - 1, se * 13 + r - 2, so * 13 + r - 2
    down = [e] + ([e2] if heights[so] == r - 2 else [])
    rest = draw(st.permutations([s * 13 + k for s in range(4) for k in range(heights[s], 13)
                                 if s * 13 + k not in (c, e, e2)]))
    piles = [[] for _ in range(7)]
    for x in down:
        piles[draw(st.integers(0, 6))].append((x, False))
    for x in rest:
        piles[draw(st.integers(0, 6))].append((x, draw(st.booleans())))
    piles[draw(st.integers(0, 6))].append((c, True))
    out = []
    for pile in piles:
        if pile and pile[-1][0] in down:
            return None                               # a bound card must lie under a card
        n_down = min(max([i + 1 for i, (_, up) in enumerate(pile) if not up], default=0),
                     len(pile) - 1)
        out.append([(x, i >= n_down) for i, (x, _) in enumerate(pile)])
    return yk.array_from_piles(out, [s * 13 + h - 1 if h else -1 for s, h in enumerate(heights)])


def _bound_home_position():
    return bound_home_positions().filter(lambda a: a is not None)


@settings(max_examples=150)
@given(_bound_home_position())
def test_bound_children_make_home_move_safe(a):
    """Rule 2 with a child bound home (face down, bound to go home as soon as it turns up):
    ``c`` home is listed alone though a child of ``c`` is out, and it never changes the
    open-mode verdict (differential test against the unpruned search)."""
    tops = [int(a[yk.TAB + p * yk.CAP + a[yk.HEIGHT + p] - 1]) for p in range(7)
            if a[yk.HEIGHT + p]]
    assert any(c % 13 > 0 and home_height(a, c // 13) == c % 13 and safe_home(a, np.int64(c))
               and any(home_height(a, s) < c % 13 for s in ((0, 3) if c // 13 in (1, 2)
                                                              else (1, 2)))
               for c in tops)
    if not dead_end(a) and king_room_move(a) < 0:             # (rule 6 comes first)
        moves = move_set(ref.legal_open, a)
        assert len(moves) == 1 and is_foundation(next(iter(moves)) & 0xFF)
    check_pruned_search_agrees(a)


def _check_agrees_on_both_verdicts(positions):
    """A position of strategy ``positions`` with each open-mode verdict, found (derandomized),
    on which :func:`check_pruned_search_agrees` holds."""
    for verdict in ("solved", "unsolvable"):
        a = find(positions, lambda a: verdict_of("open", a, plain=True) == verdict,
                 settings=settings(max_examples=5000, derandomize=True, database=None))
        check_pruned_search_agrees(a)


def test_bound_child_rule_fires_on_solvable_and_unsolvable_positions():
    """The property above meets both verdicts."""
    _check_agrees_on_both_verdicts(_bound_home_position())


def test_lost_positions_are_dead_ends_only_in_aisleriot_mode():
    """The spec 5.6 example: LOST with a legal move left; aisleriot mode lists nothing there."""
    state = GAME.from_layout(lay(LOST_TEXT))
    assert state.outcome == Outcome.LOST and state.legal_moves()
    assert move_set(ref.legal_aisleriot, state.array) == set()
    plain = move_set(ref.legal_open_plain, state.array)
    assert [str(Move.from_code(c)) for c in plain] == ["drag 6 4 4"]
    # The one move is an idle twin move (TH from JC to JS; TD face down, JC cannot go home), so
    # rule 5 drops it in open mode too; the reference search confirms there is no win.
    assert move_set(ref.legal_open, state.array) == set()
    assert verdict_of("open", state.array, plain=True) == "unsolvable"


@settings(max_examples=300)
@given(small_positions(max_out=30, full_piles=True))
def test_rule5_drops_exactly_the_idle_lateral_moves(a):
    check_rule5(a)


def test_rule5_drops_moves_on_small_positions():
    """Rule 5 is exercised: it drops moves on a fixed sample of positions, and exactly the
    idle ones."""
    rng = np.random.default_rng(11)
    assert sum(check_rule5(random_small_position(rng, 30, True)) for _ in range(300)) >= 5


def _king_room_move(a):
    """Rule 6's move recomputed in plain Python from the layout: with an empty pile and no
    more Kings lying on another card than empty piles, the first face-up one (pile order,
    lowest first) to the first empty pile; else None."""
    piles = [[int(x) for x in a[p * yk.CAP:p * yk.CAP + int(a[yk.HEIGHT + p])]] for p in range(7)]
    empty = [p for p in range(7) if not piles[p]]
    kings = [(p, i) for p in range(7) for i in range(1, len(piles[p])) if piles[p][i] % 13 == 12]
    up = [(p, i) for p, i in kings if i >= int(a[yk.DOWN + p])]
    if not empty or len(kings) > len(empty) or not up:
        return None
    p, i = up[0]
    return f"drag {p + 1} {len(piles[p]) - i} {empty[0] + 1}"


@settings(max_examples=200)
@given(small_positions(max_out=30))
def test_rule6_move_is_the_documented_one(a):
    expected = _king_room_move(a)
    got = king_room_move(a)
    assert (None if got < 0 else str(Move.from_code(got))) == expected
    if expected is not None:
        assert expected in {str(Move.from_code(c)) for c in move_set(ref.legal_open_plain, a)}
        if not dead_end(a):                        # (the reference lists none in a dead end)
            assert [str(Move.from_code(c)) for c in move_set(ref.legal_open, a)] == [expected]
            if yk.status(a) == yk.ONGOING:                  # aisleriot mode: not applied
                assert move_set(ref.legal_aisleriot, a) == move_set(ref.legal_aisleriot_plain, a)


@settings(max_examples=150)
@given(king_room_positions())
def test_rule6_search_agrees_with_reference_on_small_positions(a):
    """Rule 6 (with the other rules) never changes an open-mode verdict: differential test
    against the unpruned search on positions where it fires at the root."""
    check_pruned_search_agrees(a)


def test_rule6_fires_on_solvable_and_unsolvable_positions():
    """The property above meets both verdicts, and positions with two Kings to place."""
    _check_agrees_on_both_verdicts(king_room_positions())
    a = find(king_room_positions(), lambda a: sum(
        int(a[p * yk.CAP + i]) % 13 == 12 for p in range(7)
        for i in range(1, int(a[yk.HEIGHT + p]))) >= 2,
        settings=settings(max_examples=5000, derandomize=True, database=None))
    check_pruned_search_agrees(a)


def _same_moves_as_engine(a):
    b1, b2 = np.empty(yk.MAX_MOVES, np.int32), np.empty(yk.MAX_MOVES, np.int32)
    n1, n2 = yk.legal_moves(a, b1, 0), solver_moves(a, b2)[0]
    assert sorted(b1[:n1]) == sorted(b2[:n2]), str(GAME.array_to_layout(a))


@settings(max_examples=60)
@given(SEEDS, WALKS)
def test_solver_moves_equal_engine_solver_moves_on_playouts(seed, walk):
    """The solver's per-destination generator lists exactly the engine's faithful=0 set."""
    for a in walk_positions(seed, walk):
        _same_moves_as_engine(a)


@settings(max_examples=300)
@given(small_positions(max_out=40, full_piles=False))
def test_solver_moves_equal_engine_solver_moves_on_small_positions(a):
    """The same with empty piles and foundations."""
    _same_moves_as_engine(a)


def test_solver_moves_report_the_face_up_cards():
    a = GAME.deal(7).array
    face_up = solver_moves(a, np.empty(yk.MAX_MOVES, np.int32))[1]
    want = {int(a[yk.TAB + p * yk.CAP + j]) for p in range(7)
            for j in range(int(a[yk.DOWN + p]), int(a[yk.HEIGHT + p]))}
    assert {c for c in range(52) if int(face_up) >> c & 1} == want
