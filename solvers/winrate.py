"""Win-rate estimation over many deals: batches on every core (or a Dask cluster) into SQLite.

:func:`estimate_win_rate` splits the seeds into batches, leaves out the seeds the results store
already holds for the same settings, solves the rest in worker processes and writes each batch
back in one transaction as it arrives.  Running it again continues where it stopped; a run
killed at any moment loses at most the batches in flight (see :mod:`solvers.store`).

Why processes and not threads: the search drivers are Python around Numba kernels, so threads
would serialise on the GIL between kernel calls.  Workers start with ``spawn`` (safe with Numba's
threads on every platform) and load the kernels from Numba's on-disk cache once each.  Only the
client writes to SQLite; workers return plain numpy columns.

A solver marked ``IN_PROCESS`` (Clock's forced play) is the exception: its batch kernel is
faster than SQLite can store the rows, and only the client writes, so worker processes would add
their start-up and nothing else.  It runs in the client unless ``jobs`` is given, and there its
kernel spreads each batch over every core with Numba's threads.

At most ``2 * jobs`` batches are in flight, which bounds memory and the work a kill can lose.
The Dask path (``dask="tcp://host:8786"`` or ``"local"``) sends the same batches through
``distributed.Client.submit``; the store, resume and counting are the same code.
"""
import sys
import time
from dataclasses import dataclass

import numpy as np

from rules.errors import InvalidOptionError

from . import __version__
from . import get_solver
from .dispatch import make_settings, solve_batch, warmup
from .seeds import parse_seeds
from .stats import WinRate, win_rate
from .store import SOLVED_CODE, UNKNOWN_CODE, UNSOLVABLE_CODE, ResultsStore



@dataclass
class Estimate:
    """What :func:`estimate_win_rate` returns: the counts over the requested seeds and the run."""

    settings: dict
    seeds: str                 # canonical seed text
    stats: WinRate             # over every requested seed stored (resumed ones included)
    new_deals: int             # deals solved by this call
    resumed_deals: int         # deals found in the store and skipped
    seconds: float
    db: str

    @property
    def rate(self):
        return self.stats.rate

    @property
    def interval(self):
        return self.stats.low, self.stats.high

    def summary(self):
        s, w = self.settings, self.stats
        opts = options_text(s["options"])
        return (f"{s['game']} seeds {self.seeds} ({s['numbering']} numbering, rules {s['rules']}, "
                f"options {opts}, limits {limits_text(s)}): {w.deals} deals, {w.won} won, "
                f"{w.unsolvable} unsolvable, {w.unknown} unknown; win rate {w.text()} "
                f"({100 * w.confidence:g}% Wilson interval)")


def limits_text(settings):
    parts = []
    if settings.get("timeout") is not None:
        parts.append(f"timeout={settings['timeout']:g}s")
    if settings.get("max_nodes") is not None:
        parts.append(f"max_nodes={settings['max_nodes']}")
    return ",".join(parts) or "none"


def default_jobs():
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def estimate_win_rate(game, seeds, *, numbering=None, rules="aisleriot", options=None, timeout=None,
                      max_nodes=None, jobs=None, db=None, batch_size=None, dask=None, progress=False,
                      retry_unknown=False, confidence=0.95):
    """Solve the deals ``seeds`` of ``game`` and estimate its win rate; returns an :class:`Estimate`.

    ``seeds``: text such as ``"1-1000,5000"``, an int, a range or integers.  ``db``: path of the
    SQLite results store (``None``: in memory, nothing kept).  ``jobs``: worker processes (default:
    every core, except for solvers marked ``IN_PROCESS``; 1 runs in this process).  ``dask``: a
    scheduler address or ``"local"``.  ``retry_unknown``: solve again the deals stored as unknown
    (with the same limits).  ``progress``: a tqdm bar on stderr.
    """
    started = time.perf_counter()
    settings = make_settings(game, numbering, rules, options, timeout, max_nodes)
    solver = get_solver(settings["game"])
    seedset = parse_seeds(seeds, settings["numbering"])
    if dask is not None:
        jobs = default_jobs() if jobs is None else int(jobs)     # workers of --dask local
    elif jobs is None:  # a solver that batches in-process: the store is the bottleneck (docstring)
        jobs = 1 if solver.IN_PROCESS else default_jobs()
    jobs = int(jobs)
    if jobs < 1:
        raise InvalidOptionError(f"jobs {jobs!r} must be at least 1")
    size = int(batch_size or solver.BATCH_SIZE)
    if size < 1:
        raise InvalidOptionError(f"batch size {size!r} must be at least 1")
    store = ResultsStore(db if db is not None else ":memory:")
    try:
        run_id = store.run_id(settings)
        done = store.done_seeds(run_id, seedset, include_unknown=not retry_unknown)
        counts = store.counts(run_id, seedset)
        if retry_unknown:                      # unknowns to retry are counted when they come back
            counts["unknown"] = 0
        todo = len(seedset) - done.size
        bar = _progress(progress, len(seedset), done.size, settings["game"])
        tracker = _Tracker(counts, bar, confidence)
        tracker.show()
        batches = seedset.batches(size, exclude=done)

        def record(batch):
            store.add_batch(run_id, batch, __version__, replace=retry_unknown)
            tracker.add(batch)

        try:
            if todo == 0:
                pass
            elif dask is not None:
                _run_dask(dask, settings, batches, record, jobs)
            elif jobs == 1 or todo <= size:
                warmup(settings)
                for batch in batches:
                    record(solve_batch(settings, batch))
            else:
                _run_processes(settings, batches, record, jobs)
        finally:
            bar.close()
        counts = store.counts(run_id, seedset)
        stats = win_rate(counts["solved"], counts["unsolvable"], counts["unknown"], confidence)
        return Estimate(settings, str(seedset), stats, tracker.new, int(done.size),
                        time.perf_counter() - started, db if db is not None else ":memory:")
    finally:
        store.close()


class _Tracker:
    """Running counts for the progress bar's win rate and interval."""

    def __init__(self, counts, bar, confidence):
        self.won, self.lost, self.unknown = counts["solved"], counts["unsolvable"], counts["unknown"]
        self.bar, self.confidence, self.new = bar, confidence, 0

    def add(self, batch):
        v = batch["verdict"]
        n = int(v.shape[0])
        self.won += int(np.count_nonzero(v == SOLVED_CODE))
        self.lost += int(np.count_nonzero(v == UNSOLVABLE_CODE))
        self.unknown += int(np.count_nonzero(v == UNKNOWN_CODE))
        self.new += n
        self.bar.update(n)
        self.show()

    def show(self):
        if self.won + self.lost + self.unknown:
            w = win_rate(self.won, self.lost, self.unknown, self.confidence)
            self.bar.set_postfix_str(f"win {w.text()}" + (f", {self.unknown} unknown" if self.unknown else ""),
                                     refresh=False)


class _NoBar:
    def update(self, n):
        pass

    def set_postfix_str(self, *args, **kwargs):
        pass

    def close(self):
        pass


def _progress(enabled, total, initial, game):
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:                      # optional extra: no bar, same results
        sys.stderr.write("aisle: install tqdm (pip install 'aisle-solvers[progress]') for a progress bar\n")
        return _NoBar()
    return tqdm(total=total, initial=initial, unit="deal", unit_scale=True, file=sys.stderr,
                desc=game, dynamic_ncols=True, smoothing=0.1)


# ---- local processes ------------------------------------------------------------------------------
def _worker_init(settings):
    warmup(settings)


def _run_processes(settings, batches, record, jobs):
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                               initargs=(settings,))
    clean = False
    try:
        pending = set()
        for batch in batches:
            pending.add(pool.submit(solve_batch, settings, batch))
            if len(pending) >= 2 * jobs:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    record(fut.result())
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                record(fut.result())
        clean = True
    finally:
        pool.shutdown(wait=clean, cancel_futures=True)


# ---- Dask ---------------------------------------------------------------------------------------
def _run_dask(address, settings, batches, record, jobs):
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InvalidOptionError("--dask needs dask.distributed: pip install 'aisle-solvers[dask]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidOptionError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * max(workers, jobs if cluster is not None else workers)
        first = []
        for batch in batches:
            first.append(client.submit(solve_batch, settings, batch, pure=False))
            if len(first) >= window:
                break
        queue = as_completed(first)
        for fut in queue:
            record(fut.result())
            fut.release()
            nxt = next(batches, None)
            if nxt is not None:
                queue.add(client.submit(solve_batch, settings, nxt, pure=False))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

# ---- reading a store back: the report ---------------------------------------------------------
def summarize(db, confidence=0.95):
    """One dict per run stored in ``db`` (a path or an open ResultsStore): settings and counts."""
    store = db if isinstance(db, ResultsStore) else ResultsStore(db, readonly=True)
    try:
        out = []
        for run in store.runs():
            counts = store.counts(run["run_id"])
            w = win_rate(counts["solved"], counts["unsolvable"], counts["unknown"], confidence)
            out.append({
                "game": run["game"], "numbering": run["numbering"], "rules": run["rules"],
                "options": options_text(run["options"]), "limits": limits_text(run),
                "deals": w.deals, "won": w.won, "unsolvable": w.unsolvable, "unknown": w.unknown,
                "win_rate": None if w.rate != w.rate else w.rate,
                "low": w.low, "high": w.high, "confidence": confidence,
                "versions": ",".join(store.versions(run["run_id"])), "run_id": run["run_id"],
            })
        return out
    finally:
        if store is not db:
            store.close()


def options_text(options):
    return ",".join(f"{k}={'on' if v else 'off'}" for k, v in sorted(options.items())) or "-"


def format_table(rows):
    """Fixed-width text table of :func:`summarize` rows."""
    head = ["game", "numbering", "rules", "options", "limits", "deals", "won", "unsolvable", "unknown",
            "win rate", f"{100 * (rows[0]['confidence'] if rows else 0.95):g}% Wilson interval"]
    body = []
    for r in rows:
        rate = "n/a" if r["win_rate"] is None else f"{100 * r['win_rate']:.3f}%"
        body.append([r["game"], r["numbering"], r["rules"], r["options"], r["limits"], str(r["deals"]),
                     str(r["won"]), str(r["unsolvable"]), str(r["unknown"]), rate,
                     f"[{100 * r['low']:.3f}%, {100 * r['high']:.3f}%]"])
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    numeric = {5, 6, 7, 8, 9}
    lines = []
    for row in [head] + body:
        cells = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def plot_report(db, path, confidence=0.95, max_points=2000):
    """Draw, per run: the running win rate with its interval band, and histograms of time and length."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidOptionError("--plot needs matplotlib: pip install 'aisle-solvers[plot]'") from None
    from .stats import running_interval

    store = ResultsStore(db, readonly=True)
    try:
        runs = [(run, store.arrays(run["run_id"])) for run in store.runs()]
    finally:
        store.close()
    runs = [(run, cols) for run, cols in runs if cols["seed"].size]
    if not runs:
        from .store import StoreError

        raise StoreError(f"results database {db!r} holds no deals to plot")
    fig, axes = plt.subplots(len(runs), 3, figsize=(15, 3.8 * len(runs)), squeeze=False)
    for (run, cols), (ax_rate, ax_time, ax_len) in zip(runs, axes):
        title = f"{run['game']} ({run['numbering']}, {options_text(run['options'])}, limits {limits_text(run)})"
        n, rate, low, high = running_interval(cols["verdict"] == SOLVED_CODE, cols["verdict"] == UNKNOWN_CODE,
                                              confidence)
        idx = np.unique(np.geomspace(1, n.size, num=min(max_points, n.size)).astype(np.int64) - 1)
        ax_rate.fill_between(n[idx], 100 * low[idx], 100 * high[idx], alpha=0.3,
                             label=f"{100 * confidence:g}% Wilson interval")
        ax_rate.plot(n[idx], 100 * rate[idx], lw=1, label="win rate")
        ax_rate.set_xscale("log")
        ax_rate.set_xlabel("deals (in seed order)")
        ax_rate.set_ylabel("win rate (%)")
        ax_rate.set_title(title, fontsize=9)
        ax_rate.legend(fontsize=8)
        ax_time.hist(cols["seconds"], bins=50)
        ax_time.set_xlabel("seconds per deal")
        ax_time.set_ylabel("deals")
        lengths = cols["length"][cols["length"] >= 0]
        if lengths.size:
            span = int(lengths.max() - lengths.min()) + 1
            bins = np.arange(lengths.min(), lengths.max() + 2) - 0.5 if span <= 60 else 50
            ax_len.hist(lengths, bins=bins)
        else:
            ax_len.text(0.5, 0.5, "no solved deal", ha="center", va="center", transform=ax_len.transAxes)
        ax_len.set_xlabel("solution length (moves)")
        ax_len.set_ylabel("solved deals")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        from .store import StoreError

        raise StoreError(f"cannot write plot {path!r}: {exc}") from None
    finally:
        plt.close(fig)
    return path
