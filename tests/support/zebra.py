"""Zebra helpers the rules tests and the solver tests share: card colour and rank as plain
Python, and the tableau piles of their random positions."""


def col(c):
    return 1 if (c % 52) // 13 in (1, 2) else 0


def rk(c):
    return c % 13 + 1


def random_pile(rng, rest, p_empty, extend):
    """A tableau pile for a random position, its cards taken from ``rest``: empty with chance
    ``p_empty``, else a high card followed, with chance ``extend`` each, by a card of the other
    colour one rank lower while ``rest`` holds one."""
    pile = []
    if rest and rng.random() >= p_empty:
        rest.sort(key=lambda c: -rk(c) + rng.random() * 6)
        pile.append(rest.pop(0))
        while rng.random() < extend:
            nxt = [c for c in rest if rk(c) + 1 == rk(pile[-1]) and col(c) != col(pile[-1])]
            if not nxt:
                break
            c = rng.choice(nxt)
            rest.remove(c)
            pile.append(c)
    return pile
