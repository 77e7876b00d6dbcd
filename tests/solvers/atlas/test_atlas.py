"""The atlas (solvers/atlas, solvers/studies/atlas_build.py): a small range built from scratch,
re-checked, graded and packed reads back what the store holds; corrupt or mismatched files are
refused; lookups outside the range say so or compute; the command line reads it."""
import json

import numpy as np
import pytest

import solvers.atlas as atlas_mod
from rules import get_game
from solvers.atlas import (NOT_COVERED, UNSOLVABLE, WINNABLE, Atlas, AtlasError, from_log_byte, log_byte,
                           lookup)
from solvers.atlas.pack import pack
from solvers.cli.main import main as cli_main
from solvers.core.registry import get_solver
from solvers.studies.atlas_batch import plain_search
from solvers.studies.atlas_build import build, check_unsolvable, grade, undecided, variant_settings
from solvers.studies.seeds import parse_seeds
from solvers.studies.store import UNKNOWN_CODE, ResultsStore

YUKON_SEEDS = "1-40"           # 4, 8, 14, ... unsolvable; the rest winnable in milliseconds


@pytest.fixture(scope="module")
def yukon_store(tmp_path_factory):
    """Yukon seeds 1-40 built with a node limit small enough to leave some unknown, then
    retried without it, re-checked and graded by two greedy games each."""
    db = str(tmp_path_factory.mktemp("atlas") / "atlas.sqlite")
    first = build("yukon", YUKON_SEEDS, max_nodes=300, db=db, jobs=1)
    retried = build("yukon", YUKON_SEEDS, timeout=20, retry_unknown=True, db=db, jobs=1)
    check_unsolvable("yukon", timeout=20, db=db, jobs=1)
    grade("yukon", YUKON_SEEDS, games=2, player={"name": "greedy"}, db=db, jobs=1)
    return db, first, retried


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    """An empty folder as the package's atlas folder, read afresh."""
    monkeypatch.setattr(atlas_mod, "DATA_DIR", tmp_path)
    atlas_mod._load.cache_clear()
    yield tmp_path
    atlas_mod._load.cache_clear()


def test_log_bytes_round_trip_within_19_percent():
    values = np.array([1, 2, 3, 10, 999, 123456, 2**30], dtype=np.int64)
    back = from_log_byte(log_byte(values))
    assert np.all(np.abs(back / values - 1) < 0.19)
    assert log_byte([-1])[0] == 0 and np.isnan(from_log_byte([0])[0])


def test_retry_decides_what_the_first_pass_left_unknown(yukon_store):
    db, first, retried = yukon_store
    assert first.stats.unknown > 0                      # the node limit left some
    assert retried is not None and retried.stats.unknown == 0
    with ResultsStore(db) as store:
        assert len(undecided(store, variant_settings("yukon"), parse_seeds(YUKON_SEEDS))) == 0


def test_packed_atlas_matches_a_fresh_solve(yukon_store, tmp_path):
    db, _, _ = yukon_store
    path, packed = pack("yukon", YUKON_SEEDS, db=db, out=str(tmp_path / "y.atlas"))
    atlas = Atlas.read(path)
    assert atlas.header == packed.header and atlas.count == 40
    solver = get_solver("yukon")
    for seed in range(1, 41):
        entry = atlas.entry(seed)
        result = solver.solve(get_game("yukon").deal(seed), timeout=20)
        assert entry.verdict == {"solved": WINNABLE, "unsolvable": UNSOLVABLE}[result.verdict]
        assert entry.length == (result.atomic_length if result.solved else None)
        assert entry.nodes is not None and entry.seconds is not None
    c = atlas.counts()
    v = atlas.header["verification"]
    assert v["replayed"] == c[WINNABLE] and v["contradicted"] == 0
    assert v["checked"] == c[UNSOLVABLE] == v["confirmed"] + v["out_of_time"]   # all, when few
    assert atlas.header["unsolvable_seeds"] == [s for s in range(1, 41) if atlas.entry(s).verdict == UNSOLVABLE]
    graded = [atlas.entry(s) for s in range(1, 41) if atlas.entry(s).verdict == WINNABLE]
    assert graded and all(e.games == 2 and 0 <= e.won <= 2 and e.grade for e in graded)
    assert atlas.entry(41).verdict == NOT_COVERED and atlas.entry(0).verdict == NOT_COVERED


def test_pack_refuses_gaps_clashes_and_contradictions(yukon_store, tmp_path):
    db, _, _ = yukon_store
    with pytest.raises(AtlasError, match="not stored"):
        pack("yukon", "1-41", db=db, out=str(tmp_path / "x.atlas"))
    with pytest.raises(AtlasError, match="one range"):
        pack("yukon", "1-5,7-9", db=db, out=str(tmp_path / "x.atlas"))
    clash = str(tmp_path / "clash.sqlite")
    build("yukon", "1-5", timeout=20, db=clash, jobs=1)
    with ResultsStore(clash) as store:            # a second "run" that calls winnable seed 1 unsolvable
        settings = {**store.runs()[0], "timeout": 99.0}
        settings.pop("run_id"), settings.pop("created")
        rid = store.run_id(settings)
        store.add_batch(rid, {"seed": np.array([1]), "verdict": np.array([2], np.int8),
                              "length": np.array([-1]), "nodes": np.array([1]), "seconds": np.array([0.1])}, "t")
    with pytest.raises(AtlasError, match="differently"):
        pack("yukon", "1-5", db=clash, out=str(tmp_path / "x.atlas"))


def test_the_limits_named_are_those_of_runs_with_verdicts_in_the_range(tmp_path):
    """A run begun (its settings stored) but with nothing stored yet, e.g. a longer retry just
    started, is not named among the limits the atlas was built with."""
    db = str(tmp_path / "one.sqlite")
    build("yukon", "1-5", timeout=20, db=db, jobs=1)
    with ResultsStore(db) as store:
        settings = {**store.runs()[0], "timeout": 300.0}
        settings.pop("run_id"), settings.pop("created")
        store.run_id(settings)                       # registered, no rows
    _, atlas = pack("yukon", "1-5", db=db, out=str(tmp_path / "y.atlas"))
    assert atlas.header["build"]["limits"] == ["timeout=20s"]


def test_a_retry_packs_onto_the_atlas_of_a_store_now_gone(yukon_store, tmp_path):
    """The unknown seeds of an atlas packed before are retried, re-checked and graded in a new
    store and packed onto it: the result is the atlas one store holding every run gives."""
    db, _, _ = yukon_store
    _, whole = pack("yukon", YUKON_SEEDS, db=db, out=str(tmp_path / "whole.atlas"))
    first = str(tmp_path / "first.sqlite")
    build("yukon", YUKON_SEEDS, max_nodes=300, db=first, jobs=1)
    check_unsolvable("yukon", timeout=20, db=first, jobs=1)
    grade("yukon", YUKON_SEEDS, games=2, player={"name": "greedy"}, db=first, jobs=1)
    base_path, base = pack("yukon", YUKON_SEEDS, db=first, out=str(tmp_path / "base.atlas"))
    unknown = base.header["unknown_seeds"]
    assert unknown and all(base.games_won(s) is None for s in unknown)   # not graded while unknown
    retry, seeds = str(tmp_path / "retry.sqlite"), ",".join(map(str, unknown))
    build("yukon", seeds, timeout=20, db=retry, jobs=1)
    check_unsolvable("yukon", timeout=20, db=retry, jobs=1)
    grade("yukon", seeds, games=2, player={"name": "greedy"}, db=retry, jobs=1)
    _, merged = pack("yukon", YUKON_SEEDS, db=retry, base=base_path, out=str(tmp_path / "merged.atlas"))
    for name in ("verdict", "length", "won"):
        assert np.array_equal(merged.columns[name], whole.columns[name]), name
    kept = np.setdiff1d(np.arange(1, 41), unknown) - 1
    for name in ("nodes", "micros"):                # the base's effort bytes pack back unchanged
        assert np.array_equal(merged.columns[name][kept], base.columns[name][kept])
    h, w = merged.header, whole.header
    assert h["unknown_seeds"] == [] and h["unsolvable_seeds"] == w["unsolvable_seeds"]
    assert h["build"]["limits"] == w["build"]["limits"] and h["grades"] == w["grades"]
    v = h["verification"]
    assert v["checked"] == w["verification"]["checked"] == v["confirmed"] + v["out_of_time"]
    assert v["replayed"] == merged.counts()[WINNABLE] and v["contradicted"] == 0


def test_packing_again_onto_a_file_packed_from_the_same_store_counts_nothing_twice(tmp_path):
    """A long retry is packed onto the shipped file as it goes, each time onto the file the last
    pack wrote: its re-checks and search time are those of one pack onto the first file."""
    first = str(tmp_path / "first.sqlite")
    build("yukon", YUKON_SEEDS, max_nodes=300, db=first, jobs=1)
    base_path, base = pack("yukon", YUKON_SEEDS, db=first, out=str(tmp_path / "base.atlas"))
    hard = base.header["unknown_seeds"]            # winnable in more than 300 nodes
    unsolvable = base.header["unsolvable_seeds"]   # proved without a search: made unknown here
    assert len(hard) >= 2 and len(unsolvable) >= 2
    verdict = base.columns["verdict"].copy()
    verdict[np.array(unsolvable) - 1] = UNKNOWN_CODE
    header = {**base.header, "unknown_seeds": sorted(hard + unsolvable), "unsolvable_seeds": []}
    (tmp_path / "base.atlas").write_bytes(Atlas(header, {**base.columns, "verdict": verdict}).to_bytes())
    early, late = unsolvable[:1] + hard[:1], unsolvable[1:] + hard[1:]
    retry = str(tmp_path / "retry.sqlite")
    build("yukon", ",".join(map(str, early)), timeout=20, db=retry, jobs=1)
    build("yukon", ",".join(map(str, late)), max_nodes=50, db=retry, jobs=1)   # hard ones unknown
    check_unsolvable("yukon", timeout=20, db=retry, jobs=1)
    once_path, once = pack("yukon", YUKON_SEEDS, db=retry, base=base_path, out=str(tmp_path / "once.atlas"))
    assert once.header["unknown_seeds"] == hard[1:]
    assert once.header["verification"]["checked"] == len(unsolvable)
    build("yukon", ",".join(map(str, hard[1:])), timeout=20, db=retry, jobs=1)
    check_unsolvable("yukon", timeout=20, db=retry, jobs=1)
    _, again = pack("yukon", YUKON_SEEDS, db=retry, base=once_path, out=str(tmp_path / "again.atlas"))
    _, direct = pack("yukon", YUKON_SEEDS, db=retry, base=base_path, out=str(tmp_path / "direct.atlas"))
    assert again.header["unknown_seeds"] == direct.header["unknown_seeds"] == []
    assert again.header["verification"] == direct.header["verification"]
    assert again.header["verification"]["checked"] == len(unsolvable)      # none counted twice
    assert again.header["build"]["search_seconds"] == pytest.approx(direct.header["build"]["search_seconds"],
                                                                    abs=0.2)
    assert again.header["build"]["search_seconds"] > once.header["build"]["search_seconds"]
    assert np.array_equal(again.columns["verdict"], direct.columns["verdict"])


def test_a_range_packed_beside_its_base_and_the_refusals(yukon_store, tmp_path):
    db, _, _ = yukon_store
    _, whole = pack("yukon", YUKON_SEEDS, db=db, out=str(tmp_path / "whole.atlas"))
    base_path, _ = pack("yukon", "1-20", db=db, out=str(tmp_path / "base.atlas"))
    more = str(tmp_path / "more.sqlite")
    build("yukon", "21-40", timeout=20, db=more, jobs=1)
    _, merged = pack("yukon", YUKON_SEEDS, db=more, base=base_path, out=str(tmp_path / "m.atlas"))
    assert np.array_equal(merged.columns["verdict"], whole.columns["verdict"])
    assert merged.graded_last() == 20 == merged.header["grades"]["last"]   # 21-40 not graded here
    out = tmp_path / "cli.atlas"
    assert cli_main(["atlas", "pack", "yukon", "--seeds", YUKON_SEEDS, "--db", more, "--base", base_path,
                     "--out", str(out)]) == 0
    assert Atlas.read(out).header["build"]["note"] == merged.header["build"]["note"]   # the base's
    with pytest.raises(AtlasError, match="beyond the range"):
        pack("yukon", "1-10", db=more, base=base_path, out=str(tmp_path / "x.atlas"))
    graded_otherwise = str(tmp_path / "graded.sqlite")      # one game a deal, the base two
    build("yukon", "21-40", timeout=20, db=graded_otherwise, jobs=1)
    grade("yukon", "21-40", games=1, player={"name": "greedy"}, db=graded_otherwise, jobs=1)
    with pytest.raises(AtlasError, match="the base atlas by 2 games"):
        pack("yukon", YUKON_SEEDS, db=graded_otherwise, base=base_path, out=str(tmp_path / "x.atlas"))
    with pytest.raises(AtlasError, match="not stored"):
        pack("yukon", "1-41", db=more, base=base_path, out=str(tmp_path / "x.atlas"))
    other = Atlas.read(base_path)
    other.header["options"] = {"draw": 3}
    (tmp_path / "other.atlas").write_bytes(other.to_bytes())
    with pytest.raises(AtlasError, match="not yukon"):
        pack("yukon", YUKON_SEEDS, db=more, base=str(tmp_path / "other.atlas"), out=str(tmp_path / "x.atlas"))
    with ResultsStore(more) as store:              # a run that calls a winnable seed of the base unsolvable
        settings = {**store.runs()[0], "timeout": 99.0}
        settings.pop("run_id"), settings.pop("created")
        seed = next(s for s in range(1, 21) if whole.entry(s).verdict == WINNABLE)
        store.add_batch(store.run_id(settings), {"seed": np.array([seed]), "verdict": np.array([2], np.int8),
                                                 "length": np.array([-1]), "nodes": np.array([1]),
                                                 "seconds": np.array([0.1])}, "t")
    with pytest.raises(AtlasError, match=f"seed {seed} differently"):
        pack("yukon", YUKON_SEEDS, db=more, base=base_path, out=str(tmp_path / "x.atlas"))


@pytest.mark.parametrize("damage", ["payload", "header", "magic", "truncate"])
def test_a_damaged_file_is_refused(yukon_store, tmp_path, damage):
    db, _, _ = yukon_store
    path, _ = pack("yukon", YUKON_SEEDS, db=db, out=str(tmp_path / "y.atlas"))
    data = bytearray(open(path, "rb").read())
    if damage == "payload":
        data[-5] ^= 0xFF
    elif damage == "header":
        data[20] = ord("}")
    elif damage == "magic":
        data[0] = ord("X")
    else:
        data = data[: len(data) // 2]
    with pytest.raises(AtlasError):
        Atlas.from_bytes(bytes(data))


def test_other_deals_make_every_lookup_fail_loudly(yukon_store, tmp_path):
    db, _, _ = yukon_store
    _, atlas = pack("yukon", YUKON_SEEDS, db=db, out=str(tmp_path / "y.atlas"))
    atlas.header["deal_digest"] = "0" * 64            # as if the rules dealt other cards
    moved = Atlas.from_bytes(atlas.to_bytes())
    with pytest.raises(AtlasError, match="other deals"):
        moved.entry(3)
    with pytest.raises(AtlasError, match="other deals"):
        moved.split(parse_seeds("1-10"))


def test_lookup_outside_the_atlas_says_so_or_computes(yukon_store, data_dir):
    db, _, _ = yukon_store
    pack("yukon", YUKON_SEEDS, db=db)
    assert (data_dir / "yukon.atlas").exists()
    assert lookup("yukon", 3).verdict == WINNABLE
    assert lookup("yukon", 41).verdict == NOT_COVERED
    computed = lookup("yukon", 41, compute=True)
    assert computed.verdict in (WINNABLE, UNSOLVABLE) and computed.seconds is not None
    assert lookup("zebra", 1).verdict == NOT_COVERED           # no zebra atlas in this folder


def test_command_line_reads_the_atlas(yukon_store, data_dir, capsys):
    db, _, _ = yukon_store
    pack("yukon", YUKON_SEEDS, db=db)
    assert cli_main(["atlas", "info"]) == 0
    out, _ = capsys.readouterr()
    assert "yukon: seeds 1-40" in out and "contradicted" in out
    assert cli_main(["atlas", "lookup", "yukon", "4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr()[0])["verdict"] == lookup("yukon", 4).verdict
    assert cli_main(["atlas", "lookup", "yukon", "99", "--no-compute"]) == 0
    assert "not covered" in capsys.readouterr()[0]
    assert cli_main(["winrate", "yukon", "--seeds", "1-40", "--no-db"]) == 0
    out, err = capsys.readouterr()
    c = Atlas.read(data_dir / "yukon.atlas").counts()
    assert f"{c[WINNABLE]}" in out and "40 seeds read from the atlas" in err and "run now" not in err
    winnable = [s for s in range(1, 41) if lookup("yukon", s).verdict == WINNABLE]
    assert cli_main(["deals", "yukon", "--winnable", "--count", "3", "--games", "2", "--no-db"]) == 0
    out, err = capsys.readouterr()
    assert [int(line.split()[0]) for line in out.splitlines()] == winnable[:3]
    assert "read from the atlas" in err


def test_plain_search_confirms_and_finds_wins():
    clock = get_game("clock")
    won = next(s for s in range(1, 200) if get_solver("clock").solve(clock.deal(s)).solved)
    lost = next(s for s in range(1, 200) if not get_solver("clock").solve(clock.deal(s)).solved)
    assert plain_search(clock.deal(won))[0] == "solved"
    assert plain_search(clock.deal(lost))[0] == "unsolvable"
    assert plain_search(get_game("yukon").deal(14), timeout=30)[0] == "unsolvable"
    verdict, nodes, seconds = plain_search(get_game("yukon").deal(41), timeout=0.3)   # 2.5M+ positions
    assert verdict == "unknown" and nodes > 100 and seconds < 1.0
