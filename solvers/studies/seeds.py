"""Seed sets written as ranges and lists: ``1-1000,5000,7000-7100``.

A :class:`SeedSet` keeps sorted, merged, disjoint inclusive ranges, so a million seeds cost two
integers, duplicates are impossible (``1-10,5`` is ``1-10``) and the canonical text is stable.
Batches come out as ``np.int64`` arrays in increasing order, which is what the batch kernels
and the results store want.

Bounds follow the numbering: Aisleriot seeds are 0 .. 2**32-1, Microsoft Freecell deal numbers
1 .. 2**33-1 (:mod:`rules.deals`).
"""
import re

import numpy as np

from rules.deals import MAX_AISLERIOT_SEED, MAX_MICROSOFT_DEAL
from rules.errors import InvalidOptionError, InvalidSeedError, shorten

SEED_BOUNDS = {"aisleriot": (0, MAX_AISLERIOT_SEED), "microsoft": (1, MAX_MICROSOFT_DEAL)}

_ITEM = re.compile(r"^\s*([0-9]{1,20})\s*(?:-\s*([0-9]{1,20})\s*)?$", re.ASCII)   # 20 digits > 2**64


class SeedSet:
    """An ordered set of seeds stored as disjoint inclusive ranges ``[(lo, hi), ...]``."""

    __slots__ = ("ranges", "_size")

    def __init__(self, ranges=()):
        merged = []
        for lo, hi in sorted((int(a), int(b)) for a, b in ranges):
            if lo > hi:
                raise InvalidSeedError(f"seed range {lo}-{hi} is empty (start is after end)")
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self.ranges = tuple((lo, hi) for lo, hi in merged)
        self._size = sum(hi - lo + 1 for lo, hi in self.ranges)

    @classmethod
    def parse(cls, text):
        """``"1-1000,5000,7000-7100"`` -> SeedSet; a malformed item raises InvalidSeedError."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidSeedError(f"seed list {shorten(text)} is empty (expected e.g. 1-1000,5000)")
        ranges = []
        for item in text.split(","):
            m = _ITEM.match(item)
            if not m:
                raise InvalidSeedError(f"bad seed range {shorten(item.strip())} in {shorten(text)} "
                                       f"(expected N or N-M with 0 <= N <= M)")
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) is not None else lo
            if lo > hi:
                raise InvalidSeedError(f"bad seed range {shorten(item.strip())} in {shorten(text)}: "
                                       f"start is after end")
            ranges.append((lo, hi))
        return cls(ranges)

    @classmethod
    def from_iterable(cls, seeds):
        """Any iterable of integers (list, range, numpy array) as a SeedSet."""
        if isinstance(seeds, range) and seeds.step == 1:
            return cls([(seeds.start, seeds.stop - 1)] if len(seeds) else [])
        arr = np.unique(np.asarray(list(seeds) if not isinstance(seeds, np.ndarray) else seeds))
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise InvalidSeedError(f"seeds {shorten(seeds)} must be integers, not {arr.dtype} values")
        if arr.size == 0:
            return cls()
        arr = arr.astype(np.int64)
        breaks = np.flatnonzero(np.diff(arr) != 1)
        starts = np.concatenate(([0], breaks + 1))
        ends = np.concatenate((breaks, [arr.size - 1]))
        return cls(zip(arr[starts].tolist(), arr[ends].tolist()))

    def check(self, numbering):
        """Raise InvalidSeedError unless every seed is valid for ``numbering``; returns self."""
        if numbering not in SEED_BOUNDS:
            raise InvalidSeedError(f"unknown numbering {numbering!r} (choose from {', '.join(SEED_BOUNDS)})")
        low, high = SEED_BOUNDS[numbering]
        if self.ranges and (self.ranges[0][0] < low or self.ranges[-1][1] > high):
            bad = self.ranges[0][0] if self.ranges[0][0] < low else self.ranges[-1][1]
            raise InvalidSeedError(f"seed {bad} is outside {low}..{high} for {numbering} numbering")
        return self

    def __len__(self):
        return self._size

    def __bool__(self):
        return self._size > 0

    def __iter__(self):
        for lo, hi in self.ranges:
            yield from range(lo, hi + 1)

    def __contains__(self, seed):
        return any(lo <= seed <= hi for lo, hi in self.ranges)

    def mask(self, seeds):
        """Boolean mask of the entries of the integer array ``seeds`` that are in this set
        (``in`` for a whole array at once)."""
        inside = np.zeros(np.shape(seeds), bool)
        for lo, hi in self.ranges:
            inside |= (seeds >= lo) & (seeds <= hi)
        return inside

    def __eq__(self, other):
        return isinstance(other, SeedSet) and other.ranges == self.ranges

    def __hash__(self):
        return hash(self.ranges)

    def batches(self, size, exclude=None):
        """Yield ``np.int64`` arrays of at most ``size`` seeds, in order, skipping ``exclude``.

        ``exclude`` is a sorted int64 array (e.g. the seeds already in the results store).
        """
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise InvalidOptionError(f"batch size {shorten(size)} must be a whole number of at least 1")
        pending = np.empty(0, dtype=np.int64)
        for lo, hi in self.ranges:
            for start in range(lo, hi + 1, size):
                chunk = np.arange(start, min(start + size, hi + 1), dtype=np.int64)
                if exclude is not None and exclude.size:
                    chunk = chunk[~_sorted_member(chunk, exclude)]
                pending = np.concatenate((pending, chunk)) if pending.size else chunk
                while pending.size >= size:
                    yield pending[:size]
                    pending = pending[size:]
        if pending.size:
            yield pending

    def __str__(self):
        return ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in self.ranges)

    def __repr__(self):
        return f"SeedSet.parse({str(self)!r})"


def _sorted_member(values, sorted_pool):
    """Boolean mask: which ``values`` occur in the sorted array ``sorted_pool``."""
    idx = np.searchsorted(sorted_pool, values)
    idx[idx == sorted_pool.size] = 0
    return sorted_pool[idx] == values


def parse_seeds(seeds, numbering="aisleriot"):
    """A SeedSet from text (``"1-1000,5000"``), an int, a range or an iterable; checked for ``numbering``."""
    if isinstance(seeds, SeedSet):
        out = seeds
    elif isinstance(seeds, str):
        out = SeedSet.parse(seeds)
    elif isinstance(seeds, (bytes, bytearray, memoryview)):
        raise InvalidSeedError(f"seeds {shorten(seeds)}: expected text like 1-1000,5000 or integers, not bytes")
    elif isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        out = SeedSet([(int(seeds), int(seeds))])
    else:
        try:
            out = SeedSet.from_iterable(seeds)
        except TypeError:
            raise InvalidSeedError(f"seeds {shorten(seeds)}: expected text like 1-1000,5000 or integers") from None
    if not out:
        raise InvalidSeedError("no seeds given")
    return out.check(numbering)
