"""Fixtures shared by the studies' and the command line's tests."""
import pytest

from solvers.studies.winrate import estimate_win_rate


@pytest.fixture
def two_rule_modes(tmp_path):
    """A results database with six Ten Across deals under each rule mode."""
    db = tmp_path / "modes.sqlite"
    for rules in ("aisleriot", "open"):
        estimate_win_rate("ten-across", "1-6", db=db, jobs=1, rules=rules, max_nodes=20_000)
    return db
