"""Win-rate estimation (solvers/studies/winrate.py): resume in and across processes, settings kept
apart, Dask, every bad argument refused before anything runs, and auto-players' runs."""
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from rules.errors import AisleError, InvalidSeedError
from solvers.studies import dispatch
from solvers.studies.store import ResultsStore
from solvers.studies.report import plot_title, summarize
from solvers.studies.winrate import estimate_win_rate
from tests.support import REPO
from tests.support.results import stored_rows


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.slow
def test_clock_one_million_deals_interval_contains_one_thirteenth():
    t = time.perf_counter()
    est = estimate_win_rate("clock", "1-1000000", jobs=1)
    seconds = time.perf_counter() - t
    assert est.stats.deals == 1_000_000 and est.stats.unknown == 0
    assert est.stats.low < 1 / 13 < est.stats.high, est.summary()
    assert abs(est.rate - 1 / 13) < 4 * math.sqrt((1 / 13) * (12 / 13) / 1e6)
    print(f"clock 1-1000000 in one process: {seconds:.2f} s, {est.stats.text()}")


def test_resume_in_process_gives_the_same_table_without_duplicates(tmp_path):
    db = tmp_path / "r.sqlite"
    part = estimate_win_rate("clock", "1-3000", db=db, jobs=1, batch_size=700)
    assert part.new_deals == 3000
    full = estimate_win_rate("clock", "1-5000,9000-9010", db=db, jobs=1, batch_size=700)
    assert (full.new_deals, full.resumed_deals) == (2011, 3000)
    again = estimate_win_rate("clock", "1-5000,9000-9010", db=db, jobs=1)
    assert again.new_deals == 0 and again.stats == full.stats
    fresh = estimate_win_rate("clock", "1-5000,9000-9010", db=tmp_path / "fresh.sqlite", jobs=1)
    assert fresh.stats == full.stats
    assert stored_rows(db) == stored_rows(tmp_path / "fresh.sqlite")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT seed) FROM results").fetchone() == (5011, 5011)


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_matches_an_uninterrupted_run(tmp_path):
    db = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "solvers", "winrate", "clock", "--seeds", "1-150000",
           "--batch-size", "1000", "--jobs", "2", "--db", str(db), "--no-progress", "--no-atlas"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    stored = 0
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
                        stored = conn.execute("SELECT count(*) FROM results").fetchone()[0]
                except sqlite3.OperationalError:
                    stored = 0
                if stored:
                    break
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)      # the run's own process group: client and workers
        proc.wait(timeout=30)
    assert stored, "the run never stored a batch: " + proc.stderr.read().decode()[-500:]
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        n, distinct = conn.execute("SELECT count(*), count(DISTINCT seed) FROM results").fetchone()
    assert 0 < n == distinct < 150_000
    assert n % 1000 == 0                             # whole batches only
    resumed = estimate_win_rate("clock", "1-150000", db=db, jobs=2, batch_size=1000)
    assert resumed.resumed_deals == n and resumed.new_deals == 150_000 - n
    clean = estimate_win_rate("clock", "1-150000", db=tmp_path / "clean.sqlite", jobs=1)
    assert resumed.stats == clean.stats
    assert stored_rows(db) == stored_rows(tmp_path / "clean.sqlite")


def test_different_settings_are_kept_apart(tmp_path):
    db = tmp_path / "mixed.sqlite"
    small = estimate_win_rate("ten-across", "1-4", db=db, jobs=1, max_nodes=10)
    big = estimate_win_rate("ten-across", "1-4", db=db, jobs=1, max_nodes=100_000)
    assert small.new_deals == 4 and big.new_deals == 4        # nothing reused across settings
    assert small.stats.unknown == 4 and small.stats.unsolvable == 0   # a limit is never a loss
    assert big.stats.unknown == 0 and big.stats.won >= 1
    rows = summarize(str(db))
    assert sorted((r["limits"], r["deals"], r["won"], r["unknown"]) for r in rows) == sorted([
        ("max_nodes=10", 4, 0, 4), ("max_nodes=100000", 4, big.stats.won, 0)])
    # the same settings given differently (options in another order, default numbering) are one run
    with ResultsStore(db) as store:
        a = store.run_id({"game": "g", "numbering": "n", "rules": "r", "options": {"x": True, "y": False},
                          "timeout": None, "max_nodes": None})
        b = store.run_id({"max_nodes": None, "timeout": None, "options": {"y": False, "x": True},
                          "rules": "r", "numbering": "n", "game": "g"})
        c = store.run_id({"game": "g", "numbering": "n", "rules": "r", "options": {"x": False, "y": False},
                          "timeout": None, "max_nodes": None})
    assert a == b != c
    assert dispatch.make_settings("freecell")["numbering"] == "microsoft"


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_results_as_local_processes(tmp_path):
    from distributed import LocalCluster

    local = estimate_win_rate("clock", "1-4000,10000-10500", db=tmp_path / "local.sqlite", jobs=1,
                              batch_size=600)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = estimate_win_rate("clock", "1-4000,10000-10500", db=tmp_path / "dask.sqlite",
                                   dask=cluster.scheduler_address, batch_size=600)
        # resume through Dask too: nothing left to do
        again = estimate_win_rate("clock", "1-4000,10000-10500", db=tmp_path / "dask.sqlite",
                                  dask=cluster.scheduler_address, batch_size=600)
    assert remote.stats == local.stats and again.new_deals == 0
    assert stored_rows(tmp_path / "dask.sqlite") == stored_rows(tmp_path / "local.sqlite")


@pytest.mark.parametrize("name, value, quoted", [(case + (None,))[:3] for case in [
    ("jobs", 0), ("jobs", -1), ("jobs", 1.5), ("jobs", "2"), ("jobs", True), ("jobs", 10**6),
    ("batch_size", 0), ("batch_size", -3), ("batch_size", 2.5), ("batch_size", "x"), ("batch_size", False),
    ("timeout", 0), ("timeout", -1.0), ("timeout", "x"), ("timeout", float("nan")), ("timeout", float("inf")),
    ("max_nodes", 0), ("max_nodes", 1.5), ("max_nodes", "10"), ("max_nodes", 2**63),
    ("rules", "bogus"), ("rules", None), ("numbering", "bogus"), ("numbering", ""), ("numbering", 3),
    ("options", {"nope": 1}, "'nope'"), ("options", "spots=off"), ("options", {"spots": "maybe"}, "'maybe'"),
    ("dask", ""), ("dask", 3), ("dask", "  "),
    ("db", ""), ("db", "   "), ("db", 3), ("db", b"r.sqlite"), ("db", "a\0b"),
    ("progress", "yes"), ("retry_unknown", 1), ("confidence", 2), ("confidence", "x"), ("confidence", 0),
]])
def test_every_bad_argument_is_an_aisle_error_quoting_it(tmp_path, monkeypatch, name, value, quoted):
    monkeypatch.chdir(tmp_path)
    kwargs = {"jobs": 1, name: value}
    with pytest.raises(AisleError) as err:
        estimate_win_rate("ten-across", "1-2", **kwargs)
    quoted = quoted or repr(value)
    assert quoted in str(err.value) or str(value) in str(err.value), str(err.value)
    assert list(tmp_path.iterdir()) == []                     # no file left behind (db '' included)


@pytest.mark.parametrize("seeds", ["5-3", None, 3.5, [1.5], -1, [], object(), True, "1,,2"])
def test_bad_seeds_are_an_aisle_error(seeds):
    with pytest.raises(InvalidSeedError):
        estimate_win_rate("zebra", seeds, jobs=1)


def test_cannot_reach_a_dask_scheduler_is_an_aisle_error():
    for address in ("nonsense address", "tcp://", "local:x"):
        with pytest.raises(AisleError, match="cannot reach the Dask scheduler"):
            estimate_win_rate("zebra", "1-2", dask=address)


def test_failed_dask_connections_in_a_row_never_hang():
    """A half-built Client finalised by the collector inside the next Client's start-up
    deadlocked distributed's loop runner (within a few dozen failed connections)."""
    code = ("from solvers.studies.winrate import estimate_win_rate\n"
            "from rules.errors import AisleError\n"
            "for i in range(40):\n"
            "    for a in ('nonsense address', 'tcp://', 'local:x'):\n"
            "        try: estimate_win_rate('zebra', '1-2', dask=a)\n"
            "        except AisleError: pass\n"
            "print('done')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "done", proc.stderr[-1000:]


def test_plot_titles_tell_rule_modes_apart(two_rule_modes):
    with ResultsStore(two_rule_modes, readonly=True) as store:
        titles = [plot_title(run) for run in store.runs()]
    assert len(set(titles)) == 2
    assert "rules aisleriot" in titles[0] and "rules open" in titles[1]
    assert all("aisleriot numbering" in t and "max_nodes=20000" in t for t in titles)


def test_a_players_games_are_a_run_of_their_own_and_are_won_or_lost(tmp_path):
    """``--player``: every deal played by the auto-player, stored as won/lost (never as a proof),
    beside the solver's run of the same deals; the same games as play_game plays."""
    from rules import get_game
    from solvers.players import get_player, play_game

    db = str(tmp_path / "p.sqlite")
    solver = estimate_win_rate("ten-across", "1-6", db=db, jobs=1)
    player = estimate_win_rate("ten-across", "1-6", db=db, jobs=1, player={"name": "greedy", "seed": 3})
    again = estimate_win_rate("ten-across", "1-6", db=db, jobs=1, player={"name": "greedy", "seed": 3})
    assert again.new_deals == 0 and again.stats == player.stats
    won = [play_game(get_game("ten-across").deal(s), get_player("greedy", seed=3)).won for s in range(1, 7)]
    assert player.stats.won == sum(won) <= solver.stats.won
    with ResultsStore(db, readonly=True) as store:
        verdicts = {row["verdict"] for row in store.deal_rows()}
        rows = summarize(store)
    assert verdicts <= {"solved", "unsolvable", "won", "lost"} and verdicts & {"won", "lost"}
    assert [r.get("player") for r in rows] == [None, "greedy(seed=3)"]
    assert "lost" in player.run_text() and "unsolvable" in solver.run_text()
