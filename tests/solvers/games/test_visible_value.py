"""The players' heuristic, each solver's ``visible_value``, on small hand-made positions: each
term of the value counted by hand, unknown cards earning nothing, and revealing a face-down card
worth more than a lateral move."""
import numpy as np

from rules import clock as ck, freecell as fc, yukon as yk
from rules.cards import parse_card
from rules.observation import HIDDEN
from rules.registry import get_game
from solvers import get_solver


def value(game, array):
    return get_solver(game).visible_value(array)


def _yukon(piles, tops=("9C", "9D", "9H", "9S")):
    """A Yukon array from piles of card names, face-down ones marked ``*``."""
    return yk.array_from_piles([[(parse_card(c.rstrip("*")), not c.endswith("*")) for c in pile]
                                for pile in piles], [parse_card(t) for t in tops])


# Every card above the Nines: KH* QC JH | KS QD JC | TC KC | KD QS JD TS | QH* TH* JS TD | | |
PILES = [["KH*", "QC", "JH"], ["KS", "QD", "JC"], ["TC", "KC"], ["KD", "QS", "JD", "TS"],
         ["QH*", "TH*", "JS", "TD"], [], []]


def _entry(pile, i):
    """The array index of card ``i`` (from the bottom) of ``pile``."""
    return yk.TAB + pile * yk.CAP + i


def test_yukon_terms_counted_by_hand():
    """Home 36 cards (x10), 3 face down (x-5), 7 cards on their parent (x2; QC on the face-down
    KH does not count), 4 cards covering face-down ones (x-1), 2 Kings at the bottom of a pile
    (x2), 2 empty piles (x1)."""
    a = _yukon(PILES)
    assert value("yukon", a) == 360 - 15 + 14 - 4 + 4 + 2


def test_yukon_unknown_cards_earn_nothing_but_revealing_is_worth_more():
    a = _yukon(PILES)
    base = value("yukon", a)
    hidden = a.copy()
    hidden[_entry(0, 2)] = HIDDEN                  # JH on QC no longer known to be ordered
    assert value("yukon", hidden) == base - 2
    revealed = a.copy()                                 # TH turned up, still unknown
    revealed[yk.DOWN + 4] = 1
    revealed[_entry(4, 1)] = HIDDEN
    assert value("yukon", revealed) == base + 5 - 1     # one fewer face down, one more covering
    lateral = _yukon([["KH*", "QC"], ["KS", "QD", "JC"], ["TC", "KC"], ["KD", "QS", "JD", "TS"],
                      ["QH*", "TH*", "JS", "TD"], ["JH"], []])
    assert value("yukon", lateral) < value("yukon", revealed)


def test_yukon_a_card_home_is_worth_ten():
    a = _yukon([["KC"], [], [], [], [], [], []], tops=("QC", "KD", "KH", "KS"))
    assert value("yukon", a) == 510 + 2 + 6                 # a King at the bottom, 6 empty piles
    home = _yukon([[], [], [], [], [], [], []], tops=("KC", "KD", "KH", "KS"))
    assert value("yukon", home) == 520 + 7


def _freecell(columns, free=(), homes=("JC", "QD", "KH", "KS")):
    return fc._array_from_columns([[parse_card(c) for c in col] for col in columns],
                                  [parse_card(c) for c in free], [parse_card(h) for h in homes])


def test_freecell_terms_counted_by_hand():
    """QC on KD is ordered (+1), KC alone; 4 free cells (x2) and 6 empty columns (x3) open;
    49 cards home (x10).  The same QC in a free cell loses the order and a cell; at home it is
    worth ten more."""
    columns = [["KD", "QC"], ["KC"]] + [[]] * 6
    assert value("freecell", _freecell(columns)) == 490 + 8 + 18 + 1
    cell = _freecell([["KD"], ["KC"]] + [[]] * 6, free=["QC"])
    assert value("freecell", cell) == 490 + 6 + 18
    home = _freecell([["KD"], ["KC"]] + [[]] * 6, homes=("QC", "QD", "KH", "KS"))
    assert value("freecell", home) == 500 + 8 + 18
    assert value("freecell", home) > value("freecell", _freecell(columns)) > value("freecell", cell)
    unordered = _freecell([["KD"], ["KC", "QC"]] + [[]] * 6)     # QC on KC: same colour
    assert value("freecell", unordered) == 490 + 8 + 18


def test_clock_value_is_the_score():
    state = get_game("clock").deal(5)
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    a = state.array
    assert value("clock", a) == int(a[ck.SCORE]) > 0
    assert isinstance(value("clock", np.array(a)), int)
