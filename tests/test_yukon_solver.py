"""Yukon solver: solutions replay under the referee in both rule modes, limits give unknown,
unsolvable positions are proven, the pruning rules behave as their proofs say."""
import re

import numpy as np
import pytest

from rules import yukon as yk
from rules.game import Outcome
from rules.moves import Move
from rules.registry import get_game
from solvers import yukon_solver as ys

GAME = get_game("yukon")


def _lay(text):
    """Layout text from a readable form: ' | ' between slots, suits in either case."""
    text = re.sub(r"\b([A2-9TJQK])([CDHS])", lambda m: m.group(1) + m.group(2).lower(), text)
    return "|".join(part.strip() for part in text.split("|")) + "#0#0"
FAST_SEEDS = (1, 2, 3, 9, 11, 13)


def _replay_states(result):
    s = result.start.copy()
    yield s.copy()
    for m in result.moves:
        s.apply(m)
        yield s.copy()


@pytest.mark.parametrize("rules", ["aisleriot", "open"])
@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_sample_seeds_solved_and_verified(seed, rules):
    r = ys.solve(seed, rules=rules, timeout=20)
    assert r.verdict == "solved"
    assert r.rules == rules and r.deal == seed
    assert all(isinstance(m, Move) and str(m).split()[0] in ("drag", "dbl") for m in r.moves)
    assert r.verify() is True                       # independent referee replay
    states = list(_replay_states(r))
    assert states[-1].is_won()
    for st in states:                               # the proof of dead_end: never fires on a winning line
        assert not ys.dead_end(st.array)
    if rules == "aisleriot":                        # never through a LOST position
        assert all(st.outcome == Outcome.ONGOING for st in states[:-1])


def test_solution_from_layout_text_and_state():
    state = GAME.deal(1)
    for start in (state, state.layout()):
        r = ys.solve(start)
        assert r.verdict == "solved" and r.verify()
        assert r.deal is None


def test_tiny_limits_give_unknown():
    r = ys.solve(12, max_nodes=1)
    assert r.verdict == "unknown" and r.limit == "nodes" and r.moves == []
    r = ys.solve(12, timeout=1e-9, rules="open")  # timeout checked per node chunk
    assert r.verdict == "unknown" and r.limit == "seconds"
    with pytest.raises(AssertionError):
        r.verify()


def test_bad_arguments():
    with pytest.raises(ValueError, match="rule mode"):
        ys.solve(1, rules="lenient")
    with pytest.raises(ValueError, match="method"):
        ys.solve(1, method="bfs")


def _found(suit, top):
    return " ".join(f"{r}{suit}" for r in "A23456789TJQK"[: "A23456789TJQK".index(top) + 1])


def test_constructed_deadlock_is_unsolvable():
    """JH face down under QH with both black Kings home: QH can never leave (no parent left, its
    foundation needs JH) -- unsolvable in both modes, although a legal move (KH to an empty
    pile) remains."""
    text = ("{0} | JH* QH | KH | | | | | | {1} | {2} | {3}".format(
        _found("C", "K"), _found("D", "K"), _found("S", "K"), _found("H", "T")))
    state = GAME.from_layout(_lay(text))
    assert state.legal_moves()                       # not stuck by the plain rules
    assert ys.dead_end(state.array)
    for rules in ("aisleriot", "open"):
        r = ys.solve(state, rules=rules)
        assert r.verdict == "unsolvable" and r.rules == rules


@pytest.mark.parametrize("seed", [14, 67])
def test_real_deal_proven_unsolvable_by_search(seed):
    """These deals need a real search to refute (the root is no dead end); both modes agree."""
    assert not ys.dead_end(GAME.deal(seed).array)
    for rules in ("open", "aisleriot"):
        r = ys.solve(seed, rules=rules, timeout=30)
        assert r.verdict == "unsolvable", rules
        assert r.nodes_expanded > 1000 and r.limit == ""


def test_root_dead_end_seed():
    """Seed 8: a blocker has no exit at the deal, so both modes are refuted without search."""
    assert ys.dead_end(GAME.deal(8).array)
    assert ys.solve(8).verdict == ys.solve(8, rules="open").verdict == "unsolvable"


def test_safe_home_rule_ace_forced_two_not():
    """An Ace on top is the only move listed (open mode); a 2 whose opposite-colour Aces are not
    home is not forced, because the Ace-group may need to go onto it (Yukon groups need not be
    runs) -- here ``drag 1 2 2`` puts Ah 9c on 2c to uncover Th."""
    text = ("AC | TH* AH 9C | 2C | KH QH JH 9H 8H 7H 6H 5H 4H 3H 2H | KC QC JC TC 8C 7C 6C 5C 4C 3C"
            " | | | | {0} | {1} | ".format(_found("D", "K"), _found("S", "K")))
    state = GAME.from_layout(_lay(text))
    buf = np.empty(yk.MAX_MOVES, np.int32)
    n = ys.legal_open(state.array, buf)
    moves = {str(Move.from_code(int(c))) for c in buf[:n]}
    assert n > 1 and "drag 1 2 2" in moves and "drag 2 1 0" in moves
    r = ys.solve(state, rules="open")
    assert r.verdict == "solved" and r.verify()

    # AD on top: forced alone in open mode; aisleriot mode still lists the lateral QH -> KS
    ace = GAME.from_layout(_lay("| KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD | KH QH | KS | JH | | | | "
                           "{0} | {1} | {2}".format(_found("C", "K"), _found("S", "Q"), _found("H", "T"))))
    n = ys.legal_open(ace.array, buf)
    assert n == 1 and str(Move.from_code(int(buf[0]))) == "drag 1 1 0"
    moves = {str(Move.from_code(int(c))) for c in buf[:ys.legal_aisleriot(ace.array, buf)]}
    assert {"drag 1 1 0", "drag 2 1 3"} <= moves


def test_lost_positions_are_dead_ends_only_in_aisleriot_mode():
    """The spec 5.6 example: LOST with a legal move left; aisleriot mode lists nothing there."""
    text = ("AH | KC | 4H* 7D KS KD 8C 2H AC 3S | QD* 3C* 6H 5C 4D 5H 8D 7S 8H 7C | 4C* 5S* JD* 2S JS"
            " | TD* KH QS JH TS | 6D* QC* 2C* 6C* JC TH 9C AS 4S | 3H* QH* 9D* 9H* 8S 7H 6S 5D 9S TC"
            " | | | AD 2D 3D")
    state = GAME.from_layout(_lay(text))
    assert state.outcome == Outcome.LOST and state.legal_moves()
    buf = np.empty(yk.MAX_MOVES, np.int32)
    assert ys.legal_aisleriot(state.array, buf) == 0
    assert ys.legal_open(state.array, buf) > 0


def test_hashes_ignore_pile_order_and_foundation_slots():
    state = GAME.deal(5)
    layout = state.game.array_to_layout(state.array)
    slots = list(layout.slots)
    perm = [0, 4, 7, 1, 6, 2, 5, 3, 8, 9, 10]
    other = GAME.from_layout(type(layout)(tuple(slots[i] for i in perm), 0, 0))
    assert ys.hash1(state.array) == ys.hash1(other.array)
    assert ys.hash2(state.array) == ys.hash2(other.array)
    moved = state.copy()
    moved.apply(moved.legal_moves(distinct=True)[0])
    assert ys.hash1(moved.array) != ys.hash1(state.array)
    assert ys.hash2(moved.array) != ys.hash2(state.array)


def test_solve_many_and_methods():
    results = ys.solve_many([1, 2], rules="open")
    assert [r.verdict for r in results] == ["solved", "solved"]
    for method in ("greedy", "astar"):
        r = ys.solve(1, method=method, timeout=20)
        assert r.verdict == "solved" and r.method == method and r.verify()
