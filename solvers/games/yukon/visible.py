"""The players' heuristic of visible things for Yukon (:meth:`solvers.core.solver.Solver.visible_value`).

Plain Python over ``array.tolist()``: players call it once per candidate move, outside any kernel.
"""
from rules import yukon as yk
from rules.cards import EMPTY
from rules.observation import HIDDEN


def _rank(card):
    return card % 13 + 1


def _red(card):
    return (card % 52) // 13 in (1, 2)


def _alternate_below(card, below):
    """``card`` lies on the card it builds on: other colour, one rank higher."""
    return below >= 0 and _red(card) != _red(below) and _rank(below) == _rank(card) + 1


def value(array):
    """Cards home, face-down cards left, cards lying on the card they build on, cards covering
    face-down ones, Kings at the bottom of a pile, empty piles."""
    a = array.tolist()
    home = sum(_rank(top) for top in a[yk.FOUND:yk.FOUND + 4] if top != EMPTY)
    down = ordered = covering = kings = empty = 0
    for p in range(yk.N_PILES):
        h, d = a[yk.HEIGHT + p], a[yk.DOWN + p]
        base = yk.TAB + p * yk.CAP
        down += d
        if h == 0:
            empty += 1
            continue
        if d > 0:
            covering += h - d
        for i in range(d, h):
            card = a[base + i]
            if card == HIDDEN:
                continue
            if i == 0:
                kings += _rank(card) == 13
            elif i > d and _alternate_below(card, a[base + i - 1]):
                ordered += 1
    return 10 * home - 5 * down + 2 * ordered - covering + 2 * kings + empty
