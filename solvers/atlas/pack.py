"""Packing the atlas: a variant's atlas runs in a results store merged into one compact file.

Every run ``aisle atlas build`` made for the variant counts (the first pass and the retries with
longer limits): a seed's verdict is the one a run decided, or unknown when every run left it
unknown, and two runs that decide a seed differently stop the packing (it would mean a bug, not
a harder deal).  The re-check runs (``aisle atlas check``) give the verification record: how many
unsolvable verdicts a plain search confirmed, ran out of time on, or contradicted; a
contradiction stops the packing too.  Grades come from the grading runs
(:mod:`solvers.studies.atlas_build`, :func:`~solvers.studies.atlas_build.grade`), for the
seeds at the start of the range they cover without a gap.

``base``: an atlas file packed before (the shipped one, say) stands in for the store's rows
where the store has none, so a longer retry of its unknown seeds, or a range beside it, can be
built into a new store and packed onto it when the first store is gone.  The base's verdicts,
verification record, grades, limits and search time carry over; the store's runs decide the
base's unknown seeds, and a store verdict that differs from a base verdict stops the packing.
Only the store's rows of seeds the base leaves unknown add to its search time and re-checks
(less the row the base itself holds for a seed still unknown), so packing again onto a file
packed from the same store counts nothing twice.
"""
import os
import time

import numpy as np

from rules import __version__, get_game
from solvers.atlas import (Atlas, AtlasError, deal_digest, digest_seeds, from_log_byte, log_byte,
                           shipped_path, variant_name)
from solvers.studies.atlas_build import (CHECK_ALL_UP_TO, CHECK_SHARE, atlas_runs, grade_runs,
                                         variant_settings)
from solvers.studies.seeds import parse_seeds
from solvers.studies.store import SOLVED_CODE, UNKNOWN_CODE, UNSOLVABLE_CODE, ResultsStore
from solvers.studies.winrate import limits_text

def pack(game, seeds, *, db, numbering=None, rules="aisleriot", options=None, out=None, note="",
         base=None):
    """Write the atlas file of seeds ``seeds`` (one range, every seed stored, or held by the atlas
    file ``base``) of a variant from the store ``db``; ``(path, Atlas)``.  ``out``: the file
    (default: the package's data folder); ``note``: how the build ran (default: the base's)."""
    variant = variant_settings(game, numbering, rules, options)
    seedset = parse_seeds(seeds, variant["numbering"])
    if len(seedset.ranges) != 1:
        raise AtlasError(f"an atlas covers one range of seeds, not {seedset}")
    first, last = seedset.ranges[0]
    count = last - first + 1
    base = _read_base(base, variant, first, last) if base is not None else None
    with ResultsStore(db, readonly=True) as store:
        runs = atlas_runs(store, variant)
        if not runs and base is None:
            raise AtlasError(f"{db!r} holds no atlas build of {variant_name(**variant)}")
        cols, limits, search_seconds = _merge(store, runs, first, count, base)
        verification = _verification(store, variant, cols, first, seedset, base)
        grades, graded_by = _grades(store, variant, cols, first, count, base)
    if base is not None:
        note = note or base.header["build"].get("note", "")
    verdict = cols["verdict"].astype(np.uint8)
    length = np.where(verdict == SOLVED_CODE, cols["length"], 0)
    columns = {"verdict": verdict,
               "length": length.astype(np.uint8 if length.max(initial=0) < 256 else np.uint16),
               "nodes": log_byte(cols["nodes"]), "micros": log_byte(cols["seconds"] * 1e6)}
    if grades is not None:
        columns["won"] = grades
    g = get_game(variant["game"])
    sample = digest_seeds(first, count)
    seeds_of = lambda code: (np.flatnonzero(verdict == code) + first).tolist()   # noqa: E731
    unsolvable = seeds_of(UNSOLVABLE_CODE)
    header = {**variant, "format": 1, "first": first, "count": count,
              "unknown_seeds": seeds_of(UNKNOWN_CODE),
              "unsolvable_seeds": unsolvable if len(unsolvable) <= 1000 else None,
              "digest_seeds": sample, "deal_digest": deal_digest(g, variant["numbering"], variant["options"], sample),
              "verification": verification, "grades": graded_by,
              "build": {"library_version": __version__, "limits": limits, "note": note,
                        "search_seconds": round(search_seconds, 1), "packed": time.strftime("%Y-%m-%d")}}
    atlas = Atlas(header, columns)
    path = out or str(shipped_path(**variant))
    data = atlas.to_bytes()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path, Atlas.from_bytes(data, path)


def _read_base(path, variant, first, last):
    """The base atlas file, refused unless it is of ``variant``, its deals are today's and it
    lies inside the range packed, ``first .. last`` (else its re-check record would not hold)."""
    atlas = Atlas.read(path)
    if atlas.variant() != variant:
        raise AtlasError(f"the base atlas {str(path)!r} is of {atlas.name()}, not {variant_name(**variant)}")
    if not (first <= atlas.first and atlas.last <= last):
        raise AtlasError(f"the base atlas covers seeds {atlas.first}-{atlas.last}, beyond the range "
                         f"packed ({first}-{last}); its re-check record would not hold")
    atlas.check_deals()
    return atlas


def _overlap(base, first):
    """``(i, j)``: the base's seeds' positions in the packed range (which holds them all) and in
    the base."""
    j = np.arange(base.count)
    return j + base.first - first, j


def _new_to_base(base, seeds, c=None):
    """Which rows of ``seeds`` are news to the base atlas (all of them without a base): rows of
    seeds it leaves unknown (or does not cover), except, given the rows' columns ``c``, an
    unknown row with the effort bytes the base holds for its seed (the base was packed from it)."""
    if base is None:
        return np.ones(seeds.shape, bool)
    j = seeds - base.first
    inside = (j >= 0) & (j < base.count)
    jj = np.where(inside, j, 0)
    news = ~inside | (base.columns["verdict"][jj] == UNKNOWN_CODE)
    if c is not None:
        same = ((c["verdict"] == UNKNOWN_CODE)
                & (log_byte(c["nodes"]) == base.columns["nodes"][jj])
                & (log_byte(c["seconds"] * 1e6) == base.columns["micros"][jj]))
        news &= ~(inside & same)
    return news


def _merge(store, runs, first, count, base=None):
    """Per-seed columns over ``first .. first+count-1`` from the base atlas, then every run: the
    deciding row, else the last unknown row; the limits of each run with rows there; the search
    seconds of all rows (and the base's).  Effort is kept as a none-sentinel of -1, which
    :func:`log_byte` packs as 0, so a base's effort bytes pack back unchanged."""
    merged = {"verdict": np.full(count, -1, np.int8), "length": np.full(count, -1, np.int64),
              "nodes": np.full(count, -1.0), "seconds": np.zeros(count)}
    limits, seconds = [], 0.0
    if base is not None:
        i, j = _overlap(base, first)
        c = base.columns
        merged["verdict"][i] = c["verdict"][j]
        merged["length"][i] = np.where(c["verdict"][j] == SOLVED_CODE, c["length"][j], -1)
        merged["nodes"][i] = np.nan_to_num(from_log_byte(c["nodes"][j]), nan=-1.0)
        merged["seconds"][i] = np.nan_to_num(from_log_byte(c["micros"][j]) / 1e6, nan=-1.0)
        limits += base.header["build"]["limits"]
        seconds += base.header["build"]["search_seconds"]
    for run in sorted(runs, key=lambda r: (r.get("timeout") or 0, r["run_id"])):
        c = store.arrays(run["run_id"])
        keep = (c["seed"] >= first) & (c["seed"] < first + count)
        if not keep.any():
            continue                        # a run begun but with nothing stored in the range
        limit = limits_text(run) + (f",threads={run['threads']}" if run.get("threads") else "")
        limits += [limit] if limit not in limits else []
        news = _new_to_base(base, c["seed"][keep], {k: c[k][keep] for k in ("verdict", "nodes", "seconds")})
        seconds += float(c["seconds"][keep][news].sum())
        i = c["seed"][keep] - first
        v = c["verdict"][keep]
        had = merged["verdict"][i]
        clash = (had > UNKNOWN_CODE) & (v > UNKNOWN_CODE) & (had != v)
        if clash.any():
            seed = int(i[clash][0] + first)
            raise AtlasError(f"two builds (or a build and the base atlas) decide seed {seed} differently; "
                             "the atlas is not packed")
        take = had <= UNKNOWN_CODE          # runs go shortest limits first: a later unknown is the longer try
        for name in merged:
            merged[name][i[take]] = c[name][keep][take]
    missing = np.flatnonzero(merged["verdict"] < 0)
    if missing.size:
        raise AtlasError(f"{missing.size} seeds of the range are not stored (the first: {int(missing[0]) + first}); "
                         "run 'aisle atlas build' over the range first")
    return merged, limits, seconds


def _verification(store, variant, cols, first, seedset, base=None):
    """The re-check record: the base's plus the store's re-checks of seeds the base leaves
    unknown; every solution was replayed by the referee before it was stored."""
    replayed = int(np.count_nonzero(cols["verdict"] == SOLVED_CODE))
    out = {"replayed": replayed, "checked": 0, "confirmed": 0, "out_of_time": 0, "contradicted": 0,
           "check_timeout": 0.0, "check_rule": f"every unsolvable verdict up to {CHECK_ALL_UP_TO}, "
                                               f"else a random {CHECK_SHARE:.0%} (at least {CHECK_ALL_UP_TO})"}
    if base is not None:
        v = base.header["verification"]
        out.update({k: v[k] for k in ("checked", "confirmed", "out_of_time", "contradicted", "check_timeout")})
    for run in atlas_runs(store, variant, check=True):
        c = store.arrays(run["run_id"])
        keep = seedset.mask(c["seed"])
        keep[keep] = _new_to_base(base, c["seed"][keep])     # the base counts its own verdicts' checks
        seeds, v = c["seed"][keep], c["verdict"][keep]
        if seeds.size == 0:
            continue
        if np.any(cols["verdict"][seeds - first] != UNSOLVABLE_CODE):
            raise AtlasError(f"a re-check run holds seeds the atlas does not call unsolvable ({run['run_id']})")
        bad = seeds[v == SOLVED_CODE]
        if bad.size:
            raise AtlasError(f"the plain search won seed {int(bad[0])}, which the atlas calls unsolvable; "
                             "the atlas is not packed")
        out["checked"] += int(seeds.size)
        out["confirmed"] += int(np.count_nonzero(v == UNSOLVABLE_CODE))
        out["out_of_time"] += int(np.count_nonzero(v == UNKNOWN_CODE))
        out["check_timeout"] = max(out["check_timeout"], run.get("timeout") or 0.0)
    return out


def _grades(store, variant, cols, first, count, base=None):
    """The ``won`` column (1 + games won, 0 for a deal not graded) over the graded seeds from
    ``first`` on, and how they were graded; (None, None) when nothing is graded.  The base's
    grades count where the store's grading runs (the same player and games) did not play."""
    runs = grade_runs(store, variant)
    graded_before = base is not None and base.header.get("grades")
    if not runs and not graded_before:
        return None, None
    won = np.zeros(count, np.int64)
    played = np.zeros(count, bool)
    if graded_before:
        i, j = _overlap(base, first)
        g = np.zeros(base.count, np.int64)
        g[:base.columns["won"].shape[0]] = base.columns["won"]
        played[i], won[i] = g[j] > 0, np.maximum(g[j] - 1, 0)
    if runs:
        store_played, store_won = np.zeros(count, bool), np.zeros(count, np.int64)
        for k, run in enumerate(runs):
            c = store.arrays(run["run_id"])
            keep = (c["seed"] >= first) & (c["seed"] < first + count)
            here = np.zeros(count, bool)
            here[c["seed"][keep] - first] = True
            store_played = here if k == 0 else store_played & here
            store_won[c["seed"][keep] - first] += c["verdict"][keep] == SOLVED_CODE
        played |= store_played
        won[store_played] = store_won[store_played]
        player = runs[0]["player"]
        by = f"{len(runs)} games of {player['player']}" \
             f"({','.join(f'{k}={v}' for k, v in player.items() if k not in ('player', 'seed', 'peeks'))})" \
             f" with player seeds 0-{len(runs) - 1}"
        if graded_before and by != base.header["grades"]["by"]:
            raise AtlasError(f"the store grades by {by}, the base atlas by {base.header['grades']['by']}; "
                             "the atlas is not packed")
    else:
        by = base.header["grades"]["by"]
    games = len(runs) or base.header["grades"]["games"]
    winnable = cols["verdict"] == SOLVED_CODE
    covered = played | ~winnable                  # only winnable deals are graded
    n = int(np.argmin(covered)) if not covered.all() else count
    grades = np.where(winnable[:n] & played[:n], won[:n] + 1, 0).astype(np.uint8)
    return grades, {"by": by, "games": games, "last": first + n - 1}
