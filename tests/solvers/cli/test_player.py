"""``aisle play`` with auto-players, ``aisle hint``, ``aisle analyze`` and ``aisle deals``."""
import json

import pytest

import solvers.cli.main as cli
from rules import get_game
from rules.registry import get_referee
from solvers.studies.store import ResultsStore


def run(capsys, monkeypatch, *argv):
    """``aisle ARGV`` in this process: exit code, stdout, stderr."""
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exc:            # argparse usage errors (aisle's Parser exits 2)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def hint_action(out, state):
    """The action of ``aisle hint``'s text line (``drag 4 1 0  (A♣ home)``), its words checked."""
    action, words = out.rstrip("\n").split("  (", 1)
    assert words.endswith(")") and words[:-1] == state.describe_move(action)
    return action


def replays_to_a_win(game, seed, moves, **options):
    state = get_game(game).deal(seed, **options)
    referee = get_referee(game)(state.game.array_to_layout(state.array), options or None)
    for move in moves:
        referee.apply(move)
    return referee.won()


# ---- play -------------------------------------------------------------------------------------
def test_play_pimc_wins_and_the_moves_replay(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "play", "yukon", 1)
    moves = out.split("\n")[:-1]
    assert code == 0 and replays_to_a_win("yukon", 1, moves)
    report = [line for line in err.splitlines()              # a cold cache adds a progress bar
              if line.strip() and "compiling the" not in line]
    assert len(report) == 1 and "won after" in err and "pimc (samples 10" in err
    assert "no peeking" in err


def test_play_lost_game_exits_3(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "play", "yukon", 5, "--player", "greedy")
    assert code == 3 and "lost after" in err and out.strip()


def test_play_json_and_show(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "play", "zebra", 1, "--player", "greedy", "--format",
                         "json", "--show")
    data = json.loads(out)
    assert code == 0 and data["result"] == "won" and data["peeked"] is False
    assert data["seed"] == 1 and data["start"] == get_game("zebra").deal(1).layout()
    assert data["player"] == {"player": "greedy", "seed": 0, "peeks": False}
    assert len(data["positions"]) == data["length"] == len(data["moves"]) == len(data["readable"])
    assert replays_to_a_win("zebra", 1, data["moves"])
    state = get_game("zebra").deal(1)
    for move, words in zip(data["moves"], data["readable"]):
        assert state.describe_move(move) == words
        state.apply(move)


def test_play_show_prints_what_the_player_sees(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "yukon", 5, "--player", "greedy", "--show")
    assert code == 3
    first = out.split("\n\n")[0]
    assert "pile 7: ## ## ## ##" in first and "unseen: 21 cards" in first
    state = get_game("yukon").deal(5)
    for block in out.split("\n\n")[1:-1]:       # each move with its words, then the position
        state.apply(hint_action(block.split("\n")[0], state))


def test_play_thoughtful_is_labelled_as_peeking(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "play", "ten-across", 1, "--player", "thoughtful")
    assert code == 0 and "PEEKS at hidden cards" in err
    assert replays_to_a_win("ten-across", 1, out.strip().split("\n"))


def test_play_freecell_defaults_to_the_solver(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "play", "freecell", 1, "--format", "notation")
    assert code == 0 and "thoughtful" in err and "no peeking" in err
    assert out.split("\n")[0] == "6a"


def test_play_clock_keeps_its_forced_report(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "clock", 1)
    assert code == 3 and out.rstrip().endswith("Result: lost, score 36, 39 moves")
    play = [line for line in out.split("\n") if line.startswith("Play: ")][0].split()[1:]
    code, shown, _ = run(capsys, monkeypatch, "play", "clock", 1, "--show")
    lines = [line for line in shown.split("\n") if line[:1].isdigit() and ". " in line]
    assert code == 3 and len(lines) == 39 and shown.rstrip().endswith("Result: lost, score 36, 39 moves")
    assert lines[0] == "1. drag 6 1 10  (7\u2663 to 7 o'clock)"
    assert lines[4] == "5. click 6  (K\u2660: turn up a centre card)"       # slot 8's K♠ came up
    assert " ".join(line.split("  (")[0].split(". ", 1)[1] for line in lines) == " ".join(play)
    code, out, err = run(capsys, monkeypatch, "play", "clock", 1, "--player", "pimc")
    assert code == 3 and len(out.strip().split("\n")) == 39 and "lost after 39 moves" in err


def test_play_random_still_walks(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "zebra", 2, "--random", "--moves", 3)
    assert code == 0 and "\n3. " in out and "Result:" in out
    assert "\n1. drag 17 1 16  (Q\u2665 onto K\u2663)\n" in out


@pytest.mark.parametrize("argv, fragment", [
    (["play", "yukon", "1", "--player", "expert"], "expert"),
    (["play", "yukon", "1", "--player", "greedy", "--samples", "3"], "'samples'"),
    (["play", "yukon", "1", "--samples", "0"], "'0'"),
    (["play", "yukon", "1", "--player-seed", "-4"], "-4"),
    (["play", "yukon", "1", "--max-moves", "0"], "--max-moves 0"),
    (["hint", "yukon", "1", "--budget", "99999999999999999999999"], "too large: at most 100000000"),
    (["analyze", "yukon", "1", "--budget", "99999999999999999999"], "too large: at most 100000000"),
    (["hint", "yukon", "1", "--budget", "1e3"], "'1e3'"),
    (["analyze", "yukon", "1", "--samples", "100000000"], "too large: at most 10000"),
    (["play", "yukon"], "exactly one of SEED"),
    (["hint", "yukon", "1", "--layout", "x"], "exactly one of SEED"),
    (["hint", "yukon", "--layout", "garbage"], "garbage"),
    (["analyze", "spider", "1"], "'spider'"),
    (["deals", "zebra"], "--winnable"),
    (["deals", "zebra", "--winnable", "--difficulty", "tricky"], "tricky"),
    (["deals", "zebra", "--winnable", "--count", "0"], "--count 0"),
])
def test_bad_input_is_one_line_exit_2(capsys, monkeypatch, argv, fragment):
    code, out, err = run(capsys, monkeypatch, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err and "Traceback" not in err


# ---- hint ---------------------------------------------------------------------------------------
def test_hint_is_a_legal_move_and_says_who_chose_it(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "hint", "yukon", 1)
    state = get_game("yukon").deal(1)
    assert code == 0 and out.count("\n") == 1 and state.parse_move(hint_action(out, state)) in state.legal_moves()
    assert "sampled worlds" in err and "PEEKS" not in err
    code, out2, err = run(capsys, monkeypatch, "hint", "yukon", 1, "--player", "thoughtful")
    assert code == 0 and "PEEKS" in err


def test_hint_from_a_layout_and_at_the_end(capsys, monkeypatch):
    state = get_game("yukon").deal(8)
    code, out, _ = run(capsys, monkeypatch, "hint", "yukon", "--layout", state.layout(),
                       "--player", "greedy")
    assert code == 0 and state.parse_move(hint_action(out, state)) in state.legal_moves()
    won = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc||||||||Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd|" \
          "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh|As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks#52#0"
    code, out, err = run(capsys, monkeypatch, "hint", "yukon", "--layout", won)
    assert code == 3 and out == "" and "won" in err


@pytest.mark.parametrize("game, seed", [("clock", 1), ("freecell", 1), ("yukon", 5), ("ten-across", 3),
                                        ("zebra", 2)])
def test_hint_formats(capsys, monkeypatch, game, seed):
    """Text (the default): the action, two spaces, the words in parentheses; ``--format
    aisleriot``: exactly the action line, as scripts read it; ``notation``: Freecell's own."""
    state = get_game(game).deal(seed)
    code, text, _ = run(capsys, monkeypatch, "hint", game, seed, "--player", "greedy")
    action = hint_action(text, state)
    code2, plain, _ = run(capsys, monkeypatch, "hint", game, seed, "--player", "greedy", "--format", "aisleriot")
    assert code == code2 == 0 and plain == f"{action}\n" and str(state.parse_move(action)) == action
    if game == "yukon":
        assert plain == "drag 2 5 1\n" and text == "drag 2 5 1  (4\u2665 and 4 more onto 5\u2663)\n"
    code, notation, _ = run(capsys, monkeypatch, "hint", game, seed, "--player", "greedy", "--format", "notation")
    assert code == 0 and notation == f"{state.format_move(action, state.game.notations[-1])}\n"


def test_suits_print_on_a_stream_without_them():
    import io

    from solvers.cli.common import keep_suits_printable

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    keep_suits_printable(stream)
    stream.write("drag 4 1 0  (A\u2666 home)\n")
    stream.flush()
    assert raw.getvalue() == b"drag 4 1 0  (A\\u2666 home)\n"


# ---- analyze --------------------------------------------------------------------------------------
def test_analyze_lists_every_move_with_both_verdicts(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "analyze", "yukon", 1, "--timeout", 2, "--samples", 6)
    lines = out.strip().split("\n")
    state = get_game("yukon").deal(1)
    assert code == 0 and "thoughtful (peeks)" in lines[0] and "sampled worlds won" in lines[0]
    words, verdict = lines[0].index("readable"), lines[0].index("thoughtful")
    listed = {state.parse_move(line[:words].strip()) for line in lines[1:]}
    assert listed == set(state.legal_moves(distinct=True))
    assert all(line[words:verdict].strip() == state.describe_move(line[:words].strip()) for line in lines[1:])
    assert all(line[verdict:].split()[0] in ("winnable", "lost", "unknown") for line in lines[1:])
    assert all("/6 (" in line for line in lines[1:])


def test_analyze_json_without_hidden_cards(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "analyze", "freecell", 1, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["moves"] and all(m["worlds"] is None for m in data["moves"])
    state = get_game("freecell").deal(1)
    assert all(m["readable"] == state.describe_move(m["move"]) for m in data["moves"])
    assert list(data["moves"][0])[:2] == ["move", "readable"]
    assert {m["thoughtful"] for m in data["moves"]} <= {"winnable", "lost", "unknown"}


def test_analyze_tells_winning_from_losing_moves():
    # Along the solver's winning line of Ten Across seed 1, the first position with a losing move:
    # the line's own move must be listed as winnable there.
    from solvers import get_solver
    from solvers.players.analysis import analyze

    state = get_game("ten-across").deal(1)
    for move in get_solver("ten-across").solve(state).moves:
        rows = {m: verdict for m, verdict, _, _ in analyze(state, timeout=5, samples=2)}
        if "lost" in rows.values():
            assert rows[move] == "winnable"
            return
        state.apply(move)
    pytest.fail("no position along the line has a losing move")


# ---- deals ----------------------------------------------------------------------------------------
def test_deals_prints_winnable_graded_seeds_and_keeps_them_in_the_store(capsys, monkeypatch, tmp_path):
    db = str(tmp_path / "deals.sqlite")
    argv = ("deals", "ten-across", "--winnable", "--count", 2, "--games", 1, "--from", 1, "--db", db)
    code, out, err = run(capsys, monkeypatch, *argv)
    lines = out.strip().split("\n")
    assert code == 0 and len(lines) == 2
    for line in lines:
        seed, grade, score = line.split()
        assert grade in ("easy", "hard") and score in ("0/1", "1/1")
        assert (grade == "easy") == (score == "1/1")
    assert [line.split()[0] for line in lines] == ["1", "3"]     # 2 is proven unsolvable
    assert "2 winnable ten-across deals among 3 seeds" in err
    with ResultsStore(db, readonly=True) as store:
        runs = store.runs()
        assert [r.get("player") is None for r in runs] == [True, False]
        assert store.counts(runs[0]["run_id"]) == {"solved": 2, "unsolvable": 1, "unknown": 0}
        assert sum(store.counts(runs[1]["run_id"]).values()) == 2      # only winnable deals are played
    def refuse(*args, **kwargs):
        raise AssertionError("a second run must read the store, not solve or play again")

    monkeypatch.setattr("solvers.studies.deal_book.play_game", refuse)
    monkeypatch.setattr("solvers.studies.deal_book.get_solver", refuse)
    assert run(capsys, monkeypatch, *argv)[1] == out


def test_deals_filter_that_finds_nothing_exits_3(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "deals", "zebra", "--winnable", "--difficulty", "hard",
                         "--count", 1, "--games", 1, "--max-seeds", 1, "--no-db")
    assert code == 3 and out == "" and "0 winnable hard zebra deals among 1 seeds" in err


def test_grades_are_cut_at_a_quarter_and_three_quarters():
    from solvers.players.grading import grade_of

    assert [grade_of(w, 4) for w in range(5)] == ["hard", "medium", "medium", "easy", "easy"]
    assert grade_of(0, 1) == "hard" and grade_of(1, 1) == "easy"
