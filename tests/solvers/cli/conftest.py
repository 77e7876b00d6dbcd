import pytest

import solvers.atlas as atlas_files


@pytest.fixture(autouse=True)
def no_shipped_atlas(tmp_path_factory, monkeypatch):
    """The command-line tests solve what they ask for: the shipped atlas (which would answer
    winrate and deals for the seeds it covers) is swapped for an empty folder.  The atlas's own
    tests (tests/solvers/atlas) cover reading it."""
    monkeypatch.setattr(atlas_files, "DATA_DIR", tmp_path_factory.mktemp("no-atlas"))
    atlas_files._load.cache_clear()
    yield
    atlas_files._load.cache_clear()
