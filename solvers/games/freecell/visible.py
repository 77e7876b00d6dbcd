"""The players' heuristic of visible things for Freecell (:meth:`solvers.core.solver.Solver.visible_value`).

Plain Python over ``array.tolist()``: players call it once per candidate move, outside any kernel.
"""
from rules import freecell as fc
from rules.cards import EMPTY, builds_on



def value(array):
    """Cards home, free cells, empty columns, cards lying on the card they build on."""
    a = array.tolist()
    home = sum(c % 13 + 1 for c in a[fc.HOME:fc.HOME + 4] if c != EMPTY)
    free = sum(1 for c in a[fc.FREE:fc.FREE + fc.N_FREE] if c == EMPTY)
    empty = ordered = 0
    for col in range(fc.N_COLS):
        h = a[fc.HEIGHT + col]
        base = fc.COLS + fc.COL_WIDTH * col
        empty += h == 0
        ordered += sum(1 for i in range(1, h) if builds_on(a[base + i], a[base + i - 1]))
    return 10 * home + 2 * free + 3 * empty + ordered
