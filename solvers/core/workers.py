"""Worker processes on this machine: shared by win-rate runs and ``solve_many(jobs=N)``.

Why processes and not threads: the search drivers are Python around Numba kernels, so threads
would serialise on the GIL between kernel calls.  Workers are forked where that is safe
(:func:`start_method`), so they start with this process's kernels already loaded; elsewhere they
are spawned and load the game's kernels from Numba's on-disk cache once each.
Workers ignore Ctrl-C (the parent stops them) and watch the parent: if it dies, even by
``kill -9``, they exit within moments, and multiprocessing's resource tracker, which lives as
long as they do, exits after them.  A worker that dies mid-task ends the run with
:class:`WorkerError`; any other error a task raises reaches the parent as itself.
"""
import os

import numpy as np

from rules.errors import AisleError, InvalidOptionError, shorten

PARENT_GONE_EXIT = 70        # a worker's exit code when it leaves because its parent died
JOBS_PER_CORE = 4            #: local workers beyond this many per core only add memory


class WorkerError(AisleError, RuntimeError):
    """A worker process died in the middle of a task (killed, or out of memory)."""


def default_jobs():
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs):
    """``jobs`` local workers as an int: a whole number from 1 to :data:`JOBS_PER_CORE` per
    core, or None for every core; anything else raises InvalidOptionError quoting it."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise InvalidOptionError(f"jobs {shorten(jobs)} must be a whole number of at least 1 "
                                 "(or None for every core)")
    return check_local_jobs(int(jobs))


def check_local_jobs(jobs):
    """``jobs`` (an int >= 1) unless it is more local workers than :data:`JOBS_PER_CORE` per core."""
    cores = default_jobs()
    if jobs > JOBS_PER_CORE * cores:
        raise InvalidOptionError(f"jobs {jobs} is more than {JOBS_PER_CORE} per core ({cores} "
                                 "cores here): more workers than cores only add memory, each "
                                 "holding its own kernels and search tables")
    return jobs


def start_method():
    """How workers start: ``fork`` on Linux when this process runs no other thread and has not
    started Numba's thread pool (forking either can leave the child a lock no thread will ever
    release), ``spawn`` otherwise.  A spawned worker spends about half a second of CPU importing
    the library and loading its kernels from the cache; a forked one has them already."""
    import multiprocessing
    import sys
    import threading

    numba_pool = sys.modules.get("numba.np.ufunc.parallel")
    pool_started = numba_pool is not None and getattr(numba_pool, "_is_initialized", True)
    safe = (sys.platform.startswith("linux") and threading.active_count() == 1
            and not pool_started and "fork" in multiprocessing.get_all_start_methods())
    return "fork" if safe else "spawn"


def worker_start(game):
    """Start of a worker: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM (how
    the parent stops them) ends the worker at once, whatever handler a forked worker inherited
    from the parent, the worker leaves when the parent dies, and ``game``'s kernels are loaded
    before the first task."""
    import signal

    from solvers.core.registry import get_solver

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent()
    get_solver(game).ready()


def exit_with_parent():
    """Exit this process as soon as the process that started it is gone.

    A child holds the read end of a pipe whose write end only its parent holds (and, forked,
    the workers forked after it, which leave the same way), so the pipe
    (``parent_process().sentinel``) becomes readable when the parent dies, however it dies.
    A daemon thread waits on it; the kernels release the GIL, so the thread runs even mid-search.
    """
    import multiprocessing
    import threading
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch():
        wait([parent.sentinel])
        os._exit(PARENT_GONE_EXIT)

    threading.Thread(target=watch, name="aisle-exit-with-parent", daemon=True).start()


def run_in_workers(jobs, game, tasks, record, died):
    """Run ``tasks`` (tuples ``(function, *args)``, an iterable read lazily) in ``jobs`` worker
    processes ready for ``game``, and call ``record(value)`` here with each task's return value
    as it finishes (so in the order they finish).  At most ``2 * jobs`` tasks are in flight,
    which bounds memory and the work a kill loses.  A worker that dies raises
    :class:`WorkerError` with the text ``died``.  The workers are stopped at once at the end,
    on any error or Ctrl-C and also when every task is back (idle then, they have nothing to
    lose, and each interpreter's own teardown would only keep the caller waiting)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context(start_method())
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=worker_start,
                               initargs=(game,))
    try:
        pending = set()
        for function, *args in tasks:
            pending.add(pool.submit(function, *args))
            if len(pending) >= 2 * jobs:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    record(fut.result())
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                record(fut.result())
    except BrokenProcessPool:
        raise WorkerError(died) from None
    finally:
        stop_workers(pool)


def stop_workers(pool):
    """Stop a process pool now, workers included: their tasks in flight are lost (waiting for
    them could take as long as a task).  The pool's own thread is waited for too, so that the
    next pool may fork (:func:`start_method`)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    terminate = getattr(pool, "terminate_workers", None)          # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=5)
