"""Plain-Python referee for Clock, written from the spec (section 3) and Aisleriot's rule hooks.

It shares no move generation with :mod:`rules.clock`: instead of listing moves it tries every
action the front end can produce (``drag s n d`` for every slot, group size and target,
``click s``, ``dbl s``) against Python versions of ``button-pressed``, ``droppable?``,
``button-clicked`` and ``button-double-clicked``.  Piles are lists of ``[card, face_up]``,
bottom first, of any length.  A drop on the slot the cards came from is not an action (the
front end just puts the cards back), so ``drag s n s`` is never listed.
"""
from rules.errors import IllegalMoveError
from rules.game import Outcome
from rules.layout import Layout

CENTRE = 6
# clock rank of each slot (spec 3.1 table)
RANK_OF_SLOT = {2: 1, 4: 2, 7: 3, 9: 4, 12: 5, 11: 6, 10: 7, 8: 8, 5: 9, 3: 10, 0: 11, 1: 12, 6: 13}
KING = 13


def _rank(card):
    return card % 13 + 1


class Referee:
    def __init__(self, layout, options=None):
        if options:
            raise IllegalMoveError(f"Clock has no options, got {options!r}")
        self.slots = [[[card, bool(up)] for card, up in slot] for slot in layout.slots]
        self.score = layout.score

    # ---- Aisleriot's hooks -------------------------------------------------------------------
    def _button_pressed(self, slot, cards):
        return slot == CENTRE and len(cards) == 1 and _rank(cards[-1][0]) != KING

    def _transaction_good(self, end_slot, cards):
        # (car card-list) is the top card of the group
        return RANK_OF_SLOT[end_slot] == _rank(cards[-1][0])

    def _complete_transaction(self, cards, end_slot):
        pile = self.slots[end_slot]
        pile.extend(cards)
        bottom = pile.pop(0)
        self.slots[CENTRE].append([bottom[0], True])     # ... then make-visible-top-card 6
        if end_slot != CENTRE:
            self.score += 1

    def _try_drag(self, src, n, dst, do):
        pile = self.slots[src]
        if src == dst or not 1 <= n <= len(pile):
            return False
        cards = pile[-n:]
        if not self._button_pressed(src, cards) or not self._transaction_good(dst, cards):
            return False
        if do:
            del pile[-n:]
            self._complete_transaction([list(c) for c in cards], dst)
        return True

    def _try_click(self, slot, do):
        pile = self.slots[slot]
        if not pile or not (_rank(pile[-1][0]) == KING and pile[-1][1]):
            return False
        if do:
            centre = self.slots[CENTRE]
            centre.append(centre.pop(0))
            centre[-1][1] = True
        return True

    def _try_dbl(self, slot, do):
        centre = self.slots[CENTRE]
        if slot == CENTRE or not centre or not self._transaction_good(slot, centre):
            return False
        if do:
            top = centre.pop()
            self._complete_transaction([top], slot)
        return True

    # ---- public interface --------------------------------------------------------------------
    def _candidates(self):
        for s in range(len(self.slots)):
            for n in range(1, len(self.slots[s]) + 1):
                for d in range(len(self.slots)):
                    yield f"drag {s} {n} {d}"
        for s in range(len(self.slots)):
            yield f"click {s}"
            yield f"dbl {s}"

    def _attempt(self, action, do):
        parts = action.split()
        try:
            if parts[0] == "drag" and len(parts) == 4:
                s, n, d = (int(p) for p in parts[1:])
                if 0 <= s < len(self.slots) and 0 <= d < len(self.slots):
                    return self._try_drag(s, n, d, do)
            elif parts[0] in ("click", "dbl") and len(parts) == 2:
                s = int(parts[1])
                if 0 <= s < len(self.slots):
                    return self._try_click(s, do) if parts[0] == "click" else self._try_dbl(s, do)
        except (ValueError, IndexError):
            pass
        return False

    def legal_actions(self):
        return [a for a in self._candidates() if self._attempt(a, do=False)]

    def apply(self, action):
        if not self._attempt(action, do=False):
            raise IllegalMoveError(f"Clock refuses {action!r}")
        self._attempt(action, do=True)

    def layout(self):
        return Layout(tuple(tuple((c, up) for c, up in slot) for slot in self.slots), self.score, 0)

    def won(self):
        return all(up for slot in self.slots for _, up in slot)

    def outcome(self):
        centre = self.slots[CENTRE]
        going = not (centre[0][1] and _rank(centre[-1][0]) == KING)
        if going:
            return int(Outcome.ONGOING)
        return int(Outcome.WON if self.won() else Outcome.LOST)
