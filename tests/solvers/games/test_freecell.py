"""Freecell solver: replayed solutions, proofs of unsolvability, limits, canonical hashing, and
the fused kernel's incremental pieces against their whole-position forms."""
import copy
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules import freecell as fc
from rules import get_game
from rules.moves import DBL, DRAG, Move
from rules.referee.freecell import Referee
from solvers import get_solver
from solvers.core.solver import check_limits
from solvers.games.freecell import SOLVER, ms_deal_array, replay_atomic
from solvers.games.freecell import plug as fp
from solvers.games.freecell.batch import batchable, first_search, solve_batch
from solvers.games.freecell.columns import col_share
from solvers.games.freecell.fused import FreecellBestFirst
from solvers.games.freecell.moves import apply_child, drag_to_row, need_bits, need_mask
from solvers.games.freecell.portfolio import METHODS, Portfolio
from solvers.games.freecell.rows import REC
from solvers.games.freecell.solver import referee_atomic_length
from solvers.core.result import SOLVED, SolutionError, SolveResult
from solvers.core.search import DFS, BestFirst, Limits
from tests.support import freecell_reference as ref

GAME = get_game("freecell")
HEURISTIC_WEIGHTS = (fp.HW_MAIN, fp.HW_BREAKS, fp.HW_SHORT, fp.HW_SHORT_BREAKS, fp.HW_MAIN_BREAKS,
                     fp.HW_NO_BURIED, fp.HW_CELLS)

# Found by random construction (three Kings in the cells, Aces and 2s at the bottom): no win is
# reachable.  Reachable canonical positions: 61 and 670.
STUCK_61 = ("Kc|Kd|Kh||||||Ac 2c 9s 4s Qs 3c 4c Qd|Ad 2d Th Jd Jh Td 3d|Ah 2h 7h 8d 6h 5h 3s|"
            "As 2s 9h 7d Jc 7c 9d|Tc Ks 5c 4d 4h|5s 6c 3h 8s 9c|Ts 5d Js 7s Qc|6s 8h Qh 6d 8c#0#0")
STUCK_670 = ("Kc|Kd|Kh||||||Ac 2c 6c Qs 7s 5c 9s 8c|Ad 2d 3h Jd 6h 7c Th|Ah 2h 4c 5s 8d Tc Jc|"
             "As 2s 7d 9d 3c 5d Td|6s 9c Qh Js 8s|5h 7h 4s 4h 8h|3s Qd Ts 4d Jh|6d Qc Ks 9h 3d#0#0")

# From a random playout of a Microsoft deal: winnable, but not with the search move set alone.
NEEDS_EVERY_MOVE = ("6d|8s|4d|Qs|Ah 2h 3h|As 2s 3s|||8h 9c Ks Ad Qd Js|Ts 8c 7d 7s 4s 9d 5s 4h 3c 2d|"
                    "3d 7h Jd 7c 6h|Th Qh Jh 8d Kc 9h|5c Kd Jc Td 9s|6c Ac Qc 6s 5h|Tc Kh 2c|5d 4c#6#0")


def _deal(n):
    return GAME.deal(n, numbering="microsoft").array


def test_the_registry_returns_this_solver():
    assert get_solver("freecell") is SOLVER
    assert SOLVER.METHODS == ("fast", "astar", "short", "greedy", "dfs")
    assert SOLVER.default_method == "fast" and SOLVER.RULE_MODES == ("aisleriot", "open")
    assert set(METHODS) == set(SOLVER.METHODS)


@pytest.mark.parametrize("deal", [1, 2, 3, 617, 1941, 31465])
def test_fast_solutions_replay_under_the_referee(deal):
    r = SOLVER.solve(deal)
    assert r.verdict == "solved" and r.method == "fast"
    assert r.verify() is True
    assert all(isinstance(m, Move) for m in r.moves)
    # the faithful engine accepts every move too, and ends won
    s = GAME.deal(deal, numbering="microsoft")
    for m in r.moves:
        s.apply(m)
    assert s.is_won()
    assert r.atomic_length >= 52
    codes = np.array([m.code for m in r.moves], np.int32)
    assert r.atomic_length == replay_atomic(r.start.array, codes)


@pytest.mark.parametrize("method", ["astar", "short", "greedy", "dfs"])
def test_other_methods_solve_and_replay(method):
    for deal in (5, 100):
        r = SOLVER.solve(deal, method=method)
        assert r.verdict == "solved" and r.verify() and r.method == method


def test_both_rule_modes_run_the_same_search():
    a = SOLVER.solve(617, rules="aisleriot")
    b = SOLVER.solve(617, rules="open")
    assert (a.moves, a.nodes_expanded, a.states_stored) == (
        b.moves, b.nodes_expanded, b.states_stored)
    assert b.rules == "open" and b.verify()


def test_batch_of_deals_all_solved_and_verified():
    results = SOLVER.solve_many(range(1, 41))
    assert [r.verdict for r in results] == ["solved"] * 40
    assert all(r.verify() for r in results)
    assert [r.deal for r in results] == list(range(1, 41))


def test_ms_11982_is_proven_unsolvable():
    r = SOLVER.solve(11982, method="dfs")
    assert r.verdict == "unsolvable", r.summary()
    assert r.limit == ""


@pytest.mark.parametrize("layout,count", [(STUCK_61, 61), (STUCK_670, 670)])
def test_constructed_position_proven_unsolvable_by_every_method(layout, count):
    start = GAME.from_layout(layout)
    for method in SOLVER.METHODS:
        r = SOLVER.solve(start, method=method)
        assert r.verdict == "unsolvable", (method, r.summary())
        assert r.states_stored == count  # the whole reachable canonical space, once


def _canon(referee):
    slots = referee.slots
    cells = tuple(sorted(s[0] for s in slots[0:4] if s))
    homes = tuple(sorted(len(s) and (s[-1] // 13, len(s)) for s in slots[4:8] if s))
    cols = tuple(sorted(tuple(s) for s in slots[8:16]))
    return cells, homes, cols


def test_a_search_over_the_search_move_set_that_runs_out_decides_nothing():
    """The fused searches' move set leaves out moves winning lines seldom need: when one runs
    out of positions, every method still finds the win over all solver moves."""
    start = GAME.from_layout(NEEDS_EVERY_MOVE)
    pruned = FreecellBestFirst(fp.HW_MAIN, Limits(), (1, 1)).run(start.array)
    assert pruned.verdict == "unsolvable"
    for method in SOLVER.METHODS:
        r = SOLVER.solve(start, method=method)
        assert r.verdict == "solved" and r.verify(), method


def test_a_card_taken_back_off_a_foundation_counts_as_the_referee_counts_it():
    """The proof search's moves include the homecell ``dbl``; here its win uses one, and the
    atomic length counts that card's move out and its move back."""
    start = GAME.from_layout(NEEDS_EVERY_MOVE)
    found = DFS(fp.plug("complete"), Limits()).run(start.array)
    moves = [Move.from_code(c) for c in found.moves]
    assert found.verdict == "solved"
    assert any(m.kind == DBL and fc.FIRST_HOME <= m.src < fc.FIRST_COL for m in moves)
    result = SolveResult(SOLVED, moves, start=start)
    assert SOLVER.atomic_length(start, moves) == referee_atomic_length(result)


def test_reachable_space_matches_an_independent_referee_search():
    """Breadth-first over the referee's actions (minus the homecell dbl quirk, which the solver
    drops, see docs/freecell.md), canonicalised in Python: same count, no win."""
    start = GAME.from_layout(STUCK_61)
    referee = Referee(GAME.array_to_layout(start.array))
    seen = {_canon(referee)}
    frontier = [referee]
    while frontier:
        nxt = []
        for r in frontier:
            for a in r.legal_actions():
                if a.startswith("dbl ") and 4 <= int(a.split()[1]) < 8:
                    continue
                child = copy.deepcopy(r)
                child.apply(a)
                assert not child.won()
                key = _canon(child)
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
    assert len(seen) == SOLVER.solve(start, method="dfs").states_stored == 61


@pytest.mark.parametrize("method", SOLVER.METHODS)
def test_tiny_limits_give_unknown(method):
    r = SOLVER.solve(11982, method=method, max_nodes=10)
    assert r.verdict == "unknown" and r.limit == "nodes" and r.nodes_expanded <= 10
    r = SOLVER.solve(11982, method=method, timeout=1e-9)
    assert r.verdict == "unknown" and r.limit == "seconds"
    r = SOLVER.solve(11982, method=method, max_memory_mb=0.5)
    assert r.verdict == "unknown" and r.limit == "memory"
    with pytest.raises(SolutionError):
        r.verify()


@pytest.mark.parametrize("n", [1, 2, 617, 11982, 32000, 1000000, 2**31 - 1])
def test_ms_deal_kernel_matches_rules_deals(n):
    out = np.empty(fc.STATE_SIZE, np.int16)
    ms_deal_array(n, out)
    assert np.array_equal(out, _deal(n))


def test_verify_rejects_a_tampered_solution():
    r = SOLVER.solve(1)
    r.atomic_length += 1                                   # the referee counts otherwise
    with pytest.raises(SolutionError, match="atomic length"):
        r.verify()
    r = SOLVER.solve(1)
    r.moves = r.moves[:-1]
    with pytest.raises(SolutionError):
        r.verify()


def _random_position(seed, plies):
    rng = np.random.default_rng(seed)
    s = GAME.deal(int(rng.integers(1, 32001)), numbering="microsoft")
    for _ in range(plies):
        moves = s.legal_moves(distinct=True)
        if not moves:
            break
        s.apply(moves[int(rng.integers(len(moves)))])
    return s


def _shuffled(array, rng):
    """The same canonical position: free cells, homecells and columns permuted."""
    a = array.copy()
    cells = a[fc.FREE:fc.FREE + 4].copy()
    a[fc.FREE:fc.FREE + 4] = cells[rng.permutation(4)]
    homes = a[fc.HOME:fc.HOME + 4].copy()
    a[fc.HOME:fc.HOME + 4] = homes[rng.permutation(4)]
    perm = rng.permutation(8)
    cols = a[fc.COLS:].reshape(8, fc.COL_WIDTH).copy()
    heights = a[fc.HEIGHT:fc.HEIGHT + 8].copy()
    a[fc.COLS:] = cols[perm].reshape(-1)
    a[fc.HEIGHT:fc.HEIGHT + 8] = heights[perm]
    return a


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2**31), st.integers(0, 60))
def test_both_hashes_are_canonical_and_see_real_changes(seed, plies):
    s = _random_position(seed, plies)
    rng = np.random.default_rng(seed + 1)
    b = _shuffled(s.array, rng)
    assert fp.hash1(b) == fp.hash1(s.array) and fp.hash2(b) == fp.hash2(s.array)
    assert fp.heuristic(b) == fp.heuristic(s.array)
    for m in s.legal_moves(distinct=True)[:5]:
        c = s.array.copy()
        fp.apply(c, np.int32(m.code))
        # every solver move changes the canonical position, and both hashes see it
        assert fp.hash2(c) != fp.hash2(s.array) and fp.hash1(c) != fp.hash1(s.array)


def test_unsolvable_proofs_are_rechecked_with_the_homecell_double_click():
    """The proof search adds ``dbl`` of homecells (left out of the fast searches)."""
    s = GAME.from_layout("||||Ac 2c 3c 4c 5c 6c 7c 8c 9c|Ad 2d 3d 4d 5d 6d 7d 8d 9d|"
                         "Ah 2h 3h 4h 5h 6h 7h 8h 9h|As 2s 3s 4s||Js|Qc Ts|Td Tc Jh|Kd|Ks|Qd Th|"
                         "Jc Kc Kh Jd Qh Qs 9s 8s 7s 6s 5s#31#0")
    buf = np.empty(fc.MAX_MOVES, np.int32)
    listed = {str(Move.from_code(c)) for c in buf[:fp.legal_complete(s.array, buf)]}
    assert {"dbl 4", "dbl 5", "dbl 6", "dbl 7"} <= listed
    listed_fast = {str(Move.from_code(c)) for c in buf[:fp.legal(s.array, buf)]}
    assert not any(m.startswith("dbl") for m in listed_fast)
    r = SOLVER.solve(GAME.from_layout(STUCK_61))
    assert r.verdict == "unsolvable" and r.nodes_expanded >= 2 * 61  # both searches ran


# ---- the fused best-first kernel's fast paths must equal the engine's kernels ---------------
def _playout_positions(seed, plies):
    """A deal (Microsoft or Aisleriot numbering) and the positions of a random playout."""
    rng = np.random.default_rng(seed)
    if seed % 2:
        s = GAME.deal(int(rng.integers(1, 10**6)), numbering="aisleriot")
    else:
        s = GAME.deal(int(rng.integers(1, 32001)), numbering="microsoft")
    a = s.array.copy()
    buf = np.empty(fc.MAX_MOVES, np.int32)
    out = [(a.copy(), False)]  # (position, produced by an action = autoplay fixpoint)
    for _ in range(plies):
        n = fc.legal_moves(a, buf, 0)
        if n == 0:
            break
        fc.apply(a, buf[int(rng.integers(n))])
        out.append((a.copy(), True))
    return out


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 2**31), st.integers(0, 120))
def test_fast_move_generation_and_apply_equal_the_engine(seed, plies):
    buf = np.empty(fc.MAX_MOVES, np.int32)
    buf2 = np.empty(fc.MAX_MOVES, np.int32)
    for a, fixpoint in _playout_positions(seed, plies):
        n = fc.legal_moves(a, buf, 0)
        n2 = ref.legal_fast(a, buf2)
        assert n2 == n and list(buf2[:n2]) == list(buf[:n])  # same moves, same order
        n3 = ref.legal_fast(a, buf2, True)
        assert list(buf2[:n3]) == ref.search_move_set(a, list(buf[:n]))
        for m in buf[:n]:
            want = a.copy()
            fc.apply(want, m)
            got = a.copy()
            ref.apply_fast(got, m)
            assert np.array_equal(got, want)
            if fixpoint:
                got = a.copy()
                apply_child(got, m, True)
                assert np.array_equal(got, want)
            src, k, dst = (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF
            home = range(fc.FIRST_HOME, fc.FIRST_COL)
            if (m >> 24) == DRAG and src not in home and dst not in home and \
                    np.array_equal(want[fc.HOME:fc.HOME + 4], a[fc.HOME:fc.HOME + 4]):
                # a drag that sends nothing home, as the fused kernel writes a simple child
                row = np.zeros((1, REC), np.int8)
                drag_to_row(row, 0, a.astype(np.int8), src, k, dst)
                assert np.array_equal(row[0, :fc.STATE_SIZE], want.astype(np.int8))


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2**31), st.integers(0, 120))
def test_heuristic_and_hashes_by_column_equal_the_whole_position_versions(seed, plies):
    a = _playout_positions(seed, plies)[-1][0]
    need = ref.need_ranks(a)
    mask = need_mask(need_bits(a))
    for hw in HEURISTIC_WEIGHTS:
        w = np.array(hw, np.int64)
        shares = [ref.col_share_by_need(a, c, need, w) for c in range(8)]
        assert ref.heuristic_from_shares(a, shares, w) == fp.weighted_heuristic(a, *hw)
        assert [col_share(a, c, mask, w) for c in range(8)] == shares
    b = _shuffled(a, np.random.default_rng(seed))
    assert ref.zhashes(a) == ref.zhashes(b)  # canonical
    buf = np.empty(fc.MAX_MOVES, np.int32)
    for m in buf[:fp.legal(a, buf)][:6]:
        c = a.copy()
        fp.apply(c, m)
        z1, z2 = ref.zhashes(c)
        assert z1 != ref.zhashes(a)[0] and z2 != ref.zhashes(a)[1]


@pytest.mark.parametrize("deal", [3, 617])
def test_fused_kernel_searches_exactly_like_the_generic_core(deal):
    """Same heuristic, same weights, same moves: the same nodes, stored states and moves (the
    fused kernel only computes the same things faster)."""
    start = _deal(deal)
    a = BestFirst(fp.plug("main"), Limits(), (1, 1)).run(start)
    b = FreecellBestFirst(fp.HW_MAIN, Limits(), (1, 1), pruned=False).run(start)
    assert a.verdict == b.verdict == "solved"
    assert (a.nodes_expanded, a.states_stored, a.moves) == (
        b.nodes_expanded, b.states_stored, b.moves)


def test_portfolio_node_limit_covers_all_members():
    pf = METHODS["fast"]
    assert isinstance(pf, Portfolio) and len(pf.members) >= 2
    n = sum(pf.first) - pf.first[-1] // 2  # the last member gets half a slice
    r = SOLVER.solve(11982, max_nodes=n)
    assert r.verdict == "unknown" and r.limit == "nodes" and r.nodes_expanded == n


def test_portfolio_finds_what_a_single_heuristic_finds_slowly():
    """MS 24106 costs a fixed pair of searches millions of nodes; the portfolio far less."""
    r = SOLVER.solve(24106, max_nodes=200000)
    assert r.verdict == "solved" and r.verify()


def test_runner_reset_leaves_an_empty_table():
    """reset empties the table slot by slot from the rows (or replaces it after growth)."""
    r = FreecellBestFirst(fp.HW_MAIN, Limits(), (1, 1))
    for deal, limit in ((1, None), (617, None), (24106, 30000), (2, None)):
        res = r.reset(Limits(limit)).run(_deal(deal))
        assert res.verdict in ("solved", "unknown")
        assert np.count_nonzero(r.tt[0::3]) == res.states_stored
        r.reset(Limits())
        assert not r.tt.any()
        again = r.run(_deal(deal)) if limit is None else None
        if again is not None:  # a reused runner searches exactly as a fresh one
            assert (again.nodes_expanded, again.moves) == (res.nodes_expanded, res.moves)


def _same(a, b):
    return (a.verdict, [str(m) for m in a.moves], a.nodes_expanded, a.states_stored,
            a.atomic_length) == (b.verdict, [str(m) for m in b.moves], b.nodes_expanded,
                                 b.states_stored, b.atomic_length)


@pytest.mark.parametrize("method", ["fast", "short"])
def test_solve_many_batch_kernel_gives_what_solve_gives(method):
    """solve_many runs a method's first fused search (fast: the first member's first slice;
    short: its own search's first slice, 5,000 nodes) many deals to a call and resumes the
    others: same results.  285 and 829 need more than short's first slice, 1941 and 24106
    fast's later rounds."""
    deals = list(range(1, 161)) + [1941, 24106, 11982, 617, 285, 829]
    assert batchable(method, check_limits())
    many = SOLVER.solve_many(deals, method=method)
    for d, r in zip(deals, many):
        one = SOLVER.solve(d, method=method)
        assert r.deal == d and _same(r, one), d
        if r.verdict == "solved":
            assert r.verify()
    assert [r.verdict for r in many].count("unsolvable") == 1
    assert any(r.nodes_expanded > first_search(method)[3] and r.solved for r in many)   # resumed
    # small chunks: a chunk may run out of room for paths and go on in the next call
    chunked = list(solve_batch(deals, method, check_limits(), chunk=64))
    assert [i for i, _, _ in chunked] == list(range(len(deals)))
    for (_, raw, _), r in zip(chunked, many):
        assert (raw.verdict, raw.nodes_expanded, raw.states_stored) == (
            r.verdict, r.nodes_expanded, r.states_stored)
        assert [Move.from_code(c) for c in raw.moves] == r.moves


def test_short_goes_on_beside_the_fast_members_after_its_first_slice():
    """``short`` is a portfolio: its own search alone for its first slice, then round-robin
    with ``fast``'s members.  285 and 829 need more than that slice; MS 1,000,247 is a deal
    ``fast``'s members find hard (254,973 nodes) and ``short``'s own search wins in 15,492,
    so it is won well before ``fast`` would win it."""
    first = METHODS["short"].first[0]
    for deal in (285, 829):
        r = SOLVER.solve(deal, method="short")
        assert r.solved and r.verify() and r.nodes_expanded > first
    hard = SOLVER.solve(1000247, method="short")
    assert hard.solved and hard.verify()
    assert hard.nodes_expanded < SOLVER.solve(1000247).nodes_expanded / 3
    capped = SOLVER.solve(285, method="short", max_nodes=first + 100)        # limits shared
    assert capped.verdict == "unknown" and capped.nodes_expanded == first + 100


def test_limits_a_first_slice_could_break_go_deal_by_deal():
    tiny = SOLVER.solve_many([1, 2], max_nodes=10)
    assert [r.verdict for r in tiny] == ["unknown", "unknown"]
    assert [r.nodes_expanded for r in tiny] == [10, 10]
    assert not batchable("greedy", check_limits())          # no first search with a budget
    other = SOLVER.solve_many([3, 4], method="greedy")
    assert all(_same(r, SOLVER.solve(d, method="greedy")) for d, r in zip((3, 4), other))


def test_solve_columns_of_microsoft_deals_take_the_batch_path():
    seeds = np.array([1, 2, 3, 11982, 5], dtype=np.int64)
    cols = SOLVER.solve_columns(seeds, "microsoft", {}, "aisleriot", check_limits())
    for i, seed in enumerate(seeds.tolist()):
        one = SOLVER.solve(seed)
        assert cols["seed"][i] == seed
        assert cols["nodes"][i] == one.nodes_expanded
        assert cols["length"][i] == (len(one.moves) if one.solved else -1)
    # Aisleriot seeds go deal by deal
    cols = SOLVER.solve_columns(seeds[:2], "aisleriot", {}, "open", check_limits())
    for i, seed in enumerate(seeds[:2].tolist()):
        one = SOLVER.solve(GAME.deal(seed, numbering="aisleriot"))
        assert cols["nodes"][i] == one.nodes_expanded


REFCOUNT_SCRIPT = textwrap.dedent(r"""
    import json
    import re
    from rules import get_game
    from solvers.games.freecell import fused
    from solvers.games.freecell.plug import HW_MAIN
    from solvers.core.search import Limits

    fused.FreecellBestFirst(HW_MAIN, Limits(), (1, 1)).run(get_game("freecell").deal(617).array)
    # the kernel's module: its code and that of every helper it calls and did not inline,
    # optimised together (a helper's own module skips that pass, rules/_jit.py)
    (kernel,) = fused.fc_best_first.inspect_llvm().values()
    defined = {m.group(1): m.start() for m in re.finditer(r'\ndefine [^\n]*@"?([^"(\s]+)"?\(', kernel)}
    counts = {}
    for name, obj in vars(fused).items():
        if hasattr(obj, "overloads") and obj.__module__ == fused.__name__:
            for result in obj.overloads.values():
                start = defined.get(result.fndesc.mangled_name)
                if start is not None:               # (a helper inlined everywhere has none)
                    own = kernel[start:kernel.index("\n}", start)]
                    counts[name] = counts.get(name, 0) + own.count("@NRT_incref(")
    print(json.dumps(counts))
""")


@pytest.mark.slow
def test_the_fused_kernels_helpers_update_no_reference_counts(tmp_path):
    """Compiled afresh, no helper the kernel calls per node or per child updates a reference
    count of its array arguments (solvers/games/freecell/inlining.py says why that matters)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", REFCOUNT_SCRIPT], capture_output=True,
                          text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    counts = json.loads(proc.stdout)
    assert {"fc_best_first", "_lift", "_drop", "_shares_after_home"} <= set(counts)
    once_per_call = {"fc_best_first", "_start"}     # (with the helpers they inline)
    assert {name: n for name, n in counts.items() if n and name not in once_per_call} == {}
