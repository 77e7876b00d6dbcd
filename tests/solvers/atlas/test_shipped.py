"""The atlas files the package ships: they load fast, their deals are the ones these rules deal,
a fresh build of the first seeds of each gives the same verdicts, and the Freecell one agrees with
the published list of impossible Microsoft deals."""
import subprocess
import sys
import time

import numpy as np
import pytest

import solvers.atlas as atlas_mod
from solvers.atlas import UNSOLVABLE, UNKNOWN, WINNABLE, shipped
from solvers.studies.atlas_batch import atlas_batch
from solvers.studies.atlas_build import variant_settings

# The Microsoft deals below one million that no program can win (Freecell FAQ; fc-solve agrees)
MS_IMPOSSIBLE = [11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948]
FIRST_SEEDS = 24                # seeds at the start of each atlas rebuilt from scratch
CODES = {1: WINNABLE, 2: UNSOLVABLE, 0: UNKNOWN}


def _atlases():
    found = shipped()
    assert found, f"no atlas file in {atlas_mod.DATA_DIR}"
    return found


def test_every_shipped_file_reads_and_fits_the_size_budget():
    total = sum(p.stat().st_size for p in atlas_mod.DATA_DIR.glob("*" + atlas_mod.SUFFIX))
    assert total <= 5 * 2**20
    for atlas in _atlases():
        c = atlas.counts()
        assert sum(c.values()) == atlas.count
        assert atlas.header["unknown_seeds"] == [s for s in range(atlas.first, atlas.last + 1)
                                                 if atlas.columns["verdict"][s - atlas.first] == 0]
        v = atlas.header["verification"]
        assert v["replayed"] == c[WINNABLE] and v["contradicted"] == 0
        assert v["checked"] == v["confirmed"] + v["out_of_time"] <= c[UNSOLVABLE]
        assert v["checked"] >= min(c[UNSOLVABLE], max(100, int(np.ceil(0.01 * c[UNSOLVABLE]))))


def test_first_lookup_is_fast():
    """A fresh process, the largest file: its first lookup (read, checksum, decompress, deal
    check) well under a second once the deal kernel is cached, which the first run does."""
    atlas = max(_atlases(), key=lambda a: a.path and atlas_mod.pathlib.Path(a.path).stat().st_size)
    code = ("import time; from solvers.atlas import lookup; t = time.perf_counter(); "
            f"e = lookup({atlas.game!r}, {atlas.first}, numbering={atlas.header['numbering']!r}, "
            f"options={atlas.header['options']!r}); print(time.perf_counter() - t, e.verdict)")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)   # warm the cache
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    seconds, verdict = out.split()
    assert verdict in (WINNABLE, UNSOLVABLE, UNKNOWN) and float(seconds) < 1.0


@pytest.mark.parametrize("name", [a.name() for a in shipped()])
def test_a_fresh_build_of_the_first_seeds_gives_the_shipped_verdicts(name):
    atlas = next(a for a in shipped() if a.name() == name)
    h = atlas.header
    settings = {**variant_settings(h["game"], h["numbering"], h["rules"], h["options"]),
                "timeout": 30.0, "max_nodes": None, "atlas": 1}
    seeds = np.arange(atlas.first, atlas.first + FIRST_SEEDS, dtype=np.int64)
    t0 = time.perf_counter()
    fresh = atlas_batch(settings, seeds)           # every solution replayed by the referee
    for seed, code, length in zip(seeds.tolist(), fresh["verdict"].tolist(), fresh["length"].tolist()):
        entry = atlas.entry(seed)
        if code != 0 and entry.verdict != UNKNOWN:
            assert CODES[code] == entry.verdict, seed
        assert (entry.length or 0) > 0 if entry.verdict == WINNABLE else entry.length is None
    assert time.perf_counter() - t0 < 120


def test_freecell_impossible_deals_are_the_published_ones():
    atlas = next((a for a in _atlases() if a.game == "freecell" and a.header["numbering"] == "microsoft"), None)
    assert atlas is not None, "the Microsoft Freecell atlas is not shipped"
    unsolvable = atlas.header["unsolvable_seeds"]
    assert unsolvable == [d for d in MS_IMPOSSIBLE if atlas.covers(d)]
    assert atlas.counts()[UNKNOWN] == 0
