"""Zebra solver: deals solved in both rule modes and replayed by the referee, limits, proofs of
unsolvability, the aisleriot mode's dead ends, canonical hashing, and the pruning checked against
a plain exhaustive search (engine's full action set, real win, no pruning, exact positions).
"""
import random
from collections import Counter

import numpy as np
import pytest

from rules import Outcome, get_game
from rules import zebra as Z
from rules.layout import Layout, parse_layout
from tests.support.zebra import col, random_pile, rk
from rules.moves import CLICK, DRAG, Move
from rules.referee.zebra import Referee
from solvers.games import zebra as zs
from solvers.core.result import SolutionError

GAME = get_game("zebra")
ACE_ORDER = (0, 13, 26, 39, 0, 13, 26, 39)   # Ac Ad Ah As Ac Ad Ah As

# Found by the generator below; the exhaustive search (3504 positions) agrees it is lost in
# both modes, and the solver has to search (hundreds of nodes) to prove it.
UNSOLVABLE = ("Td* 7c* 7c* 7d*|Td Js Jc Js Th Qc Jc Kh Kd 8d 8c 8d 9s 9c 9h Tc Qd|Ac 2d 3c 4h 5s 6h "
              "7s 8h 9c Th|Ad 2s 3d 4s 5d 6s 7h 8s 9h Ts Jd|Ah 2c 3h 4c 5h 6c 7d 8s 9d Tc Jd Qs Kd|"
              "As 2d 3s 4h 5s 6h|Ac 2h 3c 4d 5c 6d|Ad 2s 3h 4c 5d 6s|Ah 2c 3d 4s 5h 6c 7h 8c 9d Ts "
              "Jh Qc|As 2h 3s 4d 5c 6d 7s 8h 9s|Ks Qh|Kc|Kc Qh||Kh Qs Jh|Ks|Qd|#0#1")
# Won under the move rules only: a pile is empty while the waste is not, so every win passes
# through a position where Aisleriot's hint crashes (ABORTED; the game would end there).
OPEN_ONLY = ("|9c 9d Td Th 9h Th Td Kd Kd Jc Jh Tc Js Jc Qd|Ac 2h 3s 4d 5c 6d 7s 8d|Ad 2c 3h 4c "
             "5d 6s 7d 8c|Ah 2s 3d 4s 5h 6c 7d 8c 9d Ts Jh Qs|As 2d 3c 4h 5c 6h 7s 8d 9s|Ac 2d 3s "
             "4d 5s 6h 7c 8h 9s|Ad 2c 3h 4c 5d 6c 7h 8s 9h Ts Jd Qs|Ah 2s 3d 4s 5h 6s 7h 8s|As 2h "
             "3c 4h 5s 6d 7c 8h 9c|Kh Qc|Kh Qc Jd Tc|Ks Qd|Kc|Kc Qh||Ks|Qh Js#0#1")


# ---- helpers ---------------------------------------------------------------------------------
def blocked_endgame(rng, min_height=8, p_empty=0.0):
    """A valid layout near the edge between won and lost: tall foundations, no pile top that
    goes home, the waste's top cards going nowhere, usually the redeal used up."""
    pool = {c: 2 for c in range(52) if c % 13}
    found = []
    for ace in ACE_ORDER:
        pile = [ace]
        for k in range(2, rng.randint(min_height, 13) + 1):
            want = col(ace) ^ ((k - 1) & 1)
            c = rng.choice([c for c in pool if pool[c] and rk(c) == k and col(c) == want])
            pool[c] -= 1
            pile.append(c)
        found.append(pile)
    tops = {(col(p[0]) ^ ((len(p) - 1) & 1), len(p)) for p in found}

    def homeable(c):
        return (1 - col(c), rk(c) - 1) in tops

    rest = [c for c, n in pool.items() for _ in range(n)]
    rng.shuffle(rest)
    tab, held = [], []
    for _ in range(8):
        pile = random_pile(rng, rest, p_empty, 0.6)
        while pile and homeable(pile[-1]):
            held.append(pile.pop())
        tab.append(pile)
    rest += held
    rest.sort(key=lambda c: rk(c) + rng.random() * 3 + 20 * (not homeable(c)))
    cut = rng.choice([0, 0, rng.randint(0, len(rest))])
    stock, waste = rest[:cut][::-1], rest[cut:]
    slots = [tuple((c, False) for c in stock), tuple((c, True) for c in waste)]
    slots += [tuple((c, True) for c in p) for p in found + tab]
    return Layout(tuple(slots), 0, 1 if rng.random() < 0.8 else 0)


def exhaustive(layout, aisleriot, cap=30000):
    """Won?  Plain depth-first search over exact positions with every action Aisleriot accepts;
    in aisleriot mode only ONGOING positions are expanded.  None if more than ``cap`` positions."""
    start = GAME.from_layout(layout).array
    buf = np.empty(Z.MAX_MOVES, np.int32)
    seen = {start.tobytes()}
    stack = [start]
    while stack:
        a = stack.pop()
        status = Z.status(a)
        if status == Outcome.WON:
            return True
        if aisleriot and status != Outcome.ONGOING:
            continue
        for m in buf[:Z.legal_moves(a, buf, 1)]:
            b = a.copy()
            Z.apply(b, m)
            if b.tobytes() not in seen:
                seen.add(b.tobytes())
                stack.append(b)
        if len(seen) > cap:
            return None
    return False


def referee_outcomes(result):
    """Outcome of every position of a solution, start to end, played by the referee."""
    ref = Referee(GAME.array_to_layout(result.start.array))
    out = [ref.outcome()]
    for m in result.moves:
        ref.apply(str(m))
        out.append(ref.outcome())
    return out


def swap_suits(layout, a, b):
    """The layout with suits a and b (same colour) exchanged everywhere."""
    def sw(c):
        s = c // 13
        return c + 13 * (b - a) if s == a else c + 13 * (a - b) if s == b else c
    slots = tuple(tuple((sw(c), up) for c, up in slot) for slot in layout.slots)
    return Layout(slots, layout.score, layout.redeals)


# ---- deals -------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", zs.RULE_MODES)
def test_deals_solved_and_replayed_by_the_referee(rules):
    for seed in list(range(1, 26)) + [4777, 12280, 12908]:
        result = zs.SOLVER.solve(seed, rules=rules)
        assert result.verdict == "solved", (seed, result.summary())
        assert result.rules == rules and result.method == "dfs" and result.deal == seed
        assert result.verify()
        assert all(isinstance(m, Move) for m in result.moves)
        assert all(m.kind == DRAG or (m.kind == CLICK and m.src == 0) for m in result.moves)
        assert result.atomic_length >= len(result.moves)
        # the same actions, as text, replay on the engine from the deal to a win
        state = GAME.deal(seed)
        for m in result.moves:
            state.apply(str(m))
        assert state.is_won()


@pytest.mark.parametrize("method", sorted(zs.SOLVER.METHODS))
def test_every_method_solves_and_verifies(method):
    for seed in (1, 2, 3):
        for rules in zs.RULE_MODES:
            result = zs.SOLVER.solve(seed, method=method, rules=rules)
            assert result.verdict == "solved" and result.method == method and result.verify()


def test_aisleriot_solutions_never_pass_a_lost_or_aborted_position():
    for seed in range(30, 40):
        result = zs.SOLVER.solve(seed, rules="aisleriot")
        outcomes = referee_outcomes(result)
        assert outcomes[-1] == Outcome.WON
        assert all(o == Outcome.ONGOING for o in outcomes[:-1])
        engine = GAME.deal(seed)
        for m in result.moves[:-1]:
            engine.apply(m)
            assert engine.outcome == Outcome.ONGOING


def test_solve_accepts_state_layout_and_array():
    state = GAME.deal(7)
    for given in (state, state.layout(), parse_layout(state.layout()), state.array.copy()):
        result = zs.SOLVER.solve(given)
        assert result.verdict == "solved" and result.verify()
    assert state == GAME.deal(7)            # the caller's state is not played on


# ---- limits and proofs -----------------------------------------------------------------------
@pytest.mark.parametrize("rules", zs.RULE_MODES)
def test_tiny_limits_give_unknown_never_unsolvable(rules):
    for start in (GAME.deal(1), GAME.from_layout(UNSOLVABLE)):
        r = zs.SOLVER.solve(start, max_nodes=5, rules=rules)
        assert r.verdict == "unknown" and r.limit == "nodes" and r.moves == []
        r = zs.SOLVER.solve(start, max_memory_mb=0.01, rules=rules)
        assert r.verdict == "unknown" and r.limit == "memory"
    with pytest.raises(SolutionError):
        zs.SOLVER.solve(1, max_nodes=5).verify()


@pytest.mark.parametrize("rules", zs.RULE_MODES)
def test_constructed_position_is_proven_unsolvable(rules):
    layout = parse_layout(UNSOLVABLE)
    assert exhaustive(layout, rules == "aisleriot") is False
    result = zs.SOLVER.solve(UNSOLVABLE, rules=rules)
    assert result.verdict == "unsolvable" and result.limit == "" and result.moves == []
    assert result.nodes_expanded > 100          # a real search, not a dead start
    assert GAME.from_layout(UNSOLVABLE).outcome == Outcome.ONGOING


def test_open_only_win_is_refused_in_aisleriot_mode():
    layout = parse_layout(OPEN_ONLY)
    assert exhaustive(layout, False) is True and exhaustive(layout, True) is False
    assert GAME.from_layout(OPEN_ONLY).outcome == Outcome.ONGOING
    assert zs.SOLVER.solve(OPEN_ONLY, rules="aisleriot").verdict == "unsolvable"
    result = zs.SOLVER.solve(OPEN_ONLY, rules="open")
    assert result.verdict == "solved" and result.verify()
    assert Outcome.ABORTED in referee_outcomes(result)[:-1]
    result.rules = "aisleriot"                   # the strict replay refuses it
    with pytest.raises(SolutionError, match="aisleriot mode"):
        result.verify()


def test_lost_and_aborted_starts_are_dead_ends_in_aisleriot_mode():
    seen = Counter()
    for seed in range(400):
        layout = blocked_endgame(random.Random(seed), p_empty=0.2 * (seed % 2))
        outcome = GAME.from_layout(layout).outcome
        if outcome in (Outcome.LOST, Outcome.ABORTED):
            seen[outcome] += 1
            result = zs.SOLVER.solve(layout, rules="aisleriot")
            assert result.verdict == "unsolvable" and result.nodes_expanded == 1
    assert seen[Outcome.LOST] and seen[Outcome.ABORTED]


def test_pruning_and_goal_test_agree_with_exhaustive_search():
    """Safe-move pruning, kind/pile-multiset hashing and the stock-and-waste-empty goal never
    change a verdict: random hard end-games, both modes, against the plain search."""
    tally = Counter()
    compared = 0
    for seed in range(160):
        rng = random.Random(1000 + seed)
        layout = blocked_endgame(rng, min_height=rng.choice([7, 9, 11]),
                                 p_empty=rng.choice([0.0, 0.0, 0.1]))
        for rules in zs.RULE_MODES:
            truth = exhaustive(layout, rules == "aisleriot")
            if truth is None:
                continue
            compared += 1
            result = zs.SOLVER.solve(layout, rules=rules, timeout=30)
            assert result.verdict == ("solved" if truth else "unsolvable"), (rules, str(layout))
            if truth:
                assert result.verify()
            tally[rules, truth] += 1
    assert compared >= 300, compared
    assert all(tally[r, t] >= 20 for r in zs.RULE_MODES for t in (True, False)), tally


# Winnable end-games that a too-eager safe-move rule ("3 of the 4 lower cards home") calls
# unsolvable; the exhaustive search wins them.
TRICKY = (
    "9s* 9d* 9d* 7d*|8d 9s Jh Qh Jd Kd Kh 8s Tc Td Ks|Ac 2h 3c 4h 5s 6d 7c|Ad 2c 3d 4s 5h 6c 7h 8s "
    "9h Ts|Ah 2s 3d 4s 5h 6c|As 2d 3c 4d 5c 6h 7s 8h 9c Td Jc|Ac 2d 3s 4h 5s 6h 7c 8h 9c Th Jc Qd Ks|"
    "Ad 2s 3h 4c 5d 6s 7h 8c|Ah 2c 3h 4c 5d 6s 7d 8c 9h Ts Jh Qc|As 2h 3s 4d 5c 6d 7s 8d||Kd Qs|"
    "Kh Qs Jd Tc|||Qc|Kc Qd Js|Kc Qh Js Th#0#1",
    "Kh* Qh* Qc* 7d* 8h*|Qs Kd Kh 8s Td Tc 9d 9c Jd|Ac 2h 3c 4d 5c 6d 7s|Ad 2c 3d 4c 5h 6s 7h 8s 9h "
    "Ts Jd Qc Kd|Ah 2s 3h 4c 5d 6s 7d 8c 9h Tc Jh|As 2h 3c 4d 5c 6d 7s 8h 9s Th Js Qd Ks|Ac 2d 3s 4h "
    "5s 6h 7c 8d 9s Th Jc|Ad 2s 3h 4s 5d 6c 7h 8c 9d Ts Jh Qs|Ah 2c 3d 4s 5h 6c|As 2d 3s 4h 5s 6h 7c "
    "8d 9c Td Jc Qh Ks|||Kc||Qd Js|Kc||#0#1",
)


@pytest.mark.parametrize("text", TRICKY)
def test_safe_move_rule_keeps_wins_on_tricky_end_games(text):
    assert exhaustive(parse_layout(text), False) is True
    result = zs.SOLVER.solve(text, rules="open")
    assert result.verdict == "solved" and result.verify()


# ---- the free endgame ----------------------------------------------------------------------
def tableau_endgame(rng):
    """Stock and waste empty: cards taken off the full foundations' tops one by one onto random
    piles (an empty one, or one whose top is the other colour and a rank higher)."""
    pool = {c: 2 for c in range(52) if c % 13}
    found = []
    for ace in ACE_ORDER:
        pile = [ace]
        for k in range(2, 14):
            want = col(ace) ^ ((k - 1) & 1)
            c = rng.choice([c for c in pool if pool[c] and rk(c) == k and col(c) == want])
            pool[c] -= 1
            pile.append(c)
        found.append(pile)
    tab = [[] for _ in range(8)]
    for _ in range(rng.randint(1, 60)):
        f = rng.randrange(8)
        if len(found[f]) == 1:
            continue
        c = found[f][-1]
        fits = [t for t in tab if not t or (rk(t[-1]) == rk(c) + 1 and col(t[-1]) != col(c))]
        if fits:
            rng.choice(fits).append(found[f].pop())
    slots = [(), ()] + [tuple((c, True) for c in p) for p in found + tab]
    return Layout(tuple(slots), 0, rng.randint(0, 1))


def test_stock_and_waste_empty_is_always_won_by_the_finishing_drags():
    for seed in range(60):
        layout = tableau_endgame(random.Random(seed))
        state = GAME.from_layout(layout)
        assert state.outcome in (Outcome.ONGOING, Outcome.WON)
        for rules in zs.RULE_MODES:
            result = zs.SOLVER.solve(layout, rules=rules)
            assert result.verdict == "solved" and result.nodes_expanded == 0
            assert len(result.moves) <= 8 and all(2 <= m.dst < 10 for m in result.moves)
            assert result.verify()
            assert all(o == Outcome.ONGOING for o in referee_outcomes(result)[:-1])


# ---- hashing and pruning details -------------------------------------------------------------
def test_hash_merges_suits_pile_order_and_foundation_order_but_not_stock_order():
    state = GAME.deal(5)
    for _ in range(30):
        state.apply(state.legal_moves(distinct=True)[0])
    base = parse_layout(state.layout())
    same = [swap_suits(base, 0, 3), swap_suits(base, 1, 2)]
    piles = list(base.slots[10:])
    same.append(Layout(base.slots[:10] + tuple(piles[::-1]), base.score + 3, base.redeals))
    found = list(base.slots[2:10])
    same.append(Layout(base.slots[:2] + tuple(found[::-1]) + base.slots[10:], 0, base.redeals))
    stock = list(base.slots[0])
    assert len({rk(c) for c, _ in stock}) > 1
    other = [Layout((tuple(stock[1:] + stock[:1]),) + base.slots[1:], base.score, base.redeals),
             Layout(base.slots, base.score, 1 - base.redeals)]
    arr = GAME.from_layout(base).array
    for h in (zs.hash1, zs.hash2):
        assert all(h(GAME.from_layout(x).array) == h(arr) for x in same)
        assert all(h(GAME.from_layout(x).array) != h(arr) for x in other)


def test_pile_order_counts_when_a_pile_is_empty():
    layout = parse_layout(UNSOLVABLE)
    piles = list(layout.slots[10:])
    assert () in piles
    turned = Layout(layout.slots[:10] + tuple(piles[::-1]), layout.score, layout.redeals)
    for h in (zs.hash1, zs.hash2):
        assert h(GAME.from_layout(turned).array) != h(GAME.from_layout(layout).array)


def test_safe_home_move_is_forced_only_from_a_pile_of_two_or_more():
    buf = np.empty(zs.MAX_MOVES, np.int32)
    hits = Counter()
    for seed in range(1, 40):
        state = GAME.deal(seed)
        for _ in range(200):
            a = state.array
            n_open = int(zs.legal_open(a, buf))
            forced = n_open == 1 and Move.from_code(buf[0]).kind == DRAG and \
                2 <= Move.from_code(buf[0]).dst < 10 and Move.from_code(buf[0]).n == 1
            # which piles have a safe top card home?
            safe = []
            for t in range(8):
                h = int(a[zs.TAB_LEN + t])
                c = int(a[zs.TAB + zs.TAB_CAP * t + h - 1]) if h else -1
                if h >= 2 and zs._first_home(a, c) >= 0 and zs._safe_home(a, c):
                    safe.append(t)
            if safe:
                hits["safe"] += 1
                assert forced and Move.from_code(buf[0]).src == 10 + safe[0]
                assert int(zs.legal_aisleriot(a, buf)) == 1
            else:
                assert int(zs.legal_open(a, buf)) == Z.legal_moves(a, buf, 0)
            moves = state.legal_moves(distinct=True)
            if not moves or state.outcome != Outcome.ONGOING:
                break
            state.apply(moves[-1] if seed % 2 else moves[len(moves) // 2])
    assert hits["safe"] >= 10


def test_bad_arguments():
    with pytest.raises(ValueError, match="rule mode"):
        zs.SOLVER.solve(1, rules="strict")
    with pytest.raises(ValueError, match="method"):
        zs.SOLVER.solve(1, method="bfs")
