"""``Solver.solve_many(..., jobs=N)``: worker processes give what one process gives.

Each test that spawns workers pays their start-up (a second or two), so the deal ranges are
small and one run checks several things: equality with ``jobs=1``, order, progress calls and
``verify()`` on the results that came back from the workers.
"""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

from rules import InvalidOptionError, get_game
from rules.errors import InvalidDealError
from solvers import get_solver
from solvers.core import solver as base, workers as pool
from solvers.core.workers import WorkerError, run_in_workers
from tests.support import REPO


def same(a, b):
    """The fields a result's search decides (not its seconds) are equal."""
    return ((a.verdict, a.moves, a.nodes_expanded, a.states_stored, a.atomic_length, a.deal,
             a.method, a.rules, a.limit) ==
            (b.verdict, b.moves, b.nodes_expanded, b.states_stored, b.atomic_length, b.deal,
             b.method, b.rules, b.limit)
            and np.array_equal(a.start.array, b.start.array))


def check_against_one_process(solver, items, **kwargs):
    """solve_many with jobs=2 against jobs=1: same results in order, progress once per index
    with the returned result, every solution replayed by the referee; the results."""
    one = solver.solve_many(items, **kwargs)
    calls = []
    two = solver.solve_many(items, jobs=2, progress=lambda i, r: calls.append((i, r, gc.isenabled())),
                            **kwargs)
    assert len(two) == len(one) == len(items)
    assert all(same(a, b) for a, b in zip(one, two))
    assert sorted(i for i, _, _ in calls) == list(range(len(items)))
    assert all(two[i] is r for i, r, _ in calls)
    # the results pile up here with the cyclic collector off (Solver.solve_many), on again after
    assert not any(collecting for _, _, collecting in calls) and gc.isenabled()
    for result in two:
        assert result.start.game is solver.game
        if result.solved:
            assert result.verify()
    return two


def test_freecell_ms_deals_through_the_batch_path_match_one_process():
    solver = get_solver("freecell")
    deals = list(range(1, 41))
    assert solver._batch_ok(deals, None, None, "fast", base.check_limits())
    results = check_against_one_process(solver, deals)
    assert [r.deal for r in results] == deals
    assert all(r.solved for r in results)


def test_another_game_with_states_layouts_and_arrays_matches_one_process():
    solver = get_solver("ten-across")
    game = get_game("ten-across")
    items = list(range(1, 13)) + [game.deal(5, spots=False), game.deal(7).layout(),
                                  game.deal(9).array.copy()]
    results = check_against_one_process(solver, items, max_nodes=20_000)
    assert {r.verdict for r in results} >= {"solved", "unsolvable"}
    assert results[12].start.array.tolist() == game.deal(5, spots=False).array.tolist()
    assert results[14].deal is None


@pytest.mark.parametrize("jobs", [0, -1, 2.5, True, "2", 10_000])
def test_bad_jobs_are_refused_quoting_the_value(jobs):
    calls = []
    with pytest.raises(InvalidOptionError, match=f"jobs {jobs!r}"):
        get_solver("zebra").solve_many([1, 2], jobs=jobs, progress=lambda i, r: calls.append(i))
    assert calls == []


def test_jobs_none_means_every_core():
    assert pool.check_jobs(None) == pool.default_jobs()
    assert pool.check_jobs(np.int64(2)) == 2


def test_one_job_or_one_item_stays_in_this_process(monkeypatch):
    def no_pool(*args):
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(base, "run_in_workers", no_pool)
    solver = get_solver("zebra")
    assert len(solver.solve_many([1, 2, 3], jobs=1)) == 3
    assert solver.solve_many([1], jobs=2)[0].deal == 1
    assert solver.solve_many([], jobs=2) == []


def test_an_error_in_a_worker_is_the_same_library_error_as_in_one_process():
    solver = get_solver("ten-across")
    items = [1, 2, "garbage", 3]
    with pytest.raises(InvalidDealError) as one:
        solver.solve_many(items, max_nodes=1000)
    with pytest.raises(InvalidDealError) as two:
        solver.solve_many(items, max_nodes=1000, jobs=2)
    assert str(two.value) == str(one.value)


def test_a_worker_that_dies_raises_worker_error():
    with pytest.raises(WorkerError, match="gone"):
        run_in_workers(1, "zebra", [(os._exit, 3)], lambda value: None, "gone")


FORK_CHECK = """
import sys, threading, types
from solvers.core.workers import start_method
numba_pool = types.SimpleNamespace(_is_initialized=False)
sys.modules["numba.np.ufunc.parallel"] = numba_pool
seen = [start_method()]
stop = threading.Event()
other = threading.Thread(target=stop.wait)
other.start()
seen.append(start_method())
stop.set()
other.join()
seen.append(start_method())
numba_pool._is_initialized = True          # Numba's thread pool has started
seen.append(start_method())
numba_pool._is_initialized = False
sys.platform = "darwin"
seen.append(start_method())
print(" ".join(seen))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_workers_are_forked_only_while_nothing_could_hold_a_lock_in_the_child():
    """In a fresh interpreter (of one thread, whatever the test process runs): fork, then spawn
    while another thread runs, fork again, spawn once Numba's thread pool has started or on
    macOS."""
    out = subprocess.run([sys.executable, "-c", FORK_CHECK], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout.split()
    assert out == ["fork", "spawn", "fork", "spawn", "spawn"]
