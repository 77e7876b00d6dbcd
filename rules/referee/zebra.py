"""Plain-Python Zebra referee written from the spec (section 7), sharing no code with the kernels.

It is shaped like Aisleriot's own game file: the front end offers every conceivable action
(``drag s n d`` for all slots and sizes, ``click s``, ``dbl s``) and the rule callbacks --
``button_pressed``, ``droppable``, ``button_clicked``, ``button_double_clicked`` -- accept or
refuse it.  ``legal_actions`` is the list of accepted ones.  Piles are lists bottom to top;
cards are 0..51 with each card twice.
"""
from rules.errors import IllegalMoveError
from rules.game import Outcome
from rules.layout import Layout
from rules.moves import Move

STOCK, WASTE = 0, 1
FOUNDATIONS = range(2, 10)
TABLEAU = range(10, 18)
N_SLOTS = 18


def rank(card):
    return card % 13 + 1


def is_red(card):
    return card // 13 in (1, 2)


class _SchemeError(Exception):
    """Aisleriot would throw here ("A scheme exception occurred")."""


class Referee:
    def __init__(self, layout, options=None):
        if options:
            raise IllegalMoveError(f"Zebra has no options, got {options!r}")
        self.slots = [[card for card, _ in slot] for slot in layout.slots]
        self.score = layout.score
        self.redeals = layout.redeals

    # ---- rule callbacks ---------------------------------------------------------------------
    def button_pressed(self, slot, n):
        if slot == WASTE:
            return n == 1 and len(self.slots[WASTE]) >= 1
        if slot in TABLEAU:
            return 1 <= n <= len(self.slots[slot])
        return False

    def droppable(self, start, cards, end):
        """``cards`` are the lifted group, bottom to top, already removed from ``start``."""
        if start == end:
            return False
        if end in FOUNDATIONS:
            lead = cards[-1]
            home = self.slots[end][-1]
            return is_red(lead) != is_red(home) and rank(lead) == rank(home) + 1
        if end in TABLEAU:
            pile = self.slots[end]
            return (len(cards) == 1 and len(pile) > 0
                    and is_red(cards[0]) != is_red(pile[-1]) and rank(cards[0]) + 1 == rank(pile[-1]))
        return False

    def drop(self, start, cards, end):
        if end in FOUNDATIONS:
            self.slots[end].extend(reversed(cards))
            self.score += len(cards)
        else:
            self.slots[end].extend(cards)
        self.refill(start)

    def refill(self, slot):
        if slot in TABLEAU and not self.slots[slot]:
            if self.slots[WASTE]:
                self.slots[slot].append(self.slots[WASTE].pop())
            elif self.slots[STOCK]:
                self.slots[slot].append(self.slots[STOCK].pop())

    def button_clicked(self, slot):
        if slot != STOCK:
            return False
        if self.slots[STOCK]:
            self.slots[WASTE].append(self.slots[STOCK].pop())
            return True
        if self.slots[WASTE] and self.redeals < 1:
            self.slots[STOCK] = list(reversed(self.slots[WASTE]))
            self.slots[WASTE] = []
            self.redeals += 1
            return True
        return False

    def button_double_clicked(self, slot):
        if slot != WASTE and slot not in TABLEAU:
            return False
        if not self.slots[slot]:
            return False
        card = self.slots[slot][-1]
        for f in FOUNDATIONS:
            home = self.slots[f][-1]
            if is_red(card) != is_red(home) and rank(card) == rank(home) + 1:
                self.slots[slot].pop()
                self.slots[f].append(card)
                self.score += 1
                self.refill(slot)
                return True
        return False

    # ---- referee interface ------------------------------------------------------------------
    def _try(self, move):
        """Play ``move`` if the rules accept it; returns whether they did."""
        if move.kind == 0:
            s, n, d = move.src, move.n, move.dst
            if not (0 <= s < N_SLOTS and 0 <= d < N_SLOTS) or not self.button_pressed(s, n):
                return False
            cards = self.slots[s][-n:]
            del self.slots[s][-n:]
            if not self.droppable(s, cards, d):
                self.slots[s].extend(cards)
                return False
            self.drop(s, cards, d)
            return True
        if move.kind == 1:
            return self.button_clicked(move.src)
        return self.button_double_clicked(move.src)

    def _candidates(self):
        for s in range(N_SLOTS):
            for n in range(1, max(1, len(self.slots[s])) + 1):
                for d in range(N_SLOTS):
                    yield Move(0, s, n, d)
            yield Move(1, s)
            yield Move(2, s)

    def legal_actions(self):
        accepted = []
        for move in self._candidates():
            if move.kind == 0 and not self.button_pressed(move.src, move.n):
                continue                      # cheap early refusal, nothing to undo
            snap = self._snapshot()
            if self._try(move):
                accepted.append(str(move))
            self._restore(snap)
        return accepted

    def apply(self, action):
        move = Move.parse(action)
        trial = self._snapshot()
        if not self._try(move):
            self._restore(trial)
            raise IllegalMoveError(f"Zebra refuses {action!r}")

    def _snapshot(self):
        return [list(p) for p in self.slots], self.score, self.redeals

    def _restore(self, snap):
        slots, self.score, self.redeals = snap
        self.slots = slots

    def layout(self):
        slots = tuple(tuple((c, i != STOCK) for c in pile) for i, pile in enumerate(self.slots))
        return Layout(slots, self.score, self.redeals)

    def won(self):
        return all(len(self.slots[f]) == 13 for f in FOUNDATIONS)

    # ---- the hint of section 7.6, recursion and crash included ------------------------------
    def _top(self, slot):
        pile = self.slots[slot]
        if not pile:
            raise _SchemeError(f"car of empty slot {slot}")
        return pile[-1]

    def _tt(self, s1, cards_topfirst):
        for s2 in TABLEAU:
            if s2 == s1:
                continue
            top = self._top(s2)
            lead = cards_topfirst[0]
            if (is_red(lead) != is_red(top) and rank(lead) + 1 == rank(top)
                    and (s1 == WASTE or len(cards_topfirst) == 1 or self._tt(s1, cards_topfirst[1:]))):
                return True
        return False

    def hint(self):
        sources = [WASTE, *TABLEAU]
        for s in sources:
            if self.slots[s]:
                card = self.slots[s][-1]
                for f in FOUNDATIONS:
                    home = self.slots[f][-1]
                    if is_red(card) != is_red(home) and rank(home) + 1 == rank(card):
                        return True
        for s in sources:
            if self.slots[s] and self._tt(s, self.slots[s][::-1]):
                return True
        if self.slots[STOCK]:
            return True
        return bool(self.slots[WASTE]) and self.redeals < 1

    def outcome(self):
        if self.won():
            return Outcome.WON
        try:
            going = self.hint()
        except _SchemeError:
            return Outcome.ABORTED
        return Outcome.ONGOING if going else Outcome.LOST
