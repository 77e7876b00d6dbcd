"""Win-rate statistics (solvers/studies/stats.py): Wilson intervals against values computed
independently, unknown deals widening the interval both ways, and the running interval."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.studies.stats import running_interval, wilson_interval, win_rate


def test_wilson_known_values():
    # Values worked out by hand from Wilson's formula (z = 1.959964).
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.27754, abs=1e-5)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    lo, hi = wilson_interval(81, 263)
    assert (lo, hi) == (pytest.approx(0.25529, abs=1e-4), pytest.approx(0.36621, abs=1e-4))
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 300))
def test_unknowns_widen_the_interval_both_ways(won, lost, unknown):
    w = win_rate(won, lost, unknown)
    n = won + lost + unknown
    if n == 0:
        return
    low_all_lost, high_all_lost = wilson_interval(won, n)
    low_all_won, high_all_won = wilson_interval(won + unknown, n)
    assert w.low == low_all_lost and w.high == high_all_won
    assert w.low <= won / n <= (won + unknown) / n <= w.high
    if won + lost:
        assert w.low <= w.rate <= w.high


def test_running_interval_ends_at_the_final_interval():
    flags = np.arange(100) % 7 == 0
    unk = np.arange(100) % 11 == 5
    n, rate, low, high = running_interval(flags & ~unk, unk)
    w = win_rate(int((flags & ~unk).sum()), int((~flags & ~unk).sum()), int(unk.sum()))
    assert (low[-1], high[-1], rate[-1]) == pytest.approx((w.low, w.high, w.rate))
