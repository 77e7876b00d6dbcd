import pytest
from hypothesis import given, strategies as st

from rules.errors import IllegalMoveError, InvalidDealError
from rules.layout import Layout, parse_layout
from rules.moves import CLICK, DBL, DRAG, Move, encode, move_dst, move_kind, move_n, move_src

card = st.tuples(st.integers(0, 51), st.booleans())
layouts = st.builds(Layout, st.lists(st.lists(card, max_size=6).map(tuple), min_size=1, max_size=18).map(tuple),
                    st.integers(0, 500), st.integers(0, 3))


@given(layouts)
def test_layout_round_trip(layout):
    assert parse_layout(str(layout)) == layout


def test_layout_text_matches_trace_style():
    text = "Kc* Ad* Qc* Kh*|As* 9s* Qs* 9h*||7c#12#1"
    layout = parse_layout(text)
    assert str(layout) == text
    assert layout.slots[2] == () and layout.score == 12 and layout.redeals == 1
    assert layout.slots[3] == ((6, True),)


@pytest.mark.parametrize("text, quoted", [
    ("Kc Xx|#0#0", "'Xx'"),
    ("Kc|Qd", "'Kc|Qd'"),
    ("Kc#a#0", "'#a#0'"),
])
def test_bad_layouts_are_named(text, quoted):
    with pytest.raises(InvalidDealError) as err:
        parse_layout(text)
    assert quoted in str(err.value)


@given(st.integers(0, 2), st.integers(0, 255), st.integers(1, 255), st.integers(0, 255))
def test_move_code_round_trip(kind, src, n, dst):
    if kind != DRAG:
        n = dst = 0
    move = Move(kind, src, n, dst)
    code = encode(kind, src, n, dst)
    assert move.code == code
    assert (move_kind(code), move_src(code), move_n(code), move_dst(code)) == tuple(move)
    assert Move.from_code(code) == move
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


def test_move_text():
    assert str(Move(DRAG, 8, 3, 12)) == "drag 8 3 12"
    assert str(Move(CLICK, 6)) == "click 6" and str(Move(DBL, 7)) == "dbl 7"


@pytest.mark.parametrize("text", ["drag 1 2", "drag a 1 2", "tap 3", "dbl", "drag 1 0 2", "click 999"])
def test_bad_move_text(text):
    with pytest.raises(IllegalMoveError) as err:
        Move.parse(text)
    assert repr(text) in str(err.value)
