"""Win-rate statistics (solvers/studies/stats.py): Wilson intervals against values computed
independently, unknown deals widening the interval both ways, the running interval, and the
paired difference of two players' rates."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidOptionError
from solvers.studies.stats import (paired_difference, running_interval, wilson_interval,
                                   win_rate, z_value)


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


Z95 = 1.959963984540054        # the two-sided 95% normal quantile, as printed in tables


def _score_statistic(p, k, n):
    """Wilson's score statistic |k/n - p| / sqrt(p (1 - p) / n): the interval's ends are the p
    where it equals z."""
    return abs(k / n - p) / math.sqrt(p * (1 - p) / n)


def _quadratic_ends(k, n, z):
    """The interval's ends as the roots of (1 + z^2/n) p^2 - (2 k/n + z^2/n) p + (k/n)^2 = 0,
    solved with the quadratic formula (a form independent of the library's centre +- half)."""
    a, b, c = 1 + z * z / n, -(2 * k / n + z * z / n), (k / n) ** 2
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@given(st.integers(2, 5000).flatmap(lambda n: st.tuples(st.integers(1, n - 1), st.just(n))))
def test_wilson_ends_are_where_the_score_test_equals_z(kn):
    """0 < k < n: both ends are roots of the score test's quadratic."""
    k, n = kn
    low, high = wilson_interval(k, n)
    assert 0 < low < k / n < high < 1
    assert (low, high) == pytest.approx(_quadratic_ends(k, n, Z95), rel=1e-9, abs=1e-12)
    assert _score_statistic(low, k, n) == pytest.approx(Z95, rel=1e-6)
    assert _score_statistic(high, k, n) == pytest.approx(Z95, rel=1e-6)


@pytest.mark.parametrize("n", [1, 2, 10, 263, 10**6])
def test_wilson_none_won_and_all_won(n):
    """0 of n: the interval starts at exactly 0 and ends at z^2 / (n + z^2); n of n is its
    mirror image, ending at exactly 1."""
    low, high = wilson_interval(0, n)
    assert low == 0.0 and high == pytest.approx(Z95 ** 2 / (n + Z95 ** 2), rel=1e-9)
    low, high = wilson_interval(n, n)
    assert high == 1.0 and low == pytest.approx(n / (n + Z95 ** 2), rel=1e-9)


def test_confidence_widens_the_interval_and_is_checked():
    assert z_value(0.95) == pytest.approx(Z95, rel=1e-12)
    assert z_value(0.99) == pytest.approx(2.5758293035489, rel=1e-12)
    low95, high95 = wilson_interval(30, 100)
    low99, high99 = wilson_interval(30, 100, confidence=0.99)
    assert low99 < low95 < 0.3 < high95 < high99
    assert (low99, high99) == pytest.approx(_quadratic_ends(30, 100, 2.5758293035489), rel=1e-9)
    for bad in (0, 1, 1.5, -0.2, "0.9", True):
        with pytest.raises(InvalidOptionError) as err:
            wilson_interval(1, 2, confidence=bad)
        assert repr(bad) in str(err.value)
    for k, n in ((3, 2), (-1, 5), (0, -1)):
        with pytest.raises(InvalidOptionError):
            wilson_interval(k, n)


def test_win_rate_with_nothing_decided():
    """Only unknown deals: no point estimate (nan, printed n/a) and the whole range possible."""
    w = win_rate(0, 0, 12)
    assert math.isnan(w.rate) and (w.low, w.high) == (0.0, 1.0)
    assert w.text() == "n/a [0.000%, 100.000%]"
    assert win_rate(0, 0, 0).deals == 0


def test_running_interval_is_the_interval_after_each_deal():
    rng = np.random.default_rng(4)
    won = rng.random(60) < 0.3
    unknown = ~won & (rng.random(60) < 0.2)
    n, rate, low, high = running_interval(won, unknown)
    for i in range(60):
        w = win_rate(int(won[:i + 1].sum()), int((~won & ~unknown)[:i + 1].sum()),
                     int(unknown[:i + 1].sum()))
        assert n[i] == i + 1
        assert (low[i], high[i]) == pytest.approx((w.low, w.high), abs=1e-12)
        assert rate[i] == pytest.approx(w.rate, nan_ok=True)


def _pairs(both, only_a, only_b, neither):
    a = [1] * both + [1] * only_a + [0] * only_b + [0] * neither
    b = [1] * both + [0] * only_a + [1] * only_b + [0] * neither
    return a, b


def test_paired_difference_is_near_the_normal_interval_on_many_deals():
    a, b = _pairs(450, 60, 40, 450)
    d = paired_difference(a, b)
    assert (d.deals, d.only_a, d.only_b) == (1000, 60, 40) and d.difference == pytest.approx(0.02)
    half = 1.959964 * math.sqrt(60 + 40 - 20 ** 2 / 1000) / 1000     # McNemar-Wald half-width
    assert d.low == pytest.approx(0.02 - half, abs=0.002) and d.high == pytest.approx(0.02 + half, abs=0.002)
    assert d.text() == "+2.0 points [+0.0, +3.9]"


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30))
def test_paired_difference_swapped_players_negate_it(both, only_a, only_b, neither):
    a, b = _pairs(both, only_a, only_b, neither)
    d, e = paired_difference(a, b), paired_difference(b, a)
    assert -1 <= d.low <= d.difference <= d.high <= 1
    assert (e.difference, e.low, e.high) == pytest.approx((-d.difference, -d.high, -d.low))


def test_paired_difference_covers_the_true_difference():
    """Simulated pairs with known rates (A wins 55%, B 50%, correlated): the 95% interval holds
    the true difference in about 95% of 2,000 samples of 200 deals."""
    rng = np.random.default_rng(7)
    probabilities = [0.40, 0.15, 0.10, 0.35]          # both, only A, only B, neither
    hits = 0
    for _ in range(2000):
        counts = rng.multinomial(200, probabilities)
        d = paired_difference(*_pairs(*counts))
        hits += d.low <= 0.05 <= d.high
    assert 0.935 <= hits / 2000 <= 0.975


def test_paired_difference_needs_the_same_deals():
    with pytest.raises(InvalidOptionError, match="3 results for A, 2 for B"):
        paired_difference([1, 0, 1], [1, 1])
