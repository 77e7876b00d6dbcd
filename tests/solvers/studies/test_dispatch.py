"""One deal or batch to its solver (solvers/studies/dispatch.py): Clock rows are the forced play,
Freecell goes through its solver, a limit is never a loss, and rule modes are checked first."""
import pytest

from rules.errors import AisleError
from solvers.studies import dispatch
from solvers.studies.winrate import estimate_win_rate


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
