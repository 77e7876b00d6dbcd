"""Verdicts, solutions and node counts on fixed deals stay what they were.

``data/golden_solves.json`` was recorded from commit 6fe944d (before the solvers shared one
interface): for each case the verdict, the nodes expanded, the states stored and the moves.
Any change to a search that alters one of them must be deliberate and re-record the cases it
alters (the file's history says which and why)."""
import json
import pathlib

import pytest

from rules import get_game
from solvers import get_solver

CASES = json.loads((pathlib.Path(__file__).parent / "data" / "golden_solves.json").read_text())


def _key(case):
    extra = f"-n{case['max_nodes']}" if "max_nodes" in case else ""
    opts = "".join(f"-{k}={v}" for k, v in case["options"].items())
    return f"{case['game']}-{case['seed']}-{case['method']}-{case['rules']}{opts}{extra}"


def _check(case, result):
    assert result.verdict == case["verdict"]
    assert result.nodes_expanded == case["nodes"]
    assert result.states_stored == case["stored"]
    assert [str(m) for m in result.moves] == case["moves"]


@pytest.mark.parametrize("case", [c for c in CASES if not c.get("batch")], ids=_key)
def test_solve_matches_recorded(case):
    game = get_game(case["game"])
    state = game.deal(case["seed"], **case["options"])
    result = get_solver(game).solve(state, method=case["method"], rules=case["rules"],
                                    max_nodes=case.get("max_nodes"))
    _check(case, result)
    if result.solved:
        assert result.verify()


def test_solve_many_matches_recorded():
    cases = [c for c in CASES if c.get("batch")]
    results = get_solver("freecell").solve_many([c["seed"] for c in cases])
    for case, result in zip(cases, results):
        assert result.deal == case["seed"]
        _check(case, result)
