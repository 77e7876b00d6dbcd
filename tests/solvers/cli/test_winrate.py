"""``aisle winrate`` and ``aisle report`` (solvers/cli/winrate.py): only the table on stdout, one
line on stderr and exit 2 for bad input, the database left alone, exports and plots."""
import hashlib
import json
import os
import pathlib
import sqlite3

import pytest

from solvers.cli import winrate as cli_winrate
from solvers.cli.main import main as cli_main
from solvers.studies.store import ResultsStore, StoreError
from solvers.studies.winrate import estimate_win_rate
from tests.support.results import stored_rows


def _run_cli(capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def test_bad_seeds_exit_2_and_leave_the_store_alone(tmp_path, capsys):
    db = tmp_path / "keep.sqlite"
    estimate_win_rate("clock", "1-100", db=db, jobs=1)
    capsys.readouterr()               # a cold cache's compile announcement is not the CLI's
    before = stored_rows(db)
    for bad in ("5-3", "x", "1-99999999999"):
        code, out, err = _run_cli(capsys, "winrate", "clock", "--seeds", bad, "--db", str(db))
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "Traceback" not in err and "seed" in err
    assert stored_rows(db) == before


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
