"""The SQLite results store (solvers/studies/store.py): runs keyed by their settings, batches
checked before they are stored, read back, resumed, and databases of other programs refused."""
import sqlite3

import numpy as np
import pytest

from solvers.studies import dispatch
from solvers.studies.seeds import parse_seeds
from solvers.studies.store import (APPLICATION_ID, CORE_SETTINGS, SCHEMA_VERSION, ResultsStore,
                                    StoreError)
from solvers.studies.report import format_table, plot_title, summarize
from solvers.studies.winrate import estimate_win_rate


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


SETTINGS = {"game": "zebra", "numbering": "aisleriot", "rules": "aisleriot", "options": {},
            "timeout": None, "max_nodes": 1000}


def _batch(seeds, verdicts, lengths=None):
    """A batch of rows: verdict codes 0 unknown, 1 solved, 2 unsolvable; a length per solved deal."""
    from solvers.core.solver import empty_columns

    batch = empty_columns(np.array(seeds, np.int64))
    batch["verdict"][:] = verdicts
    batch["length"][:] = [(lengths or {}).get(s, 40 + s) if v == 1 else -1
                          for s, v in zip(seeds, verdicts)]
    batch["nodes"][:] = [10 * s for s in seeds]
    batch["seconds"][:] = [0.5 * s for s in seeds]
    return batch


def test_batches_read_back_as_written(tmp_path):
    """Rows come back in seed order whichever order the batches came in, with their verdict,
    length (none unless solved), nodes, seconds and the library version that wrote them."""
    db = tmp_path / "r.sqlite"
    with ResultsStore(db) as store:
        run = store.run_id(SETTINGS)
        assert store.add_batch(run, _batch([7, 5], [2, 1]), "v1") == 2
        assert store.add_batch(run, _batch([6], [0]), "v2") == 1
    with ResultsStore(db, readonly=True) as store:
        cols = store.arrays(run)
        assert cols["seed"].tolist() == [5, 6, 7]
        assert cols["verdict"].tolist() == [1, 0, 2]
        assert cols["length"].tolist() == [45, -1, -1]
        assert cols["nodes"].tolist() == [50, 60, 70] and cols["seconds"].tolist() == [2.5, 3.0, 3.5]
        assert store.counts(run) == {"solved": 1, "unsolvable": 1, "unknown": 1}
        assert store.counts(run, parse_seeds("6-9")) == {"solved": 0, "unsolvable": 1, "unknown": 1}
        assert store.versions(run) == ["v1", "v2"]
        rows = list(store.deal_rows(run))
        assert [(r["game"], r["seed"], r["verdict"], r["length"]) for r in rows] == [
            ("zebra", 5, "solved", 45), ("zebra", 6, "unknown", None), ("zebra", 7, "unsolvable", None)]
        assert [run_["max_nodes"] for run_ in store.runs()] == [1000]


def test_resume_skips_stored_seeds(tmp_path):
    """The seeds already stored for a run are left out of the batches still to do; unknown
    deals count as done unless they are to be retried; another run's seeds do not count."""
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.run_id(SETTINGS)
        other = store.run_id(dict(SETTINGS, max_nodes=5))
        store.add_batch(run, _batch([2, 3, 5], [1, 0, 2]), "v1")
        store.add_batch(other, _batch([1, 4], [2, 2]), "v1")
        seeds = parse_seeds("1-6")
        done = store.done_seeds(run, seeds)
        assert done.tolist() == [2, 3, 5] and done.dtype == np.int64
        assert [b.tolist() for b in seeds.batches(2, exclude=done)] == [[1, 4], [6]]
        retry = store.done_seeds(run, seeds, include_unknown=False)
        assert [b.tolist() for b in seeds.batches(10, exclude=retry)] == [[1, 3, 4, 6]]
        assert store.done_seeds(run, parse_seeds("4-9")).tolist() == [5]


def test_a_stored_seed_is_kept_unless_replaced(tmp_path):
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.run_id(SETTINGS)
        store.add_batch(run, _batch([1, 2], [0, 2]), "v1")
        assert store.add_batch(run, _batch([1, 3], [1, 1]), "v2") == 1      # seed 1 kept as it was
        assert store.arrays(run)["verdict"].tolist() == [0, 2, 1]
        assert store.add_batch(run, _batch([1], [1]), "v3", replace=True) == 1
        assert store.arrays(run)["verdict"].tolist() == [1, 2, 1]
        assert store.counts(run) == {"solved": 2, "unsolvable": 1, "unknown": 0}


def test_the_schema_on_disk(tmp_path):
    """A new file gets the documented tables, view and marks; a file whose schema version is
    not this library's is refused."""
    db = tmp_path / "r.sqlite"
    ResultsStore(db).close()
    with sqlite3.connect(db) as conn:
        names = dict(conn.execute("SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        columns = [r[1] for r in conn.execute("PRAGMA table_info(results)")]
    assert names == {"meta": "table", "runs": "table", "results": "table", "deals": "view"}
    assert meta == {"application": "aisle-solvers", "schema_version": str(SCHEMA_VERSION)}
    assert app_id == APPLICATION_ID
    assert columns == ["run_id", "seed", "verdict", "length", "nodes", "seconds", "version"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(StoreError, match="schema version 99"):
        ResultsStore(db)


def test_run_settings_need_every_core_setting(tmp_path):
    with ResultsStore(":memory:") as store:
        for key in CORE_SETTINGS:
            with pytest.raises(StoreError, match=key):
                store.run_id({k: v for k, v in SETTINGS.items() if k != key})
        assert store.run_id(SETTINGS, create=False) is None
        run = store.run_id(SETTINGS)
        assert store.run_id(dict(SETTINGS), create=False) == run
    assert list(tmp_path.iterdir()) == []
