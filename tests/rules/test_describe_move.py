"""Moves in words (``Game.describe_move``, ``State.describe_move``): every game, on positions of
random playouts and on hand-picked positions.

The words name the moved card (the deepest card of a moved group, face up) and the face-up top
card of the destination, never a face-down card: each card named is face up in the position,
and dealing the unseen cards differently changes no move's words.
"""
import re

import numpy as np
import pytest

from rules import GAME_NAMES, IllegalMoveError, get_game
from rules.cards import card_label
from rules.clock import CENTRE as CLOCK_CENTRE
from rules.game import Role, State
from rules.moves import CLICK, DBL, DRAG
from rules.observation import hidden_entries
from tests.support.playouts import playout

CARD_NAME = re.compile(r"(?:10|[A2-9JQK])[\u2663\u2666\u2665\u2660]")


def positions(name, seeds=(1, 2, 3), plies=(0, 15, 40, 90)):
    """Positions of random playouts of ``name``: each seed's game after each number of plies."""
    for seed in seeds:
        for n in plies:
            yield playout(name, seed, n, rng_seed=seed)


def moved_entry(state, move):
    """The layout entry ``(card, face_up)`` of the card a move picks up, None for a click."""
    slots = state.game.array_to_layout(state.array).slots
    if move.kind == CLICK:
        return None
    if state.game.name == "clock":           # a place always moves the centre's top card
        return slots[CLOCK_CENTRE][-1]
    return slots[move.src][-(move.n if move.kind == DRAG else 1)]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_slot_has_a_role(name):
    game = get_game(name)
    assert len(game.slot_roles) == game.n_slots
    assert set(game.slot_roles) <= set(Role.ALL) and game.double_click_role in Role.ALL


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_legal_move_names_its_card_and_no_face_down_card(name):
    described = 0
    for state in positions(name):
        slots = state.game.array_to_layout(state.array).slots
        face_up = {card_label(c) for slot in slots for c, up in slot if up}
        face_down = {card_label(c) for slot in slots for c, up in slot if not up} - face_up
        for move in state.legal_moves():
            text = state.describe_move(move)
            assert text.strip() == text and text, (state.layout(), move)
            named = CARD_NAME.findall(text)
            assert set(named) <= face_up and not set(named) & face_down, (state.layout(), move, text)
            entry = moved_entry(state, move)
            if entry is not None:
                card, up = entry
                assert up and text.startswith(card_label(card) + " "), (state.layout(), move, text)
                if move.kind == DRAG and move.n > 1:
                    assert f" and {move.n - 1} more " in text
            if move.kind == DRAG and state.game.slot_roles[move.dst] == Role.TABLEAU and name != "clock":
                dst = slots[move.dst]
                assert text.endswith(f"onto {card_label(dst[-1][0])}" if dst else "to an empty pile")
            if move.kind == CLICK and state.game.slot_roles[move.src] == Role.STOCK:
                assert text == ("deal" if slots[move.src] else "redeal")
            if move.kind == DBL and name != "clock":
                assert text.endswith("home" if state.game.double_click_role == Role.FOUNDATION
                                     else "to a free cell")
            described += 1
    assert described >= 10


@pytest.mark.parametrize("name", [name for name in GAME_NAMES if get_game(name).hides_cards])
def test_words_do_not_depend_on_unseen_cards(name):
    """The unseen cards dealt differently among their places: the same moves, the same words."""
    rng = np.random.default_rng(5)
    checked = 0
    for state in positions(name, seeds=(4, 5), plies=(0, 30, 80)):
        hidden = hidden_entries(state)
        array = state.array.copy()
        array[hidden] = array[hidden][rng.permutation(len(hidden))]
        twin = State(state.game, array)
        assert twin.legal_moves() == state.legal_moves()
        for move in state.legal_moves():
            assert twin.describe_move(move) == state.describe_move(move), (state.layout(), move)
            checked += 1
    assert checked >= 5


def test_an_illegal_move_has_no_words():
    state = get_game("yukon").deal(5)
    with pytest.raises(IllegalMoveError, match="drag 1 1 2"):
        state.describe_move("drag 1 1 2")


# ---- hand-picked positions --------------------------------------------------------------------------
def words(game, position, moves, **options):
    g = get_game(game)
    state = g.deal(position, "aisleriot", **options) if isinstance(position, int) else g.from_layout(position)
    return [state.describe_move(m) for m in moves]


def test_yukon():
    assert words("yukon", 5, ["drag 4 1 0", "drag 4 1 9", "dbl 4", "drag 2 5 1", "drag 6 1 2"]) == [
        "A\u2666 home", "A\u2666 home", "A\u2666 home", "4\u2665 and 4 more onto 5\u2663",
        "7\u2666 onto 8\u2660"]
    layout = ("||Qh* Ks 4c Kc 8c 5h 4s Th 9c|8d* Td* 9d 5d Tc|3c* Ad* 3d* 7h 5c|6s* 2s* 5s* 2d* As Qs Jd 7d|"
              "Ac* Js* Jc* 6c* 8h* Kd Kh Qd Ts 2h|4d* 3h* 3s* Jh* 4h* 9h* 9s 6d Qc 2c 7s 6h 8s 7c|||Ah#1#0")
    assert words("yukon", layout, ["drag 2 6 1", "drag 2 8 1", "drag 6 1 10", "dbl 6", "drag 5 4 6"]) == [
        "K\u2663 and 5 more to an empty pile", "K\u2660 and 7 more to an empty pile", "2\u2665 home",
        "2\u2665 home", "A\u2660 and 3 more onto 2\u2665"]


def test_freecell():
    g = get_game("freecell")
    state = g.deal(1)                                      # Microsoft deal 1
    assert [state.describe_move(m) for m in ("drag 13 1 0", "drag 13 1 3", "dbl 13")] == [
        "3\u2666 to a free cell"] * 3
    layout = ("||||||||Qd 4d Td 7s Ah 3h As|Qc Jd Jc 9d 9s Ad 5s|Kc Js 8c Ks Tc 7h Th|3c 6h 6c 7c 2s 3d Jh|"
              "4c Qs 8s 6s 3s 5h|2c 6d 4s 4h Ts 8d|Kd 2d 5d Ac 9h Kh|5c 9c Qh 8h 2h 7d#0#0")
    assert words("freecell", layout, ["drag 8 1 4", "drag 8 1 7"]) == ["A\u2660 home"] * 2
    state = g.from_layout(layout)
    state.apply("drag 8 1 4")
    assert state.describe_move("dbl 4") == "A\u2660 from home to a free cell"   # spec 4.4's quirk
    layout = ("Kh|3s||Th|As|Ad|Ah 2h 3h 4h 5h|Ac 2c|Qd 4d Td 9s 8d|Qc Jd Jc 9d|Kc Js 8c Ks Tc 7h|"
              "3c 6h 6c 7c 2s 3d Jh Ts 9h|4c Qs 8s 7d 6s||Kd 2d 5d 4s|5c 9c Qh 8h 7s 6d 5s#9#0")
    assert words("freecell", layout, ["drag 0 1 13", "drag 8 2 13", "drag 1 1 2", "drag 12 1 10",
                                      "drag 12 3 9", "dbl 6"]) == [
        "K\u2665 to an empty pile", "9\u2660 and 1 more to an empty pile", "3\u2660 to a free cell",
        "6\u2660 onto 7\u2665", "8\u2660 and 2 more onto 9\u2666", "5\u2665 from home to a free cell"]


def test_zebra():
    assert words("zebra", 2, ["click 0", "drag 10 1 3", "dbl 10", "drag 13 1 12"]) == [
        "deal", "2\u2660 home", "2\u2660 home", "J\u2665 onto Q\u2660"]
    stock = ("3s* Qd* 4d* 7d* 9h* Th* 5c* 6d* 5d* Js* Qd* 8h* 6c* Kc* Kd* Jd* 4s* Qs* 4s* 5h* 3c* 5s* 4c* "
             "2d* 5h* 7s* Th* Qc* 7h* 4d* 4h* Jc* 9c* Jd* 9d* 2s* 3d* 7h* 8h* Ts* 3s* Kd* Ks* 5c* 8s* 8d* "
             "Qs* 9h* 7d* 6s* 7s* Jh* Tc* 7c* Tc* Jc* 5s* Td* Qh* Jh* Qh* 2c* 9s* 3d* 3c* 7c* Qc* 3h* 2s* 9c*")
    layout = (stock + "|2h Js 6d Ks Td 9s 8s Kc 6s Ts 8c|Ac|Ad|Ah|As|Ac 2d|Ad|Ah|As 2h|Kh|6c 5d 4c 3h 2c|8d|"
              "6h|6h|Kh|4h|9d 8c#2#0")
    assert words("zebra", layout, ["drag 11 1 3", "drag 11 2 8", "drag 11 5 4", "dbl 11", "click 0"]) == [
        "2\u2663 home", "3\u2665 and 1 more home", "6\u2663 and 4 more home", "2\u2663 home", "deal"]
    layout = ("|Js 9c Kh Kd 3d 4c Qd 9c 7s 7h 8d 8c 7c 8s Th 3c Th 6s Jc 3s 6d Tc 4h Ks Qc 2h|"
              "Ac 2h 3s 4d 5c 6h 7s 8d 9s Td Js Qh Ks|Ad 2s 3d 4s 5h 6c 7d 8s 9d Ts Jh Qs Kh|"
              "Ah 2s 3h 4c 5h 6s 7d 8c 9h Ts Jd Qc Kd|As 2d|Ac|Ad 2c 3h 4s 5d 6c 7h|Ah 2c|"
              "As 2d 3c 4d 5s 6h 7c 8h 9s Td Jc Qh Kc|Qs Jh|6d 5s|5c 4h|Kc Qd|9d|Jd Tc 9h|8h|5d#56#0")
    assert words("zebra", layout, ["click 0"]) == ["redeal"]


def test_ten_across():
    assert words("ten-across", 3, ["drag 10 4 3", "drag 4 1 2"]) == [
        "6\u2663 and 3 more onto 7\u2663", "3\u2665 onto 4\u2665"]
    layout = ("|2h|9c 2d|Qh* 7h Jh Qd 4s|8d* 3s* As Jd 8s 7s|3c* Jc* 8h* 6h 7d|6s* 5s* 4h* Tc* Ts|"
              "Ac* 3d* Kd* Kc* 2c|4d* 9d* 9h* 6d 5h|Ks* 3h* 9s Kh Th|Td* Js 4c Qs 7c 6c Qc 8c|"
              "Ad 2s 5d 5c Ah#0#0")
    assert words("ten-across", layout, ["drag 1 1 0", "drag 3 1 0"]) == [
        "2\u2665 to a spot", "4\u2660 to a spot"]
    layout = ("7d|2h|9c 2d Ad 2s As Jd 8s 7s|Qh* 7h Jh Qd 4s|8d* 3s|3c* Jc* 8h* 6h 5h|"
              "6s* 5s* 4h* Tc* Ts 9s Kh Th|Ac* 3d* Kd* Kc* 2c|4d* 9d* 9h* 6d 5d 5c Ah|Ks* 3h|"
              "Td* Js 4c Qs 7c 6c Qc 8c|#0#0")
    assert words("ten-across", layout, ["drag 6 2 11", "drag 1 1 9", "drag 2 5 4"]) == [
        "K\u2665 and 1 more to an empty pile", "2\u2665 onto 3\u2665", "2\u2660 and 4 more onto 3\u2660"]


def test_clock():
    assert words("clock", 1, ["drag 6 1 10", "dbl 10"]) == ["7\u2663 to 7 o'clock"] * 2
    state = get_game("clock").deal(1)
    hours = dict(zip(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"), range(1, 13)))
    kinds = set()
    for move in state.game.play_forced(state.copy()):   # the forced game: places and King turns
        text = state.describe_move(move)
        if move.kind == CLICK:
            assert re.fullmatch("K[\u2663\u2666\u2665\u2660]: turn up a centre card", text)
        else:                  # the hour of the card's rank: Ace at one o'clock ... Queen at twelve
            card, hour = re.fullmatch(r"(\S+) to (\d+) o'clock", text).groups()
            assert hours[card[:-1]] == int(hour), text
        kinds.add(move.kind)
        state.apply(move)
    assert kinds == {CLICK, DRAG}
    hidden = ("2s* As* Kc* 5h|Js* 8h* Tc* Th*|9c* 3h* 4h* 6h*|Ad* Jh* 6d* 2c*|Qh* 9d* Kd* Jd*|"
              "Td* 6c* Kh* Ts*|7s* 2h* Ah* 7c*|8d* 3d* 9h* Qd*|Ks* 2d* Qs* 7d*|3c* 5s* 9s* Qc*|"
              "4d* 7h* 5c* 8s*|Ac* 3s* 5d* 4s*|6s* Jc* 4c* 8c*#0#0")
    assert words("clock", hidden, ["drag 6 1 10"]) == ["the face-down centre card to 7 o'clock"]
