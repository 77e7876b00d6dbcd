"""The dead-end test: a card that provably stays covered for ever, so no win is reachable.

The argument for each part (the stuck-blocker fixpoint, the empty-pile condition for Kings, the
twin rule, the held-suit rule, the twin-pair rule) is in docs/yukon.md, "Dead ends".  This
module computes it on 52-bit card masks (see :mod:`~solvers.games.yukon.cards`);
``tests/yukon_reference.py`` keeps a plain sweep over the piles that builds the positions, and the
tests check that the two always agree.
"""
import numpy as np
from numba import carray

from rules._jit import jit
from rules.yukon import DOWN, HEIGHT, N_PILES, CAP, TAB
from solvers.games.yukon.cards import (CHILDREN, PARENTS, TWIN_BITS, bit, bit_index, home_height, stack_scratch,
                    twin, twin_mask)

_RANKS = np.uint64(0x1FFF)
_SUIT_MASKS = np.array([_RANKS << np.uint64(13 * s) for s in range(4)], np.uint64)
_KINGS = np.uint64(sum(1 << (13 * s + 12) for s in range(4)))
_LOW_TWINS = np.uint64((1 << 26) - 1)               # clubs and diamonds: one of each twin pair
@jit
def _with_open_parent(available):
    """Cards with a parent among ``available``: each colour's available ranks, shifted one rank
    down, copied into both suits of the other colour."""
    black = ((available & _RANKS) | ((available >> np.uint64(39)) & _RANKS)) >> np.uint64(1)
    red = (((available >> np.uint64(13)) | (available >> np.uint64(26))) & _RANKS) >> np.uint64(1)
    return (black << np.uint64(13)) | (black << np.uint64(26)) | red | (red << np.uint64(39))


@jit
def _with_both_parents(available):
    """Cards with both parents among ``available`` (as :func:`_with_open_parent`, with and
    for or)."""
    black = ((available & _RANKS) & ((available >> np.uint64(39)) & _RANKS)) >> np.uint64(1)
    red = ((available >> np.uint64(13)) & (available >> np.uint64(26)) & _RANKS) >> np.uint64(1)
    return (black << np.uint64(13)) | (black << np.uint64(26)) | red | (red << np.uint64(39))


@jit
def _home_open(home_mask, locked):
    """Cards that could go home as far as ``locked`` cards allow: not home, and neither the card
    nor any lower card of its suit still out is locked."""
    out = np.uint64(0)
    for s in range(4):
        out_of_suit = _SUIT_MASKS[s] & ~home_mask
        m = locked & out_of_suit
        if m == np.uint64(0):
            out |= out_of_suit
        else:
            out |= ((m & (~m + np.uint64(1))) - np.uint64(1)) & out_of_suit
    return out


@jit
def dead_end(state):
    """True when some card provably stays covered for ever (docs/yukon.md, "Dead ends"): the
    stuck-blocker fixpoint keeps a blocker stuck, or the twin-pair rule applies."""
    under = carray(stack_scratch(), 64)
    scan = blocker_scan(state, under)
    return stuck_for_ever(scan[0], scan[1], scan[2], scan[3], scan[4], scan[5], scan[6], under)


@jit
def stuck_for_ever(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
    """:func:`dead_end` from :func:`blocker_scan`'s masks."""
    if stuck_set(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under,
                 ~np.uint64(0))[0] != np.uint64(0):
        return True
    return _twin_pair_dead(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under)


@jit
def blocker_scan(state, under):
    """One pass over the tableau for :func:`dead_end` and for the heuristic: returns
    ``(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried)``.

    Masks: every card lying on another card is a *blocker*, all of them ``stuck`` at first;
    ``locked`` the cards directly under them, ``down`` the face-down cards, ``bottoms`` the
    pile bottoms, ``pinned`` the face-down blockers the twin rule pins (their twin lies above
    them, face down or the lowest face-up card); ``under[c]`` is the card under blocker ``c``.
    ``cards_home`` and ``buried`` (cards on top of the next card each suit needs) are the
    heuristic's."""
    home_mask = np.uint64(0)
    need = np.uint64(0)                        # the next card of each suit not home
    cards_home = 0
    for suit in range(4):
        hh = home_height(state, suit)
        cards_home += hh
        home_mask |= ((np.uint64(1) << np.uint64(hh)) - np.uint64(1)) << np.uint64(suit * 13)
        if hh < 13:
            need |= bit(suit * 13 + hh)
    locked = np.uint64(0)
    stuck = np.uint64(0)
    down = np.uint64(0)
    bottoms = np.uint64(0)
    pinned = np.uint64(0)
    empty_pile = False
    buried = 0
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        if h == 0:
            empty_pile = True
            continue
        base = TAB + p * CAP
        below = np.int64(state[base])
        bottoms |= bit(below)
        if need & bit(below) != np.uint64(0):
            buried += h - 1
        n_down = np.int64(state[DOWN + p])
        if n_down > 0:
            down |= bit(below)
        chain_down = np.uint64(0)              # face-down blockers below card i
        for i in range(1, h):
            c = np.int64(state[base + i])
            locked |= bit(below)
            stuck |= bit(c)
            under[c] = below
            below = c
            if need & bit(c) != np.uint64(0):
                buried += h - 1 - i
            if i <= n_down:                    # c: face down, or the lowest face-up card
                if chain_down & TWIN_BITS[c] != np.uint64(0):
                    pinned |= TWIN_BITS[c]
                if i < n_down:
                    chain_down |= bit(c)
                    down |= bit(c)
    return home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried


@jit
def stuck_set(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under, watch):
    """The stuck-blocker fixpoint from :func:`blocker_scan`'s masks: ``(stuck, locked)``, the
    blockers that stay stuck and the cards directly under them (stuck 0: none, or none of
    ``watch``, where the search stops once they are all free).

    Every free blocker of a round is released at once: the release conditions are monotone
    (fewer locked or stuck cards only open exits), so rounds reach the same greatest fixpoint
    as releasing one blocker at a time.  A face-down card is locked exactly when the card on it
    is stuck, so ``down & locked`` are the face-down cards under a stuck card.  The held-suit
    rule (:func:`_held_suits`) only shuts ways home, so a round computes it only when one of
    its releases needs a way home, only for the suits such a way home needs, and only when a
    face-down blocker has one open parent and no way home (both of its forms need one)."""
    blockers = stuck
    while stuck != np.uint64(0):
        available = ~home_mask & ~locked
        open_parent = _with_open_parent(available)
        home_open = _home_open(home_mask, locked)
        covered_down = down & locked               # face down under a stuck card: never moves
        exits = _exits(available, open_parent, home_open, bottoms, pinned, empty_pile,
                       covered_down)
        free = stuck & exits & ~covered_down
        one = blockers & ~home_open & ~_with_both_parents(available) & open_parent
        need = np.uint64(0)
        if one & down != np.uint64(0):             # else no blocker holds a suit
            need = free & ~_exits(available, open_parent, np.uint64(0), bottoms, pinned,
                                  empty_pile, covered_down)
        if need != np.uint64(0):
            if need & _KINGS != np.uint64(0):
                need |= bottoms                    # an empty pile may need a way home
            suits = _suits_of(need | twin_mask(need & pinned))
            single = one & down & _with_open_parent(available & suits)
            pairs = one & twin_mask(one) & (down | twin_mask(down)) & _LOW_TWINS
            held = _held_suits(single, pairs, available, under) & suits
            if held != np.uint64(0):
                home_open &= ~held
                exits = _exits(available, open_parent, home_open, bottoms, pinned, empty_pile,
                               covered_down)
                free = stuck & exits & ~covered_down
        if free == np.uint64(0):
            return stuck, locked
        while free != np.uint64(0):    # exits only grow, so this round's stay open: release
            stuck &= ~free             # down the face-down cards before recomputing them
            while free != np.uint64(0):
                low = free & (~free + np.uint64(1))
                free ^= low
                locked &= ~bit(np.int64(under[bit_index(low)]))
            free = stuck & exits & ~(down & locked)
        if stuck & watch == np.uint64(0):
            return np.uint64(0), locked
    return np.uint64(0), locked


@jit
def _exits(available, open_parent, home_open, bottoms, pinned, empty_pile, covered_down):
    """Cards with an exit: an open parent (for a card the twin rule pins, both parents open or
    one and a twin that can go home), ``home_open``, and for Kings an empty pile that exists or
    can appear (a bottom card that can leave)."""
    empty_ok = empty_pile or (bottoms & open_parent & ~covered_down) != np.uint64(0) or (
        bottoms & home_open) != np.uint64(0)
    if pinned != np.uint64(0):
        exits = pinned & (_with_both_parents(available) | (
            open_parent & twin_mask(home_open))) | (open_parent & ~pinned) | home_open
    else:
        exits = open_parent | home_open
    if empty_ok:
        exits |= _KINGS
    return exits


@jit
def _suits_of(cards):
    """The whole suits of the cards of mask ``cards``."""
    out = np.uint64(0)
    for s in range(4):
        if cards & _SUIT_MASKS[s] != np.uint64(0):
            out |= _SUIT_MASKS[s]
    return out


@jit
def _held_suits(single, pairs, available, under):
    """The held-suit rule: cards kept from going home.  A blocker ``y`` with no way home and one
    open parent ``p`` lies on the card ``u`` under it or on ``p`` until the stuck set moves:
    for ``y`` in ``single`` (face down), when ``u`` and ``p`` are of one suit the cards of that
    suit above both never go home.  Twins ``y`` (in ``pairs``) and ``y'`` of that kind (one of
    them face down) share ``p`` and only one can lie on it, so ``u`` or ``u'`` is always covered:
    when these are of one suit, the cards of that suit above both never go home.  (A blocker
    with no open parent and no way home never leaves ``u``: it is stuck, and ``u`` locked
    blocks the same cards.)"""
    out = np.uint64(0)
    todo = single | pairs
    while todo != np.uint64(0):
        low = todo & (~todo + np.uint64(1))
        todo ^= low
        y = bit_index(low)
        u = np.int64(under[y])
        if single & low != np.uint64(0):
            p = bit_index(PARENTS[y] & available)
            if p // 13 == u // 13:
                out |= _suit_above(max(u, p))
        if pairs & low != np.uint64(0):
            u2 = np.int64(under[twin(y)])
            if u2 // 13 == u // 13:
                out |= _suit_above(max(u, u2))
    return out


@jit
def _suit_above(c):
    """The cards of ``c``'s suit above ``c``."""
    return _SUIT_MASKS[c // 13] & ~((np.uint64(2) << np.uint64(c)) - np.uint64(1))


@jit
def _home_shut_for(c, home_mask, locked, q_bit):
    """Could a stuck set keep ``c`` from going home once it lies on ``q``: some card it needs
    (itself: it must be a top; a lower card of its suit) has a card on it there?  (A held suit
    needs one too: the card under the blocker that holds it.)"""
    need = (bit(c) | (bit(c) - np.uint64(1))) & _SUIT_MASKS[c // 13] & ~home_mask
    return need & (locked | q_bit) != np.uint64(0)


@jit
def _twin_pair_dead(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
    """The twin-pair rule: the two children of a pile top ``q`` are face-up blockers, their
    other parent is face down or home, and moving either one onto ``q`` leaves it stuck there
    with a lower card of ``q``'s suit covered.  The position after such a move is read off the
    masks: the card ``u`` under it turns into a top (face up), ``q`` gets covered, and a twin
    rule pin that came from the card moved (it was the lowest face-up card on ``u``) goes."""
    tops = (bottoms | stuck) & ~locked
    face_up_blockers = stuck & ~down
    todo = tops
    while todo != np.uint64(0):
        q_bit = todo & (~todo + np.uint64(1))
        todo ^= q_bit
        children = CHILDREN[bit_index(q_bit)]
        if children == np.uint64(0) or children & face_up_blockers != children:
            continue
        y = bit_index(children & (~children + np.uint64(1)))
        if PARENTS[y] & ~q_bit & (down | home_mask) == np.uint64(0):
            continue                            # the other parent is neither face down nor home
        q = bit_index(q_bit)
        q_lower = (q_bit - np.uint64(1)) & _SUIT_MASKS[q // 13] & ~home_mask
        if q_lower & locked == np.uint64(0):
            continue                            # q's way home cannot be shut
        if not (_home_shut_for(y, home_mask, locked, q_bit) and
                _home_shut_for(twin(y), home_mask, locked, q_bit)):
            continue                            # a child could go home instead
        x = q                                   # a child in q's own pile cannot go onto q
        while stuck & bit(x) != np.uint64(0) and children & bit(x) == np.uint64(0):
            x = under[x]
        if children & bit(x) != np.uint64(0):
            continue
        dead = True
        for c in (y, twin(y)):
            u = under[c]
            down_after = down & ~bit(u)
            pinned_after = pinned
            if down & bit(u) != np.uint64(0):
                pinned_after &= ~(TWIN_BITS[c] | bit(u))
            under[c] = q
            left, covered = stuck_set(home_mask, (locked & ~bit(u)) | q_bit, stuck,
                                      down_after, bottoms, pinned_after, empty_pile, under,
                                      bit(c))
            under[c] = u
            if left & bit(c) == np.uint64(0) or covered & q_lower == np.uint64(0):
                dead = False                    # c gets free, or q could go home first
                break
        if dead:
            return True
    return False
