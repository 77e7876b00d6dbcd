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
from solvers.cli import winrate as cli_winrate
from solvers.studies import dispatch
from solvers.cli.main import main as cli_main
from solvers.studies.seeds import SeedSet, parse_seeds
from solvers.studies.stats import running_interval, wilson_interval, win_rate
from solvers.studies.store import ResultsStore, StoreError
from solvers.studies.winrate import estimate_win_rate, format_table, plot_title, summarize

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


def test_rule_modes_are_checked_before_anything_runs(tmp_path):
    with pytest.raises(AisleError, match="rule mode"):
        dispatch.make_settings("clock", rules="relaxed")
    with pytest.raises(AisleError, match="no rule mode 'bogus'"):
        estimate_win_rate("ten-across", "1-3", rules="bogus", db=tmp_path / "r.sqlite")
    assert not (tmp_path / "r.sqlite").exists()


# ---- the estimate -------------------------------------------------------------------------------
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
    assert _rows(db) == _rows(tmp_path / "fresh.sqlite")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT seed) FROM results").fetchone() == (5011, 5011)


@pytest.mark.slow
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
    estimate_win_rate("ten-across", "3", db=db, jobs=1, max_nodes=10_000)
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
    """``aisle`` itself must offer the subcommands (solvers.cli.main calls cli_winrate.register)."""
    from solvers.cli.main import build_parser

    args = build_parser().parse_args(["winrate", "clock", "--seeds", "1-10"])
    assert args.func is cli_winrate.cmd_winrate
    assert build_parser().parse_args(["report", "x.sqlite"]).func is cli_winrate.cmd_report


# ---- every bad argument is refused, quoting it, before anything runs or is written --------------------
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


def test_malformed_batches_are_never_stored(tmp_path):
    from solvers.core.solver import empty_columns

    with ResultsStore(tmp_path / "b.sqlite") as store:
        run = store.run_id(dispatch.make_settings("zebra"))
        good = empty_columns(np.array([1, 2], np.int64))
        good["verdict"][:] = [1, 2]
        good["length"][0] = 30
        bad_cases = []
        for column, row, value in (("verdict", 0, 7), ("length", 1, 12), ("length", 0, -1),
                                   ("seconds", 0, float("nan")), ("nodes", 0, -5), ("seed", 1, 1)):
            batch = {k: v.copy() for k, v in good.items()}
            batch[column][row] = value
            bad_cases.append(batch)
        bad_cases.append(dict(good, seconds=good["seconds"][:1]))
        bad_cases.append({k: v for k, v in good.items() if k != "nodes"})
        for batch in bad_cases:
            with pytest.raises(StoreError, match="batch"):
                store.add_batch(run, batch, "test")
        assert store.counts(run) == {"solved": 0, "unsolvable": 0, "unknown": 0}
        assert store.add_batch(run, good, "test") == 2


# ---- the database argument --------------------------------------------------------------------------
def test_empty_db_path_is_refused_not_a_temporary_database(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run_cli(capsys, "winrate", "zebra", "--seeds", "1-5", "--db", "", "--jobs", "1")
    assert code == 2 and out == "" and err.count("\n") == 1 and "''" in err
    assert list(tmp_path.iterdir()) == []


def test_no_db_and_db_together_are_refused(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    with pytest.raises(SystemExit) as exc:
        cli_main(["winrate", "zebra", "--seeds", "1-5", "--no-db", "--db", str(db)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "--db" in err and "--no-db" in err
    assert not db.exists()


def test_db_defaults_to_results_sqlite_in_the_current_directory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run_cli(capsys, "winrate", "zebra", "--seeds", "1-3", "--jobs", "1")
    assert code == 0 and (tmp_path / cli_winrate.DEFAULT_DB).exists()


def test_the_summary_line_says_what_was_run_and_what_was_already_stored(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", "1-2000", "--db", str(db))
    est = estimate_win_rate("clock", "1-2000", jobs=1)
    w = est.stats
    assert "deals solved" not in err
    assert (f"2000 deals run now ({w.won} won, {w.unsolvable} unsolvable, 0 unknown), "
            f"0 already stored in {db}") in err
    code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", "1-2500", "--db", str(db))
    assert "500 deals run now (" in err and f"2000 already stored in {db}" in err
    code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", "1-10", "--no-db")
    assert "10 deals run now (" in err and "kept in memory only" in err
    assert est.new_counts == {"solved": w.won, "unsolvable": w.unsolvable, "unknown": 0}


# ---- settings a later version adds (such as who plays) -----------------------------------------------
def test_a_new_setting_left_at_its_default_keeps_old_runs(tmp_path):
    from solvers.studies.store import settings_key

    db = tmp_path / "r.sqlite"
    old = estimate_win_rate("clock", "1-100", db=db, jobs=1)
    settings = dict(old.settings)
    assert settings_key(dict(settings, player=None)) == settings_key(settings)
    assert settings_key(dict(settings, player="greedy")) != settings_key(settings)
    with ResultsStore(db) as store:
        assert store.run_id(dict(settings, player=None)) == store.run_id(settings)
        other = store.run_id(dict(settings, player="greedy"))
        store.add_batch(other, dispatch.solve_batch(settings, np.arange(1, 11, dtype=np.int64)), "test")
        runs = store.runs()
    assert [run.get("player") for run in runs] == [None, "greedy"]
    rows = summarize(str(db))
    assert [(r["player"], r["deals"]) for r in rows] == [(None, 100), ("greedy", 10)]
    lines = format_table(rows).splitlines()
    assert lines[0].split()[5] == "player" and lines[1].split()[5] == "-" and lines[2].split()[5] == "greedy"
    assert "player greedy" in plot_title(runs[1]) and "player" not in plot_title(runs[0])


# ---- report --plot ----------------------------------------------------------------------------------
@pytest.fixture
def two_rule_modes(tmp_path):
    db = tmp_path / "modes.sqlite"
    for rules in ("aisleriot", "open"):
        estimate_win_rate("ten-across", "1-6", db=db, jobs=1, rules=rules, max_nodes=20_000)
    return db


@pytest.mark.parametrize("name", ["x.foo", "x.txt", "x.sqlite"])
def test_plot_to_an_unsupported_format_is_refused_before_anything(two_rule_modes, capsys, name):
    target = two_rule_modes.parent / name
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot", str(target))
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert repr(str(target)) in err and ".png" in err
    assert not target.exists()


@pytest.mark.parametrize("name", ["", "  ", "a\0b.png"])
def test_plot_to_no_name_is_refused(two_rule_modes, capsys, name):
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot", name)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_a_failing_disk_is_reported_not_masked_by_the_rollback(capsys):
    if not os.path.exists("/dev/null"):
        pytest.skip("needs /dev/null, where SQLite fails on the first write")
    code, out, err = _run_cli(capsys, "winrate", "zebra", "--seeds", "1-3", "--db", "/dev/null")
    assert code == 2 and err.count("\n") == 1 and "rollback" not in err and "/dev/null" in err


def test_plot_to_a_directory_is_refused(two_rule_modes, capsys):
    folder = two_rule_modes.parent / "plots"
    folder.mkdir()
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot", str(folder))
    assert code == 2 and out == "" and err.count("\n") == 1 and "directory" in err
    assert list(folder.iterdir()) == [] and not (two_rule_modes.parent / "plots.png").exists()
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot",
                              str(two_rule_modes.parent / "missing" / "x.png"))
    assert code == 2 and "does not exist" in err


def test_plot_names_the_file_it_really_wrote(two_rule_modes, capsys):
    stem = two_rule_modes.parent / "winrate"
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot", str(stem))
    written = pathlib.Path(str(stem) + ".png")
    assert code == 0 and written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert err.strip() == f"aisle: wrote {written}"
    svg = two_rule_modes.parent / "w.svg"
    code, out, err = _run_cli(capsys, "report", str(two_rule_modes), "--plot", str(svg))
    assert code == 0 and svg.read_text().lstrip().startswith("<?xml") and err.strip() == f"aisle: wrote {svg}"


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
