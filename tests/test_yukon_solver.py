"""Yukon solver: solutions replay under the referee in both rule modes, limits give unknown,
unsolvable positions are proven, the pruning rules behave as their proofs say."""
import re

import numpy as np
import pytest
from numba import njit

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
    r = ys.solve(72, max_memory_mb=0.01)          # not even the probes' arrays fit
    assert r.verdict == "unknown" and r.limit == "memory"
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


@pytest.mark.parametrize("seed", [67, 105])
def test_real_deal_proven_unsolvable_by_search(seed):
    """These deals need a real search to refute (the root is no dead end); both modes agree."""
    assert not ys.dead_end(GAME.deal(seed).array)
    for rules in ("open", "aisleriot"):
        r = ys.solve(seed, rules=rules, timeout=30)
        assert r.verdict == "unsolvable", rules
        assert r.nodes_expanded > 100 and r.limit == ""


@pytest.mark.parametrize("seed", [8, 14, 143, 259, 324, 382])
def test_root_dead_end_seed(seed):
    """A blocker has no exit at the deal, so both modes are refuted without search.  Seed 14
    needed a search before the foundation exit required the card itself to be free (a card
    with a stuck card on it cannot go home); 143, 259, 324 and 382 were open after 25-34M
    positions before the twin rule (143: 7D face down on 7H, which lies on 8C)."""
    assert ys.dead_end(GAME.deal(seed).array)
    assert ys.solve(seed).verdict == ys.solve(seed, rules="open").verdict == "unsolvable"


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
    assert ys.legal_open_plain(state.array, buf) == 1
    assert str(Move.from_code(int(buf[0]))) == "drag 6 4 4"
    # The one move is an idle twin move (TH from JC to JS; TD face down, JC cannot go home), so
    # rule 5 drops it in open mode too; the reference search confirms there is no win.
    assert ys.legal_open(state.array, buf) == 0
    assert _run("open-plain", state.array) == "unsolvable"


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


# ---- pruning vs the unpruned reference search ---------------------------------------------
def _random_small_position(rng, max_out, full_piles):
    """Random Yukon position with 6..max_out cards in the tableau (the rest home), random
    face-down prefixes; with ``full_piles`` every pile gets a card first (no empty pile)."""
    while True:
        heights = rng.integers(0, 14, 4)
        if 6 + 7 * full_piles <= 52 - heights.sum() <= max_out:
            break
    cards = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(cards)
    piles = [[] for _ in range(7)]
    for j, c in enumerate(cards):
        piles[j if full_piles and j < 7 else rng.integers(0, 7)].append(c)
    out = []
    for p in piles:
        down = int(rng.integers(0, len(p))) if p else 0
        out.append([(c, i >= down) for i, c in enumerate(p)])
    tops = [s * 13 + heights[s] - 1 if heights[s] else -1 for s in range(4)]
    return yk.array_from_piles(out, tops)


def _run(plug, array, nodes=300_000):
    from solvers.search import DFS, Limits
    r = DFS(ys.PLUGS[plug], Limits(nodes, None, 1000)).run(ys.solver_root(array))
    assert r.verdict != "unknown", plug
    return r.verdict


@pytest.mark.parametrize("full_piles", [False, True])
def test_pruned_search_agrees_with_reference_on_small_positions(full_piles):
    """The dead-end test, the safe-home rule and rule 5 never change a verdict: every small
    random position gets the same answer from the pruned search and from the reference search
    without any of them, in both modes; dead_end only fires on unsolvable positions."""
    rng = np.random.default_rng(7 + full_piles)
    seen = {"solved": 0, "unsolvable": 0, "dead": 0, "dead_new": 0}
    for _ in range(120):
        a = _random_small_position(rng, 20, full_piles)
        ref_open = _run("open-plain", a)
        assert _run("open", a) == ref_open
        if yk.status(a) == yk.ONGOING:
            assert _run("aisleriot", a) == _run("aisleriot-plain", a)
        if ys.dead_end(a):
            assert ref_open == "unsolvable"
            seen["dead"] += 1
            seen["dead_new"] += not ys.dead_end_basic(a)
        assert not ys.dead_end_basic(a) or ys.dead_end(a)   # the new test includes the old one
        seen[ref_open] += 1
    assert min(seen.values()) > 0, seen                     # every case was exercised


def test_pruned_search_agrees_on_endgames_of_real_deals():
    """Positions from real deals: the position 60 moves before the end of a solution, then a
    random walk of 30 legal moves (both modes; open-mode verdicts compared)."""
    rng = np.random.default_rng(3)
    verdicts = []
    for seed in (1, 2, 3, 9):
        r = ys.solve(seed, rules="open")
        st = r.start.copy()
        for m in r.moves[: max(0, len(r.moves) - 60)]:
            st.apply(m)
        for _ in range(30):
            moves = st.legal_moves(distinct=True)
            if not moves:
                break
            st.apply(moves[int(rng.integers(len(moves)))])
        ref = _run("open-plain", st.array, 2_000_000)
        assert _run("open", st.array, 2_000_000) == ref
        verdicts.append(ref)
    assert "solved" in verdicts


def _is_idle_lateral(a, code):
    """Rule 5's condition, recomputed in plain Python from the layout."""
    m = Move.from_code(code)
    s, n = m.src, m.n
    h, down = int(a[yk.HEIGHT + s - 1]), int(a[yk.DOWN + s - 1])
    i = h - n
    if m.dst in (0, 8, 9, 10) or i - 1 != down or a[yk.HEIGHT + m.dst - 1] == 0:
        return False
    pile = [int(x) for x in a[(s - 1) * yk.CAP:(s - 1) * yk.CAP + h]]
    c, u = pile[i], pile[i - 1]
    red = lambda x: x // 13 in (1, 2)  # noqa: E731
    home = {x // 13: x % 13 + 1 for x in a[yk.FOUND:yk.FOUND + 4] if x >= 0}
    if home.get(u // 13, 0) + 1 == u % 13 + 1:
        return False
    fits = lambda x, y: red(x) != red(y) and x % 13 + 1 == y % 13  # noqa: E731  x onto y
    needed = ({x for x in range(52) if fits(x, u)} - {c}) | {x for x in range(52) if fits(u, x)}
    face_up = {int(a[p * yk.CAP + j]) for p in range(7)
               for j in range(int(a[yk.DOWN + p]), int(a[yk.HEIGHT + p]))}
    return not (needed & face_up)


def test_rule5_drops_exactly_the_idle_lateral_moves():
    """Open mode lists the reference moves minus rule 1's duplicate King moves and rule 5's idle
    lateral moves (unless the safe-home rule forces one move, or the position is a dead end);
    aisleriot mode never applies rule 5."""
    rng = np.random.default_rng(11)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    dropped = 0
    for _ in range(300):
        a = _random_small_position(rng, 30, True)
        ref = set(int(c) for c in buf[:ys.legal_open_plain(a, buf)])
        got = set(int(c) for c in buf[:ys.legal_open(a, buf)])
        if ys.dead_end(a) or (len(got) == 1 and Move.from_code(next(iter(got))).dst in (0, 8, 9, 10)):
            continue
        assert got <= ref
        for code in ref - got:
            assert _is_idle_lateral(a, code), str(Move.from_code(code))
            dropped += 1
        for code in got:
            assert not _is_idle_lateral(a, code)
        if yk.status(a) == yk.ONGOING:
            assert set(int(c) for c in buf[:ys.legal_aisleriot(a, buf)]) == \
                set(int(c) for c in buf[:ys.legal_aisleriot_plain(a, buf)])
    assert dropped >= 5


def test_open_first_decides_aisleriot_mode():
    """Seed 41: refuted by the dead-end test; seed 67 needs a search.  Aisleriot mode gives the
    open-mode verdict without a second search (same node count as the open search)."""
    for seed in (67, 41):
        ro, ra = ys.solve(seed, rules="open"), ys.solve(seed)
        assert ro.verdict == ra.verdict == "unsolvable"
        assert ra.nodes_expanded == ro.nodes_expanded


def test_never_lost_checks_aisleriot_predicate():
    r = ys.solve(2)
    assert ys.never_lost(r.start.array, [m.code for m in r.moves])
    lost = GAME.from_layout(_lay(
        "AH | KC | 4H* 7D KS KD 8C 2H AC 3S | QD* 3C* 6H 5C 4D 5H 8D 7S 8H 7C | 4C* 5S* JD* 2S JS"
        " | TD* KH QS JH TS | 6D* QC* 2C* 6C* JC TH 9C AS 4S | 3H* QH* 9D* 9H* 8S 7H 6S 5D 9S TC"
        " | | | AD 2D 3D"))
    assert ys.never_lost(lost.array, []) and not ys.never_lost(lost.array, [lost.legal_moves()[0].code])


def test_solver_moves_equal_engine_solver_moves():
    """The solver's per-destination generator lists exactly the engine's faithful=0 set."""
    rng = np.random.default_rng(5)
    b1, b2 = np.empty(yk.MAX_MOVES, np.int32), np.empty(yk.MAX_MOVES, np.int32)
    checked = 0
    for seed in range(1, 41):
        st = GAME.deal(seed)
        for _ in range(120):
            n1, n2 = yk.legal_moves(st.array, b1, 0), ys.solver_moves(st.array, b2)
            assert sorted(b1[:n1]) == sorted(b2[:n2]), (seed, str(st.layout()))
            checked += 1
            if n1 == 0:
                break
            st.apply(Move.from_code(int(b1[rng.integers(n1)])))
    for _ in range(300):                             # positions with empty piles and foundations
        a = _random_small_position(rng, 40, False)
        n1, n2 = yk.legal_moves(a, b1, 0), ys.solver_moves(a, b2)
        assert sorted(b1[:n1]) == sorted(b2[:n2])
    assert checked > 2000


@njit
def _dead_end_without_twin_rule(a):
    under = np.zeros(64, np.int64)
    s = ys._blocker_scan(a, under)
    return ys._stuck_for_ever(s[0], s[1], s[2], s[3], s[4], np.uint64(0), s[6], under)


@njit
def _fixpoint_dead_end(a):
    """dead_end without the twin-pair rule."""
    under = np.zeros(64, np.int64)
    s = ys._blocker_scan(a, under)
    return ys._stuck_set(s[0], s[1], s[2], s[3], s[4], s[5], s[6], under,
                         ~np.uint64(0))[0] != np.uint64(0)


def _plant_twin(rng, a):
    """Swap two tableau cards so that a random face-down blocker gets its twin above it, among
    the face-down cards or as the lowest face-up card; False if the position has no
    face-down blocker with a card on it (or it is a King, or its twin is home)."""
    spots = [(p, i) for p in range(7) for i in range(1, min(int(a[yk.DOWN + p]),
                                                              int(a[yk.HEIGHT + p]) - 1))]
    if not spots:
        return False
    p, i = spots[rng.integers(len(spots))]
    at = yk.TAB + p * yk.CAP + i
    if a[at] % 13 == 12:
        return False
    to = at + int(rng.integers(1, int(a[yk.DOWN + p]) - i + 1))
    twin = ys._twin(int(a[at]))
    for q in range(7):
        base = yk.TAB + q * yk.CAP
        for j in range(base, base + int(a[yk.HEIGHT + q])):
            if a[j] == twin:
                a[j], a[to] = a[to], a[j]
                return True
    return False


def test_twin_rule_fires_only_on_unsolvable_positions():
    """Small random positions with a face-down card under its twin: whenever the twin rule
    turns a position into a dead end, the reference search (no pruning) finds no win."""
    rng = np.random.default_rng(2)
    planted = fired = 0
    for _ in range(12000):
        a = _random_small_position(rng, 22, bool(rng.integers(2)))
        if not _plant_twin(rng, a):
            continue
        planted += 1
        assert bool(ys.dead_end(a)) == bool(ys.dead_end_sweep(a)), str(GAME.array_to_layout(a))
        if ys.dead_end(a) and not _dead_end_without_twin_rule(a):
            fired += 1
            assert _run("open-plain", a) == "unsolvable", str(GAME.array_to_layout(a))
    assert planted > 2000 and fired > 30, (planted, fired)


def test_twin_pair_rule_fires_only_on_unsolvable_positions():
    """Whenever the twin-pair rule alone makes a small random position a dead end, the
    reference search (no pruning) finds no win; the mask form agrees with the sweep, which
    builds the two positions.  (A first version without the check that q cannot go home
    first failed this kind of test: Jc could go home instead of taking Td.)"""
    rng = np.random.default_rng(9)
    fired = 0
    for _ in range(40000):
        a = _random_small_position(rng, 34, bool(rng.integers(2)))
        dead = bool(ys.dead_end(a))
        assert dead == bool(ys.dead_end_sweep(a)), str(GAME.array_to_layout(a))
        if dead and not _fixpoint_dead_end(a):
            fired += 1
            assert _run("open-plain", a, 3_000_000) == "unsolvable", str(GAME.array_to_layout(a))
    assert fired > 30, fired


def test_dead_end_equals_reference_sweep():
    """The mask-and-worklist dead_end computes the same fixpoint as the plain sweep, on random
    playouts of real deals and on random small positions (empty piles, foundations)."""
    rng = np.random.default_rng(11)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    seen = {True: 0, False: 0}
    for seed in range(1, 61):
        a = GAME.deal(seed).array.copy()
        for _ in range(80):
            got = bool(ys.dead_end(a))
            assert got == bool(ys.dead_end_sweep(a)), (seed, str(GAME.array_to_layout(a)))
            seen[got] += 1
            n = ys.solver_moves(a, buf)
            if n == 0:
                break
            yk.apply(a, buf[rng.integers(n)])
    for _ in range(2000):
        a = _random_small_position(rng, int(rng.integers(20, 52)), bool(rng.integers(2)))
        assert bool(ys.dead_end(a)) == bool(ys.dead_end_sweep(a)), str(GAME.array_to_layout(a))
    assert seen[True] > 100 and seen[False] > 1000


def test_salt_word_changes_ordering_only():
    """The probe salt is outside the rules state: hashes, moves and the plain heuristic ignore
    it; with a salt the heuristic is NOISE_SCALE*h plus noise below NOISE_AMP."""
    a = GAME.deal(3).array
    root = ys.solver_root(a)
    buf1, buf2 = np.empty(yk.MAX_MOVES, np.int32), np.empty(yk.MAX_MOVES, np.int32)
    h = ys.heuristic(root)
    assert h == ys.heuristic(a) == ys.score(a) == ys.score(root)
    salted = root.copy()
    for salt in (1, 2, 977):
        salted[ys.SALT] = salt
        assert ys.hash1(salted) == ys.hash1(root) and ys.hash2(salted) == ys.hash2(root)
        n = ys.legal_open(salted, buf1)
        assert n == ys.legal_open(root, buf2) and list(buf1[:n]) == list(buf2[:n])
        assert 0 <= ys.heuristic(salted) - ys.NOISE_SCALE * h < ys.NOISE_AMP


@pytest.mark.parametrize("seed", [72, 87, 181])
def test_probe_solutions_replay(seed):
    """Deals the plain depth-first order finds hard (no verdict in 200,000 nodes) are solved
    by the randomized probes in both modes; the solutions replay under the referee."""
    from solvers.search import DFS, Limits
    plain = DFS(ys.PLUGS["open"], Limits(200_000, None, 1000)).run(ys.solver_root(GAME.deal(seed).array))
    assert plain.verdict == "unknown"
    for rules in ("open", "aisleriot"):
        r = ys.solve(seed, rules=rules, timeout=30)
        assert r.verdict == "solved" and r.verify() is True
        assert r.nodes_expanded < ys.LEAD_NODES + ys.PROBES * ys.PROBE_NODES


def test_stored_pile_words_match_recomputed_hashes_and_heuristic():
    """The solver state's per-pile words, updated by the plug's apply move by move, give the
    same hashes and heuristic as computing them from the rules state from scratch."""
    rng = np.random.default_rng(3)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    checked = 0
    for seed in range(1, 31):
        st = ys.solver_root(GAME.deal(seed).array)
        for _ in range(100):
            rules_part = np.ascontiguousarray(st[:ys.STATE_SIZE])
            assert ys.hash1(st) == ys.hash1(rules_part) and ys.hash2(st) == ys.hash2(rules_part)
            # the search heuristic (one pass, stored pile scores) is the plain score, or
            # DEAD_END exactly on dead ends
            want = ys.DEAD_END if ys.dead_end(rules_part) else ys.score(rules_part)
            assert ys.heuristic(st) == ys.heuristic(rules_part) == want
            checked += 1
            n = ys.solver_moves(st, buf)
            if n == 0:
                break
            ys.apply(st, buf[rng.integers(n)])
    assert checked > 1500


def test_child_hashes_equal_hashes_of_the_built_child():
    """child_hashes (the depth-first search hashes children before building them) gives the
    hashes of the child the plug's apply builds, for every solver move of random playouts
    and of random small positions (empty piles, foundations, flips)."""
    rng = np.random.default_rng(11)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    out = np.empty(2, np.uint64)
    checked = 0

    def check_all(st):
        nonlocal checked
        n = ys.solver_moves(st, buf)
        for code in buf[:n]:
            kid = st.copy()
            ys.apply(kid, code)
            ys.child_hashes(st, code, out, 0)
            assert (out[0], out[1]) == (ys.hash1(kid), ys.hash2(kid)), \
                (str(GAME.array_to_layout(st[:ys.STATE_SIZE])), str(Move.from_code(int(code))))
            checked += 1
        return n

    for seed in range(1, 41):
        st = ys.solver_root(GAME.deal(seed).array)
        for step in range(80):
            if step % 2:
                ys._refresh(st)            # stored sums (as in the search) or stale piles
            n = check_all(st)
            if n == 0:
                break
            ys.apply(st, buf[rng.integers(n)])
    for _ in range(300):
        check_all(ys.solver_root(_random_small_position(rng, 40, False)))
    assert checked > 10000
