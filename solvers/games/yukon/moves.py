"""Move generation and pruning: the engine's solver moves, minus moves that provably lose
nothing (rules 1, 2, 5 and 6 of docs/yukon.md, "Pruning"), and the plug's ``apply`` and ``won``.

:func:`legal` takes a set of flags: ``OPEN_RULES`` (else aisleriot mode, where a LOST position
has no moves) and ``UNPRUNED`` (the reference move list the tests compare with: no safe-home
rule, no idle-move rule).  Dead ends are not tested here: the search plugs' heuristic does
that once per new position (:mod:`.heuristic`).
"""
import numpy as np
from numba import carray

from rules import yukon as yk
from rules._jit import jit
from rules.cards import EMPTY
from rules.yukon import CAP, DOWN, FOUND, HEIGHT, N_PILES, ONGOING, TAB
from rules.cards import colour as is_red, rank
from solvers.games.yukon.cards import CHILDREN, PARENTS, bit, home_height, stack_scratch
from solvers.games.yukon.state import DIRTY, SOLVER_STATE_SIZE

# flags of legal()
OPEN_RULES = 1        # open mode: only the move rules (else Aisleriot's LOST ends the game)
UNPRUNED = 2          # reference list: no safe-home rule, no idle lateral moves rule, no
                      # King-room rule


@jit
def is_foundation(slot):
    """Aisleriot's foundation slots are 0, 8, 9 and 10; 1-7 are the tableau piles."""
    return slot == 0 or slot >= 8


@jit
def legal(state, buf, flags):
    """Solver moves into ``buf`` (their count): the engine's ``faithful=0`` set, without a
    King move to an empty pile other than the first, nor a whole pile's (rule 1); in open
    mode, unless UNPRUNED, only a safe home move when there is one (rule 2) and no idle
    lateral move (rule 5), and only one King move to an empty pile when there is room for
    every King (rule 6).  Aisleriot mode lists nothing in a LOST position."""
    open_mode = flags & OPEN_RULES
    pruned = flags & UNPRUNED == 0
    if open_mode == 0 and yk.status(state) != ONGOING:
        return np.int64(0)  # LOST: Aisleriot ends the game here
    if open_mode != 0 and pruned:
        m = king_room_move(state)
        if m >= 0:
            buf[0] = m
            return np.int64(1)            # rule 6 (open mode)
    n, face_up = solver_moves(state, buf)
    first_empty = 0
    for p in range(1, N_PILES + 1):
        if state[HEIGHT + p - 1] == 0:
            first_empty = p
            break
    out = 0
    for i in range(n):
        m = buf[i]
        s = (m >> 16) & 0xFF
        k = (m >> 8) & 0xFF
        d = m & 0xFF
        if is_foundation(d):
            if open_mode != 0 and pruned:
                h = np.int64(state[HEIGHT + s - 1])
                if safe_home(state, np.int64(state[TAB + (s - 1) * CAP + h - 1])):
                    buf[0] = m
                    return np.int64(1)
        elif state[HEIGHT + d - 1] == 0:
            if d != first_empty or k == state[HEIGHT + s - 1]:
                continue  # rule 1: same canonical position as a kept move / the parent
        elif open_mode != 0 and pruned and idle_lateral_move(state, s, k, face_up):
            continue  # rule 5 (open mode)
        buf[out] = m
        out += 1
    return np.int64(out)


@jit
def solver_moves(state, buf):
    """The engine's solver move set (``rules.yukon.legal_moves(state, buf, 0)``, same set,
    other order) into ``buf``: ``(count, mask of the face-up cards)``.  Generated per
    destination instead of per (source, group, destination): a non-empty pile with top ``x``
    takes only a group based at one of ``x``'s children, an empty pile a group based at a
    King, a foundation the next card of its suit (an Ace: the first empty foundation in
    Aisleriot's order).  A card can be a group's base when it is face up in a pile."""
    where = carray(stack_scratch(), 64)        # card -> 64*pile + index, face-up cards only
    where[:52] = -1
    face_up = np.uint64(0)
    for p in range(N_PILES):
        base = TAB + p * CAP
        for j in range(np.int64(state[DOWN + p]), np.int64(state[HEIGHT + p])):
            c = np.int64(state[base + j])
            where[c] = 64 * p + j
            face_up |= bit(c)
    out = 0
    for t in range(N_PILES):
        ht = np.int64(state[HEIGHT + t])
        if ht == 0:
            for c in (12, 25, 38, 51):
                w = where[c]
                if w >= 0 and w // 64 != t:
                    s = w // 64
                    buf[out] = (s + 1) << 16 | (np.int64(state[HEIGHT + s]) - w % 64) << 8 | (t + 1)
                    out += 1
        else:
            x = np.int64(state[TAB + t * CAP + ht - 1])
            r = rank(x)
            if r == 1:
                continue
            if is_red(x) == 1:
                c1, c2 = r - 2, 39 + r - 2
            else:
                c1, c2 = 13 + r - 2, 26 + r - 2
            for c in (c1, c2):
                w = where[c]
                if w >= 0 and w // 64 != t:
                    s = w // 64
                    buf[out] = (s + 1) << 16 | (np.int64(state[HEIGHT + s]) - w % 64) << 8 | (t + 1)
                    out += 1
    empty_k = -1
    for k in range(4):
        if state[FOUND + k] == EMPTY:
            empty_k = k
            break
    for s in range(N_PILES):
        h = np.int64(state[HEIGHT + s])
        if h == 0:
            continue
        c = np.int64(state[TAB + s * CAP + h - 1])
        k = -1
        if rank(c) == 1:
            k = empty_k
        else:
            for kk in range(4):
                f = state[FOUND + kk]
                if f != EMPTY and f + 1 == c and rank(c) > 1:
                    k = kk
        if k >= 0:
            buf[out] = (s + 1) << 16 | 1 << 8 | (0 if k == 0 else k + 7)
            out += 1
    return out, face_up


@jit
def king_room_move(state):
    """Rule 6: when some pile is empty and the empty piles are at least as many as the Kings
    lying on another card (face down ones included), the move of the first such face-up King
    (with its group) to the first empty pile; else -1."""
    empty = 0
    first_empty = -1
    for p in range(N_PILES):
        if state[HEIGHT + p] == 0:
            empty += 1
            if first_empty < 0:
                first_empty = p
    if empty == 0:
        return np.int64(-1)
    kings = 0
    move = np.int64(-1)
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        if h == 0:
            continue
        dn = np.int64(state[DOWN + p])
        base = TAB + p * CAP
        for i in range(1, h):
            if rank(np.int64(state[base + i])) == 13:
                kings += 1
                if move < 0 and i >= dn:
                    move = (p + 1) << 16 | (h - i) << 8
    if kings > empty or move < 0:
        return np.int64(-1)
    return move | (first_empty + 1)


@jit
def _children_home(state, c):
    """Both cards of the opposite colour and rank ``rank(c) - 1`` are home (none for an Ace)."""
    r = rank(c)
    if r == 1:
        return True
    if is_red(c) == 1:
        lo = min(home_height(state, 0), home_height(state, 3))
    else:
        lo = min(home_height(state, 1), home_height(state, 2))
    return r <= lo + 1


@jit
def _bound_home(state, e):
    """Card ``e`` is face down, the next card of its suit, and its children are home: rule 2
    holds for it as soon as it turns up."""
    if home_height(state, e // 13) != rank(e) - 1 or not _children_home(state, e):
        return False
    for p in range(N_PILES):
        base = TAB + p * CAP
        for i in range(np.int64(state[DOWN + p])):
            if state[base + i] == e:
                return True
    return False


@jit
def safe_home(state, c):
    """Rule 2: card ``c`` can go home with no loss: each of its children (the opposite-colour
    ``rank-1`` cards) is home or bound home (:func:`_bound_home`)."""
    r = rank(c)
    for suit in ((0, 3) if is_red(c) == 1 else (1, 2)):
        if home_height(state, suit) < r - 1 and not _bound_home(state, suit * 13 + r - 2):
            return False
    return True


@jit
def idle_lateral_move(state, s, k, face_up):
    """Rule 5: ``drag s k`` to a non-empty pile moves a group whose deepest card ``c`` lies on
    the lowest face-up card ``u`` of its pile, and right after it ``u`` can neither go home,
    nor receive a natural child other than ``c``, nor go onto a natural parent in a pile (no
    such child or parent is face up; ``face_up`` is the mask of face-up cards)."""
    dn = np.int64(state[DOWN + s - 1])
    base = TAB + (s - 1) * CAP
    i = np.int64(state[HEIGHT + s - 1]) - k
    if i - 1 != dn:
        return False                      # u face down, absent, or not the lowest face-up card
    c = np.int64(state[base + i])
    u = np.int64(state[base + i - 1])
    if home_height(state, u // 13) + 1 == rank(u):
        return False                      # u can go home right after
    return ((CHILDREN[u] & ~bit(c)) | PARENTS[u]) & face_up == np.uint64(0)


@jit
def apply(state, move):
    """The rules' apply; on a solver state, the piles it changed are marked DIRTY."""
    yk.apply(state, move)
    if state.shape[0] >= SOLVER_STATE_SIZE:
        dirty = np.int64(state[DIRTY]) | (1 << (((move >> 16) & 0xFF) - 1))
        d = move & 0xFF
        if not is_foundation(d):
            dirty |= 1 << (d - 1)
        state[DIRTY] = dirty


@jit
def won(state):
    return np.int64(1) if yk.won(state) else np.int64(0)
