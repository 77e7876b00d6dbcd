"""Plain-Python Ten Across referee, written from the spec (section 6) alone.

It shares no move-generation code with ``rules.ten_across``: it keeps each slot as a list of
``[card, face_up]`` pairs and tries every ``drag s n d`` against the pick-up and drop rules,
the way Aisleriot's front end asks ``button-pressed`` then ``droppable?``.
"""
from rules.errors import IllegalMoveError
from rules.game import Outcome
from rules.layout import Layout
from rules.moves import Move

SPOTS = (0, 1)
TABLEAU = tuple(range(2, 12))


def rank(card):
    return card % 13 + 1


def suit(card):
    return card // 13


class Referee:
    def __init__(self, layout, options=None):
        options = dict(options or {})
        self.allow_spots = bool(options.get("spots", True))
        self.slots = [[[int(c), bool(up)] for c, up in slot] for slot in layout.slots]
        if len(self.slots) != 12:
            raise ValueError(f"Ten Across has 12 slots, layout has {len(self.slots)}")

    # ---- rules ---------------------------------------------------------------------------
    def _can_pick(self, s, n):
        pile = self.slots[s]
        if not 1 <= n <= len(pile):
            return False
        if s in SPOTS and n != 1:
            return False
        return pile[len(pile) - n][1]           # the deepest card of the group is face up

    def _can_drop(self, s, group, d):
        if s == d:
            return False
        deepest = group[0][0]
        if d in TABLEAU:
            target = self.slots[d]
            if not target:
                return rank(deepest) == 13
            top = target[-1][0]
            return suit(top) == suit(deepest) and rank(top) == rank(deepest) + 1
        return self.allow_spots and len(group) == 1 and not self.slots[d]

    def _accepts(self, s, n, d):
        if not self._can_pick(s, n):
            return False
        return self._can_drop(s, self.slots[s][-n:], d)

    # ---- interface -----------------------------------------------------------------------
    # alike the Freecell referee's by design: referees are written from the spec, sharing nothing
    def legal_actions(self):
        out = []
        for s in range(12):
            for n in range(1, len(self.slots[s]) + 1):
                for d in range(12):
                    if self._accepts(s, n, d):
                        out.append(f"drag {s} {n} {d}")
        return out

    def apply(self, action):
        move = Move.parse(action)  # raises IllegalMoveError on bad text
        if move.kind != 0 or not (0 <= move.src < 12 and 0 <= move.dst < 12) \
                or not self._accepts(move.src, move.n, move.dst):
            raise IllegalMoveError(f"Ten Across refuses {action!r}")
        s, n, d = move.src, move.n, move.dst
        group = self.slots[s][-n:]
        del self.slots[s][-n:]
        self.slots[d].extend(group)
        if s in TABLEAU and self.slots[s]:
            self.slots[s][-1][1] = True

    def layout(self):
        return Layout(tuple(tuple((c, up) for c, up in slot) for slot in self.slots), 0, 0)

    def won(self):
        for d in TABLEAU:
            pile = self.slots[d]
            if not pile:
                continue
            if len(pile) != 13:
                return False
            first_suit = suit(pile[0][0])
            for k, (c, up) in enumerate(pile):
                if not up or suit(c) != first_suit or rank(c) != 13 - k:
                    return False
        return True

    def outcome(self):
        return int(Outcome.WON if self.won() else Outcome.ONGOING)
