"""The game-agnostic search core on a toy puzzle whose whole state space is known
(tests/support/toy.py: N tokens, 3-rotations, exactly the even permutations reachable)."""
import math
import types

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import solvers.core.search as core
from rules.registry import get_game
from solvers.core.search import DFS, Limits, search
from solvers.core.table import MAX_LOAD, heap_pop, heap_push, new_table, rehash, tt_find, tt_insert
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import solver_root
from tests.support.toy import (EVEN, MAX_MOVES, N, ODD, plug, replay, toy_apply, toy_child_hashes,
                               toy_heuristic_marking, toy_weak_hash)

METHODS = [("dfs", (1, 1)), ("best-first", (1, 1)), ("best-first", (0, 1)), ("best-first", (1, 3))]


@pytest.mark.parametrize("method,weights", METHODS)
def test_solvable_starts_are_solved_and_replay(method, weights):
    for start in EVEN[::17]:
        r = search(plug(), np.array(start, np.int16), method, weights=weights)
        assert r.verdict == "solved", start
        assert replay(start, r.moves)


def test_child_hashes_change_nothing_but_the_work():
    """A plug's child_hashes (children built only when unseen) gives the same search."""
    for start in EVEN[::41] + ODD[::97]:
        a = search(plug(), np.array(start, np.int16), "dfs")
        b = search(plug(child_hashes=toy_child_hashes), np.array(start, np.int16), "dfs")
        assert (a.verdict, a.moves, a.nodes_expanded) == (b.verdict, b.moves, b.nodes_expanded)
        if a.verdict == "unsolvable":
            assert a.states_stored == b.states_stored
        else:   # the won child ends the expansion; siblings before it may already be stored
            assert 0 <= b.states_stored - a.states_stored < MAX_MOVES


def _rows_reachable_avoiding_marks(start):
    """Rows reachable from ``start`` without expanding a marked row (plain Python BFS)."""
    seen = {tuple(start)}
    todo = [tuple(start)] if start[0] != N - 1 else []
    while todo:
        row = todo.pop()
        for i in range(N - 2):
            nxt = row[:i] + (row[i + 1], row[i + 2], row[i]) + row[i + 3:]
            if nxt not in seen:
                seen.add(nxt)
                if nxt[0] != N - 1:
                    todo.append(nxt)
    return seen


@pytest.mark.parametrize("method,weights,child_hashes",
                         [(m, w, None) for m, w in METHODS] + [("dfs", (1, 1), toy_child_hashes)])
def test_dead_end_heuristic_positions_are_stored_never_expanded(method, weights, child_hashes):
    p = plug(heuristic=toy_heuristic_marking, child_hashes=child_hashes)
    odd = search(p, np.array(ODD[5], np.int16), method, weights=weights)
    assert odd.verdict == "unsolvable"
    reach = _rows_reachable_avoiding_marks(ODD[5])
    assert odd.states_stored == len(reach)
    unmarked = sum(1 for row in reach if row[0] != N - 1)
    if method == "dfs":
        assert odd.nodes_expanded == unmarked
    else:           # weighted A* may expand a row again when it finds a cheaper path to it
        assert odd.nodes_expanded >= unmarked
    dead_root = next(p for p in EVEN if p[0] == N - 1)
    r = search(p, np.array(dead_root, np.int16), method, weights=weights)
    assert r.verdict == "unsolvable" and r.nodes_expanded == 0
    for start in EVEN[::53]:
        r = search(p, np.array(start, np.int16), method, weights=weights)
        if start[0] == N - 1:
            continue
        assert r.verdict == "solved", start
        row = np.array(start, np.int16)
        for m in r.moves[:-1]:
            toy_apply(row, np.int32(m))
            assert row[0] != N - 1, (start, r.moves)     # never through a marked row
        assert replay(start, r.moves)


@pytest.mark.parametrize("method,weights", METHODS)
def test_odd_start_is_proven_unsolvable_after_whole_space(method, weights):
    r = search(plug(), np.array(ODD[5], np.int16), method, weights=weights)
    assert r.verdict == "unsolvable"
    assert r.states_stored == math.factorial(N) // 2  # every reachable position, once


@pytest.mark.parametrize("method", ["dfs", "best-first"])
def test_weak_first_hash_cannot_merge_positions(method):
    """h1 collides on half the space; the second hash keeps positions apart, verdicts hold."""
    p = plug(hash1=toy_weak_hash)
    r = search(p, np.array(ODD[0], np.int16), method)
    assert r.verdict == "unsolvable" and r.states_stored == math.factorial(N) // 2
    r = search(p, np.array(EVEN[-1], np.int16), method)
    assert r.verdict == "solved" and replay(EVEN[-1], r.moves)


@pytest.mark.parametrize("method", ["dfs", "best-first"])
def test_tiny_limits_give_unknown_never_unsolvable(method):
    start = np.array(ODD[3], np.int16)
    r = search(plug(), start, method, max_nodes=5)
    assert r.verdict == "unknown" and r.limit == "nodes"
    r = search(plug(), start, method, max_memory_mb=0.0001)
    assert r.verdict == "unknown" and r.limit == "memory"
    r = search(plug(), start, method, timeout=0.0)
    assert r.verdict in ("unknown", "unsolvable")  # one chunk may finish the tiny space
    assert r.verdict != "unsolvable" or r.limit == ""


def test_astar_finds_optimal_lengths():
    """With an admissible h (misplaced/3 rounded up would be; misplaced is not) use h=0 via wh=0."""
    for start in EVEN[::29]:
        r = search(plug(), np.array(start, np.int16), "best-first", weights=(1, 0))
        # breadth-first distances from the sorted row over inverse moves
        assert len(r.moves) == _bfs_distance(start)


def _bfs_distance(start):
    goal = tuple(range(N))
    seen = {tuple(start): 0}
    frontier = [tuple(start)]
    while frontier:
        nxt = []
        for s in frontier:
            if s == goal:
                return seen[s]
            for i in range(N - 2):
                t = list(s)
                t[i], t[i + 1], t[i + 2] = t[i + 1], t[i + 2], t[i]
                t = tuple(t)
                if t not in seen:
                    seen[t] = seen[s] + 1
                    nxt.append(t)
        frontier = nxt
    raise AssertionError("unreachable")


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(st.integers(1, 2**64 - 1), st.integers(0, 2**64 - 1)), max_size=300))
def test_table_insert_find_rehash(pairs):
    keys, vals = new_table(1 << 10)
    ref = {}
    for h1, h2 in pairs:
        slot = tt_insert(keys, np.uint64(h1), np.uint64(h2))
        assert (slot < 0) == ((h1, h2) in ref)
        if slot >= 0:
            vals[slot] = len(ref)
            ref[(h1, h2)] = len(ref)
    big_keys, big_vals = new_table(1 << 11)
    rehash(keys, vals, big_keys, big_vals)
    for (h1, h2), v in ref.items():
        assert big_vals[tt_find(big_keys, np.uint64(h1), np.uint64(h2))] == v
    assert tt_find(big_keys, np.uint64(12345), np.uint64(999)) == -1 or (12345, 999) in ref


@settings(deadline=None, max_examples=100)
@given(st.lists(st.integers(-2**40, 2**40), min_size=1, max_size=200))
def test_heap_pops_in_order(values):
    hk = np.empty(len(values), np.int64)
    hn = np.empty(len(values), np.int32)
    size = 0
    for i, v in enumerate(values):
        size = heap_push(hk, hn, size, np.int64(v), np.int32(i))
    out = []
    while size:
        out.append((int(hk[0]), values[int(hn[0])]))
        size = heap_pop(hk, hn, size)
    assert [k for k, _ in out] == sorted(values)
    assert all(k == v for k, v in out)


def test_reserve_sizes_the_table_once_and_changes_no_result():
    start = np.array(ODD[5], np.int16)
    plain = DFS(plug(), Limits()).run(start)
    runner = DFS(plug(), Limits())
    runner.reserve(100_000)
    assert runner.vals.shape[0] * MAX_LOAD >= 100_000 > runner.vals.shape[0] * MAX_LOAD / 2
    big = runner.run(start)
    assert (big.verdict, big.states_stored, big.nodes_expanded) == \
        (plain.verdict, plain.states_stored, plain.nodes_expanded)
    tight = DFS(plug(), Limits(max_memory_mb=1))     # the memory limit caps the reservation
    tight.reserve(10**9)
    assert tight.nbytes() <= 2**20


def test_keys_only_table_grows_while_old_and_new_fit_the_limit():
    """A keys-only table doubles when the old and the new table fit the memory limit
    together, not one byte later; the peak stays within the limit."""
    for keys_only in (True, False):
        runner = DFS(PLUGS["open"], Limits(), table_capacity=1 << 12, keys_only=keys_only)
        cap = runner.capacity()
        limit = runner.nbytes() + 2 * cap * runner.SLOT_BYTES
        runner.limits.max_bytes = limit - 1
        assert not runner._grow_table()
        runner.limits.max_bytes = limit
        assert runner._grow_table() == keys_only       # the default keeps one table's margin
        assert runner.nbytes() <= limit


def test_time_limit_stops_within_one_small_call_of_it(monkeypatch):
    """Under a time limit the driver sizes each kernel call by the last call's rate, so a
    search stops at most one call of ``FIRST_CHUNK`` positions after its limit instead of up
    to a whole ``CHUNK`` later.  A fake clock reads 100,000 positions a second."""
    per_node = 1e-5
    runner = DFS(PLUGS["open_class"], Limits(timeout=1.0), keys_only=True, store_dead_ends=False)
    monkeypatch.setattr(core, "time", types.SimpleNamespace(
        perf_counter=lambda: int(runner.ctl[core.C_NODES]) * per_node))
    r = runner.run(solver_root(get_game("yukon").deal(244).array))   # open for many seconds
    assert r.verdict == "unknown" and r.limit == "seconds"
    assert 1.0 <= r.nodes_expanded * per_node <= 1.0 + DFS.FIRST_CHUNK * per_node
