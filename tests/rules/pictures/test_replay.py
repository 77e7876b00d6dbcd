"""The replay page (rules/pictures/replay.py) and the ``show``/``replay`` commands (solvers/cli/pictures.py),
checked without a browser: the page's data holds every position, the script is the one the
Content-Security-Policy allows, and nothing in the page points outside it."""
import base64
import hashlib
import html
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from rules import get_game
from rules.errors import IllegalMoveError
from solvers.cli.main import main
from rules.pictures.replay import play_moves, replay_html

SVG = "{http://www.w3.org/2000/svg}"


def random_game(game, seed, n_moves, rng_seed=3):
    """The start state and up to ``n_moves`` random legal moves (as text) from it."""
    start = get_game(game).deal(seed)
    state, rng, moves = start.copy(), random.Random(rng_seed), []
    for _ in range(n_moves):
        legal = state.legal_moves()
        if state.is_over() or not legal:
            break
        moves.append(str(state.apply(rng.choice(legal))))
    return start, moves


def page_data(page):
    """The page's embedded data, and each position's SVG text rebuilt as the page's script does."""
    text = re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S).group(1)
    data = json.loads(text)
    pictures = ["\n".join(data["lines"][i] for i in data["pictures"][frame["picture"]])
                for frame in data["frames"]]
    return data, pictures


def test_page_holds_every_position_in_order():
    start, moves = random_game("yukon", 4, 25)
    page = replay_html(start, moves)
    data, pictures = page_data(page)
    states = play_moves(start, moves)
    assert len(pictures) == len(states) == len(moves) + 1
    for state, svg in zip(states, pictures):
        root = ET.fromstring(svg)
        assert root.find(SVG + "title").text == f"Yukon: {state.layout()}"
        n_cards = sum(len(slot) for slot in state.game.array_to_layout(state.array).slots)
        assert len([g for g in root.iter(SVG + "g") if "card" in g.get("class", "")]) == n_cards
    assert ' moved"' not in pictures[0] and all(' moved"' in svg for svg in pictures[1:])
    assert len({ET.fromstring(svg).get("height") for svg in pictures}) == 1   # one size throughout
    assert data["frames"][-1]["status"].startswith(f"Move {len(moves)} of {len(moves)}: ")
    assert len(re.findall(r"<li data-index=", page)) == len(moves)


def test_page_asks_for_nothing_outside_itself():
    start, moves = random_game("zebra", 6, 10)
    page = replay_html(start, moves)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "default-src 'none'" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1                      # plus the JSON data block, which never runs
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    assert not re.search(r"\b(src|href)\s*=", page)
    # The only URL is the SVG namespace, which names and never fetches.
    assert set(re.findall(r"https?://[^\s\\\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}
    assert "@import" not in page and "url(" not in page


def test_result_and_freecell_notation():
    start, moves = random_game("freecell", 1, 8)
    page = replay_html(start, moves, title="Deal <1>")
    assert "<title>Deal &lt;1&gt;</title>" in page
    assert f"Result: not finished, score {play_moves(start, moves)[-1].score}, {len(moves)} moves" in page
    first = re.search(r'<li data-index="1">(.*?) <span class="action">(.*?)</span></li>', page)
    assert first.group(1) == html.escape(start.describe_move(moves[0]))      # the move in words
    label = first.group(2)
    assert label.endswith(moves[0]) and label != moves[0]      # standard notation, then the action


@pytest.mark.parametrize("game", ["clock", "freecell", "yukon", "ten-across", "zebra"])
def test_move_list_reads_each_move_in_words(game):
    start, moves = random_game(game, 2, 12)
    page = replay_html(start, moves)
    items = re.findall(r'<li data-index="(\d+)">(.*?) <span class="action">(.*?)</span></li>', page)
    assert [int(i) for i, _, _ in items] == list(range(1, len(moves) + 1))
    for state, move, (_, words, label) in zip(play_moves(start, moves), moves, items):
        assert words == html.escape(state.describe_move(move)) and label.endswith(html.escape(move))
    data, _ = page_data(page)                    # the step data keep the actions (and notation)
    assert all(moves[i - 1] in frame["status"] for i, frame in enumerate(data["frames"]) if i)


def test_empty_game_is_one_position():
    start = get_game("clock").deal(1)
    page = replay_html(start, [], verdict="unsolvable")
    data, pictures = page_data(page)
    assert len(pictures) == 1 and "(solver: unsolvable)" in page


def test_illegal_move_is_named():
    start = get_game("ten-across").deal(1)
    with pytest.raises(IllegalMoveError, match=r"move 2 \('drag 2 1 3'\)"):
        replay_html(start, ["drag 8 2 5", "drag 2 1 3"])


# ---- the commands ---------------------------------------------------------------------------------
def aisle(argv, capsys):
    """Run ``aisle`` in this process: exit code, stdout, stderr."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_show_writes_svg_to_stdout_or_a_file(tmp_path, capsys):
    code, out, _ = aisle(["show", "zebra", "3"], capsys)
    assert code == 0 and ET.fromstring(out).tag == SVG + "svg"
    layout = get_game("ten-across").deal(2).layout()
    path = tmp_path / "p.svg"
    code, out, _ = aisle(["show", "ten-across", "--layout", layout, "--svg", str(path)], capsys)
    assert code == 0 and out == ""
    assert ET.parse(path).getroot().find(SVG + "title").text == f"Ten Across: {layout}"
    (tmp_path / "pos.txt").write_text(layout + "\n")
    code, out, _ = aisle(["show", "ten-across", "--file", str(tmp_path / "pos.txt")], capsys)
    assert code == 0 and f"Ten Across: {layout}" in out


@pytest.mark.parametrize("argv, message", [
    (["show", "yukon", "--layout", "Xx|#0#0"], "'Xx"),
    (["show", "yukon"], "exactly one of SEED"),
    (["show", "nogame", "1"], "'nogame'"),
    (["replay", "clock", "1", "--html", "x.html"], "one of the arguments --solution --solve --player"),
])
def test_show_and_replay_refuse_bad_input_in_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = aisle(argv, capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_replay_from_solution_files(tmp_path, capsys):
    start, moves = random_game("ten-across", 1, 12)
    text_file, json_file = tmp_path / "moves.txt", tmp_path / "moves.json"
    text_file.write_text("# a comment\n" + "\n".join(moves) + "\n")
    json_file.write_text(json.dumps({"game": "ten-across", "seed": 1, "moves": moves}))
    for solution in (text_file, json_file):
        page = tmp_path / "game.html"
        code, _, err = aisle(["replay", "ten-across", "1", "--solution", str(solution),
                              "--html", str(page)], capsys)
        assert code == 0 and f"{len(moves)} moves" in err
        _, pictures = page_data(page.read_text(encoding="utf-8"))
        assert ET.fromstring(pictures[-1]).find(SVG + "title").text.endswith(
            play_moves(start, moves)[-1].layout())
    (tmp_path / "bad.txt").write_text("drag 2 1 3\n")
    code, _, err = aisle(["replay", "ten-across", "1", "--solution", str(tmp_path / "bad.txt"),
                          "--html", str(tmp_path / "bad.html")], capsys)
    assert code == 2 and "move 1 ('drag 2 1 3')" in err and not (tmp_path / "bad.html").exists()


def test_replay_solve_plays_the_solvers_solution(tmp_path, capsys):
    page = tmp_path / "solved.html"
    code, _, _ = aisle(["replay", "ten-across", "1", "--solve", "--timeout", "60",
                        "--html", str(page)], capsys)
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert "Result: won (solver: solved)" in text


def test_replay_of_an_auto_players_game(tmp_path, capsys):
    from solvers.players import get_player, play_game

    page = tmp_path / "p.html"
    code, _, err = aisle(["replay", "zebra", "2", "--player", "greedy", "--html", str(page)], capsys)
    assert code == 0 and page.exists()
    record = play_game(get_game("zebra").deal(2), get_player("greedy", seed=0))
    assert f"{len(record.moves)} moves" in err
    code, _, err = aisle(["replay", "zebra", "2", "--player", "bogus", "--html", str(page)], capsys)
    assert code == 2 and "'bogus'" in err and len(err.strip().splitlines()) == 1


def test_moves_back_and_forth_store_each_picture_once():
    """A long solution that repeats positions (the issue's 47,000-move page held 90 KB a move)
    stores each distinct picture once; the frames only name them."""
    start = get_game("ten-across").deal(1)
    pair = ["drag 0 1 4", "drag 4 1 0"]
    page = replay_html(start, pair * 500)
    data, pictures = page_data(page)
    assert len(data["frames"]) == 1001 and len(data["pictures"]) <= 3
    assert pictures[2] == pictures[4] and pictures[1] == pictures[999]
