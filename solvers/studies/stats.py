"""Win-rate statistics: the Wilson score interval, with unknown deals counted both ways.

Why Wilson: it stays inside [0, 1] and keeps close to its nominal coverage for small counts and
rates near 0 or 1, where the normal (Wald) interval fails.

Unknown deals (the solver hit a limit) are never counted as lost.  The reported interval is the
union over every way the unknowns could turn out: its lower end is Wilson's lower bound with all
unknowns lost, its upper end Wilson's upper bound with all of them won.  The point estimate is
the win rate among decided deals.
"""
import math
import numbers
from statistics import NormalDist
from typing import NamedTuple

from rules.errors import InvalidOptionError, shorten


def z_value(confidence=0.95):
    """Two-sided normal quantile: 1.95996... for 0.95."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise InvalidOptionError(f"confidence {shorten(confidence)} must be a number strictly between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes, n, confidence=0.95):
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``n``; ``(0, 1)`` when n = 0."""
    if n < 0 or not 0 <= successes <= n:
        raise InvalidOptionError(f"need 0 <= successes <= n, got successes={successes!r}, n={n!r}")
    if n == 0:
        return 0.0, 1.0
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    low, high = centre - half, centre + half
    # Exact ends: the interval always contains 0 when p = 0 and 1 when p = 1.
    return (0.0 if successes == 0 else max(0.0, low)), (1.0 if successes == n else min(1.0, high))


class WinRate(NamedTuple):
    deals: int
    won: int
    unsolvable: int
    unknown: int
    rate: float          # won / (won + unsolvable); nan when nothing is decided
    low: float           # lower end of the interval (unknowns lost)
    high: float          # upper end of the interval (unknowns won)
    confidence: float

    def text(self):
        """``7.692% [7.641%, 7.744%]``."""
        rate = "n/a" if math.isnan(self.rate) else f"{100 * self.rate:.3f}%"
        return f"{rate} [{100 * self.low:.3f}%, {100 * self.high:.3f}%]"


def win_rate(won, unsolvable, unknown=0, confidence=0.95):
    """Point estimate and interval for the counts; see the module docstring for unknowns."""
    deals = won + unsolvable + unknown
    decided = won + unsolvable
    low, _ = wilson_interval(won, deals, confidence)
    _, high = wilson_interval(won + unknown, deals, confidence)
    rate = won / decided if decided else float("nan")
    return WinRate(deals, won, unsolvable, unknown, rate, low, high, confidence)


class PairedDifference(NamedTuple):
    deals: int
    only_a: int          # deals A won and B lost
    only_b: int          # deals B won and A lost
    difference: float    # A's win rate minus B's
    low: float
    high: float
    confidence: float

    def text(self):
        """``-3.5 points [-6.3, -0.7]``."""
        return (f"{100 * self.difference:+.1f} points "
                f"[{100 * self.low:+.1f}, {100 * self.high:+.1f}]")


def paired_difference(a_won, b_won, confidence=0.95):
    """A's win rate minus B's over the same deals (``a_won``, ``b_won``: one flag a deal each),
    with Newcombe's score interval for paired proportions (his method 10: the two Wilson
    intervals combined through the correlation of the pairs), which, unlike the normal one,
    stays inside [-1, 1] and keeps its coverage when few deals are won by one player alone."""
    if len(a_won) != len(b_won):
        raise InvalidOptionError(f"paired deals: {len(a_won)} results for A, {len(b_won)} for B")
    n = len(a_won)
    both = sum(1 for x, y in zip(a_won, b_won) if x and y)
    only_a = sum(1 for x, y in zip(a_won, b_won) if x and not y)
    only_b = sum(1 for x, y in zip(a_won, b_won) if y and not x)
    neither = n - both - only_a - only_b
    if n == 0:
        return PairedDifference(0, 0, 0, 0.0, -1.0, 1.0, confidence)
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson_interval(both + only_a, n, confidence)
    l2, u2 = wilson_interval(both + only_b, n, confidence)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    diff = p1 - p2
    low = diff - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = diff + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return PairedDifference(n, only_a, only_b, diff, max(-1.0, low), min(1.0, high), confidence)


def running_interval(won_flags, unknown_flags=None, confidence=0.95):
    """Arrays ``(n, rate, low, high)`` after each deal, for convergence plots (numpy, vectorised)."""
    import numpy as np

    won = np.cumsum(np.asarray(won_flags, dtype=np.int64))
    n = np.arange(1, won.size + 1, dtype=np.float64)
    unk = (np.cumsum(np.asarray(unknown_flags, dtype=np.int64)) if unknown_flags is not None
           else np.zeros_like(won))
    z = z_value(confidence)

    def bounds(k):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z * np.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
        return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)

    low, _ = bounds(won)
    _, high = bounds(won + unk)
    decided = n - unk
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(decided > 0, won / decided, np.nan)
    return n, rate, low, high
