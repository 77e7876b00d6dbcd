"""Seed sets (solvers/studies/seeds.py): ranges and lists parsed, merged and printed, batches,
bad text refused quoting it, and the ends of each numbering's seed space."""
import numpy as np
import pytest

from rules.errors import InvalidOptionError, InvalidSeedError
from solvers.studies.seeds import SeedSet, parse_seeds


def test_seed_ranges_parse_merge_and_print():
    s = parse_seeds("1-1000,5000,7000-7100")
    assert len(s) == 1000 + 1 + 101
    assert str(s) == "1-1000,5000,7000-7100"
    assert 5000 in s and 4999 not in s
    assert str(parse_seeds(" 10 - 20 , 5, 15-30,31")) == "5,10-31"      # sorted, merged, no duplicates
    assert list(parse_seeds("3,1-2")) == [1, 2, 3]
    assert str(parse_seeds(range(5, 10))) == "5-9"
    assert str(parse_seeds([9, 3, 4, 5, 3])) == "3-5,9"
    assert str(parse_seeds(np.array([0, 2]))) == "0,2"
    assert parse_seeds("1-3,2") == SeedSet([(1, 3)]) == SeedSet.parse("1,2,3")


def test_batches_skip_excluded_seeds_and_keep_order():
    s = parse_seeds("1-10,20-25")
    out = list(s.batches(4, exclude=np.array([2, 3, 21, 40], dtype=np.int64)))
    assert [b.tolist() for b in out] == [[1, 4, 5, 6], [7, 8, 9, 10], [20, 22, 23, 24], [25]]


@pytest.mark.parametrize("text", ["", " ", "5-3", "abc", "1-", "-5", "1,,2", "1-2-3", "1.5", "0x10"])
def test_bad_seed_text_is_a_clear_error(text):
    with pytest.raises(InvalidSeedError) as err:
        parse_seeds(text)
    assert repr(text.strip()) in str(err.value) or repr(text) in str(err.value)


def test_seed_bounds_follow_the_numbering():
    parse_seeds("0-5")
    with pytest.raises(InvalidSeedError, match="4294967296"):
        parse_seeds("4294967290-4294967296")
    with pytest.raises(InvalidSeedError, match="microsoft"):
        parse_seeds("0-3", "microsoft")
    assert len(parse_seeds("4294967296", "microsoft")) == 1


@pytest.mark.parametrize("given, text", [
    ("7", "7"), (7, "7"), (np.int64(7), "7"), ("1-3,4-6", "1-6"), ("4-6,1-3", "1-6"),
    ("1-3,5-6", "1-3,5-6"), ("1-10,5", "1-10"), ("2-4,3-8,20", "2-8,20"), (range(3, 3 + 4), "3-6"),
    ([5, 4, 3, 10], "3-5,10"), (np.array([8, 8, 9], np.int64), "8-9"), ("  0 - 2 ", "0-2"),
])
def test_ranges_and_lists_merge_into_canonical_ranges(given, text):
    seeds = parse_seeds(given)
    assert str(seeds) == text
    assert list(seeds) == sorted({s for lo, hi in seeds.ranges for s in range(lo, hi + 1)})
    assert len(seeds) == len(list(seeds)) and parse_seeds(str(seeds)) == seeds


@pytest.mark.parametrize("bad, quoted", [
    ("12-x", "'12-x'"), ("3,seven", "'seven'"), ("9-2", "'9-2'"), (b"1-3", "b'1-3'"),
    ([1, 2.5], "2.5"), ("1" * 25, "'1111111111"),
])
def test_bad_seeds_are_refused_quoting_the_value(bad, quoted):
    with pytest.raises(InvalidSeedError) as err:
        parse_seeds(bad)
    assert quoted in str(err.value)


def test_no_seeds_is_an_error():
    for empty in ([], range(0), np.array([], np.int64)):
        with pytest.raises(InvalidSeedError, match="no seeds"):
            parse_seeds(empty)


@pytest.mark.parametrize("numbering, low, high", [("aisleriot", 0, 2**32 - 1),
                                                   ("microsoft", 1, 2**33 - 1)])
def test_the_ends_of_each_seed_space(numbering, low, high):
    """The first and last seeds of a numbering are accepted, one past either end is refused
    with the offending seed and the bounds in the message."""
    assert list(parse_seeds(f"{low},{high}", numbering)) == [low, high]
    assert list(parse_seeds([high], numbering)) == [high]
    for outside in ([low - 1] if low > 0 else []) + [high + 1]:
        with pytest.raises(InvalidSeedError) as err:
            parse_seeds(f"{outside}-{max(outside, high)}" if outside > high else str(outside),
                        numbering)
        assert str(outside) in str(err.value) and f"{low}..{high}" in str(err.value)
    with pytest.raises(InvalidSeedError, match="'nonsense'"):
        parse_seeds("1", "nonsense")


def test_batches_are_int64_in_order_and_sized():
    seeds = parse_seeds("1-5,9,11-12")
    batches = list(seeds.batches(3))
    assert [b.tolist() for b in batches] == [[1, 2, 3], [4, 5, 9], [11, 12]]
    assert all(b.dtype == np.int64 for b in batches)
    assert [b.tolist() for b in seeds.batches(3, exclude=np.array([1, 2, 3, 4, 5, 9, 11, 12]))] == []
    for size in (0, -1, 1.5, True, "2"):
        with pytest.raises(InvalidOptionError):
            list(seeds.batches(size))


def test_mask_agrees_with_membership():
    seedset = SeedSet.parse("3-7,10,20-21")
    values = np.arange(0, 25, dtype=np.int64)
    assert seedset.mask(values).tolist() == [int(v) in seedset for v in values]
