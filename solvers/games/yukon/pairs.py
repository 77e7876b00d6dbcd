"""The pair test: no win when a card can never go home, by pairwise reachability (h^2).

The position is read as a planning task over facts -- ``on(c, x)`` (card ``c`` lies directly on
card or empty pile ``x``), ``clear(x)``, ``down(c)`` and ``up(c)`` for its face-down cards,
``home(c)`` -- with one action for each move a card could ever make.  Every real move is such an
action with the same preconditions and effects (an action may also do what no real position
allows, which only adds).  The fixpoint over *pairs* of facts (Haslum and Geffner's h^2) keeps
every pair that holds together in some reachable position; when a ``home`` fact is not even
kept alone, no win is reachable.  The argument: docs/yukon.md, "The pair test".
"""
import numpy as np

from rules._jit import jit
from rules.yukon import CAP, DOWN, HEIGHT, N_PILES, TAB
from solvers.games.yukon.cards import PARENTS, bit_index

N_TARGETS = 59           # 52 cards, then the 7 piles (pile p stands for its bottom: 52 + p)
MAX_SUPPORTS = 10        # a card's: its two parents or (a King) the 7 piles, and where it lies
MAX_FACTS = 384          # 176 on + 59 clear + 90 down and up (45 face down) + 52 home = 377
WORDS = MAX_FACTS // 64
MAX_ACTIONS = 640        # 48 cards * 7 + 4 Kings * 57 + 45 flips = 609 at most
A_WIDTH = 8              # an action: 4 preconditions, 2 added facts, 2 deleted; -1 for none
_S = 52 * MAX_SUPPORTS                 # offsets in the ids scratch (see task)
_CLEAR, _LIES = 2 * _S, 2 * _S + N_TARGETS
_DOWN, _HOME, _NOW, _N_DEST, _INIT = (_LIES + 52 * i for i in range(1, 6))
_IDS = _INIT + 128                     # 45 down + 52 on + 7 clear facts true now at most
ROWS = MAX_FACTS * WORDS + WORDS       # a row of facts per fact, and the fixpoint's scratch row


@jit
def pair_dead_end(state):
    """True when the pairwise fixpoint shows a card not home that can never go home from
    ``state``, so no win is reachable."""
    return pair_refutes(state, np.empty(_IDS, np.int16), np.zeros(ROWS, np.uint64))


@jit
def pair_refutes(state, ids, rows):
    """:func:`pair_dead_end` in the caller's arrays: ``ids`` (``_IDS`` entries) gets the
    task's fact names (:func:`task`) and ``rows`` (``ROWS`` words, zeroed) the pairs; when it
    returns True, ``rows`` hold the whole fixpoint (:mod:`.pair_memo` keeps them)."""
    acts = np.empty(MAX_ACTIONS * A_WIDTH, np.int16)
    n, n_acts, n_init = task(state, ids, acts)
    for i in range(n_init):
        for j in range(n_init):
            _set(rows, np.int64(ids[_INIT + i]) * WORDS, ids[_INIT + j])
    flags = np.empty(2 * MAX_FACTS, np.uint8)
    flags[:n] = 1                                  # every row is new
    return not fixpoint(rows, acts, n, n_acts, flags, ids[_HOME:_HOME + 52])


@jit
def read_task(state):
    """``state``'s task (:func:`task`) in fresh arrays: ``(facts, actions, acts, home, init)``,
    ``home[c]`` the fact home(c) (-1: none) and ``init`` the facts true now."""
    ids = np.empty(_IDS, np.int16)
    acts = np.empty(MAX_ACTIONS * A_WIDTH, np.int16)
    n, n_acts, n_init = task(state, ids, acts)
    return n, n_acts, acts, ids[_HOME:_HOME + 52], ids[_INIT:_INIT + n_init]


@jit
def _set(rows, base, f):
    rows[base + (f >> 6)] |= np.uint64(1) << np.uint64(f & 63)


@jit
def _has(rows, base, f):
    return rows[base + (f >> 6)] >> np.uint64(f & 63) & np.uint64(1) != np.uint64(0)


@jit
def task(state, ids, acts):
    """Numbers the facts of ``state``'s task and lists its actions in ``acts``; returns (facts,
    actions, facts true now), the facts true now listed in ``ids`` (see the slices below)."""
    for i in range(_IDS):
        ids[i] = -1
    on_target = ids[:_S]                   # card c's support k: a card or 52 + pile
    on_fact = ids[_S:_CLEAR]
    clear = ids[_CLEAR:_LIES]
    lies_on = ids[_LIES:_DOWN]             # where each card lies now; -1: home
    down = ids[_DOWN:_HOME]                # down(c); up(c) is down(c) + 1
    home = ids[_HOME:_NOW]
    now = ids[_NOW:_N_DEST]                # the support k where card c lies now
    n_dest = ids[_N_DEST:_INIT]            # supports 0 .. n_dest-1 are where c may go
    init = ids[_INIT:]
    n_init = 0
    n = 0
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        nd = np.int64(state[DOWN + p])
        below = 52 + p
        for i in range(h):
            c = np.int64(state[TAB + p * CAP + i])
            lies_on[c] = below
            if i < nd:
                down[c] = n
                init[n_init] = n
                n_init += 1
                n += 2
            below = c
    for c in range(52):
        if lies_on[c] < 0:
            continue
        home[c] = n
        n += 1
        k = 0
        parents = PARENTS[c]
        while parents != np.uint64(0):
            low = parents & (~parents + np.uint64(1))
            parents ^= low
            y = bit_index(low)
            if lies_on[y] >= 0:
                on_target[c * MAX_SUPPORTS + k] = y
                k += 1
        if c % 13 == 12:
            for p in range(N_PILES):
                on_target[c * MAX_SUPPORTS + k] = 52 + p
                k += 1
        n_dest[c] = k
        now[c] = k
        for j in range(k):
            if on_target[c * MAX_SUPPORTS + j] == lies_on[c]:
                now[c] = j
        if now[c] == k:
            on_target[c * MAX_SUPPORTS + k] = lies_on[c]
            k += 1
        for j in range(k):
            on_fact[c * MAX_SUPPORTS + j] = n
            n += 1
        init[n_init] = on_fact[c * MAX_SUPPORTS + now[c]]
        n_init += 1
    for x in range(N_TARGETS):
        if x >= 52 or lies_on[x] >= 0:
            clear[x] = n
            n += 1
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        init[n_init] = clear[np.int64(state[TAB + p * CAP + h - 1]) if h > 0 else 52 + p]
        n_init += 1
    a = 0
    for c in range(52):
        if lies_on[c] < 0:
            continue
        up_c = down[c] + 1 if down[c] >= 0 else -1
        k_all = n_dest[c] + (1 if now[c] == n_dest[c] else 0)
        for k in range(k_all):
            x = on_target[c * MAX_SUPPORTS + k]
            f = on_fact[c * MAX_SUPPORTS + k]
            for k2 in range(n_dest[c]):
                if k2 == k:
                    continue
                y = on_target[c * MAX_SUPPORTS + k2]
                up_y = down[y] + 1 if y < 52 and down[y] >= 0 else -1
                _action(acts, a, f, clear[y], up_c, up_y,
                        on_fact[c * MAX_SUPPORTS + k2], clear[x], f, clear[y])
                a += 1
            below = home[c - 1] if c % 13 > 0 and lies_on[c - 1] >= 0 else -1
            _action(acts, a, f, clear[c], up_c, below, home[c], clear[x], f, clear[c])
            a += 1
        if down[c] >= 0:
            _action(acts, a, down[c], clear[c], -1, -1, up_c, -1, down[c], -1)
            a += 1
    return n, a, n_init


@jit
def _action(acts, a, p0, p1, p2, p3, a0, a1, d0, d1):
    base = a * A_WIDTH
    acts[base] = p0
    acts[base + 1] = p1
    acts[base + 2] = p2
    acts[base + 3] = p3
    acts[base + 4] = a0
    acts[base + 5] = a1
    acts[base + 6] = d0
    acts[base + 7] = d1


@jit
def fixpoint(rows, acts, n, n_acts, flags, home):
    """Grows ``rows`` (row f: the facts g with the pair f, g reachable) towards the h^2
    fixpoint: True as soon as every ``home`` fact is reachable, False if the fixpoint has one
    that is not (pairs of them are left unchecked: on the positions of hard proofs every
    refutation had a single card that can never go home).  Sweeps alternate in
    direction, and an action is looked at only when the row of one of its preconditions grew
    since it was last looked at: at first, the rows ``flags[f]`` marks (every row for a new
    task; only the grown ones when rows already closed are grown, as :mod:`.pair_memo`'s
    merges do -- the rest are already derived)."""
    changed = flags[:MAX_FACTS]
    grew = flags[MAX_FACTS:2 * MAX_FACTS]
    q = rows[MAX_FACTS * WORDS:]                   # the facts that can join an action
    any_change = True
    sweep = 0
    while any_change:
        any_change = False
        for f in range(n):
            grew[f] = 0
        for i in range(n_acts):
            a = i if sweep & 1 == 0 else n_acts - 1 - i
            base = a * A_WIDTH
            look = False
            for j in range(4):
                p = acts[base + j]
                if p >= 0 and (changed[p] != 0 or grew[p] != 0):
                    look = True
            if not look:
                continue
            for w in range(WORDS):
                q[w] = ~np.uint64(0)
            for j in range(4):
                p = np.int64(acts[base + j])
                if p >= 0:
                    for w in range(WORDS):
                        q[w] &= rows[p * WORDS + w]
            ok = True
            for j in range(4):             # the preconditions pairwise reachable
                p = np.int64(acts[base + j])
                if p >= 0 and not _has(q, 0, p):
                    ok = False
            if not ok:
                continue
            for j in range(4, 8):          # a fact the action adds or deletes pairs with the
                f = np.int64(acts[base + j])   # added facts only as one of them
                if f >= 0:
                    q[f >> 6] &= ~(np.uint64(1) << np.uint64(f & 63))
            for j in range(4, 6):
                f = np.int64(acts[base + j])
                if f >= 0:
                    _set(q, 0, f)
            for j in range(4, 6):
                r = np.int64(acts[base + j])
                if r < 0:
                    continue
                for w in range(WORDS):
                    new = q[w] & ~rows[r * WORDS + w]
                    if new == np.uint64(0):
                        continue
                    rows[r * WORDS + w] |= new
                    grew[r] = 1
                    any_change = True
                    while new != np.uint64(0):
                        low = new & (~new + np.uint64(1))
                        new ^= low
                        g = w * 64 + bit_index(low)
                        _set(rows, g * WORDS, r)
                        grew[g] = 1
        for f in range(n):
            changed[f] = grew[f]
        sweep += 1
        done = True
        for c in range(52):
            if home[c] >= 0 and not _has(rows, home[c] * WORDS, home[c]):
                done = False
        if done:
            return True
    return False
