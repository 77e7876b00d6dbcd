"""Building the atlas: every seed of a range solved once, each solution replayed by the referee,
a sample of the unsolvable verdicts re-checked by a plain search, all kept in the results store.

A build is a win-rate run (:func:`solvers.studies.winrate.estimate_win_rate`: resumable, on
every core or a Dask cluster, with a progress bar) whose settings carry ``"atlas"``, so its rows
are kept apart from an ordinary run's and :func:`~solvers.studies.atlas_batch.atlas_batch` solves them: the game's default
method, every solution replayed by the game's independent referee before the batch is returned
(a refused replay fails the batch, so nothing unverified is stored) and its length counted in
atomic moves.  Retrying the unknown seeds with longer limits (and ``threads``) is another run of
the same variant; :mod:`solvers.atlas.pack` merges the runs, and a seed stays unknown
only when every run left it unknown.

The re-check (:func:`check_unsolvable`) is a run whose settings carry ``"check": "plain"``:
:func:`~solvers.studies.atlas_batch.plain_search` searches a deal again with the engine's own
kernels only (every action Aisleriot accepts, no pruning rule, no solver hash or heuristic)
under a time limit.  Its
verdict is ``unsolvable`` (confirmed), ``unknown`` (ran out of time or states) or ``solved``
(a contradiction, which packing refuses).
"""
import math

import numpy as np

from rules.errors import InvalidOptionError
from solvers.core.registry import get_solver
from solvers.core.workers import default_jobs
from solvers.studies.atlas_batch import CHECK_TIMEOUT
from solvers.studies.dispatch import make_settings
from solvers.studies.seeds import SeedSet, parse_seeds
from solvers.studies.store import SOLVED_CODE, UNKNOWN_CODE, UNSOLVABLE_CODE, ResultsStore
from solvers.studies.winrate import estimate_win_rate

ATLAS_RUN = 1              #: what an atlas run stores: verified solutions, lengths in atomic moves
CHECK_SHARE = 0.01         #: share of the unsolvable verdicts re-checked (at least)
CHECK_ALL_UP_TO = 100      #: every unsolvable verdict is re-checked when there are at most this many
CHECK_SEED = 20261205      #: the sample of verdicts to re-check is drawn with this seed


def variant_settings(game, numbering=None, rules="aisleriot", options=None):
    """The settings that say which deals a variant is: game, numbering, rule mode, options."""
    s = make_settings(game, numbering, rules, options)
    return {k: s[k] for k in ("game", "numbering", "rules", "options")}


def same_variant(run, variant):
    return all(run.get(k) == v for k, v in variant.items())


def atlas_runs(store, variant, check=False):
    """The runs of ``store`` that built (or, with ``check``, re-checked) ``variant``."""
    return [r for r in store.runs() if r.get("atlas") == ATLAS_RUN and same_variant(r, variant)
            and bool(r.get("check")) == check and not r.get("player")]


def grade_runs(store, variant):
    """The grading runs of ``variant``: one per player seed 0, 1, ... of the first grading
    player found, in player-seed order (a gap ends the list)."""
    runs = [r for r in store.runs() if r.get("atlas") == ATLAS_RUN and same_variant(r, variant)
            and r.get("player")]
    if not runs:
        return []
    params = lambda r: {k: v for k, v in r["player"].items() if k != "seed"}   # noqa: E731
    by_seed = {r["player"]["seed"]: r for r in runs if params(r) == params(runs[0])}
    out = []
    while len(out) in by_seed:
        out.append(by_seed[len(out)])
    return out


def build(game, seeds, *, numbering=None, rules="aisleriot", options=None, timeout=None,
          max_nodes=None, threads=1, retry_unknown=False, db, jobs=None, dask=None, progress=False):
    """Solve and verify every seed of ``seeds`` not yet in the store ``db`` for this variant and
    these limits (an :class:`solvers.studies.winrate.Estimate`).  ``retry_unknown``: only the
    seeds that every earlier run of the variant left unknown, under the (longer) limits given.
    ``threads`` > 1 gives each search that many cores (one search at a time)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise InvalidOptionError(f"threads {threads!r} must be a whole number of at least 1")
    variant = variant_settings(game, numbering, rules, options)
    seedset = parse_seeds(seeds, variant["numbering"])
    if retry_unknown:
        with ResultsStore(db) as store:
            seedset = undecided(store, variant, seedset)
        if not seedset:
            return None
    extra = {"atlas": ATLAS_RUN, "threads": threads if threads > 1 else None}
    solver = get_solver(variant["game"])
    return estimate_win_rate(variant["game"], seedset, numbering=variant["numbering"], rules=rules,
                             options=variant["options"], timeout=timeout, max_nodes=max_nodes,
                             jobs=1 if threads > 1 else (jobs or default_jobs()), db=db, dask=dask,
                             progress=progress, extra=extra,
                             batch_size=1000 if solver.IN_PROCESS else None)


def undecided(store, variant, seedset):
    """The seeds of ``seedset`` stored for ``variant`` that no atlas run decided."""
    seeds, verdicts = stored_verdicts(store, variant, seedset)
    return SeedSet.from_iterable(seeds[verdicts == UNKNOWN_CODE])


def stored_verdicts(store, variant, seedset=None):
    """``(seeds, verdict codes)``: every seed the atlas runs of ``variant`` stored (within
    ``seedset``), ascending, with the verdict a run decided, else unknown."""
    cols = [store.arrays(run["run_id"]) for run in atlas_runs(store, variant)]
    seeds = np.concatenate([c["seed"] for c in cols] or [np.empty(0, np.int64)])
    verdicts = np.concatenate([c["verdict"] for c in cols] or [np.empty(0, np.int8)])
    if seedset is not None:
        keep = seedset.mask(seeds)
        seeds, verdicts = seeds[keep], verdicts[keep]
    order = np.lexsort((verdicts == UNKNOWN_CODE, seeds))     # per seed, a decided row first
    seeds, verdicts = seeds[order], verdicts[order]
    first = np.unique(seeds, return_index=True)[1]
    return seeds[first], verdicts[first]


# ---- grading the winnable deals --------------------------------------------------------------
GRADE_PLAYER = {"name": "pimc", "samples": 5, "budget": 1000, "extend": 1}   #: the grading player
GRADE_GAMES = 4            #: games per winnable deal (player seeds 0 .. GRADE_GAMES-1)


def grade(game, seeds, *, numbering=None, rules="aisleriot", options=None, games=GRADE_GAMES,
          player=None, db, jobs=None, progress=False):
    """Play ``games`` no-peek games (player seeds 0, 1, ...) on every deal of ``seeds`` that an
    atlas run of the variant proved winnable; each game a row of a grading run of the store.
    Returns ``{"deals": winnable deals graded}``."""
    variant = variant_settings(game, numbering, rules, options)
    seedset = parse_seeds(seeds, variant["numbering"])
    with ResultsStore(db) as store:
        seeds, verdicts = stored_verdicts(store, variant, seedset)
    todo = seeds[verdicts == SOLVED_CODE]
    if todo.size == 0:
        return {"deals": 0}
    for k in range(games):
        estimate_win_rate(variant["game"], todo, numbering=variant["numbering"], rules=rules,
                          options=variant["options"], jobs=jobs or default_jobs(), db=db,
                          progress=progress, extra={"atlas": ATLAS_RUN},
                          player={**(player or GRADE_PLAYER), "seed": k})
    return {"deals": int(todo.size)}


# ---- re-checking unsolvable verdicts --------------------------------------------------------------
def check_sample(unsolvable_seeds, share=CHECK_SHARE):
    """The seeds to re-check: all of them when there are at most ``CHECK_ALL_UP_TO``, else a
    random ``share`` of them (at least ``CHECK_ALL_UP_TO``), drawn with ``CHECK_SEED``."""
    seeds = np.unique(np.asarray(unsolvable_seeds, dtype=np.int64))
    want = max(CHECK_ALL_UP_TO, math.ceil(share * seeds.size))
    if seeds.size <= want:
        return seeds
    return np.sort(np.random.default_rng(CHECK_SEED).choice(seeds, want, replace=False))


def check_unsolvable(game, *, numbering=None, rules="aisleriot", options=None, timeout=CHECK_TIMEOUT,
                     share=CHECK_SHARE, db, jobs=None, progress=False):
    """Re-check a sample (:func:`check_sample`) of the variant's unsolvable verdicts with
    :func:`~solvers.studies.atlas_batch.plain_search`; an Estimate of the check run (None when
    there is nothing to check)."""
    variant = variant_settings(game, numbering, rules, options)
    with ResultsStore(db) as store:
        seeds, verdicts = stored_verdicts(store, variant)
    seeds = check_sample(seeds[verdicts == UNSOLVABLE_CODE], share)
    if seeds.size == 0:
        return None
    return estimate_win_rate(variant["game"], seeds, numbering=variant["numbering"], rules=rules,
                             options=variant["options"], timeout=timeout, jobs=jobs or default_jobs(),
                             db=db, progress=progress, extra={"atlas": ATLAS_RUN, "check": "plain"},
                             batch_size=1)
