"""The ``aisle`` command: data on stdout, one-line errors on stderr with exit code 2."""
import json
import subprocess
import sys

import pytest

from solvers.cli.main import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:           # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_play_clock_prints_deal_play_and_result(capsys):
    code, out, err = run(capsys, "play", "clock", "1")
    assert code == 3 and err == ""              # lost: the same code as --player pimc
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
    (["play", "yukon", "1", "--player", "bogus"], "bogus"),
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


def test_solve_and_verify_freecell(capsys, tmp_path):
    code, out, err = run(capsys, "solve", "freecell", "1")
    assert code == 0 and "solved" in err
    moves = out.split()
    assert moves and all(len(m) in (2, 4) for m in moves)          # standard notation: 3a, 58v3
    path = tmp_path / "sol.txt"
    path.write_text(out)
    code, out, _ = run(capsys, "verify", "freecell", "1", str(path))
    assert code == 0 and out.startswith("valid")
    # Break one move: verify must name it.
    broken = moves[:5] + ["ah"] + moves[5:]
    path.write_text("\n".join(broken))
    code, out, _ = run(capsys, "verify", "freecell", "1", str(path))
    assert code == 1 and "move 6 ('ah') is illegal" in out


def test_solve_json_and_aisleriot_formats_replay(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "freecell", "3", "--numbering", "aisleriot", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "solved" and len(data["moves"]) == len(data["notation"])
    (tmp_path / "s.json").write_text(out)
    code, out, _ = run(capsys, "verify", "freecell", "3", str(tmp_path / "s.json"), "--numbering", "aisleriot")
    assert code == 0


def test_solve_exit_codes(capsys):
    assert run(capsys, "solve", "freecell", "11982")[0] == 3           # proven unsolvable
    assert run(capsys, "solve", "freecell", "1", "--max-nodes", "5")[0] == 4   # limit: unknown


@pytest.mark.parametrize("flag, shown", [("--progress", True), ("--no-progress", False)])
def test_solve_counts_positions_on_a_progress_bar(capsys, monkeypatch, flag, shown):
    from solvers.cli import main as cli
    bars = []

    class Bar:
        n = 0

        def __init__(self, enabled, **options):
            self.enabled, self.options, self.closed = enabled, options, False
            bars.append(self)

        def update(self, n):
            self.n += n

        def close(self):
            self.closed = True

    monkeypatch.setattr(cli, "progress_bar", Bar)
    code, out, err = run(capsys, "solve", "yukon", "7", "--rules", "open", flag, "--format", "json")
    assert code == 0
    (bar,) = bars
    assert bar.enabled is shown and bar.closed
    assert bar.n == json.loads(out)["nodes"] > 0


def test_solve_from_board_file(capsys, tmp_path):
    board = tmp_path / "board.txt"
    code, out, _ = run(capsys, "deal", "freecell", "617", "--format", "fcs")
    board.write_text(out)
    code, out, _ = run(capsys, "solve", "freecell", "--file", str(board), "--format", "aisleriot")
    assert code == 0 and out.split()[0] in ("drag", "dbl")
    code, _, err = run(capsys, "solve", "freecell", "--file", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt" in err
    board.write_text("JD KD\n")
    code, _, err = run(capsys, "solve", "freecell", "--file", str(board))
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "verify", "freecell", str(tmp_path / "none.txt"), "--file", str(board))
    assert code == 2


def test_verify_usage_errors(capsys, tmp_path):
    code, _, err = run(capsys, "verify", "freecell", "1", "2", "3")
    assert code == 2 and "'1 2 3'" in err
    code, _, err = run(capsys, "verify", "freecell", str(tmp_path / "x.txt"))
    assert code == 2 and "SEED" in err


JSON_KEYS = {"game", "seed", "numbering", "rules", "method", "start", "verdict", "limit", "moves",
             "length", "atomic_length", "nodes", "states", "seconds", "compile_seconds"}


@pytest.mark.parametrize("game, seed", [("clock", "52"), ("freecell", "2"), ("yukon", "2"),
                                        ("ten-across", "3"), ("zebra", "2")])
def test_solve_json_has_one_shape_and_verifies(capsys, tmp_path, game, seed):
    code, out, _ = run(capsys, "solve", game, seed, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "solved" and data["seed"] == int(seed)
    assert set(data) == JSON_KEYS | ({"notation"} if game == "freecell" else set())
    assert data["length"] == len(data["moves"]) > 0 and all(isinstance(m, str) for m in data["moves"])
    path = tmp_path / "s.json"
    path.write_text(out)
    code, out, _ = run(capsys, "verify", game, seed, str(path))
    assert code == 0 and out.startswith("valid")
    other = "zebra" if game != "zebra" else "yukon"
    code, _, err = run(capsys, "verify", other, seed, str(path))
    assert code == 2 and repr(game) in err
    code, _, err = run(capsys, "verify", game, str(int(seed) + 1), str(path))
    assert code == 2 and "seed" in err


@pytest.mark.parametrize("game", ["clock", "freecell", "yukon", "ten-across", "zebra"])
def test_solve_and_verify_from_a_layout_or_a_file(capsys, tmp_path, game):
    """Any position, every game: a game in progress given as Aisleriot layout text."""
    from rules import get_game

    state = get_game(game).deal(2)
    for _ in range(3):
        moves = state.legal_moves(distinct=True)
        if moves and not state.is_over():
            state.apply(moves[0])
    code, out, err = run(capsys, "solve", game, "--layout", state.layout(), "--format", "json")
    data = json.loads(out)
    assert code in (0, 3) and data["start"] == state.layout() and data["seed"] is None
    (tmp_path / "pos.txt").write_text(state.layout() + "\n")
    (tmp_path / "sol.json").write_text(out)
    code2, out2, _ = run(capsys, "solve", game, "--file", str(tmp_path / "pos.txt"), "--format", "json")
    assert code2 == code and json.loads(out2)["moves"] == data["moves"]
    if code == 0:
        code, out, _ = run(capsys, "verify", game, "--file", str(tmp_path / "pos.txt"), str(tmp_path / "sol.json"))
        assert code == 0 and out.startswith("valid")


def test_help_is_plain_and_names_every_games_methods(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "``" not in out and ":mod:" not in out
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0 and "forced" in out and "dfs, greedy, astar" in out
    for line in out.splitlines():
        assert line.count("default") <= 1, line        # a default is said once


def test_verify_refuses_moves_that_are_not_a_list(capsys, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"game": "zebra", "seed": 1, "moves": "drag 10 1 2"}))
    code, _, err = run(capsys, "verify", "zebra", "1", str(path))
    assert code == 2 and "list of move strings" in err
