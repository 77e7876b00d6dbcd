"""Kernels for tests/solvers/core/test_cold_start.py: a callee called with constants."""
from rules._jit import jit


@jit
def callee(x, k):
    return x * k


@jit
def caller(x):
    return callee(x, 7) + callee(2, 11)
