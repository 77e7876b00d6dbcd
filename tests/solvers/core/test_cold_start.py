"""The first run on a cold cache (issue 55): nothing compiles at import, the warm-up's
``compile_seconds`` accounts for the compiling a solve does (a later stage's too) and a long one
is announced, a cold warm-up shares its steps with helper processes, and an unwritable cache
location gives one line on stderr, never a traceback."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import config

from rules import _jit
from solvers.cli.main import main
from tests.support import REPO

ROOT = str(REPO)


def _python(code, env=None, *args):
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": ROOT, **(env or {})})


_COLD_SOLVE = """
import json, sys, time
t0 = time.perf_counter()
from solvers import get_solver
import solvers.games.zebra
imported = time.perf_counter() - t0
t0 = time.perf_counter()
r = get_solver("zebra").solve(1, max_nodes=2000)
print(json.dumps({"import": imported, "wall": time.perf_counter() - t0,
                  "compile": r.compile_seconds, "search": r.seconds}))
"""


def test_a_cold_first_solve_counts_and_announces_its_compiling(tmp_path):
    done = _python(_COLD_SOLVE, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    t = json.loads(done.stdout.strip().splitlines()[-1])
    assert t["import"] < 5.0                          # no kernel compiled at import
    assert t["compile"] > 1.0                         # the cache was cold: it compiled ...
    assert t["wall"] - t["compile"] - t["search"] < 0.5 + 0.05 * t["compile"]   # ... all of it then
    announced = "compiling the zebra kernels (first run only)" in done.stderr
    if t["compile"] > 2 * 2.0:
        assert announced and "steps" in done.stderr   # with a progress bar or count
    if t["compile"] < 1.5:
        assert not announced
    assert "Traceback" not in done.stderr


_UNWRITABLE = """
import numba.core.caching as caching
for cls in (caching.InTreeCacheLocator, caching.UserWideCacheLocator):
    cls.from_function = classmethod(lambda cls, py_func, py_file: None)
from rules._jit import CACHING
import solvers.games.zebra
from rules.moves import encode
assert encode(1, 2, 3, 4) == encode(1, 2, 3, 4)
print(CACHING)
"""


def test_an_unwritable_cache_falls_back_to_a_temporary_one(tmp_path):
    env = {"NUMBA_CACHE_DIR": "/dev/null/cache", "TMPDIR": str(tmp_path)}
    done = _python(_UNWRITABLE, env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write Numba's cache (/dev/null/cache)" in lines[0]
    assert done.stdout.strip() == "True"
    cached = list(tmp_path.glob("aisle-numba-*/**/*.nbi"))
    assert cached, "nothing was cached in the temporary directory"


def test_no_writable_place_at_all_runs_uncached(monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", "/dev/null/cache")
    caching, note = _jit.choose_cache(lambda: False, lambda: None)
    assert caching is False and "compiled in every process" in note
    assert config.CACHE_DIR == "/dev/null/cache"
    answers = iter([False, True])
    caching, note = _jit.choose_cache(lambda: next(answers), lambda: "/tmp/somewhere")
    assert caching is True and "caching compiled kernels in /tmp/somewhere" in note
    assert config.CACHE_DIR == "/tmp/somewhere"
    assert _jit.choose_cache(lambda: True, lambda: None) == (True, None)


def test_warmup_compiles_the_games_in_processes(capsys):
    assert main(["warmup", "clock", "--no-progress"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("clock: ") and "1 games ready" in out.err
    assert main(["warmup", "chess"]) == 2
    assert "chess" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["clock", "zebra", "ten-across", "yukon", "freecell"])
def test_a_method_warms_only_what_it_needs(game):
    from solvers import get_solver
    solver = get_solver(game)
    every = solver._steps(None, None)
    for rules in solver.RULE_MODES:
        for method in solver.METHODS:
            assert set(solver._warm_steps(method, rules)) <= set(every)


def test_a_kernel_the_warm_up_missed_counts_as_compile_time(monkeypatch):
    import time

    from numba import njit

    from solvers import get_solver
    from solvers.core.result import SolveResult

    solver = get_solver("clock")
    solver.ready()

    def search(start, method, rules, limits):
        t0 = time.perf_counter()
        njit(lambda x: x * 3 + 1)(2)                  # a fresh kernel: compiled here
        return SolveResult("unsolvable", seconds=time.perf_counter() - t0)

    monkeypatch.setattr(solver, "_search", search)
    result = solver.solve(1)
    assert result.compile_seconds > 0.01
    assert result.seconds < 0.5 * result.compile_seconds


def test_a_later_stage_compiles_when_the_search_reaches_it_outside_the_limit(monkeypatch):
    """A stage's steps run once, when a search first reaches it; their seconds count as
    compile time, not search time, and do not use up the time limit."""
    import time

    from solvers import get_solver
    from solvers.core.result import SolveResult
    from solvers.core.search import reached

    solver = get_solver("clock")
    solver.ready()
    runs = []

    def slow_stage():
        runs.append(1)
        time.sleep(0.4)                               # longer than the search's limit

    def search(start, method, rules, limits):
        t0 = time.perf_counter()
        t0 += reached("later")
        left = limits.timeout - (time.perf_counter() - t0)
        assert left > 0.2                             # the stage's seconds were not spent
        return SolveResult("unsolvable", seconds=time.perf_counter() - t0)

    monkeypatch.setattr(solver, "_stage_steps", lambda method, rules: {"later": {"slow": slow_stage}})
    monkeypatch.setattr(solver, "_search", search)
    first = solver.solve(1, timeout=0.3)
    assert runs == [1] and first.compile_seconds >= 0.4 and first.seconds < 0.1
    again = solver.solve(1, timeout=0.3)
    assert runs == [1] and again.compile_seconds == 0.0
    assert "slow" in solver._steps(None, None)        # warmup() compiles every stage too
    assert reached("later") == 0.0                    # outside a solve: nothing to do


def test_helpers_compile_part_of_a_cold_warm_up(monkeypatch):
    """A helper process claims steps the parent has not started, compiles them and marks
    them done; the parent waits for them, then runs them itself (loading from the cache)."""
    import time

    from solvers import get_solver
    from solvers.core import warm

    solver = get_solver("clock")
    steps = dict(solver._steps(None, None))
    names = list(steps)
    assert len(names) >= 2
    seen, made = {}, []
    enter = warm.Helpers.__enter__

    def record(helpers):
        made.append(helpers)
        return enter(helpers)

    def wait_for_the_helper():
        # the parent's first step: hold until the helpers start and one claims the second
        def claimed():
            shared = made[0].dir
            return shared is not None and (Path(shared.name) / "claim-1").exists()
        for _ in range(600):
            if claimed():
                break
            time.sleep(0.05)
        seen["helper claimed"] = claimed()
        original()

    original = steps[names[0]]
    steps[names[0]] = wait_for_the_helper
    monkeypatch.setattr(warm, "HELP_AFTER", 0.0)
    monkeypatch.setattr(warm.Helpers, "__enter__", record)
    monkeypatch.setattr(solver, "_warmed", set())
    solver._compile(steps, announce=False, helpers=1)
    assert seen["helper claimed"]
    assert set(names) <= solver._warmed


def test_a_helper_takes_only_unclaimed_steps(tmp_path):
    import json

    from solvers import get_solver
    from solvers.core.warm import Claims, help_warm

    names = list(get_solver("clock")._steps(None, None)) + ["no such step"]
    (tmp_path / "steps.json").write_text(json.dumps(names))
    claims = Claims(tmp_path)
    assert claims.claim(0) and not claims.claim(0)
    help_warm("clock", tmp_path)
    assert not claims.is_done(0)                      # another process holds it
    assert all(claims.is_done(i) for i in range(1, len(names) - 1))
    assert not (tmp_path / f"claim-{len(names) - 1}").exists()   # a step it does not know


def test_a_kernel_called_with_constants_compiles_once_per_type(tmp_path):
    """Constants passed to a kernel compile it for their type, not once per value."""
    code = ("from tests.solvers.core import jit_constants as k\n"
            "print(k.caller(3), [str(s) for s in k.callee.signatures])")
    done = _python(code, {"NUMBA_CACHE_DIR": str(tmp_path)})   # cold: both compile here
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(None, 1) == [str(3 * 7 + 2 * 11), "['(int64, int64)']\n"]


def test_a_step_that_needs_a_helpers_step_waits_for_it(monkeypatch):
    """A step marked by ``needs`` runs only after the parent waited for the helper holding
    the step it needs; the helper's step is then loaded here like any other."""
    from solvers import get_solver
    from solvers.core import warm

    log = []

    class OneHelper:                                  # the helper holds step "b"
        lingering = False

        def __init__(self, solver, names, helpers=None, ahead=()):
            self.names = names

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def take(self, i):
            return self.names[i] != "b"

        def wait(self, i):
            log.append(f"wait {self.names[i]}")
            return True

    steps = {"a": lambda: log.append("a"), "b": lambda: log.append("b"),
             "c": warm.needs(lambda: log.append("c"), "b")}
    solver = get_solver("clock")
    monkeypatch.setattr("solvers.core.solver.Helpers", OneHelper)
    monkeypatch.setattr(solver, "_warmed", set())
    solver._compile(steps, announce=False)
    assert log == ["a", "wait b", "c", "wait b", "b"]


def test_helpers_go_on_to_the_steps_ahead_and_a_later_warm_up_waits_for_them(monkeypatch):
    """A warm-up naming steps ahead (a later stage's) leaves its helpers compiling them; the
    stage's own warm-up, later, waits for the helper holding each step instead of compiling
    it, then loads it here (``Solver._compile``)."""
    from solvers import get_solver

    log, made = [], []

    class Ahead:                                      # the helpers hold every step ahead
        def __init__(self, solver, names, helpers=None, ahead=()):
            self.names = list(names) + [n for n in ahead if n not in names]
            self.held, self.lingering = set(ahead), bool(ahead)
            made.append(self)

        def covers(self, names):
            return set(names) <= set(self.names)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def take(self, i):
            return self.names[i] not in self.held

        def wait(self, i):
            log.append(f"wait {self.names[i]}")
            self.lingering = False                    # (its last step done, it ends)
            return True

    steps = {name: (lambda name=name: log.append(name)) for name in "abcd"}
    solver = get_solver("clock")
    monkeypatch.setattr("solvers.core.solver.Helpers", Ahead)
    monkeypatch.setattr(solver, "_warmed", set())
    monkeypatch.setattr(solver, "_ahead", None)
    solver._compile({k: steps[k] for k in "ab"}, announce=False, ahead=["c", "d"])
    assert log == ["a", "b"] and solver._ahead is made[0]
    solver._compile({k: steps[k] for k in "cd"}, announce=False)
    assert len(made) == 1                             # the same helpers, no new ones
    assert log == ["a", "b", "wait c", "c", "wait d", "d"]
    assert solver._ahead is None


def test_helpers_on_steps_ahead_outlive_the_warm_up_until_closed(tmp_path):
    """Leaving a warm-up, helpers still working on steps ahead keep running (and are closed at
    exit); without steps ahead, or after an error, they are stopped at once."""
    from solvers import get_solver
    from solvers.core.warm import Claims, Helpers

    def started(ahead):
        helping = Helpers(get_solver("clock"), ["a"], helpers=0, ahead=ahead)
        helping.claims = Claims(tmp_path)
        helping.procs = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])]
        return helping

    helping = started(["b"])
    with helping:
        pass
    assert helping.lingering and helping.at_exit
    helping.close()
    assert not helping.lingering and helping.procs == []
    helping = started(["b"])
    with pytest.raises(KeyError):
        with helping:
            raise KeyError("a step failed")
    assert not helping.lingering and helping.procs == []
    helping = started(())
    with helping:
        pass
    assert not helping.lingering and helping.procs == []


_CALLEES = """
import json, sys
from solvers import get_solver
solver = get_solver(sys.argv[1])
steps = solver._steps(None, None)
declared = {name: step.callee for name, step in steps.items() if hasattr(step, "callee")}
for name, step in steps.items():           # each callee, then each kernel that needs them
    if name in declared or set(getattr(step, "needs", ())) & set(declared):
        step()
print(json.dumps({name: [str(sig) for sig in kernel.overloads] + [str(argtypes)]
                  for name, (kernel, argtypes) in declared.items()}))
"""


def test_the_declared_callee_types_are_the_callers(tmp_path):
    """A callee compiled ahead of its caller (solvers.core.search.with_callees: Freecell's
    fused driver) with the types the caller passes: the caller's compile, in a fresh cache,
    then finds it and compiles no second version."""
    done = _python(_CALLEES, {"NUMBA_CACHE_DIR": str(tmp_path), "AISLE_WARM_HELPER": "1"},
                   "freecell")
    assert done.returncode == 0, done.stderr
    compiled = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(compiled) == 6
    for name, sigs in compiled.items():
        assert sigs[:-1] == [sigs[-1]], name       # one version, of the declared types
