"""The SQLite results store (solvers/studies/store.py): runs keyed by their settings, batches
checked before they are stored, read back, resumed, and databases of other programs refused."""
import numpy as np
import pytest

from solvers.studies import dispatch
from solvers.studies.store import ResultsStore, StoreError
from solvers.studies.winrate import estimate_win_rate, format_table, plot_title, summarize


def test_malformed_batches_are_never_stored(tmp_path):
    from solvers.core.solver import empty_columns

    with ResultsStore(tmp_path / "b.sqlite") as store:
        run = store.run_id(dispatch.make_settings("zebra"))
        good = empty_columns(np.array([1, 2], np.int64))
        good["verdict"][:] = [1, 2]
        good["length"][0] = 30
        bad_cases = []
        for column, row, value in (("verdict", 0, 7), ("length", 1, 12), ("length", 0, -1),
                                   ("seconds", 0, float("nan")), ("nodes", 0, -5), ("seed", 1, 1)):
            batch = {k: v.copy() for k, v in good.items()}
            batch[column][row] = value
            bad_cases.append(batch)
        bad_cases.append(dict(good, seconds=good["seconds"][:1]))
        bad_cases.append({k: v for k, v in good.items() if k != "nodes"})
        for batch in bad_cases:
            with pytest.raises(StoreError, match="batch"):
                store.add_batch(run, batch, "test")
        assert store.counts(run) == {"solved": 0, "unsolvable": 0, "unknown": 0}
        assert store.add_batch(run, good, "test") == 2


def test_a_new_setting_left_at_its_default_keeps_old_runs(tmp_path):
    from solvers.studies.store import settings_key

    db = tmp_path / "r.sqlite"
    old = estimate_win_rate("clock", "1-100", db=db, jobs=1)
    settings = dict(old.settings)
    assert settings_key(dict(settings, player=None)) == settings_key(settings)
    assert settings_key(dict(settings, player="greedy")) != settings_key(settings)
    with ResultsStore(db) as store:
        assert store.run_id(dict(settings, player=None)) == store.run_id(settings)
        other = store.run_id(dict(settings, player="greedy"))
        store.add_batch(other, dispatch.solve_batch(settings, np.arange(1, 11, dtype=np.int64)), "test")
        runs = store.runs()
    assert [run.get("player") for run in runs] == [None, "greedy"]
    rows = summarize(str(db))
    assert [(r["player"], r["deals"]) for r in rows] == [(None, 100), ("greedy", 10)]
    lines = format_table(rows).splitlines()
    assert lines[0].split()[5] == "player" and lines[1].split()[5] == "-" and lines[2].split()[5] == "greedy"
    assert "player greedy" in plot_title(runs[1]) and "player" not in plot_title(runs[0])
