"""The players' heuristic of visible things for Yukon (:meth:`solvers.core.solver.Solver.visible_value`).

Plain Python over ``array.tolist()``: players call it once per candidate move, outside any kernel.
"""
from rules import yukon as yk
from rules.cards import EMPTY, builds_on
from rules.observation import HIDDEN



def value(array):
    """Cards home, face-down cards left, cards lying on the card they build on, cards covering
    face-down ones, Kings at the bottom of a pile, empty piles."""
    a = array.tolist()
    home = sum(top % 13 + 1 for top in a[yk.FOUND:yk.FOUND + 4] if top != EMPTY)
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
                kings += card % 13 == 12
            elif i > d and builds_on(card, a[base + i - 1]):
                ordered += 1
    return 10 * home - 5 * down + 2 * ordered - covering + 2 * kings + empty
