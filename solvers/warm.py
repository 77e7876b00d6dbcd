"""Kernels are made ready before a time limit starts counting.

Numba compiles a solver's kernels on their first call in a process, or loads them from its
on-disk cache.  On a cold cache that takes seconds (Freecell: about 12 s on the 2-core test
box), so a first ``solve(deal, timeout=5)`` would spend its whole limit compiling and report
``unknown`` for a deal it solves in a millisecond.  A limit bounds the search, not the
compiler: each solver runs its ``warmup`` once per process before its first timed search and
reports the time apart (``SolveResult.compile_seconds``).
"""
import time

_READY = set()


def make_ready(module_name, warmup):
    """Run ``warmup`` (a solver module's) once per process; seconds it took, 0.0 after the first."""
    if module_name in _READY:
        return 0.0
    _READY.add(module_name)            # warmup's own solves are untimed, but never recurse
    t0 = time.perf_counter()
    warmup()
    return time.perf_counter() - t0


def ready_for_timing(module_name, warmup, timeout):
    """:func:`make_ready` before a search limited to ``timeout`` seconds; 0.0 when ``timeout`` is
    None (an unlimited search pays compilation as latency only)."""
    return 0.0 if timeout is None else make_ready(module_name, warmup)
