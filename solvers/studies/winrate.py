"""Win-rate estimation over many deals: batches on every core (or a Dask cluster) into SQLite.

:func:`estimate_win_rate` splits the seeds into batches, leaves out the seeds the results store
already holds for the same settings, solves the rest (in this process, or through a runner of
:mod:`solvers.studies.runners`: worker processes or Dask) and writes each batch back in one
transaction as it arrives.  Running it again continues where it stopped; a run stopped at any
moment, by Ctrl-C, ``kill`` or ``kill -9``, loses at most the batches in flight and never leaves
a partial batch (see :mod:`solvers.studies.store`).  It returns an :class:`Estimate`; the texts
that name a run's settings (:func:`settings_text` and its parts) are here too.  Reading a store
back (tables, plots) is :mod:`solvers.studies.report`.

A solver marked ``IN_PROCESS`` (Clock's forced play) is the exception to the worker processes:
its batch kernel is faster than SQLite can store the rows, and only the client writes, so worker
processes would add their start-up and nothing else.  It runs in the client unless ``jobs`` is
given, and there its kernel spreads each batch over every core with Numba's threads.
"""
import os
import time
from dataclasses import dataclass, field

import numpy as np

from rules.errors import InvalidOptionError, InvalidSeedError, shorten

from rules import __version__
from solvers.core.registry import get_solver
from solvers.studies.dispatch import make_settings, solve_batch, verdict_texts, warmup
from solvers.core.workers import check_local_jobs, default_jobs
from solvers.studies.progress import progress_bar
from solvers.studies.runners import run_dask, run_processes
from solvers.studies.seeds import parse_seeds
from solvers.studies.stats import WinRate, win_rate, z_value
from solvers.studies.store import CORE_SETTINGS, SOLVED_CODE, UNKNOWN_CODE, UNSOLVABLE_CODE, ResultsStore

IN_MEMORY = ":memory:"
MAX_NODES = 2**63 - 1        # node counts are 64-bit integers, in the kernels and in the store


@dataclass
class Estimate:
    """What :func:`estimate_win_rate` returns: the counts over the requested seeds and the run."""

    settings: dict
    seeds: str                 # canonical seed text
    stats: WinRate             # over every requested seed stored (resumed ones included)
    new_deals: int             # deals this call ran (each won, unsolvable or unknown)
    resumed_deals: int         # deals found in the store and skipped
    seconds: float
    db: str                    # the store's path, or ":memory:" when nothing is kept
    new_counts: dict = field(default_factory=dict)   # {"solved", "unsolvable", "unknown"} of new_deals

    @property
    def rate(self):
        return self.stats.rate

    @property
    def interval(self):
        return self.stats.low, self.stats.high

    def summary(self):
        w = self.stats
        return (f"{self.settings['game']} seeds {self.seeds} ({settings_text(self.settings)}): "
                f"{w.deals} deals, {w.won} won, {w.unsolvable} {self.lost_word}, {w.unknown} unknown; "
                f"win rate {w.text()} ({100 * w.confidence:g}% Wilson interval)")

    def run_text(self):
        """What this call did, e.g. ``1000000 deals run now (76719 won, 923281 unsolvable, 0 unknown),
        0 already stored in results.sqlite``."""
        c = self.new_counts
        where = ("kept in memory only, nothing stored" if self.db == IN_MEMORY
                 else f"{self.resumed_deals} already stored in {self.db}")
        return (f"{self.new_deals} deals run now ({c.get('solved', 0)} won, {c.get('unsolvable', 0)} "
                f"{self.lost_word}, {c.get('unknown', 0)} unknown), {where}")

    @property
    def lost_word(self):
        """A solver's losses are proofs (unsolvable); a player's are games it lost."""
        return "lost" if self.settings.get("player") else "unsolvable"


def settings_text(settings):
    """``rules open, aisleriot numbering, options spots=on, limits timeout=10s`` plus any setting
    beyond the core ones (such as who plays) that is not left at its default."""
    parts = [f"rules {settings['rules']}", f"{settings['numbering']} numbering",
             f"options {options_text(settings['options'])}", f"limits {limits_text(settings)}"]
    parts += [f"{key} {player_text(value) if key == 'player' else value}"
              for key, value in extra_settings(settings).items()]
    return ", ".join(parts)


def extra_settings(settings):
    """Settings beyond :data:`solvers.studies.store.CORE_SETTINGS` that are set (not None), sorted."""
    skip = set(CORE_SETTINGS) | {"run_id", "created"}
    return {k: settings[k] for k in sorted(settings) if k not in skip and settings[k] is not None}


def limits_text(settings):
    parts = []
    if settings.get("timeout") is not None:
        parts.append(f"timeout={settings['timeout']:g}s")
    if settings.get("max_nodes") is not None:
        parts.append(f"max_nodes={settings['max_nodes']}")
    return ",".join(parts) or "none"


def options_text(options):
    return ",".join(f"{k}={'on' if v else 'off'}" for k, v in sorted(options.items())) or "-"


def player_text(player):
    """``pimc(seed=0,samples=10,budget=2000)``, and ``peeks`` for a player that sees hidden cards."""
    if not isinstance(player, dict):
        return str(player)
    params = ",".join(f"{k}={v}" for k, v in player.items() if k not in ("player", "peeks"))
    return f"{player['player']}({params}){' peeks' if player.get('peeks') else ''}"


# ---- argument checks ------------------------------------------------------------------------------
MAX_BATCH_SIZE = 1_000_000     # deals per batch: ~50 MB of result columns


def _count(name, value):
    """A whole number >= 1 (None stays None); anything else raises InvalidOptionError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidOptionError(f"{name} {shorten(value)} must be a whole number of at least 1")
    return int(value)


def _flag(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{name} {shorten(value)} must be True or False")
    return bool(value)


def _db_path(db):
    """The store's path: None (or ":memory:") keeps results in memory; an empty path is refused,
    since SQLite would quietly use an anonymous temporary file and lose every result."""
    if db is None:
        return IN_MEMORY
    if not isinstance(db, (str, os.PathLike)) or isinstance(os.fspath(db), bytes) or "\0" in os.fspath(db):
        raise InvalidOptionError(f"results database {shorten(db)} must be a path")
    path = os.fspath(db)
    if not path.strip():
        raise InvalidOptionError(f"results database path {path!r} is empty (give a file name, or "
                                 "no database at all to keep results in memory)")
    return path


def _dask_address(dask):
    if dask is None:
        return None
    if not isinstance(dask, str) or not dask.strip():
        raise InvalidOptionError(f"dask {shorten(dask)} must be a scheduler address such as "
                                 "'tcp://host:8786', or 'local'")
    return dask.strip()


def estimate_win_rate(game, seeds, *, numbering=None, rules="aisleriot", options=None, timeout=None,
                      max_nodes=None, jobs=None, db=None, batch_size=None, dask=None, progress=False,
                      retry_unknown=False, confidence=0.95, player=None, extra=None):
    """Solve the deals ``seeds`` of ``game`` and estimate its win rate; returns an :class:`Estimate`.

    ``seeds``: text such as ``"1-1000,5000"``, an int, a range or integers.  ``db``: path of the
    SQLite results store (``None``: in memory, nothing kept).  ``jobs``: worker processes (default:
    every core, except for solvers marked ``IN_PROCESS``; 1 runs in this process).  ``dask``: a
    scheduler address or ``"local"``.  ``retry_unknown``: solve again the deals stored as unknown
    (with the same limits).  ``progress``: a tqdm bar on stderr.  ``player``: a dict (``name``,
    ``seed``, parameters) to play every deal with that auto-player instead of solving it; its
    games are won or lost, and the run is kept apart from the solver's.  ``extra``: settings beyond
    these that change what a batch computes (an atlas build's, :mod:`solvers.studies.atlas_build`),
    which also keep the run apart.  Every bad argument raises an
    :class:`rules.errors.AisleError` subclass quoting it, before anything is solved or written.
    """
    started = time.perf_counter()
    if numbering is not None and (not isinstance(numbering, str) or not numbering):
        raise InvalidSeedError(f"numbering {shorten(numbering)} must be a numbering name such as 'aisleriot'")
    settings = make_settings(game, numbering, rules, options, timeout, max_nodes, player)
    settings.update(extra or {})
    if settings["max_nodes"] is not None and settings["max_nodes"] > MAX_NODES:
        raise InvalidOptionError(f"max_nodes {settings['max_nodes']!r} is more than 64-bit counters "
                                 f"hold (at most {MAX_NODES})")
    solver = get_solver(settings["game"])
    seedset = parse_seeds(seeds, settings["numbering"])
    jobs, size = _count("jobs", jobs), _count("batch_size", batch_size) or solver.BATCH_SIZE
    if size > MAX_BATCH_SIZE:           # a batch's columns are arrays of its size
        raise InvalidOptionError(f"batch_size {size} is too large: at most {MAX_BATCH_SIZE}")
    dask, path = _dask_address(dask), _db_path(db)
    progress, retry_unknown = _flag("progress", progress), _flag("retry_unknown", retry_unknown)
    z_value(confidence)
    cores = default_jobs()
    if jobs is None:   # a solver that batches in-process: the store is the bottleneck (docstring)
        jobs = 1 if solver.IN_PROCESS and dask is None else cores
    elif dask in (None, "local"):
        check_local_jobs(jobs)
    store = ResultsStore(path)
    try:
        run_id = store.run_id(settings)
        done = store.done_seeds(run_id, seedset, include_unknown=not retry_unknown)
        counts = store.counts(run_id, seedset)
        if retry_unknown:                      # unknowns to retry are counted when they come back
            counts["unknown"] = 0
        todo = len(seedset) - done.size
        bar = progress_bar(progress, total=len(seedset), initial=done.size, unit="deal",
                           unit_scale=True, desc=settings["game"], smoothing=0.1)
        tracker = _Tracker(counts, bar, confidence)
        tracker.show()
        batches = seedset.batches(size, exclude=done)

        def record(batch):
            store.add_batch(run_id, batch, __version__, replace=retry_unknown,
                            verdict_texts=verdict_texts(settings))
            tracker.add(batch)

        try:
            if todo == 0:
                pass
            elif dask is not None:
                run_dask(dask, settings, batches, record, jobs)
            elif jobs == 1 or todo <= size:
                warmup(settings)
                for batch in batches:
                    record(solve_batch(settings, batch))
            else:
                run_processes(settings, batches, record, jobs)
        finally:
            bar.close()
        counts = store.counts(run_id, seedset)
        stats = win_rate(counts["solved"], counts["unsolvable"], counts["unknown"], confidence)
        return Estimate(settings, str(seedset), stats, tracker.new, int(done.size),
                        time.perf_counter() - started, path, dict(tracker.new_counts))
    finally:
        store.close()


class _Tracker:
    """Running counts for the progress bar's win rate and interval, and this run's own counts."""

    def __init__(self, counts, bar, confidence):
        self.won, self.lost, self.unknown = counts["solved"], counts["unsolvable"], counts["unknown"]
        self.bar, self.confidence, self.new = bar, confidence, 0
        self.new_counts = dict.fromkeys(("solved", "unsolvable", "unknown"), 0)

    def add(self, batch):
        v = batch["verdict"]
        won = int(np.count_nonzero(v == SOLVED_CODE))
        lost = int(np.count_nonzero(v == UNSOLVABLE_CODE))
        unknown = int(np.count_nonzero(v == UNKNOWN_CODE))
        self.won, self.lost, self.unknown = self.won + won, self.lost + lost, self.unknown + unknown
        for key, n in (("solved", won), ("unsolvable", lost), ("unknown", unknown)):
            self.new_counts[key] += n
        self.new += int(v.shape[0])
        self.bar.update(int(v.shape[0]))
        self.show()

    def show(self):
        if self.won + self.lost + self.unknown:
            w = win_rate(self.won, self.lost, self.unknown, self.confidence)
            self.bar.set_postfix_str(f"win {w.text()}" + (f", {self.unknown} unknown" if self.unknown else ""),
                                     refresh=False)
