"""Aisleriot's generator and shuffle (spec 2.5 vectors) and Microsoft deal numbers."""
import numpy as np
import pytest

from rules.cards import aisleriot_card_str, card_str
from rules.deals import (AisleriotRandom, aisleriot_shuffle, microsoft_deal, shuffle_many, shuffle_one)
from rules.errors import InvalidSeedError

SEED1_RAW = [1791095845, 4282876139, 3093770124, 4005303368, 491263]
SEED1_DRAWS = [int(x) for x in (
    "45 26 24 3 31 25 21 41 11 37 32 37 36 11 9 16 30 31 0 19 30 14 26 4 23 9 8 2 5 10 6 5 7 6 7 7 "
    "7 6 4 0 9 8 5 5 7 1 0 4 1 1 0 0").split()]
SEED1_D = ("9c Qh 8d 3c 6s Ac 4d Ks Td Ad 2s Js 3h 9d 3d 5s Jc 3s 7h 2d 6c Jh As 8h 4h Kd 9h 9s 4c 5d 5c "
           "Qs Kh 6d Kc Tc 6h Jd Qd Qc 8c 4s 8s 7d Ts 2c 5h Th 7c Ah 2h 7s")

# Columns of `make-microsoft-freecell-board -t N` (Debian freecell-solver-bin 6.x), first line only
# for brevity plus the whole deal for 11982 and the top of the extended range.
MS_FIRST_COLUMN = {
    1: 'JD KD 2S 4C 3S 6D 6S',
    617: '7D TD TH KD 4C 4S JD',
    11982: 'AH 3D KD JC 6C JD KC',
    3000000000: '8D TS JS TD JH JD JC',
    5000000000: '9D KS 4C 2D AC KH TS',
    8589934591: 'TC 8S 8C 6C 5H 5C 9C',
}
MS_11982 = """AH 3D KD JC 6C JD KC
AS 3H 6H 5D 2C 7D 8D
4H QS 5S 5C TH 8H 2S
AC QC 4D 8C QH 9C 3S
2D 8S 9H 9D 6D 2H
6S 7H JH TD TC QD
TS AD 9S KH 4S 4C
JS KS 3C 7C 7S 5H"""


def test_raw_outputs_seed_1():
    rng = AisleriotRandom(1)
    assert [rng.next_uint32() for _ in range(5)] == SEED1_RAW


def test_shuffle_draws_seed_1():
    rng = AisleriotRandom(1)
    assert [rng.int_range(52 - i) for i in range(52)] == SEED1_DRAWS


def test_deck_order_seed_1():
    assert " ".join(aisleriot_card_str(c) for c in aisleriot_shuffle(1)) == SEED1_D


def test_kernels_agree_with_python():
    seeds = [0, 1, 2, 3000, 123456789, 2**32 - 1]
    for n in (52, 96):
        batch = shuffle_many(seeds, n)
        for row, seed in zip(batch, seeds):
            assert row.tolist() == aisleriot_shuffle(seed, n)
            out = np.empty(n, dtype=np.int64)
            shuffle_one(seed, n, out)
            assert out.tolist() == row.tolist()


def test_int_range_is_rejection_sampling():
    """g_rand_int_range rejects raw outputs above 2^32 - 1 - (2^32 mod n); n = 2^31 + 1 rejects half."""
    for n in (1, 2, 3, 52, 96, 2**31 + 1):
        limit = 2**32 - 1 - (2**32 % n)
        for seed in range(20):
            raw = AisleriotRandom(seed)
            while True:
                r = raw.next_uint32()
                if r <= limit:
                    break
            assert AisleriotRandom(seed).int_range(n) == r % n


@pytest.mark.parametrize("seed", [-1, 2**32, "x", 1.5, None])
def test_bad_aisleriot_seed(seed):
    with pytest.raises(InvalidSeedError) as err:
        AisleriotRandom(seed)
    assert repr(seed) in str(err.value)


def test_microsoft_deal_1_starts():
    assert " ".join(card_str(c) for c in microsoft_deal(1)[:8]) == "JD 2D 9H JC 5D 7H 7C 5H"


@pytest.mark.parametrize("number", sorted(MS_FIRST_COLUMN))
def test_microsoft_deals_match_fc_solve(number):
    deal = microsoft_deal(number)
    assert sorted(deal) == list(range(52))
    assert " ".join(card_str(c) for c in deal[0::8]) == MS_FIRST_COLUMN[number]


def test_microsoft_11982_whole():
    deal = microsoft_deal(11982)
    cols = "\n".join(" ".join(card_str(c) for c in deal[i::8]) for i in range(8))
    assert cols == MS_11982


@pytest.mark.parametrize("number", [0, -5, 2**33, "abc"])
def test_bad_microsoft_number(number):
    with pytest.raises(InvalidSeedError) as err:
        microsoft_deal(number)
    assert repr(number) in str(err.value)


# ---- seeds and deal numbers must be whole numbers ---------------------------------------------
@pytest.mark.parametrize("name", ["clock", "freecell", "yukon", "ten-across", "zebra"])
@pytest.mark.parametrize("seed", [1.9, 1.5, True, False, "1.5", "4_2", "1e3", " ", "", "x", float("inf"),
                                  float("nan"), None, [1], "٣", "9" * 5000])
def test_every_game_refuses_seeds_that_are_not_whole_numbers(name, seed):
    from rules import get_game

    with pytest.raises(InvalidSeedError) as err:
        get_game(name).deal(seed)
    message = str(err.value)
    assert len(message) < 300
    if not isinstance(seed, str) or len(seed) < 50:
        assert repr(seed) in message


@pytest.mark.parametrize("seed, value", [("42", 42), (" 42 ", 42), (42.0, 42), (np.int64(42), 42), (np.uint32(42), 42)])
def test_whole_numbers_in_any_form_are_accepted(seed, value):
    from rules import get_game

    for name in ("clock", "freecell"):
        game = get_game(name)
        assert game.deal(seed) == game.deal(value)


def test_microsoft_numbering_refuses_fractions_and_bools():
    with pytest.raises(InvalidSeedError, match="1.9"):
        microsoft_deal(1.9)
    with pytest.raises(InvalidSeedError, match="True"):
        microsoft_deal(True)
    assert microsoft_deal("617") == microsoft_deal(617)


@pytest.mark.parametrize("seeds", [[1.5], [True, False], ["1"], [float("nan")], [-1], [2**32], [[1, 2], [3]]])
def test_batch_seeds_are_checked_not_truncated(seeds):
    with pytest.raises(InvalidSeedError):
        shuffle_many(seeds)


def test_batch_seeds_accept_integral_floats():
    assert shuffle_many([3.0, 4.0]).tolist() == shuffle_many([3, 4]).tolist()


@pytest.mark.parametrize("name, seed, numbering", [
    ("yukon", -1, None), ("yukon", 2**32, "aisleriot"), ("freecell", 0, None),
    ("freecell", 2**34, "microsoft"), ("zebra", 1, "microsoft"), ("clock", "x", None)])
def test_check_seed_refuses_what_deal_refuses_without_dealing(name, seed, numbering, monkeypatch):
    from rules import get_game

    game = get_game(name)
    with pytest.raises(InvalidSeedError) as by_deal:
        game.deal(seed, numbering)
    monkeypatch.setattr(game, "deal_array", lambda *a: pytest.fail("check_seed dealt"))
    with pytest.raises(InvalidSeedError) as by_check:
        game.check_seed(seed, numbering)
    assert str(by_check.value) == str(by_deal.value)
    assert game.check_seed(" 7 ") == (7, game.default_numbering)
