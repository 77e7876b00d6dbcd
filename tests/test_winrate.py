"""Win-rate estimation: seed ranges, Wilson intervals, the SQLite store, resume, Dask, the CLI."""
import hashlib
import json
import math
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import AisleError, InvalidSeedError
from solvers import cli_winrate, dispatch
from solvers.cli import main as cli_main
from solvers.seeds import SeedSet, parse_seeds
from solvers.stats import running_interval, wilson_interval, win_rate
from solvers.store import ResultsStore, StoreError
from solvers.winrate import estimate_win_rate, summarize

REPO = pathlib.Path(__file__).resolve().parents[1]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _rows(db):
    """Every stored deal as (game, settings-relevant fields, seed, verdict, length, nodes)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game, numbering, rules, options, timeout, max_nodes, seed, verdict, "
                            "length, nodes FROM deals ORDER BY game, run_id, seed").fetchall()


def _digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


# ---- seeds --------------------------------------------------------------------------------------
def test_seed_ranges_parse_merge_and_print():
    s = parse_seeds("1-1000,5000,7000-7100")
    assert len(s) == 1000 + 1 + 101
    assert str(s) == "1-1000,5000,7000-7100"
    assert 5000 in s and 4999 not in s
    assert str(parse_seeds(" 10 - 20 , 5, 15-30,31")) == "5,10-31"      # sorted, merged, no duplicates
    assert list(parse_seeds("3,1-2")) == [1, 2, 3]
    assert str(parse_seeds(range(5, 10))) == "5-9"
    assert str(parse_seeds([9, 3, 4, 5, 3])) == "3-5,9"
    assert str(parse_seeds(np.array([0, 2]))) == "0,2"
    assert parse_seeds("1-3,2") == SeedSet([(1, 3)]) == SeedSet.parse("1,2,3")


def test_batches_skip_excluded_seeds_and_keep_order():
    s = parse_seeds("1-10,20-25")
    out = list(s.batches(4, exclude=np.array([2, 3, 21, 40], dtype=np.int64)))
    assert [b.tolist() for b in out] == [[1, 4, 5, 6], [7, 8, 9, 10], [20, 22, 23, 24], [25]]


@pytest.mark.parametrize("text", ["", " ", "5-3", "abc", "1-", "-5", "1,,2", "1-2-3", "1.5", "0x10"])
def test_bad_seed_text_is_a_clear_error(text):
    with pytest.raises(InvalidSeedError) as err:
        parse_seeds(text)
    assert repr(text.strip()) in str(err.value) or repr(text) in str(err.value)


def test_seed_bounds_follow_the_numbering():
    parse_seeds("0-5")
    with pytest.raises(InvalidSeedError, match="4294967296"):
        parse_seeds("4294967290-4294967296")
    with pytest.raises(InvalidSeedError, match="microsoft"):
        parse_seeds("0-3", "microsoft")
    assert len(parse_seeds("4294967296", "microsoft")) == 1


# ---- statistics ---------------------------------------------------------------------------------
def test_wilson_known_values():
    # Values worked out by hand from Wilson's formula (z = 1.959964).
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.27754, abs=1e-5)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    lo, hi = wilson_interval(81, 263)
    assert (lo, hi) == (pytest.approx(0.25529, abs=1e-4), pytest.approx(0.36621, abs=1e-4))
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 300))
def test_unknowns_widen_the_interval_both_ways(won, lost, unknown):
    w = win_rate(won, lost, unknown)
    n = won + lost + unknown
    if n == 0:
        return
    low_all_lost, high_all_lost = wilson_interval(won, n)
    low_all_won, high_all_won = wilson_interval(won + unknown, n)
    assert w.low == low_all_lost and w.high == high_all_won
    assert w.low <= won / n <= (won + unknown) / n <= w.high
    if won + lost:
        assert w.low <= w.rate <= w.high


def test_running_interval_ends_at_the_final_interval():
    flags = np.arange(100) % 7 == 0
    unk = np.arange(100) % 11 == 5
    n, rate, low, high = running_interval(flags & ~unk, unk)
    w = win_rate(int((flags & ~unk).sum()), int((~flags & ~unk).sum()), int(unk.sum()))
    assert (low[-1], high[-1], rate[-1]) == pytest.approx((w.low, w.high, w.rate))


# ---- dispatch -----------------------------------------------------------------------------------
def test_clock_rows_match_the_forced_play_move_by_move():
    from rules.clock import autoplay

    for seed in range(1, 40):
        row = dispatch.solve_deal("clock", seed)
        _, moves, final = autoplay(seed)
        assert row["verdict"] == ("solved" if final.is_won() else "unsolvable")
        assert row["nodes"] == len(moves)
        assert row["length"] == (len(moves) if final.is_won() else None)


def test_freecell_uses_its_solver_and_unknown_is_never_unsolvable():
    row = dispatch.solve_deal("freecell", 3, max_nodes=100_000)
    assert row["verdict"] == "solved" and row["length"] > 0 and row["nodes"] > 0
    tiny = dispatch.solve_deal("freecell", 2, max_nodes=5)
    assert tiny["verdict"] == "unknown" and tiny["length"] is None


def test_game_without_solver_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(dispatch, "_find_solver", lambda game: None)
    with pytest.raises(dispatch.NoSolverError, match="no solver for freecell"):
        estimate_win_rate("freecell", "1-3", jobs=1)
    assert issubclass(dispatch.NoSolverError, AisleError)


def test_rule_modes_are_checked_before_anything_runs(tmp_path):
    with pytest.raises(AisleError, match="rule mode"):
        dispatch.make_settings("clock", rules="relaxed")
    with pytest.raises(AisleError, match="no rule mode 'bogus'"):
        estimate_win_rate("freecell", "1-3", rules="bogus", db=tmp_path / "r.sqlite")
    assert not (tmp_path / "r.sqlite").exists()


# ---- the estimate -------------------------------------------------------------------------------
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
    assert _rows(db) == _rows(tmp_path / "fresh.sqlite")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT seed) FROM results").fetchone() == (5011, 5011)


def test_kill_9_mid_run_then_resume_matches_an_uninterrupted_run(tmp_path):
    db = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "solvers", "winrate", "clock", "--seeds", "1-150000",
           "--batch-size", "1000", "--jobs", "2", "--db", str(db), "--no-progress"]
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
    assert _rows(db) == _rows(tmp_path / "clean.sqlite")


def test_different_settings_are_kept_apart(tmp_path):
    db = tmp_path / "mixed.sqlite"
    small = estimate_win_rate("freecell", "2-4", db=db, jobs=1, max_nodes=10)
    big = estimate_win_rate("freecell", "2-4", db=db, jobs=1, max_nodes=100_000)
    assert small.new_deals == 3 and big.new_deals == 3        # nothing reused across settings
    assert small.stats.unknown >= 1 and small.stats.unsolvable == 0   # a limit is never a loss
    assert big.stats.won == 3
    rows = summarize(str(db))
    assert sorted((r["limits"], r["deals"], r["won"], r["unknown"]) for r in rows) == sorted([
        ("max_nodes=10", 3, small.stats.won, small.stats.unknown), ("max_nodes=100000", 3, 3, 0)])
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
    assert _rows(tmp_path / "dask.sqlite") == _rows(tmp_path / "local.sqlite")


# ---- errors that must leave data alone ------------------------------------------------------------
def _run_cli(capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_seeds_exit_2_and_leave_the_store_alone(tmp_path, capsys):
    db = tmp_path / "keep.sqlite"
    estimate_win_rate("clock", "1-100", db=db, jobs=1)
    before = _rows(db)
    for bad in ("5-3", "x", "1-99999999999"):
        code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", bad, "--db", str(db))
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "Traceback" not in err and "seed" in err
    assert _rows(db) == before


def test_unwritable_database_path_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "plain-file"
    blocker.write_text("not a directory")
    for path in (tmp_path / "no-such-dir" / "r.sqlite", blocker / "r.sqlite", tmp_path):
        code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", "1-10", "--db", str(path))
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert "results database" in err
    assert blocker.read_text() == "not a directory"
    assert not (tmp_path / "no-such-dir").exists()


def test_database_of_another_program_is_refused_untouched(tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE results (seed INTEGER, verdict TEXT)")
        conn.execute("INSERT INTO results VALUES (1, 'mine')")
    conn.close()
    text = tmp_path / "notes.sqlite"
    text.write_text("hello, I am not a database\n" * 50)
    for path in (other, text):
        digest = _digest(path)
        for argv in (["winrate", "clock", "--seeds", "1-10", "--db", str(path)], ["report", str(path)]):
            code, out, err = _run_cli(capsys, *argv)
            assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
            assert "refusing to touch it" in err
        assert _digest(path) == digest
        assert not pathlib.Path(str(path) + "-wal").exists()
    with pytest.raises(StoreError):
        ResultsStore(other)


def test_report_of_a_missing_file_does_not_create_it(tmp_path, capsys):
    code, out, err = _run_cli(capsys, "report", str(tmp_path / "nope.sqlite"))
    assert code == 2 and "does not exist" in err
    assert not (tmp_path / "nope.sqlite").exists()


# ---- the command line ---------------------------------------------------------------------------
def test_winrate_command_prints_only_the_table_on_stdout(tmp_path, capsys):
    db = tmp_path / "cli.sqlite"
    code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", "1-2000", "--db", str(db), "--jobs", "1",
                              "--batch-size", "500", "--progress")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].split()[:2] == ["game", "numbering"] and lines[1].startswith("clock")
    assert "deal" in err and "win" in err                      # tqdm bar with the running rate
    est = estimate_win_rate("clock", "1-2000", jobs=1)
    assert f"{100 * est.rate:.3f}%" in lines[1]


def test_report_table_exports_and_plot(tmp_path, capsys):
    db = tmp_path / "rep.sqlite"
    est = estimate_win_rate("clock", "1-3000", db=db, jobs=1)
    estimate_win_rate("freecell", "3", db=db, jobs=1, max_nodes=10_000)
    code, out, _ = _run_cli(capsys, "report", str(db))
    assert code == 0 and len(out.splitlines()) == 3
    code, out, _ = _run_cli(capsys, "report", str(db), "--export", "json")
    data = json.loads(out)
    clock = next(r for r in data if r["game"] == "clock")
    assert (clock["deals"], clock["won"], clock["unsolvable"], clock["unknown"]) == (
        3000, est.stats.won, est.stats.unsolvable, 0)
    assert (clock["low"], clock["high"]) == pytest.approx((est.stats.low, est.stats.high))
    code, out, _ = _run_cli(capsys, "report", str(db), "--export", "csv")
    assert out.splitlines()[0].startswith("game,numbering,rules,options,limits,deals,won")
    assert len(out.splitlines()) == 3
    code, out, _ = _run_cli(capsys, "report", str(db), "--export", "csv", "--deals")
    assert len(out.splitlines()) == 1 + 3001
    png = tmp_path / "plot.png"
    code, out, err = _run_cli(capsys, "report", str(db), "--plot", str(png))
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_command_line_values_exit_2(capsys):
    for argv in (["winrate", "clock", "--seeds", "1-5", "--jobs", "0"],
                 ["winrate", "clock", "--seeds", "1-5", "--timeout", "-1"],
                 ["winrate", "clock"],
                 ["winrate", "clock", "--seeds", "1-5", "--option", "nonsense", "--no-db"],
                 ["winrate", "nosuchgame", "--seeds", "1-5", "--no-db"]):
        with pytest.raises(SystemExit) as exc:
            code = cli_main(argv)
            raise SystemExit(code)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_aisle_command_has_winrate_and_report():
    """``aisle`` itself must offer the subcommands (solvers.cli calls cli_winrate.register)."""
    from solvers.cli import build_parser

    args = build_parser().parse_args(["winrate", "clock", "--seeds", "1-10"])
    assert args.func is cli_winrate.cmd_winrate
    assert build_parser().parse_args(["report", "x.sqlite"]).func is cli_winrate.cmd_report
