"""Garbage on the command line or in files: exit 2 and one short line on stderr, never a traceback."""
import json
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


# ---- hostile sizes, under a memory cap (issue 55) ---------------------------------------------
MEMORY_CAP = 1536 * 2**20       # address space: a normal hint takes ~830 MB (Numba and LLVM most)
_CAPPED_CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
from solvers.cli.main import main
codes = []
for argv in json.loads(sys.argv[1]):
    try:
        codes.append(main(argv))
    except SystemExit as exc:
        codes.append(exc.code)
print(json.dumps(codes))
"""


def _child_env():
    """The environment of a child Python that imports this checkout's packages."""
    import os

    import solvers

    root = os.path.dirname(os.path.dirname(os.path.abspath(solvers.__file__)))
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_hostile_sizes_are_refused_or_bounded_under_a_memory_cap(tmp_path):
    """Each of these grew without bound (samples up to every world, 10^8 analysed worlds, a
    90 KB-a-move replay page, ...); now each is refused in one line or runs in bounded memory."""
    back = tmp_path / "back.txt"
    back.write_text("drag 0 1 4\ndrag 4 1 0\n" * 1500)   # 3,000 moves back and forth
    huge = "99999999999999999999999"
    runs = [
        (["play", "yukon", "1", "--samples", huge], 2),
        (["hint", "yukon", "1", "--samples", huge], 2),
        (["analyze", "yukon", "1", "--samples", "100000000"], 2),
        (["play", "yukon", "1", "--random", "--moves", huge], 2),
        (["play", "yukon", "1", "--player", "greedy", "--max-moves", huge], 2),
        (["deals", "clock", "--winnable", "--games", "1000000000", "--no-db"], 2),
        (["winrate", "clock", "--seeds", "0-4294967295", "--batch-size", huge, "--no-db"], 2),
        (["replay", "ten-across", "1", "--solution", str(back), "--html", str(tmp_path / "r.html")], 0),
    ]
    child = _CAPPED_CHILD.replace("CAP", str(MEMORY_CAP))
    proc = subprocess.run([sys.executable, "-c", child, json.dumps([argv for argv, _ in runs])],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=_child_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.splitlines()[-1]) == [code for _, code in runs], proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    assert (tmp_path / "r.html").stat().st_size < 2 * 2**20


# ---- one meaning of the exit code, and the smaller items of issue 55 ---------------------------
def test_closed_pipe_keeps_the_exit_code():
    proc = subprocess.run(f"{sys.executable} -m solvers play yukon 3 --player greedy | head -c5; "
                          f"exit ${{PIPESTATUS[0]}}", shell=True, executable="/bin/bash",
                          capture_output=True, text=True, timeout=300, env=_child_env())
    assert proc.returncode == 3 and len(proc.stdout) == 5, proc.stderr[-500:]
    assert "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr


@pytest.mark.parametrize("argv, code", [
    (["play", "clock", "1"], 3),                                   # lost, as with --player pimc
    (["play", "clock", "1", "--player", "pimc"], 3),
    (["play", "clock", "1", "--format", "json"], 3),
])
def test_every_play_mode_means_the_same_exit_code(argv, code, capsys):
    assert _run(argv, capsys)[0] == code


@pytest.mark.parametrize("argv", [
    ["play", "clock", "1", "--format", "json"],
    ["play", "yukon", "1", "--random", "--moves", "3", "--format", "json"],
])
def test_every_play_mode_writes_json(argv, capsys):
    code, out, err = _run(argv, capsys)
    data = json.loads(out)
    assert data["game"] == argv[1] and data["result"] in ("won", "lost", "ongoing")
    assert len(data["moves"]) == data["length"] > 0


def test_deals_stop_at_the_end_of_the_seed_space(capsys):
    code, out, err = _run(["deals", "clock", "--winnable", "--from", "4294967295", "--count", "3",
                           "--no-db"], capsys)
    assert code == 3 and "seeds end at 4294967295" in err and "Traceback" not in err
    code, out, err = _run(["deals", "clock", "--winnable", "--from", "0", "--count", "1",
                           "--max-seeds", "1", "--no-db"], capsys)
    assert code in (0, 3) and "among 1 seeds from 0" in err


def test_clock_layout_with_a_hidden_centre_top_has_no_move_for_a_player(capsys, tmp_path):
    layout = ("2s* As* Kc* 5h|Js* 8h* Tc* Th*|9c* 3h* 4h* 6h*|Ad* Jh* 6d* 2c*|Qh* 9d* Kd* Jd*|"
              "Td* 6c* Kh* Ts*|7s* 2h* Ah* 7c*|8d* 3d* 9h* Qd*|Ks* 2d* Qs* 7d*|3c* 5s* 9s* Qc*|"
              "4d* 7h* 5c* 8s*|Ac* 3s* 5d* 4s*|6s* Jc* 4c* 8c*#0#0")
    for command in ("hint", "analyze"):
        code, out, err = _run([command, "clock", "--layout", layout], capsys)
        assert code == 3 and "no move" in err and "Traceback" not in err, (command, err)


def test_negative_player_seed_is_bad_input_everywhere(capsys):
    for command in ("analyze", "hint"):
        _assert_bad_input(*_run([command, "yukon", "1", "--player-seed", "-3"], capsys), command)


def test_a_solution_for_another_numbering_is_refused_up_front(capsys, tmp_path):
    solution = tmp_path / "s.json"
    solution.write_text(json.dumps({"game": "freecell", "seed": 1, "numbering": "microsoft",
                                    "moves": ["bogus", "moves"]}))
    for argv in (["verify", "freecell", "1", str(solution), "--numbering", "aisleriot"],
                 ["replay", "freecell", "1", "--numbering", "aisleriot", "--solution", str(solution),
                  "--html", str(tmp_path / "x.html")]):
        code, out, err = _run(argv, capsys)
        _assert_bad_input(code, out, err, argv)
        assert "numbering" in err and "move" not in err.split("numbering")[0]


def test_a_missing_solution_file_is_named_once(capsys):
    code, out, err = _run(["verify", "yukon", "1", "missing.txt"], capsys)
    assert code == 2 and "solution file" in err and "file file" not in err
