"""Where a win-rate run's batches are solved: local worker processes, or a Dask cluster.

Both take an iterator of seed batches and call ``record(batch)`` in the client for each batch of
result columns as it comes back (in any order), so the caller
(:func:`solvers.studies.winrate.estimate_win_rate`) does the storing and counting once for both.

Worker processes are :mod:`solvers.core.workers`'s (forked where safe, else spawned; gone when the
client dies, even by ``kill -9``; Ctrl-C is the client's).  Only the client writes to SQLite;
workers return plain numpy columns.  At most ``2 * jobs`` batches are in flight, which bounds
memory and the work a kill can lose.  The Dask path (``"tcp://host:8786"`` or ``"local"``)
sends the same batches through ``distributed.Client.submit``.
"""
import gc

from rules.errors import InvalidOptionError
from solvers.core.workers import run_in_workers
from solvers.studies.dispatch import solve_batch


# ---- local processes ------------------------------------------------------------------------------
def run_processes(settings, batches, record, jobs):
    died = ("a worker process died in the middle of a batch (killed, or out of memory?); the "
            "batches already stored stay, run again to continue")
    run_in_workers(jobs, settings["game"], ((solve_batch, settings, batch) for batch in batches),
                   record, died)


# ---- Dask ---------------------------------------------------------------------------------------
def run_dask(address, settings, batches, record, jobs):
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InvalidOptionError("--dask needs dask.distributed: pip install 'aisle-solvers[dask]'") from None
    import logging

    cluster = None
    if address == "local":   # its workers' warnings about batches cancelled by Ctrl-C are noise
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        reason = None
        try:
            client = Client(address, timeout=10)
        except Exception as exc:        # distributed raises many kinds for a bad or dead address
            reason = str(exc) or type(exc).__name__
        if reason is not None:
            # Finalise the half-built Client now, outside the except block that keeps it alive:
            # left to the collector, its __del__ may run inside a later Client's start-up and
            # deadlock on distributed's loop-runner lock (seen as a hung test).
            gc.collect()
            raise InvalidOptionError(f"cannot reach the Dask scheduler at {address!r}: {reason}")
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
