"""Plain-Python Yukon referee written straight from the spec (section 5), for differential tests.

Slots are lists of ``(card, face_up)`` bottom to top, exactly as in a layout; nothing is shared
with the Numba kernels in ``rules/yukon.py``.  The hint (spec 5.6) is a literal transcription on
top-first lists, slices included.
"""
from rules.cards import rank, suit, colour
from rules.errors import IllegalMoveError, InvalidOptionError
from rules.game import Outcome
from rules.layout import Layout
from rules.moves import DBL, DRAG, Move

FOUNDATIONS = [0, 8, 9, 10]
TABLEAU = [1, 2, 3, 4, 5, 6, 7]


class Referee:
    def __init__(self, layout, options=None):
        if options:
            raise InvalidOptionError(f"Yukon has no options, got {options!r}")
        self.slots = [list(slot) for slot in layout.slots]
        self.score = layout.score

    # ---- rules -----------------------------------------------------------------------------
    def _can_pick(self, s, n):
        pile = self.slots[s]
        return s in TABLEAU and 1 <= n <= len(pile) and pile[-n][1]

    def _can_drop(self, s, n, d):
        if s == d:
            return False
        deepest = self.slots[s][-n][0]
        target = self.slots[d]
        if d in FOUNDATIONS:
            if n != 1:
                return False
            if not target:
                return rank(deepest) == 1
            top = target[-1][0]
            return suit(top) == suit(deepest) and rank(top) + 1 == rank(deepest)
        if not target:
            return rank(deepest) == 13
        top = target[-1][0]
        return colour(top) != colour(deepest) and rank(deepest) + 1 == rank(top)

    def _dbl_target(self, s):
        pile = self.slots[s]
        if s not in TABLEAU or not pile:
            return None
        c = pile[-1][0]
        if rank(c) == 1:
            for f in (0, 8, 9):
                if not self.slots[f]:
                    return f
            return 10
        for f in FOUNDATIONS:
            if self.slots[f] and suit(self.slots[f][-1][0]) == suit(c) and \
                    rank(self.slots[f][-1][0]) == rank(c) - 1:
                return f
        return None

    def legal_actions(self):
        actions = []
        for s in TABLEAU:
            for n in range(1, len(self.slots[s]) + 1):
                if not self._can_pick(s, n):
                    continue
                for d in range(11):
                    if self._can_drop(s, n, d):
                        actions.append(f"drag {s} {n} {d}")
            if self._dbl_target(s) is not None:
                actions.append(f"dbl {s}")
        return actions

    def _move(self, s, n, d):
        group = self.slots[s][-n:]
        del self.slots[s][-n:]
        self.slots[d].extend(group)
        if d in FOUNDATIONS:
            self.score += 1
        if self.slots[s]:
            card, _ = self.slots[s][-1]
            self.slots[s][-1] = (card, True)

    def _accepts(self, move):
        """Whether ``move`` is one of :meth:`legal_actions`: the same tests, for one action."""
        s = move.src
        if s not in TABLEAU:
            return False
        if move.kind == DBL:
            return self._dbl_target(s) is not None
        return (move.kind == DRAG and 0 <= move.dst < 11 and self._can_pick(s, move.n)
                and self._can_drop(s, move.n, move.dst))

    def apply(self, action):
        move = Move.parse(action)   # raises IllegalMoveError on bad text
        if not self._accepts(move):
            raise IllegalMoveError(f"Yukon refuses {action!r}")
        if move.kind == DBL:
            self._move(move.src, 1, self._dbl_target(move.src))
        else:
            self._move(move.src, move.n, move.dst)

    # ---- verdicts --------------------------------------------------------------------------
    def won(self):
        return all(len(self.slots[f]) == 13 for f in FOUNDATIONS)

    def outcome(self):
        if self.won():
            return Outcome.WON
        return Outcome.ONGOING if self.hint() else Outcome.LOST

    def _topfirst(self, s):
        return list(reversed(self.slots[s]))

    def _to_found(self, c):
        for f in FOUNDATIONS:
            pile = self.slots[f]
            if pile and suit(pile[-1][0]) == suit(c) and rank(pile[-1][0]) == rank(c) - 1:
                return True
        return False

    @staticmethod
    def _fits(x, y):
        return colour(x) != colour(y) and rank(x) + 1 == rank(y)

    def _T(self, card, s1, L, s2):
        for i, (c, up) in enumerate(L):
            if not up:
                return False
            if self._fits(c, card):
                u = L[i + 1] if i + 1 < len(L) else None
                if (u is None
                        or not u[1]
                        or colour(u[0]) == colour(c)
                        or rank(u[0]) != rank(c) + 1
                        or self._to_found(u[0])
                        or self._T(self.slots[s2][-1][0], s1, L[i + 1:], s2)
                        or self._T(u[0], s2, self._topfirst(s1), s1)):
                    return True
        return False

    def hint(self):
        """Aisleriot's Yukon hint as a yes/no; false ends the game (spec 5.6)."""
        for s in TABLEAU:
            if self.slots[s]:
                top = self.slots[s][-1][0]
                if rank(top) == 1 or self._to_found(top):
                    return True
        for s1 in TABLEAU:
            if not self.slots[s1]:
                continue
            for s2 in (TABLEAU[1:] if s1 == 1 else TABLEAU):
                if s2 != s1 and self._T(self.slots[s1][-1][0], s1, self._topfirst(s2), s2):
                    return True
        if any(not self.slots[s] for s in TABLEAU):
            for s in TABLEAU:
                L = self._topfirst(s)
                for i, (c, up) in enumerate(L):
                    if len(L) - i <= 1 or not up:
                        break
                    if rank(c) == 13:
                        return True
        return False

    def layout(self):
        return Layout(tuple(tuple(slot) for slot in self.slots), self.score, 0)
