"""Heuristics of visible things: a value per game for a position as the player sees it.

Each ``value_<game>(array)`` reads a state array in which :data:`rules.observation.HIDDEN`
marks unknown cards -- face-down ones, and in a foreseen position (:meth:`.Observation.view_after`)
cards a move would turn up.  Higher is better.  An unknown card earns nothing for where it lies,
but turning one up earns the face-down term, so revealing moves rank above lateral ones.
The greedy player plays the move with the best value; pimc breaks ties with it.

The terms are the usual ones for these games (cards home, face-down cards left, cards lying on
the card they belong on, room to manoeuvre); weights are round numbers, not tuned.
"""
from rules import clock as ck, freecell as fc, ten_across as ta, yukon as yk, zebra as zb
from rules.cards import EMPTY
from rules.observation import HIDDEN


def _rank(card):
    return card % 13 + 1


def _red(card):
    return (card % 52) // 13 in (1, 2)


def _alternate_below(card, below):
    """``card`` lies on the card it builds on: other colour, one rank higher."""
    return below >= 0 and _red(card) != _red(below) and _rank(below) == _rank(card) + 1


def value_yukon(array):
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


def value_ten_across(array):
    a = array.tolist()
    spots = sum(1 for s in range(ta.N_SPOTS) if a[ta.SPOT + s] != EMPTY)
    down = misplaced = covering = empty = 0
    for p in range(ta.N_PILES):
        h, d = a[ta.HEIGHT + p], a[ta.DOWN + p]
        base = ta.PILES + ta.PILE_CAP * p
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
            king = card % 13 == ta.KING_INDEX
            placed = king if i == 0 else (not king and i > d and a[base + i - 1] == card + 1)
            misplaced += not placed
    return -(2 * misplaced + 3 * down + 2 * spots + covering) + empty


def value_zebra(array):
    a = array.tolist()
    home = sum(a[zb.FOUND_LEN:zb.FOUND_LEN + zb.N_FOUND])
    tableau = sum(a[zb.TAB_LEN:zb.TAB_LEN + zb.N_TAB])
    waiting = a[zb.WASTE_LEN] + a[zb.STOCK_LEN]
    revealed = sum(1 for i in range(zb.WASTE, zb.WASTE + a[zb.WASTE_LEN]) if a[i] == HIDDEN)
    revealed += sum(1 for t in range(zb.N_TAB) if a[zb.TAB_LEN + t] and a[zb.TAB + zb.TAB_CAP * t] == HIDDEN)
    return 10 * home + 2 * tableau - waiting + revealed


def value_freecell(array):
    a = array.tolist()
    home = sum(_rank(c) for c in a[fc.HOME:fc.HOME + 4] if c != EMPTY)
    free = sum(1 for c in a[fc.FREE:fc.FREE + fc.N_FREE] if c == EMPTY)
    empty = ordered = 0
    for col in range(fc.N_COLS):
        h = a[fc.HEIGHT + col]
        base = fc.COLS + fc.COL_WIDTH * col
        empty += h == 0
        ordered += sum(1 for i in range(1, h) if _alternate_below(a[base + i], a[base + i - 1]))
    return 10 * home + 2 * free + 3 * empty + ordered


def value_clock(array):
    return int(array[ck.SCORE])


VALUES = {"yukon": value_yukon, "ten-across": value_ten_across, "zebra": value_zebra,
          "freecell": value_freecell, "clock": value_clock}


def value(game_name, array):
    """The heuristic value of a (possibly foreseen) array of game ``game_name``."""
    return VALUES[game_name](array)
