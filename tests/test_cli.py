"""The ``aisle`` command: data on stdout, one-line errors on stderr with exit code 2."""
import subprocess
import sys

import pytest

from solvers.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_clock_prints_deal_play_and_result(capsys):
    code, out, err = run(capsys, "play", "clock", "1")
    assert code == 0 and err == ""
    assert "Play: drag 6 1 10" in out
    assert out.rstrip().endswith("Result: lost, score 36, 39 moves")


def test_deal_formats(capsys):
    code, out, _ = run(capsys, "deal", "yukon", "1", "--format", "aisleriot")
    assert code == 0
    assert out.split("|")[1] == "9c"
    code, out, _ = run(capsys, "deal", "freecell", "1", "--format", "fcs")
    columns = [line.lstrip(": ").split() for line in out.splitlines() if not line.endswith(":") and ":" not in line.lstrip(": ")]
    assert code == 0 and columns[0][:2] == ["JD", "KD"] and len(columns) == 8
    code, out, _ = run(capsys, "deal", "freecell", "1", "--numbering", "aisleriot", "--format", "aisleriot")
    assert code == 0 and out.split("|")[8] == "9c Td Jc 4h Kh 8c 7c"


@pytest.mark.parametrize("argv, fragment", [
    (["deal", "spider", "1"], "'spider'"),
    (["deal", "clock", "-3"], "'-3'"),
    (["deal", "clock", "abc"], "'abc'"),
    (["deal", "freecell", "0"], "'0'"),
    (["deal", "yukon", "1", "--numbering", "microsoft"], "'microsoft'"),
    (["deal", "ten-across", "1", "--option", "spots=maybe"], "'maybe'"),
    (["deal", "ten-across", "1", "--option", "colour=on"], "'colour'"),
    (["deal", "clock", "1", "--format", "fcs"], "fcs"),
    (["conformance", "/nonexistent/trace.txt.gz"], "/nonexistent/trace.txt.gz"),
    (["play", "yukon", "1"], "--random"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err


def test_usage_errors_are_one_line_exit_2():
    proc = subprocess.run([sys.executable, "-m", "solvers", "deal"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_play_random_shows_positions(capsys):
    code, out, _ = run(capsys, "play", "zebra", "2", "--random", "--moves", "5")
    assert code == 0 and "\n1. " in out and "Result:" in out


def test_conformance_command(capsys, conformance_dir):
    code, out, _ = run(capsys, "conformance", str(conformance_dir / "clock.txt.gz"))
    assert code == 0
    assert out.strip() == "clock: 30 games, 1324 positions, 2528 actions, 0 mismatches"


def test_conformance_reports_mismatches(capsys, conformance_dir):
    # The no-spots trace replayed with spots on must disagree: the runner can fail.
    code, out, _ = run(capsys, "conformance", str(conformance_dir / "ten-across-nospots.txt.gz"))
    assert code == 1 and "mismatches" in out and " 0 mismatches" not in out
