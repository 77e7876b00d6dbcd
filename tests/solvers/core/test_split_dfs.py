"""Depth-first search continued on several threads (solvers/core/split_dfs.py): the same verdicts
as one thread, solutions that replay, limits kept, on the core's toy puzzle and on Yukon, Ten
Across and Zebra."""
import numpy as np
import pytest

from rules.errors import InvalidOptionError
from rules.moves import Move
from solvers import get_solver
from solvers.games import zebra
from solvers.cli.main import main as cli_main
from solvers.core.result import SolveResult, replay_with_referee
from solvers.core.search import DFS, Limits
from solvers.core.split_dfs import SplitDFS, run_dfs
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import solver_root
from tests.support.toy import EVEN, N, ODD, plug, replay, toy_apply, toy_heuristic_marking
from tests.support.yukon import assert_class_line_wins

REACHABLE = 360          # rows reachable from any start of the toy: the even permutations of 6


def split(base_plug, root, threads, lead=5, chunk=2, table_capacity=16, limits=None, **dfs_kw):
    """A DFS paused after ``lead`` nodes, continued on ``threads`` threads in tiny chunks
    from a tiny table (so items are shared and the table grows while threads run)."""
    base = DFS(base_plug, Limits(lead, None, 4096), table_capacity=table_capacity, **dfs_kw)
    first = base.run(root)
    if first.verdict != "unknown":
        return first
    base.limits = limits or Limits(None, None, 4096)
    return SplitDFS(base, threads, chunk=chunk).run()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dfs_kw", [{}, {"keys_only": True, "store_dead_ends": False}])
def test_toy_verdicts_match_one_thread_and_solutions_replay(threads, dfs_kw):
    for start in ODD[::37]:
        r = split(plug(), np.array(start, np.int16), threads, **dfs_kw)
        assert r.verdict == "unsolvable", start
        assert r.nodes_expanded >= REACHABLE     # every reachable row expanded, at least once
    for start in EVEN[::37]:
        r = split(plug(), np.array(start, np.int16), threads, **dfs_kw)
        assert r.verdict == "solved", start
        assert replay(start, r.moves)


def test_toy_one_thread_is_the_plain_search():
    for start in ODD[::53] + EVEN[::53]:
        whole = DFS(plug(), Limits(None, None, 4096)).run(np.array(start, np.int16))
        r = split(plug(), np.array(start, np.int16), 1, chunk=1 << 15)
        assert (r.verdict, r.moves, r.nodes_expanded) == (whole.verdict, whole.moves,
                                                          whole.nodes_expanded)


def test_toy_dead_ends_are_never_passed_through():
    p = plug(heuristic=toy_heuristic_marking)
    for start in EVEN[::29]:
        if start[0] == N - 1:
            continue
        r = split(p, np.array(start, np.int16), 3)
        assert r.verdict == "solved"
        row = np.array(start, np.int16)
        for m in r.moves[:-1]:
            toy_apply(row, np.int32(m))
            assert row[0] != N - 1
        assert replay(start, r.moves)


def test_limits_give_unknown():
    root = np.array(ODD[5], np.int16)
    r = split(plug(), root, 2, limits=Limits(100, None, 4096))
    assert (r.verdict, r.limit) == ("unknown", "nodes") and r.nodes_expanded == 100
    for mb in (0.03, 0.1):      # the threads' stacks do not fit; the table cannot grow
        r = split(plug(), root, 2, limits=Limits(None, None, mb))
        assert (r.verdict, r.limit) == ("unknown", "memory")


# Yukon open-mode class searches of 12k-80k classes (seeds 1-400): proofs and solutions
YUKON_SEEDS = {105: "unsolvable", 210: "unsolvable", 285: "unsolvable", 323: "unsolvable",
               12: "solved", 44: "solved", 73: "solved"}


@pytest.mark.parametrize("seed", sorted(YUKON_SEEDS))
def test_yukon_class_search_on_threads(seed):
    solver = get_solver("yukon")
    solver.ready()
    start = solver.game.deal(seed, "aisleriot").array
    r = split(PLUGS["open_class"], solver_root(start), 3, lead=200, chunk=256,
              table_capacity=1 << 10, keys_only=True, store_dead_ends=False)
    assert r.verdict == YUKON_SEEDS[seed]
    if r.verdict == "solved":
        assert_class_line_wins(start, r.moves)


@pytest.mark.parametrize("rules", ["open", "aisleriot"])
def test_yukon_solve_on_two_threads_agrees_and_verifies(rules):
    solver = get_solver("yukon")
    for seed in (105, 340, 6, 197):
        one = solver.solve(seed, rules=rules)
        two = solver.solve(seed, rules=rules, threads=2)
        assert two.verdict == one.verdict != "unknown"
        if two.verdict == "solved":
            assert solver.verify(two)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "2", None, 10**6])
def test_bad_threads_are_refused_naming_the_value(bad):
    with pytest.raises(InvalidOptionError, match=repr(bad).replace("(", r"\(")):
        get_solver("yukon").solve(1, threads=bad)


def test_cli_refuses_bad_threads(capsys):
    with pytest.raises(SystemExit) as e:
        cli_main(["solve", "yukon", "1", "--threads", "0"])
    assert e.value.code == 2
    assert "0" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [14, 29, 75, 90])
def test_ten_across_on_two_threads_agrees_and_verifies(seed):
    """Ten Across's second depth-first search (plain table, dead ends stored) on threads."""
    solver = get_solver("ten-across")
    one, two = solver.solve(seed), solver.solve(seed, threads=2)
    assert two.verdict == one.verdict != "unknown"
    if two.verdict == "solved":
        assert solver.verify(two)


def test_zebra_depth_first_on_threads_from_an_early_split():
    """run_dfs with a lead of 50 positions on Zebra's plug: the verdicts of one thread."""
    solver = get_solver("zebra")
    solver.ready()
    for seed in range(1, 9):
        root = solver.game.deal(seed).array
        one = DFS(zebra.PLUGS["aisleriot"], Limits(None, None, 4096)).run(root)
        three = run_dfs(DFS(zebra.PLUGS["aisleriot"], Limits(None, None, 4096)), root, 3, lead=50)
        assert three.verdict == one.verdict != "unknown"
        if three.verdict == "solved":                 # the moves are legal and reach the goal
            a = root.copy()
            buf = np.empty(zebra.MAX_MOVES, np.int32)
            for code in three.moves:
                assert code in buf[:zebra.legal_aisleriot(a, buf)]
                zebra.apply(a, np.int32(code))
            assert zebra.won_aisleriot(a)


def test_only_a_paused_search_is_continued():
    with pytest.raises(ValueError, match="paused"):
        SplitDFS(DFS(plug(), Limits(None, None, 4096)), 2)


def test_more_threads_than_work_and_one_position_chunks():
    """Four threads taking turns a position at a time: items, donations and table growths
    interleave as much as they can, and the verdicts stay those of one thread."""
    for start in ODD[::61] + EVEN[::61]:
        r = split(plug(), np.array(start, np.int16), 4, lead=1, chunk=1, table_capacity=8)
        assert r.verdict == ("solved" if list(start) in map(list, EVEN) else "unsolvable")
        if r.verdict == "solved":
            assert replay(start, r.moves)


@pytest.mark.parametrize("seed", [12, 73, 210])
def test_yukon_aisleriot_mode_search_on_threads(seed):
    """Aisleriot mode's own search (position by position, LOST positions end the game)
    through run_dfs from an early split: the verdict of one thread, a solution Aisleriot lets
    you play (the referee replays it)."""
    solver = get_solver("yukon")
    solver.ready()
    root = solver_root(solver.game.deal(seed, "aisleriot").array)

    def dfs():
        return DFS(PLUGS["aisleriot"], Limits(None, None, 4096), keys_only=True,
                   store_dead_ends=False)

    one = dfs().run(root)
    two = run_dfs(dfs(), root, 2, lead=100)
    assert two.verdict == one.verdict != "unknown"
    if two.verdict == "solved":
        line = SolveResult("solved", [Move.from_code(c) for c in two.moves], rules="aisleriot",
                           start=solver.game.deal(seed, "aisleriot"))
        assert replay_with_referee(line)
