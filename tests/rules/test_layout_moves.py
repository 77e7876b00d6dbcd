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


# ---- hardening: short messages, byte-order marks, size limits, Layout objects ---------------------
from rules.errors import AisleError, clip, listing, shorten  # noqa: E402


def test_shorten_quotes_and_cuts():
    assert shorten("Kc") == "'Kc'" and shorten(5) == "5"
    long = shorten("x" * 5_000_000)
    assert len(long) == 60 and long.startswith("'xxx") and long.endswith("...")
    assert len(shorten(list(range(1000)), 80)) == 80
    assert clip("abc", 10) == "abc" and clip("a" * 50, 10) == "aaaaaaa..."
    assert listing(["a", "b"]) == "a b" and listing(map(str, range(20)), 3) == "0 1 2 ... (20 in all)"


@pytest.mark.parametrize("text", [
    "Kc " * 2_000_000 + "#0#0",
    "|" * 2_000_000 + "#0#0",
    "Zz" * 2_000_000 + "#0#0",
    "Kc#" + "1" * 2_000_000 + "#0",
    "x" * 5_000_000,
    "Kc#0#" + "9" * 5000,
])
def test_huge_garbage_layouts_give_one_short_message(text):
    with pytest.raises(InvalidDealError) as err:
        parse_layout(text)
    assert len(str(err.value)) < 300


def test_layout_text_may_start_with_a_byte_order_mark():
    assert parse_layout("\ufeffKc|Ad*#3#0") == parse_layout("Kc|Ad*#3#0")


@pytest.mark.parametrize("text", ["Kc#1_0#0", "Kc#١#0", "Kc# #0", "Kc**#0#0"])
def test_layout_numbers_and_faces_are_strict(text):
    with pytest.raises(InvalidDealError):
        parse_layout(text)


def test_move_parse_messages_stay_short():
    with pytest.raises(IllegalMoveError) as err:
        Move.parse("drag " + "1" * 5_000_000)
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("code", [-1, 3 << 24, 2**70, True, 1.0, "5", None])
def test_move_codes_outside_the_encoding_are_refused(code):
    with pytest.raises(IllegalMoveError):
        Move.from_code(code)


def test_error_classes():
    from rules.errors import InvalidTraceError, UnreadableFileError

    assert issubclass(InvalidTraceError, AisleError) and issubclass(InvalidTraceError, ValueError)
    assert issubclass(UnreadableFileError, InvalidDealError)


# ---- user text files ------------------------------------------------------------------------------
def test_read_text_strips_a_byte_order_mark_and_reads_gzip(tmp_path):
    import gzip

    from rules.textfile import read_text

    plain = tmp_path / "board.txt"
    plain.write_bytes("\ufeffKS QH\n".encode("utf-8"))
    assert read_text(plain, "board") == "KS QH\n"
    packed = tmp_path / "board.txt.gz"
    packed.write_bytes(gzip.compress("KS QH\n".encode("utf-8")))
    assert read_text(str(packed), "board") == "KS QH\n"


@pytest.mark.parametrize("content, fragment", [
    (b"KS \xff QH", "not UTF-8"),
    (b"x" * 2000, "larger than 1000 bytes"),
    (None, "No such file"),
    ("dir", "directory"),
])
def test_read_text_refuses_unreadable_files(tmp_path, content, fragment):
    from rules.errors import UnreadableFileError
    from rules.textfile import read_text

    path = tmp_path / "board.txt"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(UnreadableFileError) as err:
        read_text(path, "board", max_bytes=1000)
    assert fragment in str(err.value) and str(path) in str(err.value) and "board" in str(err.value)


def test_read_text_does_not_read_an_endless_file():
    from rules.errors import UnreadableFileError
    from rules.textfile import read_text

    with pytest.raises(UnreadableFileError, match="larger than"):
        read_text("/dev/zero", "board")


@pytest.mark.parametrize("data", [b"\x1f\x8b\x08\x00garbage", b"not gzip at all", b""])
def test_read_text_refuses_damaged_gzip(tmp_path, data):
    import gzip

    from rules.errors import UnreadableFileError
    from rules.textfile import read_text

    path = tmp_path / "t.gz"
    path.write_bytes(data or gzip.compress(b"abc" * 100)[:20])
    with pytest.raises(UnreadableFileError):
        read_text(path, "trace")


@pytest.mark.parametrize("path", [3, None, "a\x00b"])
def test_read_text_refuses_paths_that_are_not_paths(path):
    from rules.errors import UnreadableFileError
    from rules.textfile import read_text

    with pytest.raises(UnreadableFileError):
        read_text(path, "board")


def test_fc_solve_board_may_start_with_a_byte_order_mark():
    from rules import get_game
    from rules.freecell import format_fcs_board, parse_fcs_board

    state = get_game("freecell").deal(1)
    assert parse_fcs_board("\ufeff" + format_fcs_board(state)) == state


@pytest.mark.parametrize("text", [":KS\n" * 9, "KS " * 60, "Foundations: H-\u212a", "Foundations: H-" + "1" * 1000,
                                  "KS " * 2_000_000, "Freecells: " + "KS " * 1000])
def test_fc_solve_board_garbage_is_refused_in_one_short_line(text):
    from rules.freecell import parse_fcs_board

    with pytest.raises(InvalidDealError) as err:
        parse_fcs_board(text)
    assert len(str(err.value)) < 300
