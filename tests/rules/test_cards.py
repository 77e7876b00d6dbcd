import pytest
from hypothesis import given, strategies as st

from rules.cards import (BLACK, RED, aisleriot_card_str, card_label, card_str, colour, parse_card, rank, suit)
from rules.errors import AisleError, InvalidCardError


def test_encoding_matches_aisleriot_deck_order():
    assert parse_card("AC") == 0 and parse_card("KC") == 12
    assert parse_card("AD") == 13 and parse_card("KS") == 51
    assert rank(parse_card("TH")) == 10 and suit(parse_card("TH")) == 2


@pytest.mark.parametrize("text", ["TH", "th", "10h", "10H", "Th", " tH "])
def test_parse_accepts_variants(text):
    assert parse_card(text) == parse_card("TH")
    assert card_str(parse_card(text)) == "TH"
    assert aisleriot_card_str(parse_card(text)) == "Th"


@pytest.mark.parametrize("text", ["", "1H", "11S", "ZH", "AX", "A", "10", "AHH", None, 5])
def test_bad_tokens_are_named(text):
    with pytest.raises(InvalidCardError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, AisleError)


@given(st.integers(0, 51))
def test_print_parse_round_trip(card):
    assert parse_card(card_str(card)) == card
    assert parse_card(aisleriot_card_str(card)) == card


@given(st.integers(0, 103))
def test_colour(card):
    expected = RED if card_str(card)[1] in "DH" else BLACK
    assert colour(card) == expected


def test_long_tokens_give_short_messages():
    with pytest.raises(InvalidCardError) as err:
        parse_card("Q" * 5_000_000)
    assert len(str(err.value)) < 300 and "'QQQ" in str(err.value)


def test_card_labels_read_as_people_write_them():
    assert [card_label(parse_card(c)) for c in ("AC", "TD", "JH", "QS", "KC", "7H")] == \
        ["A\u2663", "10\u2666", "J\u2665", "Q\u2660", "K\u2663", "7\u2665"]
    assert len({card_label(c) for c in range(52)}) == 52
    assert card_label(52 + 13) == card_label(13)              # Zebra's second deck reads the same
    with pytest.raises(InvalidCardError):
        card_label(-1)
