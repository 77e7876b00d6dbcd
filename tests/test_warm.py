"""A time limit bounds the search, not the compiler (solvers.warm)."""
import time

import pytest

from solvers import freecell_solver, ten_across_solver, warm, yukon_solver, zebra_solver

SLOW_WARMUP = 0.6       # a stand-in for compiling on a cold cache, longer than the limit below
LIMIT = 0.4


@pytest.mark.parametrize("module, deal", [(freecell_solver, 1), (yukon_solver, 5),
                                          (ten_across_solver, 5), (zebra_solver, 5)])
def test_first_timed_solve_warms_up_outside_its_limit(module, deal, monkeypatch):
    module.warmup()                                   # real kernels ready, so the search is fast
    calls = []

    def slow_warmup():
        calls.append(1)
        time.sleep(SLOW_WARMUP)

    monkeypatch.setattr(warm, "_READY", set())
    monkeypatch.setattr(module, "warmup", slow_warmup)
    untimed = module.solve(deal)
    assert calls == [] and untimed.compile_seconds == 0.0      # no limit: nothing to protect
    first = module.solve(deal, timeout=LIMIT)
    assert calls == [1]
    assert first.compile_seconds >= SLOW_WARMUP
    assert first.verdict != "unknown", first.summary()        # the limit was not spent warming up
    assert first.seconds < LIMIT
    again = module.solve(deal, timeout=LIMIT)
    assert calls == [1] and again.compile_seconds == 0.0       # once per process
    assert again.verdict == first.verdict


def test_make_ready_runs_a_warmup_once(monkeypatch):
    monkeypatch.setattr(warm, "_READY", set())
    calls = []
    assert warm.make_ready("x", lambda: calls.append(1)) >= 0.0
    assert warm.make_ready("x", lambda: calls.append(1)) == 0.0
    assert warm.ready_for_timing("y", lambda: calls.append(2), None) == 0.0
    assert calls == [1]
