"""Pictures of positions (rules/pictures/svg.py): valid SVG, one element per card, faces, colours, the
last move's cards, and every card inside the picture."""
import random
import xml.etree.ElementTree as ET

import pytest

from rules import GAME_NAMES, get_game
from rules.cards import card_str
from rules.errors import InvalidStateError
from rules.layout import Layout
from rules.pictures.svg import CARD_H, CARD_W, moved_cards, picture_size

SVG = "{http://www.w3.org/2000/svg}"
SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def cards_of(svg_text):
    """The ``card`` elements of a picture, in document order, and the root element."""
    root = ET.fromstring(svg_text)
    cards = [g for g in root.iter(SVG + "g") if "card" in g.get("class", "").split()]
    return root, cards


def classes(element):
    return set(element.get("class", "").split())


def played(game, seed, n_moves, rng_seed=7):
    """A position ``n_moves`` random legal moves after the deal (fewer if the game ends)."""
    state = get_game(game).deal(seed)
    rng = random.Random(rng_seed)
    for _ in range(n_moves):
        moves = state.legal_moves()
        if state.is_over() or not moves:
            break
        state.apply(rng.choice(moves))
    return state


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("n_moves", [0, 15])
def test_one_card_element_per_card_in_layout_order(game, n_moves):
    state = played(game, 5, n_moves)
    layout = state.game.array_to_layout(state.array)
    root, cards = cards_of(state.to_svg())
    assert root.tag == SVG + "svg"
    everything = [card for slot in layout.slots for card in slot]
    assert len(cards) == len(everything)
    for element, (card, face_up) in zip(cards, everything):
        if face_up:
            assert "back" not in classes(element)
            assert element.get("data-card") == card_str(card)
        else:
            assert "back" in classes(element)
            assert element.get("data-card") is None      # a back tells nothing


@pytest.mark.parametrize("game", GAME_NAMES)
def test_face_shows_rank_and_suit_symbol_in_its_colour(game):
    root, cards = cards_of(played(game, 11, 10).to_svg())
    faces = [c for c in cards if "back" not in classes(c)]
    assert faces
    for element in faces:
        name = element.get("data-card")
        rank = "10" if name[0] == "T" else name[0]
        texts = ["".join(t.itertext()) for t in element.iter(SVG + "text")]
        assert texts[0] == rank + SYMBOLS[name[1]]
        assert SYMBOLS[name[1]] in texts[1]
        assert ("red" in classes(element)) == (name[1] in "DH")
        assert ("black" in classes(element)) == (name[1] in "CS")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_card_lies_inside_the_picture(game):
    state = played(game, 3, 25)
    root, cards = cards_of(state.to_svg(caption=False))
    width, height = float(root.get("width")), float(root.get("height"))
    assert (width, height) == picture_size(state)
    for element in cards:
        x, y = (float(v) for v in element.get("transform")[len("translate("):-1].split(","))
        assert 0 <= x and x + CARD_W <= width and 0 <= y and y + CARD_H <= height


def test_slots_sit_where_aisleriot_puts_them():
    state = get_game("freecell").deal(1)          # free cells and homecells empty, fields full
    root = ET.fromstring(state.to_svg())
    empty = [r for r in root.iter(SVG + "rect") if "slot" in classes(r)]
    assert len(empty) == 8                        # the four free cells and four homecells
    assert len({r.get("y") for r in empty}) == 1  # one row above the fields
    xs = [float(r.get("x")) for r in empty]
    assert xs == sorted(xs) and xs[4] - xs[3] > xs[1] - xs[0]   # a gap between the two groups
    _, cards = cards_of(state.to_svg())
    assert min(float(c.get("transform").split(",")[1][:-1]) for c in cards) > float(empty[0].get("y"))


def test_no_move_no_highlight_and_highlight_can_be_turned_off():
    state = get_game("ten-across").deal(1)
    assert not [c for c in cards_of(state.to_svg())[1] if "moved" in classes(c)]
    state.apply("drag 8 2 5")
    assert [c for c in cards_of(state.to_svg())[1] if "moved" in classes(c)]
    assert not [c for c in cards_of(state.to_svg(highlight=False))[1] if "moved" in classes(c)]


def moved_names(state):
    return [c.get("data-card") or "back" for c in cards_of(state.to_svg())[1] if "moved" in classes(c)]


def test_drag_highlights_the_group_on_its_destination_and_the_card_turned_up():
    state = get_game("ten-across").deal(1)
    before = state.game.array_to_layout(state.array).slots
    group, under = before[8][-2:], before[8][-3]
    assert not under[1]                           # the drag uncovers a face-down card
    state.apply("drag 8 2 5")
    # Document order is slot order: the turned card (slot 8) comes after the group (slot 5).
    assert moved_names(state) == [card_str(c) for c, _ in group] + [card_str(under[0])]


def test_clock_place_highlights_the_placed_card_and_the_new_centre_card():
    state = get_game("clock").deal(1)
    centre_top = state.game.array_to_layout(state.array).slots[6][-1][0]
    bottom_of_dst = state.game.array_to_layout(state.array).slots[10][0][0]
    state.apply("drag 6 1 10")
    assert moved_names(state) == [card_str(bottom_of_dst), card_str(centre_top)]   # slot 6, then 10


def test_zebra_stock_click_highlights_the_turned_card_only():
    state = get_game("zebra").deal(1)
    next_card = state.game.array_to_layout(state.array).slots[0][-1][0]
    state.apply("click 0")
    assert moved_names(state) == [card_str(next_card)]
    root = ET.fromstring(state.to_svg())
    counts = [t.text for t in root.iter(SVG + "text") if "count" in classes(t)]
    assert counts == [str(len(state.game.array_to_layout(state.array).slots[0]))]   # stock size shown


def test_moved_cards_with_duplicate_cards_takes_the_top_ones():
    ah = 13 * 2                                   # the Ace of hearts, as both Zebra decks print it
    before = Layout(((( ah, True),), ()))
    after = Layout((((ah, True), (ah, True)), ((ah, False),)))
    assert moved_cards(before, after) == {(0, 1), (1, 0)}
    turned = Layout((((ah, False),), ()))
    assert moved_cards(turned, Layout((((ah, True),), ()))) == {(0, 0)}    # turned face up


def test_previous_must_have_the_same_slots():
    state = get_game("yukon").deal(1)
    with pytest.raises(InvalidStateError, match="11"):
        state.to_svg(previous=Layout(((),)))


def test_min_height_pads_the_table_and_caption_tells_the_result():
    state = get_game("freecell").deal(1)
    width, height = picture_size(state)
    root = ET.fromstring(state.to_svg(min_height=height + 100, caption=False))
    assert float(root.get("height")) == height + 100 and float(root.get("width")) == width
    won = get_game("ten-across").from_layout(
        "||" + "|".join(" ".join(r + s for r in "A23456789TJQK"[::-1]) for s in "cdhs") + "||||||#0#0")
    caption = [t.text for t in ET.fromstring(won.to_svg()).iter(SVG + "text") if "caption" in classes(t)]
    assert caption == ["Ten Across, won"]


def test_jupyter_repr_is_the_svg():
    state = played("zebra", 2, 5)
    assert state._repr_svg_() == state.to_svg()
