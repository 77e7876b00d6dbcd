"""Plain-Python Freecell referee, written from the spec (section 4) alone.

It shares no move generation with ``rules.freecell``: it tries every conceivable action
(``drag s n d`` for all slots and counts, ``click s``, ``dbl s``) and asks a literal transcription
of the rules whether Aisleriot accepts it.  Slots are lists of cards, bottom first.
"""
from rules.errors import IllegalMoveError, InvalidDealError
from rules.game import Outcome
from rules.layout import Layout
from rules.moves import Move

FREECELLS = range(0, 4)
HOMECELLS = range(4, 8)
FIELDS = range(8, 16)
AUTOPLAY_SCAN = [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15]


def _rank(card):
    return card % 13 + 1


def _suit(card):
    return card // 13


def _is_red(card):
    return _suit(card) in (1, 2)


def _is_run(cards):
    """Each card one rank lower than, and the opposite colour of, the card beneath it."""
    return all(_rank(upper) + 1 == _rank(lower) and _is_red(upper) != _is_red(lower)
               for lower, upper in zip(cards, cards[1:]))


class Referee:
    def __init__(self, layout, options=None):
        if options:
            raise InvalidDealError(f"freecell has no options, got {options!r}")
        if len(layout.slots) != 16:
            raise InvalidDealError(f"freecell layout needs 16 slots, got {len(layout.slots)}")
        self.slots = [[card for card, _ in slot] for slot in layout.slots]
        self.score = layout.score
        # high[suit]: highest rank sent home; a fresh position takes it from the homecells
        self.high = [0, 0, 0, 0]
        for h in HOMECELLS:
            if self.slots[h]:
                top = self.slots[h][-1]
                self.high[_suit(top)] = _rank(top)

    # ---- rules -------------------------------------------------------------------------------
    def _can_pick(self, s, n):
        pile = self.slots[s]
        if s in HOMECELLS or n < 1 or n > len(pile):
            return False
        if s in FREECELLS:
            return n == 1
        return _is_run(pile[-n:])

    def _homecell_accepts(self, d, card):
        pile = self.slots[d]
        if not pile:
            return _rank(card) == 1
        return _suit(pile[-1]) == _suit(card) and _rank(card) == _rank(pile[-1]) + 1

    def _can_drop(self, s, group, d):
        """Asked with ``group`` already lifted off ``s`` (spec 1.2)."""
        if s == d:
            return False
        n = len(group)
        if d in HOMECELLS:
            return n == 1 and self._homecell_accepts(d, group[0])
        if d in FREECELLS:
            return n == 1 and not self.slots[d]
        target = self.slots[d]
        if target and not (_is_red(group[0]) != _is_red(target[-1])
                           and _rank(group[0]) + 1 == _rank(target[-1])):
            return False
        free = sum(1 for f in FREECELLS if not self.slots[f])
        empty = sum(1 for f in FIELDS if not self.slots[f])
        exponent = empty - (1 if not target else 0) - (1 if not self.slots[s] else 0)
        return n <= (free + 1) * 2 ** max(exponent, 0)

    def _accepts_drag(self, s, n, d):
        if not (0 <= s < 16 and 0 <= d < 16) or not self._can_pick(s, n):
            return False
        group = self.slots[s][-n:]
        del self.slots[s][-n:]
        try:
            return self._can_drop(s, group, d)
        finally:
            self.slots[s].extend(group)

    def _accepts_dbl(self, s):
        return 0 <= s < 16 and bool(self.slots[s]) and any(not self.slots[f] for f in FREECELLS)

    def _send_home(self, d, card):
        self.slots[d].append(card)
        self.score += 1
        self.high[_suit(card)] = _rank(card)

    def _autoplay(self):
        while True:
            hc, hd, hh, hs = self.high
            limit_red = min(2 + min(hc, hs), 3 + min(hd, hh))
            limit_black = min(2 + min(hd, hh), 3 + min(hc, hs))
            for slot in AUTOPLAY_SCAN:
                if not self.slots[slot]:
                    continue
                card = self.slots[slot][-1]
                if _rank(card) > (limit_red if _is_red(card) else limit_black):
                    continue
                target = next((h for h in HOMECELLS
                               if self.slots[h] and _suit(self.slots[h][-1]) == _suit(card)), None)
                if target is None:
                    target = next((h for h in HOMECELLS if not self.slots[h]), None)
                if target is not None and self._homecell_accepts(target, card):
                    self.slots[slot].pop()
                    self._send_home(target, card)
                    break
            else:
                return

    # ---- interface ---------------------------------------------------------------------------
    def legal_actions(self):
        actions = []
        for s in range(16):
            for n in range(1, len(self.slots[s]) + 1):
                for d in range(16):
                    if self._accepts_drag(s, n, d):
                        actions.append(f"drag {s} {n} {d}")
            if self._accepts_dbl(s):
                actions.append(f"dbl {s}")
        return actions  # click is never accepted

    def apply(self, action):
        move = Move.parse(action)
        if move.kind == 0 and self._accepts_drag(move.src, move.n, move.dst):
            group = self.slots[move.src][-move.n:]
            del self.slots[move.src][-move.n:]
            if move.dst in HOMECELLS:
                self._send_home(move.dst, group[0])
            else:
                self.slots[move.dst].extend(group)
        elif move.kind == 2 and self._accepts_dbl(move.src):
            cell = next(f for f in FREECELLS if not self.slots[f])  # chosen before lifting
            card = self.slots[move.src].pop()
            self.slots[cell].append(card)  # no score, high[] untouched
        else:
            raise IllegalMoveError(f"freecell refuses {action!r}")
        self._autoplay()

    def layout(self):
        return Layout(tuple(tuple((c, True) for c in slot) for slot in self.slots), self.score, 0)

    def won(self):
        return all(len(self.slots[h]) == 13 for h in HOMECELLS)

    def outcome(self):
        return int(Outcome.WON if self.won() else Outcome.ONGOING)
