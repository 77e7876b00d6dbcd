"""``aisle winrate`` under signals: no orphan worker, no half-written store, a clean exit code.

Each test starts the command in a subprocess whose environment carries a unique marker, so
every process of the run (the client, its workers, multiprocessing's resource tracker)
can be found through ``/proc`` whoever its parent is now.  Processes left over by a failing test
are killed by pid at the end, so a failure does not leave 155 MB workers behind.
"""
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

from solvers.core.registry import get_solver
from solvers.studies.winrate import estimate_win_rate
from tests.support import REPO

MARKER = "AISLE_TEST_RUN_MARKER"
PROC = pathlib.Path("/proc")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not PROC.is_dir(), reason="finds the run's processes through /proc")]

# Ten Across deals take about 10 ms each under a node limit (which, unlike a time limit, gives
# the same verdicts on a loaded machine): a run of a few hundred lasts seconds on 2 workers.
GAME, MAX_NODES, JOBS = "ten-across", 20_000, 2
QUICK = (GAME, "--max-nodes", str(MAX_NODES))
LONG_SEARCHES = ("yukon", "--timeout", "5")     # workers caught inside searches of seconds


def parent_of(pid):
    """The parent pid of ``pid`` (/proc/PID/stat's fourth field; the name before it may hold
    spaces, so the fields are counted after its closing parenthesis)."""
    stat = (PROC / str(pid) / "stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def marked_processes(marker):
    """Live (not zombie) pids whose environment holds ``MARKER=marker``."""
    needle = f"{MARKER}={marker}".encode()
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:                       # gone meanwhile, or not ours to read
            continue
        if state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


@pytest.fixture(scope="module", autouse=True)
def warm_cache():
    """The runs' workers load the game's kernels from Numba's cache: compiling them is announced
    on stderr, which the tests that count stderr's lines would see (the first run on a cold
    cache)."""
    get_solver(GAME).ready(announce=False)


def wait_until(predicate, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def stored_count(db):
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT count(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:          # tables not created yet
        return 0


def _default_sigint():
    """Ctrl-C as at a terminal: a shell's background job (``pytest ... &``) ignores SIGINT, and
    its children inherit that, so the run under test would never see the signal it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Run:
    """``python -m solvers winrate ...`` in the background, with its own marker."""

    def __init__(self, tmp_path, seeds, new_session=False, game_args=QUICK):
        self.marker = uuid.uuid4().hex
        self.db = tmp_path / "run.sqlite"
        env = dict(os.environ, **{MARKER: self.marker})
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        cmd = [sys.executable, "-m", "solvers", "winrate", *game_args, "--seeds", seeds,
               "--jobs", str(JOBS), "--db", str(self.db), "--no-progress", "--no-atlas"]
        self.proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=new_session,
                                     preexec_fn=_default_sigint)

    def wait_for_first_batch(self):
        stored = wait_until(lambda: self.proc.poll() is not None or stored_count(self.db), 120, 0.01)
        assert self.proc.poll() is None, "the run ended early: " + self.proc.stderr.read().decode()[-800:]
        assert stored
        workers = marked_processes(self.marker)
        assert len(workers) >= 1 + JOBS, f"expected the client and {JOBS} workers, found {workers}"
        return workers

    def survivors(self, seconds):
        """Marked processes still alive after waiting up to ``seconds`` for them to go."""
        wait_until(lambda: not marked_processes(self.marker), seconds, 0.2)
        return marked_processes(self.marker)

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        for pid in marked_processes(self.marker):  # only processes this run started
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def check_store(db, version_ok=True):
    """Every stored row is a whole, valid verdict; returns the stored seeds."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT seed, verdict, length, nodes, seconds, version FROM results").fetchall()
        n, distinct = conn.execute("SELECT count(*), count(DISTINCT seed) FROM results").fetchone()
    assert n == distinct == len(rows)
    for seed, verdict, length, nodes, seconds, version in rows:
        assert verdict in ("solved", "unsolvable", "unknown"), seed
        assert (length is not None) == (verdict == "solved") and (length is None or length > 0), seed
        assert nodes is not None and nodes >= 0 and seconds >= 0 and version, seed
    return sorted(r[0] for r in rows)


@pytest.mark.parametrize("game_args, seeds", [
    pytest.param(QUICK, "1-100000", id="between-searches"),
    # the second batch holds Yukon deals that take seconds: a worker is inside a search when killed
    pytest.param(LONG_SEARCHES, "1-4,207,473,491,550,921,1000-1200", id="mid-search")])
def test_kill_9_of_the_client_takes_its_workers_and_tracker_with_it(tmp_path, game_args, seeds):
    run = Run(tmp_path, seeds, game_args=game_args)
    try:
        before = run.wait_for_first_batch()
        os.kill(run.proc.pid, signal.SIGKILL)            # the client alone, not its process group
        run.proc.wait(timeout=30)
        assert run.proc.returncode == -signal.SIGKILL
        left = run.survivors(10)
        assert not left, f"still alive 10 s after the client was killed: {left} (of {before})"
        check_store(run.db)
    finally:
        run.cleanup()


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_sigint_exit_cleanly_and_the_rest_resumes(tmp_path, signum, code):
    seeds = "1-400"
    run = Run(tmp_path, seeds)
    try:
        run.wait_for_first_batch()
        run.proc.send_signal(signum)
        _, err = run.proc.communicate(timeout=30)
        err = err.decode()
        assert run.proc.returncode == code, err[-800:]
        assert "Traceback" not in err and err.strip().count("\n") == 0, err[-800:]
        assert not run.survivors(5)
    finally:
        run.cleanup()
    stored = check_store(run.db)
    assert 0 < len(stored) < 400 and len(stored) % 4 == 0          # whole batches of 4 only
    rest = estimate_win_rate(GAME, seeds, max_nodes=MAX_NODES, jobs=1, db=run.db)
    assert (rest.resumed_deals, rest.new_deals) == (len(stored), 400 - len(stored))
    assert check_store(run.db) == list(range(1, 401))
    # the rows written before the signal are the ones an uninterrupted run gives
    fresh = tmp_path / "fresh.sqlite"
    estimate_win_rate(GAME, stored, max_nodes=MAX_NODES, jobs=1, db=fresh)
    query = "SELECT seed, verdict, length, nodes FROM results WHERE seed IN (%s) ORDER BY seed" % ",".join(
        map(str, stored))
    with sqlite3.connect(run.db) as a, sqlite3.connect(fresh) as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


def test_ctrl_c_to_the_whole_process_group_is_clean(tmp_path):
    """A terminal's Ctrl-C reaches the workers too: they leave the clean-up to the client."""
    run = Run(tmp_path, "1-100000", new_session=True)
    try:
        run.wait_for_first_batch()
        os.killpg(run.proc.pid, signal.SIGINT)
        _, err = run.proc.communicate(timeout=30)
        err = err.decode()
        assert run.proc.returncode == 130, err[-800:]
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-800:]
        assert not run.survivors(5)
        check_store(run.db)
    finally:
        run.cleanup()


def test_a_worker_killed_under_the_client_ends_the_run_with_one_line(tmp_path):
    """The out-of-memory killer's case: the client says so, stops the other workers, exits 1."""
    run = Run(tmp_path, "1-100000")
    try:
        marked = run.wait_for_first_batch()
        workers = [pid for pid in marked if parent_of(pid) == run.proc.pid
                   and b"resource_tracker" not in (PROC / str(pid) / "cmdline").read_bytes()]
        assert len(workers) == JOBS, marked
        os.kill(workers[0], signal.SIGKILL)
        _, err = run.proc.communicate(timeout=60)
        err = err.decode()
        assert run.proc.returncode == 1, err[-800:]
        assert "Traceback" not in err and "worker process died" in err, err[-800:]
        assert not run.survivors(5)
        check_store(run.db)
    finally:
        run.cleanup()
