"""A cold warm-up on several cores: helper processes compile some of a solver's warm-up steps
into Numba's disk cache while this process compiles the others, then this process loads theirs.

A first run compiles a game's kernels one step at a time, each on one core.  When a warm-up
is still running after ``HELP_AFTER`` seconds (the cache is cold: loading a step takes
milliseconds), :class:`Helpers` starts one helper process per free core.  Every process takes
the steps in order and compiles a step only after claiming it (a file created exclusively in a
shared directory); a step a helper finished leaves a second file.  When this process runs out
of steps to claim, it waits for the steps the helpers hold (doing them itself if a helper
dies), then calls every helper's step too, which loads it from the cache.  A step marked with
:func:`needs` (one whose kernels call another step's) is left to this process, which first waits
for the helper's steps it names: a helper taking it early would compile those kernels again.
Nothing changes where no cache can be written, in a helper itself, or where only one core is
free.

A warm-up may name steps *ahead*: what a later stage of the search will need, if the search
reaches it.  The helpers go on to them once the warm-up's own steps are claimed, and keep
compiling them after the warm-up ends, while this process searches; a later warm-up of those
steps (the stage, when reached) then waits for the helper that holds one instead of compiling
it again.  The helpers are stopped when this process exits (or end when no step is left).

    python -m solvers.core.warm GAME DIR      # a helper (started by Helpers, not by hand)
"""
import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from numba import config

from rules._jit import CACHING

HELP_AFTER = 0.3           # seconds a warm-up may take before helpers are started
HELPER_ENV = "AISLE_WARM_HELPER"     # set in a helper: it starts no helpers of its own
POLL_SECONDS = 0.05
_PACKAGES_ROOT = str(Path(__file__).resolve().parents[2])     # holds rules/ and solvers/


def free_cores():
    """Cores this process may use, less itself."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:               # not Linux
        cores = os.cpu_count() or 1
    return max(0, cores - 1)


def needs(step, *names):
    """``step``, marked to run only once the steps ``names`` of the same warm-up are done
    (this process waits for a helper that holds one)."""
    step.needs = names
    return step


class Claims:
    """Who compiles which step: ``claim-I`` and ``done-I`` files in directory ``root`` (only a
    helper marks its steps done: only the parent waits, for those)."""

    def __init__(self, root):
        self.root = Path(root)

    def claim(self, i):
        """True for the one process that claims step ``i`` first."""
        try:
            os.close(os.open(self.root / f"claim-{i}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True

    def done(self, i):
        (self.root / f"done-{i}").touch()

    def is_done(self, i):
        return (self.root / f"done-{i}").exists()


class Helpers:
    """The helpers of one warm-up of ``solver``'s steps ``names`` (in order, then the steps
    ``ahead``), started by a timer when that warm-up is still running after ``HELP_AFTER``
    seconds.  Use as a context manager around the warm-up; :meth:`take` says whether this
    process runs step ``i`` of ``names``.  Until the helpers start, the claims are kept
    here; the shared directory is made only then.  Helpers still compiling steps ahead outlive
    the warm-up (:attr:`lingering`; a later warm-up of those steps enters this object again)
    until they end or this process exits."""

    def __init__(self, solver, names, helpers=None, ahead=()):
        self.names = list(names) + [n for n in ahead if n not in names]   # steps.json's order
        self.ahead = len(self.names) > len(names)
        wanted = free_cores() if helpers is None else helpers
        self.count = 0 if (not CACHING or os.environ.get(HELPER_ENV) or len(self.names) < 2) \
            else min(wanted, len(self.names) - 1)
        self.game = solver.GAME
        self.procs, self.lock, self.timer = [], threading.Lock(), None
        self.dir = self.claims = None
        self.taken = set()              # the steps this process claimed before the helpers start
        self.at_exit = False            # close() is registered to run at exit

    def __enter__(self):
        if self.count > 0 and self.claims is None and self.timer is None:     # not yet started
            self.timer = threading.Timer(HELP_AFTER, self._start)
            self.timer.daemon = True
            self.timer.start()
        return self

    def _start(self):
        env = {**os.environ, HELPER_ENV: "1"}
        if config.CACHE_DIR:                        # the same cache (rules._jit's fallback too)
            env["NUMBA_CACHE_DIR"] = config.CACHE_DIR
        with self.lock:
            if self.timer is None:                 # the warm-up ended meanwhile
                return
            self.dir = tempfile.TemporaryDirectory(prefix="aisle-warm-")
            claims = Claims(self.dir.name)
            for i in self.taken:
                claims.claim(i)
            (Path(self.dir.name) / "steps.json").write_text(json.dumps(self.names))
            self.claims = claims
            for _ in range(self.count):
                self.procs.append(subprocess.Popen(     # from where this process found solvers
                    [sys.executable, "-m", "solvers.core.warm", self.game, self.dir.name],
                    cwd=_PACKAGES_ROOT, env=env, stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def take(self, i):
        """True if this process runs step ``i`` (no helpers yet, or it claimed it first)."""
        with self.lock:
            if self.claims is None:
                self.taken.add(i)
                return True
        return self.claims.claim(i)

    def wait(self, i):
        """Wait until a helper finished step ``i``: True, or False if every helper exited
        without finishing it (this process then runs it)."""
        while not self.claims.is_done(i):
            if all(p.poll() is not None for p in self.procs):
                return self.claims.is_done(i)
            time.sleep(POLL_SECONDS)
        return True

    @property
    def lingering(self):
        """A helper is still running (after a warm-up: on steps ahead)."""
        return any(p.poll() is None for p in self.procs)

    def covers(self, names):
        return self.claims is not None and set(names) <= set(self.names)

    def __exit__(self, exc_type, *exc):
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
        if exc_type is None and self.ahead and self.lingering:
            if not self.at_exit:             # this warm-up's steps are done; the rest goes on
                atexit.register(self.close)
                self.at_exit = True
        else:
            self.close()
        return False

    def close(self):
        """Stop the helpers (a helper still running holds no step a warm-up waits for)."""
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
            p.wait()
        self.procs = []
        if self.dir is not None:
            self.dir.cleanup()
            self.dir = self.claims = None


def help_warm(game, root):
    """A helper: claim and run the steps listed in ``root``'s ``steps.json`` until none is
    left to claim (but none marked with :func:`needs`)."""
    from solvers.core.registry import get_solver

    solver = get_solver(game)
    steps = solver._steps(None, None)
    claims = Claims(root)
    names = json.loads((Path(root) / "steps.json").read_text())
    for i, name in enumerate(names):
        if name in steps and not getattr(steps[name], "needs", ()) and claims.claim(i):
            steps[name]()
            claims.done(i)


if __name__ == "__main__":
    help_warm(sys.argv[1], sys.argv[2])
