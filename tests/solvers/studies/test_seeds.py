"""Seed sets (solvers/studies/seeds.py): ranges and lists parsed, merged and printed, batches,
bad text refused quoting it, and the ends of each numbering's seed space."""
import numpy as np
import pytest

from rules.errors import InvalidSeedError
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
