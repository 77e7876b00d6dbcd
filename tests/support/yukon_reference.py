"""Reference kernels for the Yukon solver tests: the slow, obvious forms the fast kernels of
:mod:`solvers.games.yukon` are checked against, and the unpruned searches.

* :func:`dead_end_sweep` -- the dead-end test by plain sweeps over the piles, the twin-pair
  rule on built positions (the argument is in docs/yukon.md, "Dead ends");
* :func:`dead_end_basic` -- the first, weaker dead-end test (face-down blockers only), which
  the current one must include;
* :func:`legal_open`, :func:`legal_aisleriot` -- the listed moves as the search sees them,
  dead ends included (the search plugs test dead ends in their heuristic instead);
* ``PLAIN_PLUGS`` -- searches with no dead-end test, no safe-home rule (rule 2), no idle-move
  rule and no King-room rule, whose verdicts the pruned searches must reproduce.
"""
import numpy as np

from rules import yukon as yk
from rules._jit import jit
from rules.yukon import CAP, DOWN, HEIGHT, MAX_MOVES, N_PILES, STATE_SIZE, TAB
from solvers.core.search import GamePlug
from rules.cards import colour as is_red, rank
from solvers.games.yukon.cards import bit, home_height, twin
from solvers.games.yukon.dead_end import blocker_scan, dead_end, stuck_for_ever, stuck_set
from solvers.games.yukon.hashing import hash1, hash2
from solvers.games.yukon.heuristic import score
from solvers.games.yukon.moves import OPEN_RULES, UNPRUNED, apply, legal, won
from solvers.games.yukon.plugs import cost
from solvers.games.yukon.state import SOLVER_STATE_SIZE


# ---- the move lists ------------------------------------------------------------------------
@jit
def legal_aisleriot(state, buf):
    """Aisleriot-mode moves, none in a dead end."""
    if dead_end(state):
        return np.int64(0)
    return legal(state, buf, 0)


@jit
def legal_open(state, buf):
    """Open-mode moves, none in a dead end."""
    if dead_end(state):
        return np.int64(0)
    return legal(state, buf, OPEN_RULES)


@jit
def legal_aisleriot_plain(state, buf):
    return legal(state, buf, UNPRUNED)


@jit
def legal_open_plain(state, buf):
    return legal(state, buf, OPEN_RULES | UNPRUNED)


PLAIN_PLUGS = {
    "aisleriot": GamePlug(legal_aisleriot_plain, apply, won, hash1, hash2, score, cost,
                          MAX_MOVES, SOLVER_STATE_SIZE),
    "open": GamePlug(legal_open_plain, apply, won, hash1, hash2, score, cost, MAX_MOVES,
                     SOLVER_STATE_SIZE),
}


# ---- the dead-end test in parts --------------------------------------------------------------
@jit
def dead_end_without_twin_rule(a):
    """dead_end with no blocker pinned by the twin rule."""
    under = np.zeros(64, np.int64)
    s = blocker_scan(a, under)
    return stuck_for_ever(s[0], s[1], s[2], s[3], s[4], np.uint64(0), s[6], under)


@jit
def fixpoint_dead_end(a):
    """dead_end without the twin-pair rule."""
    under = np.zeros(64, np.int64)
    s = blocker_scan(a, under)
    return stuck_set(s[0], s[1], s[2], s[3], s[4], s[5], s[6], under,
                     ~np.uint64(0))[0] != np.uint64(0)


# ---- the dead-end test by sweeps -----------------------------------------------------------
@jit
def dead_end_sweep(state, held_rule=True):
    """Reference form of :func:`solvers.games.yukon.dead_end.dead_end`: the fixpoint by plain sweeps
    (:func:`sweep_stuck`) and the twin-pair rule on built positions (without ``held_rule``:
    no card held, :func:`held_cards`)."""
    stuck = sweep_stuck(state, held_rule)
    for p in range(N_PILES):
        if stuck[p] != np.uint64(0):
            return True
    return twin_pair_sweep(state, held_rule)


@jit
def plain_fixpoint_dead_end(state):
    """The stuck-blocker fixpoint alone: no twin rule, no held suits, no twin-pair rule."""
    stuck = sweep_stuck(state, False, False)
    for p in range(N_PILES):
        if stuck[p] != np.uint64(0):
            return True
    return False


@jit
def exit_open(x, home, locked, empty_ok, pinned, held):
    """Could card ``x`` leave the card it sits on, given ``locked`` cards can never be pile
    tops or home?  Exits: a parent not home and not locked; its foundation (:func:`home_exit_open`);
    for a King, an empty pile if ``empty_ok``.  A ``pinned`` card (twin rule) has no exit by a
    lone open parent unless its twin can go home."""
    r = rank(x)
    if r == 13 and empty_ok:
        return True
    if r < 13:
        n_open = 0
        for q in open_parents(x, home, locked):
            n_open += q >= 0
        if n_open == 2 or (n_open == 1 and (
                not pinned or home_exit_open(twin(x), home, locked, held))):
            return True
    return home_exit_open(x, home, locked, held)


@jit
def open_parents(x, home, locked):
    """The two parents of non-King ``x``, each -1 if it is home or locked."""
    r = rank(x)
    s1, s2 = (0, 3) if is_red(x) == 1 else (1, 2)
    p1, p2 = s1 * 13 + r, s2 * 13 + r
    if home[s1] >= r + 1 or (locked & bit(p1)) != np.uint64(0):
        p1 = -1
    if home[s2] >= r + 1 or (locked & bit(p2)) != np.uint64(0):
        p2 = -1
    return p1, p2


@jit
def home_exit_open(x, home, locked, held):
    """Could ``x`` go home some day as far as ``locked`` cards allow: neither it (only a top
    card goes home) nor a lower card of its suit still out is locked, and no blocker holds its
    suit below it (``held``, :func:`held_cards`)."""
    if (locked & bit(x)) != np.uint64(0) or (held & bit(x)) != np.uint64(0):
        return False
    s = x // 13
    lo = s * 13 + home[s]                       # the lower cards not home: lo .. x-1
    if lo >= x:
        return True
    mask = (bit(x) - np.uint64(1)) & ~(bit(lo) - np.uint64(1))
    return (locked & mask) == np.uint64(0)


@jit
def held_cards(state, home, locked):
    """The held-suit rule, card by card.  A non-King blocker with no way home (as far as
    ``locked`` allows) and at most one open parent lies, until the stuck set moves, on the card
    under it or on that parent: for a face-down one whose places are of one suit, the cards of
    that suit above them are held (never go home).  Twins that both qualify, one of them face
    down, share their open parent, so one of the two cards under them is always covered: if
    those are of one suit, the cards of that suit above both are held."""
    held = np.uint64(0)
    none = np.uint64(0)
    on = np.full(52, -1, np.int64)              # qualifying blocker -> the card under it
    face_down = np.zeros(52, np.bool_)
    for p in range(N_PILES):
        base = TAB + p * CAP
        for i in range(1, np.int64(state[HEIGHT + p])):
            y = np.int64(state[base + i])
            if rank(y) == 13 or home_exit_open(y, home, locked, none):
                continue
            p1, p2 = open_parents(y, home, locked)
            if p1 >= 0 and p2 >= 0:
                continue
            u = np.int64(state[base + i - 1])
            if p1 >= 0 or p2 >= 0:
                on[y] = u
            face_down[y] = i < np.int64(state[DOWN + p])
            if not face_down[y]:
                continue                            # the single rule: face-down blockers
            top = u                                 # the highest of y's places, if one suit
            for q in (p1, p2):
                if q >= 0:
                    top = max(top, q) if q // 13 == top // 13 else -1
            if top >= 0:
                for c in range(top + 1, top // 13 * 13 + 13):
                    held |= bit(c)
    for y in range(26):                             # clubs and diamonds: one of each twin pair
        u, u2 = on[y], on[twin(y)]
        if (u >= 0 and u2 >= 0 and u // 13 == u2 // 13
                and (face_down[y] or face_down[twin(y)])):
            for c in range(max(u, u2) + 1, u // 13 * 13 + 13):
                held |= bit(c)
    return held


@jit
def sweep_stuck(state, held_rule=True, twin_rule=True):
    """The stuck-blocker fixpoint by repeated sweeps, one blocker at a time: bit ``i`` of entry
    ``p`` is set when the card at index ``i`` of pile ``p`` stays stuck.  Without
    ``held_rule`` no card is held (:func:`held_cards`), without ``twin_rule`` none pinned."""
    home = np.empty(4, np.int64)
    for suit in range(4):
        home[suit] = home_height(state, suit)
    stuck = np.empty(N_PILES, np.uint64)       # bit i: the card at index i is a stuck blocker
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        stuck[p] = ((np.uint64(1) << np.uint64(h)) - np.uint64(2)) if h >= 2 else np.uint64(0)
    locked = np.uint64(0)                      # every card with a card on it, at first
    for p in range(N_PILES):
        base = TAB + p * CAP
        for i in range(np.int64(state[HEIGHT + p]) - 1):
            locked |= bit(np.int64(state[base + i]))
    changed = True
    while changed:
        changed = False
        held = held_cards(state, home, locked) if held_rule else np.uint64(0)
        empty_ok = False
        for p in range(N_PILES):
            h = np.int64(state[HEIGHT + p])
            if h == 0:
                empty_ok = True
                break
            b = np.int64(state[TAB + p * CAP])
            under_stuck = (stuck[p] >> np.uint64(1)) & np.uint64(1) != np.uint64(0)
            if under_stuck and np.int64(state[DOWN + p]) > 0:
                continue                            # face down for ever
            if rank(b) == 13:
                if not under_stuck and exit_open(b, home, locked, False, False, held):
                    empty_ok = True                 # the King goes home
                    break
                continue
            if exit_open(b, home, locked, False, False, held):
                if under_stuck:                     # can leave only onto a parent, as a group
                    p1, p2 = open_parents(b, home, locked)
                    if p1 >= 0 or p2 >= 0:
                        empty_ok = True
                        break
                    continue
                empty_ok = True
                break
        for p in range(N_PILES):
            bits = stuck[p]
            if bits == np.uint64(0):
                continue
            base = TAB + p * CAP
            dn = np.int64(state[DOWN + p])
            h = np.int64(state[HEIGHT + p])
            for i in range(h - 1, 0, -1):          # top down: a release above helps below
                if (stuck[p] >> np.uint64(i)) & np.uint64(1) == np.uint64(0):
                    continue
                if i < dn and (stuck[p] >> np.uint64(i + 1)) & np.uint64(1) != np.uint64(0):
                    continue                        # face down, under a stuck card
                x = np.int64(state[base + i])
                pinned = False
                for j in range(i + 1, min(dn, h - 1) + 1 if twin_rule else 0):
                    pinned = pinned or np.int64(state[base + j]) == twin(x)
                if exit_open(x, home, locked, empty_ok, pinned, held):
                    stuck[p] &= ~(np.uint64(1) << np.uint64(i))
                    locked &= ~bit(np.int64(state[base + i - 1]))
                    changed = True
                    if held_rule:           # a lock gone may let twins hold a suit instead
                        held = held_cards(state, home, locked)
    return stuck


@jit
def twin_pair_sweep(state, held_rule=True):
    """The twin-pair rule on built positions: for each pile top ``q`` whose children qualify,
    apply each child's move onto ``q`` and sweep the result."""
    for t in range(N_PILES):
        ht = np.int64(state[HEIGHT + t])
        if ht == 0:
            continue
        q = np.int64(state[TAB + t * CAP + ht - 1])
        if q % 13 == 0:
            continue                                # an Ace has no children
        kids = np.empty(2, np.int64)
        kids[0] = (1 if q // 13 in (0, 3) else 0) * 13 + q % 13 - 1
        kids[1] = (3 - kids[0] // 13) * 13 + kids[0] % 13
        other = (3 - q // 13) * 13 + q % 13         # the children's other parent
        shut = home_height(state, other // 13) > other % 13
        for p in range(N_PILES):
            for i in range(np.int64(state[DOWN + p])):
                shut = shut or np.int64(state[TAB + p * CAP + i]) == other
        if not shut:
            continue                                # neither face down nor home
        dead = True
        for c in kids:
            where = -1
            for p in range(N_PILES):
                for i in range(max(1, np.int64(state[DOWN + p])), np.int64(state[HEIGHT + p])):
                    if np.int64(state[TAB + p * CAP + i]) == c:
                        where = p * CAP + i
            p, i = where // CAP, where % CAP
            if where < 0 or p == t:                 # not a face-up blocker, or under q
                dead = False
                break
            after = state[:STATE_SIZE].copy()
            k = np.int64(state[HEIGHT + p]) - i
            yk.apply(after, np.int32((p + 1) << 16 | k << 8 | (t + 1)))
            left = sweep_stuck(after, held_rule)
            q_home_shut = False                     # a lower card of q's suit under a stuck one
            for r in range(N_PILES):
                for k in range(1, np.int64(after[HEIGHT + r])):
                    low = np.int64(after[TAB + r * CAP + k - 1])
                    if (left[r] >> np.uint64(k) & np.uint64(1) != np.uint64(0)
                            and low // 13 == q // 13 and low % 13 < q % 13):
                        q_home_shut = True
            if left[t] >> np.uint64(ht) & np.uint64(1) == np.uint64(0) or not q_home_shut:
                dead = False                        # c (now at index ht of pile t) got free
                break
        if dead:
            return True
    return False


@jit
def dead_end_basic(state):
    """The first dead-end test: blockers are only the face-down cards but the bottom one and
    the lowest face-up card over them; per pile ``hi`` is the highest blocker not yet shown
    able to leave, the cards under it locked; a blocker with a parent or its way home not
    locked is released.  Any ``hi > 0`` left: no win."""
    hi = np.empty(N_PILES, np.int64)
    home = np.empty(4, np.int64)
    for suit in range(4):
        home[suit] = home_height(state, suit)
    any_locked = False
    for p in range(N_PILES):
        hi[p] = np.int64(state[DOWN + p])
        if hi[p] > 0:
            any_locked = True
    if not any_locked:
        return False
    changed = True
    while changed:
        changed = False
        locked = np.uint64(0)
        for p in range(N_PILES):
            base = TAB + p * CAP
            for i in range(hi[p]):
                locked |= bit(np.int64(state[base + i]))
        for p in range(N_PILES):
            base = TAB + p * CAP
            while hi[p] > 0:
                x = np.int64(state[base + hi[p]])
                r = rank(x)
                s = x // 13
                free = r == 13
                if not free:
                    if is_red(x) == 1:
                        s1, s2 = 0, 3
                    else:
                        s1, s2 = 1, 2
                    for ps in (s1, s2):
                        if home[ps] < r + 1 and (locked & bit(ps * 13 + r)) == np.uint64(0):
                            free = True
                if not free:
                    lo = s * 13 + home[s]          # lowest card of the suit not home
                    top = s * 13 + r - 1           # x itself (excluded)
                    mask = np.uint64(0)
                    for c in range(lo, top):
                        mask |= bit(c)
                    if (locked & mask) == np.uint64(0):
                        free = True
                if not free:
                    break
                hi[p] -= 1
                changed = True
                locked &= ~bit(np.int64(state[base + hi[p]]))  # the card just under it
    for p in range(N_PILES):
        if hi[p] > 0:
            return True
    return False


# ---- classes under natural cuts --------------------------------------------------------------
def natural_cuts(a):
    """Every natural cut of position ``a`` as engine move codes, by the definition: a group
    whose deepest card lies face up on its natural parent ``u`` (face up), moved onto ``u``'s
    twin, the top of another pile."""
    tops = {int(a[TAB + p * CAP + a[HEIGHT + p] - 1]): p for p in range(N_PILES)
            if a[HEIGHT + p]}
    out = []
    for p in range(N_PILES):
        h, dn = int(a[HEIGHT + p]), int(a[DOWN + p])
        for i in range(dn + 1, h):
            c, u = int(a[TAB + p * CAP + i]), int(a[TAB + p * CAP + i - 1])
            if rank(u) == rank(c) + 1 and is_red(u) != is_red(c):
                q = tops.get(twin(u))
                if q is not None and q != p:
                    out.append((p + 1) << 16 | (h - i) << 8 | (q + 1))
    return out


def natural_cut_class(a, limit=10_000):
    """The positions joined to ``a`` by natural cuts (breadth-first, with pile order), as a
    dict from their rules arrays' bytes to the arrays; stops past ``limit``."""
    start = np.array(a[:STATE_SIZE], dtype=np.int16)
    seen = {start.tobytes(): start}
    frontier = [start]
    while frontier and len(seen) <= limit:
        nxt = []
        for s in frontier:
            for m in natural_cuts(s):
                b = s.copy()
                yk.apply(b, m)
                if b.tobytes() not in seen:
                    seen[b.tobytes()] = b
                    nxt.append(b)
        frontier = nxt
    return seen


# ---- the pair test -----------------------------------------------------------------------------
def pair_task(a):
    """The planning task the pair test reads off position ``a`` (docs/yukon.md, "The pair
    test"), with named facts: ``("on", c, x)``, ``("clear", x)``, ``("down", c)``, ``("up", c)``,
    ``("home", c)``, where ``x`` is a card or ``("pile", p)``.  Returns (the facts true in ``a``,
    the actions as (preconditions, added, deleted) sets, the goal facts)."""
    home = {s * 13 + r for s in range(4) for r in range(home_height(a, s))}
    lies_on, face_down, tops, piles = {}, set(), set(), [("pile", p) for p in range(N_PILES)]
    for p in range(N_PILES):
        cards = [int(a[TAB + p * CAP + i]) for i in range(a[HEIGHT + p])]
        for i, c in enumerate(cards):
            lies_on[c] = cards[i - 1] if i else ("pile", p)
            if i < a[DOWN + p]:
                face_down.add(c)
        tops.add(cards[-1] if cards else ("pile", p))
    actions = []
    for c in lies_on:
        up = {("up", c)} if c in face_down else set()
        places = [y for y in lies_on if rank(y) == rank(c) + 1 and is_red(y) != is_red(c)]
        if rank(c) == 13:
            places += piles
        for x in set(places) | {lies_on[c]}:
            for y in places:
                if y != x:
                    actions.append(({("on", c, x), ("clear", y)} | up |
                                    ({("up", y)} if y in face_down else set()),
                                    {("on", c, y), ("clear", x)}, {("on", c, x), ("clear", y)}))
            lower = {("home", c - 1)} if rank(c) > 1 and c - 1 not in home else set()
            actions.append(({("on", c, x), ("clear", c)} | up | lower,
                            {("home", c), ("clear", x)}, {("on", c, x), ("clear", c)}))
        if c in face_down:
            actions.append(({("down", c), ("clear", c)}, {("up", c)}, {("down", c)}))
    now = ({("on", c, x) for c, x in lies_on.items()} | {("clear", t) for t in tops}
           | {("down", c) for c in face_down})
    return now, actions, [("home", c) for c in lies_on]


def pair_dead_end_plain(a):
    """The pair test by the textbook h^2 fixpoint on :func:`pair_task`: ``partners[f]`` holds
    the facts g such that f and g can hold together (f itself: f can hold), grown until no
    action adds one; True when some goal fact can never hold."""
    now, actions, goal = pair_task(a)
    partners = {f: set(now) for f in now}
    grown = True
    while grown:
        grown = False
        for pre, add, delete in actions:
            if not all(f in partners and pre <= partners[f] for f in pre):
                continue
            together = set.intersection(*(partners[f] for f in pre)) - add - delete
            for r in add:
                new = (together | add) - partners.setdefault(r, set())
                if new:
                    grown = True
                    partners[r] |= new
                    for q in new:
                        partners.setdefault(q, set()).add(r)
    return any(g not in partners.get(g, ()) for g in goal)


def triple_dead_end_plain(a):
    """The triple test by the textbook h^3 fixpoint on :func:`pair_task`: ``third[{x, y}]``
    (x == y allowed) holds the facts z such that x, y and z can hold together, grown until no
    action adds one; True when some goal fact can never hold."""
    now, actions, goal = pair_task(a)
    third = {}

    def record(facts):
        new = False
        for x in facts:
            for y in facts:
                known = third.setdefault(frozenset((x, y)), set())
                if not facts <= known:
                    known |= facts
                    new = True
        return new

    def can(x, y):
        return third.get(frozenset((x, y)), set())

    record(set(now))
    grown = True
    while grown:
        grown = False
        for pre, add, delete in actions:
            if not all(pre <= can(x, y) for x in pre for y in pre):
                continue
            join = set.intersection(*(can(x, y) for x in pre for y in pre)) - add - delete
            grown |= record(set(add))
            for q1 in join:
                grown |= any([record({r, q1}) for r in add] + [record(add | {q1})])
                both = join.intersection(can(q1, q1), *(can(p, q1) for p in pre)) - {q1}
                for r in add:
                    for q2 in both - can(r, q1):
                        grown |= record({r, q1, q2})
    return any(g not in can(g, g) for g in goal)
