"""Garbage on the command line or in files: exit 2 and one short line on stderr, never a traceback."""
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solvers.cli.main import main
from solvers.cli.common import MAX_MESSAGE

COMMANDS = ["deal", "play", "solve", "verify", "conformance", "winrate", "report"]
GAMES = ["clock", "freecell", "yukon", "ten-across", "zebra"]
FLAGS = ["--numbering", "--option", "--layout", "--file", "--method", "--rules", "--max-nodes",
         "--timeout", "--max-memory-mb", "--format", "--seeds", "--jobs", "--db", "--moves"]
garbage = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                  max_size=40)


@pytest.fixture(autouse=True)
def _in_tmp_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)          # nothing a command might write lands in the checkout


def _run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:            # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _assert_bad_input(code, out, err, argv):
    assert code == 2, (argv, code, out[-300:], err[-300:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) <= MAX_MESSAGE, (argv, err[:400])
    assert "Traceback" not in err


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["deal", "solve", "verify", "play"]), game=st.sampled_from(GAMES),
       flag=st.sampled_from(FLAGS), value=garbage, seed=garbage.filter(lambda t: not t.strip().isdigit()))
def test_garbage_arguments_exit_2_with_one_short_line(command, game, flag, value, seed, capsys):
    argv = [command, game, seed, flag, value]
    code, out, err = _run(argv, capsys)
    _assert_bad_input(code, out, err, argv)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.binary(max_size=300), game=st.sampled_from(GAMES),
       command=st.sampled_from(["solve", "verify"]))
def test_garbage_files_exit_2_with_one_short_line(content, game, command, capsys, tmp_path):
    path = tmp_path / "garbage.txt"
    path.write_bytes(content)
    argv = ([command, game, "--file", str(path), "--timeout", "1"] if command == "solve"
            else [command, game, "1", str(path)])
    code, out, err = _run(argv, capsys)
    if command == "verify" and code == 1:        # a readable file of moves that are not a win
        assert out.strip() and err == ""
        return
    _assert_bad_input(code, out, err, argv)


def test_huge_bad_value_gives_a_short_line(capsys, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("XX " * 2_000_000)
    for argv in (["solve", "freecell", "--file", str(board)], ["solve", "yukon", "--layout", "Q" * 100_000],
                 ["deal", "clock", "9" * 100_000]):
        code, out, err = _run(argv, capsys)
        _assert_bad_input(code, out, err, argv)


def test_non_utf8_and_bom_files(capsys, tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Foundations: H-0 \xe9\n".encode("latin-1"))
    for argv in (["solve", "freecell", "--file", str(bad)], ["verify", "zebra", "1", str(bad)]):
        code, out, err = _run(argv, capsys)
        _assert_bad_input(code, out, err, argv)
    code, board, _ = _run(["deal", "freecell", "5", "--format", "fcs"], capsys)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + board.encode())
    code, out, err = _run(["solve", "freecell", "--file", str(bom), "--format", "json"], capsys)
    assert code == 0, err


@pytest.mark.parametrize("argv", [
    ["solve", "freecell", "1", "--file", "x.txt"],           # a seed and a file
    ["solve", "yukon", "--layout", "|9c#0#0", "--numbering", "aisleriot"],
    ["solve", "yukon"],                                      # no position at all
    ["play", "zebra", "1", "--random", "--moves", "-5"],
    ["play", "clock", "1", "--option", "foo=bar"],
    ["solve", "clock", "1", "--method", "dfs"],
    ["solve", "zebra", "1", "--rules", "lenient"],
])
def test_contradictory_or_unknown_arguments_are_refused(argv, capsys):
    code, out, err = _run(argv, capsys)
    _assert_bad_input(code, out, err, argv)


def test_dev_zero_is_not_read_without_bound():
    proc = subprocess.run([sys.executable, "-m", "solvers", "solve", "freecell", "--file", "/dev/zero"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
