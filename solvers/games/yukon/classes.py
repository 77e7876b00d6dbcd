"""Classes of positions under natural cuts, keyed as one table entry (open mode).

A *natural cut* moves a group whose deepest card ``c`` lies on its natural parent ``u`` (face
up) onto ``u``'s twin ``u'``, a pile top.  Cuts can be undone at once, so the positions they
join (a *class*) have one open-mode verdict.  The joints where cuts can happen (``c`` on ``u``,
``twin(u)`` a top) split the piles into *segments*; the class is exactly the set of positions
made of the same segments and foundations (docs/yukon.md, "Classes under natural cuts"), so
:func:`class_hashes` hashes that multiset -- a key equal for every member, computed from any one.

A class with ``k`` joints, ``1 <= k <= K_MAX``, is searched as one node: :func:`class_legal`
lists the moves of every member (member ``j``: the position after switching the joints of the
bits of ``j``, pile numbers unchanged), skipping the cuts inside the class and a member's
moves that a member one switch nearer the searched position also has (their children are
class-mates), so that per member only the few moves its switch makes new are generated.  A
move code carries its member in bits 24-30; :func:`class_apply` plays the switches first.
Other positions (no joint, or more than ``K_MAX``) are searched as before, one by one, under
keys of their own.

The key also cuts the piles at *twin swap* points (docs/yukon.md, "Twin swaps"): where the two
King chains of a colour (:func:`_pile_chain`) both reach a level, the tails on their twin
cards can be exchanged without changing the verdict, so the key joins those positions too;
they need no members of their own.
"""
import numpy as np
from numba import carray, types

from rules._jit import jit
from rules.cards import EMPTY, rank
from rules.hashing import fmix64, splitmix64
from rules.yukon import CAP, DOWN, FOUND, HEIGHT, MAX_MOVES, N_PILES, STATE_SIZE, TAB
from solvers.games.yukon.cards import (PARENTS, TWIN_BITS, bit, bit_index, home_height, stack_array, stack_scratch,
                    twin, twin_mask)
from solvers.games.yukon.hashing import (found_key, hash1_of, hash2_of, mix2, put_word, refresh, source_after,
                                        stored_word)
from solvers.games.yukon.moves import (OPEN_RULES, apply, idle_lateral_move, is_foundation, king_room_move,
                    legal, safe_home)
from solvers.games.yukon.state import CHAINS, CLASS_TERMS, SOLVER_STATE_SIZE, STASH, STASH_SIZE

K_MAX = 7                             # joints of the largest class searched as one node
MEMBERS = 1 << K_MAX
CLASS_MAX_MOVES = MAX_MOVES + 4 * MEMBERS   # the position's, then at most 4 new per member
MEMBER_SHIFT = 24                     # a move code's member bits
_MOVE_MASK = (1 << MEMBER_SHIFT) - 1
_DOMAIN1 = np.uint64(0x6A09E667F3BCC908)   # class keys apart from positions' own hashes
_DOMAIN2 = np.uint64(0xBB67AE8584CAA73B)


_state_scratch = stack_array(types.int16, STATE_SIZE)
_members_scratch = stack_array(types.int64, MEMBERS)
_key_scratch = stack_array(types.uint64, 2)
_members_states = stack_array(types.int16, MEMBERS * STATE_SIZE)
_switches_scratch = stack_array(types.int32, K_MAX)


@jit
def _tops(state):
    tops = np.uint64(0)
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        if h > 0:
            tops |= bit(np.int64(state[TAB + p * CAP + h - 1]))
    return tops


@jit
def _is_joint(state, base, i, dn, tops):
    """Card ``i`` of the pile at ``base`` lies face up on its natural parent (face up) whose
    twin is a pile top."""
    if i <= dn:
        return False
    c = np.int64(state[base + i])
    u = np.int64(state[base + i - 1])
    return (PARENTS[c] & bit(u)) != np.uint64(0) and (tops & TWIN_BITS[u]) != np.uint64(0)


@jit
def joints(state, tails):
    """The class's joints: their count, and the deepest card of each tail into ``tails``
    (room for ``K_MAX + 1``; counting goes on past it)."""
    tops = _tops(state)
    k = 0
    for p in range(N_PILES):
        base = TAB + p * CAP
        dn = np.int64(state[DOWN + p])
        for i in range(dn + 1, np.int64(state[HEIGHT + p])):
            if _is_joint(state, base, i, dn, tops):
                if k <= K_MAX:
                    tails[k] = state[base + i]
                k += 1
    return k


@jit
def _joint_places(state, c):
    """Where the tail based at ``c`` lies and where it would switch to: ``(p, k, q)``, its
    pile, the cards from ``c`` up, and the pile whose top is ``c``'s other parent (-1 if
    none); ``p`` is -1 when ``c`` lies on no face-up card."""
    p, k = _face_up_place(state, c)
    if p < 0:
        return -1, np.int64(0), -1
    i = np.int64(state[HEIGHT + p]) - k
    if i == np.int64(state[DOWN + p]):
        return -1, np.int64(0), -1                # the lowest face-up card of its pile
    return p, k, _pile_topped_by(state, twin(np.int64(state[TAB + p * CAP + i - 1])))


@jit
def _pile_topped_by(state, c):
    """The pile whose top card is ``c``, or -1."""
    for q in range(N_PILES):
        hq = np.int64(state[HEIGHT + q])
        if hq > 0 and state[TAB + q * CAP + hq - 1] == c:
            return q
    return -1


@jit
def _switch_move(state, c):
    """The move of the switch of the tail based at ``c`` onto its other parent's pile (a top),
    or -1 when that top is in ``c``'s own pile."""
    p, k, q = _joint_places(state, c)
    if p < 0 or q < 0 or q == p:
        return np.int64(-1)
    return np.int64((p + 1) << 16 | k << 8 | (q + 1))


@jit
def _play_switches(state, tails, k, j, out):
    """Switch the joints of the bits of ``j`` (in ``state``), each tail onto its other parent's
    pile, their move codes into ``out``: their count, or -1 if that member does not exist.
    Greedy: any pending switch whose top is not in its own tail's pile, until none is left;
    it only stops short when the member does not exist (docs/yukon.md)."""
    n = 0
    pending = j
    while pending != 0:
        progress = False
        for b in range(k):
            if (pending >> b) & 1:
                m = _switch_move(state, np.int64(tails[b]))
                if m >= 0:
                    apply(state, np.int32(m))
                    out[n] = m
                    n += 1
                    pending ^= 1 << b
                    progress = True
        if not progress:
            return -1
    return n


@jit
def build_member(state, tails, k, j):
    """Switch the joints of the bits of ``j`` (in ``state``): True if that member exists
    (:func:`_play_switches`)."""
    return _play_switches(state, tails, k, j, carray(_switches_scratch(), K_MAX)) >= 0


@jit
def _card_at(state, base, keep, extra_at, i):
    """Card ``i`` of a pile given as its first ``keep`` cards from ``base``, then cards from
    ``extra_at`` (see :func:`_pile_terms`)."""
    return np.int64(state[base + i]) if i < keep else np.int64(state[extra_at + i - keep])


@jit
def _pile_after(state, p, s, t, base_s, keep, down_s, k):
    """Pile ``p`` after a move from pile ``s`` (``keep`` cards left from ``base_s``,
    ``down_s`` face down) of ``k`` cards onto pile ``t``, as :func:`_pile_terms` takes a pile:
    ``(base, keep, extra_at, extra_n, dn)``."""
    if p == s:
        return base_s, keep, np.int64(0), np.int64(0), down_s
    h = np.int64(state[HEIGHT + p])
    dn = np.int64(state[DOWN + p])
    if p == t:
        return TAB + p * CAP, h, base_s + keep, k, dn
    return TAB + p * CAP, h, np.int64(0), np.int64(0), dn


@jit
def _pile_chain(state, base, keep, extra_at, extra_n, dn, tops):
    """The cards of a pile (given as to :func:`_pile_terms`) in its *King chain*: when its
    lowest face-up card is a King, the cards above it that each lie on their natural parent,
    up to the first that does not or whose parent's twin is in ``tops`` (a joint)."""
    chain = np.uint64(0)
    n_all = keep + extra_n
    if n_all < dn + 2:
        return chain
    u = _card_at(state, base, keep, extra_at, dn)
    if rank(u) != 13:
        return chain
    for i in range(dn + 1, n_all):
        c = _card_at(state, base, keep, extra_at, i)
        if (PARENTS[c] & bit(u)) == np.uint64(0) or (tops & TWIN_BITS[u]) != np.uint64(0):
            break
        chain |= bit(c)
        u = c
    return chain


@jit
def _chains(state, tops):
    """Every pile's :func:`_pile_chain`: the cards in King chains."""
    chains = np.uint64(0)
    for p in range(N_PILES):
        chains |= _pile_chain(state, TAB + p * CAP, np.int64(state[HEIGHT + p]), 0, 0,
                              np.int64(state[DOWN + p]), tops)
    return chains


@jit
def _pile_terms(state, base, keep, extra_at, extra_n, dn, tops, chains):
    """A pile's part of the class key, the pile given as its first ``keep`` cards from
    ``base``, then ``extra_n`` cards from ``extra_at`` (``dn`` face down), with joints judged
    against the tops ``tops`` (none when 0), also cut at each card of ``chains`` whose twin is
    in ``chains`` (a twin swap, not counted): its segments' two hash terms summed, and its
    joints."""
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    k = 0
    n_all = keep + extra_n
    if n_all == 0:
        return s1, s2, k
    x1 = np.uint64(0xCBF29CE484222325) ^ np.uint64(dn + 1)
    x2 = np.uint64(0x13198A2E03707344) + np.uint64(dn) * np.uint64(977)
    n = 0
    u = np.int64(0)
    for i in range(n_all):
        c = _card_at(state, base, keep, extra_at, i)
        cut = False
        if i > dn:
            if (tops & TWIN_BITS[u]) != np.uint64(0):
                if (PARENTS[c] & bit(u)) != np.uint64(0):
                    k += 1
                    cut = True
            elif (chains & bit(c)) != np.uint64(0):     # a chain card lies on its parent
                cut = (chains & TWIN_BITS[c]) != np.uint64(0)
        if cut:
            s1 += splitmix64(x1 + np.uint64(n))
            s2 += mix2(fmix64(x2 + np.uint64(n)))
            x1 = np.uint64(0xCBF29CE484222325)
            x2 = np.uint64(0x13198A2E03707344) + np.uint64(0x9E37)
            n = 0
        w = np.uint64(c + 1)
        x1 = (x1 ^ w) * np.uint64(0x100000001B3)
        x2 = x2 * np.uint64(0x5851F42D4C957F2D) + w
        n += 1
        u = c
    s1 += splitmix64(x1 + np.uint64(n))
    s2 += mix2(fmix64(x2 + np.uint64(n)))
    return s1, s2, k


@jit
def _segment_sums(state, tops):
    """The class key's sums over the piles (:func:`_pile_terms`) and the joints."""
    sum1 = np.uint64(0)
    sum2 = np.uint64(0)
    k = 0
    chains = _chains(state, tops) if tops != np.uint64(0) else np.uint64(0)
    for p in range(N_PILES):
        a, b, kp = _pile_terms(state, TAB + p * CAP, np.int64(state[HEIGHT + p]), 0, 0,
                               np.int64(state[DOWN + p]), tops, chains)
        sum1 += a
        sum2 += b
        k += kp
    return sum1, sum2, k


@jit
def class_hashes(state, out, at):
    """The key of ``state``'s class into ``out[at]``, ``out[at + 1]``: the multiset of its
    segments (each with its face-down count, a bottom segment told from a tail) and the
    foundations; with no joint or more than ``K_MAX``, the same over whole piles (the
    position alone: such positions are searched one by one)."""
    sum1, sum2, k = _segment_sums(state, _tops(state))
    if k > K_MAX:
        sum1, sum2, k = _segment_sums(state, np.uint64(0))
    found = found_key(state)
    out[at] = hash1_of(sum1 ^ _DOMAIN1, found)
    out[at + 1] = hash2_of(sum2 + _DOMAIN2, found)


@jit
def _is_cut(state, m):
    """``m`` is a natural cut (its child is in the same class)."""
    d = m & 0xFF
    if is_foundation(d):
        return False
    hd = np.int64(state[HEIGHT + d - 1])
    if hd == 0:
        return False
    s = ((m >> 16) & 0xFF) - 1
    k = np.int64((m >> 8) & 0xFF)
    i = np.int64(state[HEIGHT + s]) - k
    if i - 1 < np.int64(state[DOWN + s]):
        return False
    u = np.int64(state[TAB + s * CAP + i - 1])
    c = np.int64(state[TAB + s * CAP + i])
    return ((PARENTS[c] & bit(u)) != np.uint64(0)
            and np.int64(state[TAB + (d - 1) * CAP + hd - 1]) == twin(u))


@jit
def class_legal(state, buf):
    """Open-mode moves of ``state``'s whole class (docs/yukon.md, "The class search"), each
    with its member in bits 24-30; ``legal``'s own list when the class is not searched as one
    node.  A forced move (rule 6, or rule 2 in any member) is listed alone.  Otherwise: the
    searched position's moves less the natural cuts, then for each other member ``j``, built
    from a member one switch nearer, only the moves that switch makes new -- onto or home from
    the card the switched tail left, or from that card's pile onto the tail's top -- and no
    other member one switch nearer lists.

    The class search's legal plug: first it refreshes the solver state's stored words (the
    heuristic reads those of clean piles) and stores its class terms (:func:`store_class_terms`,
    which :func:`class_child_hashes` reads on the children)."""
    refresh(state)
    store_class_terms(state)
    m6 = king_room_move(state)
    if m6 >= 0:
        buf[0] = m6
        return np.int64(1)                                # rule 6: forced in every member
    tails = carray(stack_scratch(), 64)
    k = joints(state, tails)
    n = legal(state, buf, OPEN_RULES)
    if k == 0 or k > K_MAX:
        return n
    if n == 1 and is_foundation(buf[0] & 0xFF):
        s = ((buf[0] >> 16) & 0xFF) - 1
        if safe_home(state, np.int64(state[TAB + s * CAP + np.int64(state[HEIGHT + s]) - 1])):
            return n                                      # rule 2 at the searched position
    out = 0
    face_up = np.uint64(0)
    for i in range(n):
        if not _is_cut(state, buf[i]):
            buf[out] = buf[i]
            out += 1
    for p in range(N_PILES):
        base = TAB + p * CAP
        for i in range(np.int64(state[DOWN + p]), np.int64(state[HEIGHT + p])):
            face_up |= bit(np.int64(state[base + i]))
    members = carray(_members_states(), (MEMBERS, STATE_SIZE))
    exists = carray(_members_scratch(), MEMBERS)
    stash = state.shape[0] >= SOLVER_STATE_SIZE
    if stash:
        state[STASH] = 0
    _copy_rules_state(members[0], state)
    exists[0] = 1
    comp = carray(stack_scratch(), 64)
    _components(state, tails, k, comp)
    for j in range(1, 1 << k):
        exists[j] = 0
        if j & ~comp[bit_index(np.uint64(j & -j))] != 0:
            continue                  # joints of two components: nothing new (docs/yukon.md)
        member = members[j]
        c = np.int64(-1)
        sw = np.int64(-1)
        for b in range(k):
            if (j >> b) & 1 and exists[j ^ (1 << b)] != 0:
                _copy_rules_state(member, members[j ^ (1 << b)])
                sw = _switch_move(member, np.int64(tails[b]))
                if sw >= 0:
                    apply(member, np.int32(sw))
                    c = np.int64(tails[b])
                break
        if c < 0:
            continue                                      # no such member
        exists[j] = 1
        before = out
        out = _new_moves(member, c, sw, j, face_up, buf, out, members, exists, b, k)
        if out < 0:
            buf[0] = buf[-1 - out]
            return np.int64(1)                            # rule 2 in member j
        if stash:
            for i in range(before, out):
                _stash_key(state, member, buf[i])
    return np.int64(out)


@jit
def _components(state, tails, k, comp):
    """Into ``comp[b]``, for each of the ``k`` joints: the bit mask of the joints of its
    component, the joints linked to it through shared piles (a joint's piles: its tail's and
    the one whose top is its other parent).  The switches of one component only move cards
    between its piles (docs/yukon.md)."""
    piles = carray(stack_scratch(), 64)
    for b in range(k):
        p, _, q = _joint_places(state, np.int64(tails[b]))
        piles[b] = (np.int64(1) << p) | (np.int64(1) << q if q >= 0 else 0)
        comp[b] = np.int64(1) << b
    changed = True
    while changed:
        changed = False
        for b in range(k):
            for b2 in range(k):
                if piles[b] & piles[b2] != 0 and (comp[b] | comp[b2]) != comp[b]:
                    comp[b] |= comp[b2]
                    piles[b] |= piles[b2]
                    changed = True


@jit
def _stash_key(state, member, code):
    """Enter the class key of member's child by ``code`` in ``state``'s stash, if room: the
    member is at hand here, so its children need not be rebuilt from the position."""
    n = np.int64(state[STASH])
    if n >= STASH_SIZE:
        return
    child = carray(_state_scratch(), STATE_SIZE)
    _copy_rules_state(child, member)
    apply(child, np.int32(code & _MOVE_MASK))
    key = carray(_key_scratch(), 2)
    class_hashes(child, key, 0)
    at = STASH + 1 + 10 * n
    state[at] = np.int16(code & 0xFFFF)
    state[at + 1] = np.int16((code >> 16) & 0xFFFF)
    put_word(state, at + 2, key[0])
    put_word(state, at + 6, key[1])
    state[STASH] = n + 1


@jit
def _copy_rules_state(dst, src):
    """The rules words of ``src`` (a rules or solver state) into ``dst`` (a member or a child
    in scratch): one fixed-length loop, which the compiler turns into a few vector copies."""
    for x in range(STATE_SIZE):
        dst[x] = src[x]


@jit
def _listed_at(member, g, d, face_up):
    """``legal`` (open rules) lists at ``member`` the move of the group based at card ``g``
    onto the top card ``d`` (home when ``d`` is -1), or that move is a natural cut there (its
    child is then in the class itself)."""
    p, n = _face_up_place(member, g)
    if p < 0:
        return False
    if d < 0:
        return n == 1
    q = _pile_topped_by(member, d)
    if q < 0 or q == p:
        return False
    m = np.int32((p + 1) << 16 | n << 8 | (q + 1))
    return _is_cut(member, m) or not idle_lateral_move(member, p + 1, n, face_up)


@jit
def _face_up_place(state, c):
    """The pile of face-up card ``c`` and the number of cards from it up, or ``(-1, 0)``."""
    for p in range(N_PILES):
        base = TAB + p * CAP
        h = np.int64(state[HEIGHT + p])
        for i in range(np.int64(state[DOWN + p]), h):
            if state[base + i] == c:
                return p, h - i
    return -1, np.int64(0)


@jit
def _listed_nearer(members, exists, j, b, k, g, d, face_up):
    """Some member ``j`` less one bit other than ``b`` lists the move (:func:`_listed_at`):
    by Lemma 3 its child there and at ``j`` are class-mates, so ``j`` need not list it."""
    for b2 in range(k):
        if b2 != b and (j >> b2) & 1 and exists[j ^ (1 << b2)] != 0:
            if _listed_at(members[j ^ (1 << b2)], g, d, face_up):
                return True
    return False


@jit
def _new_moves(member, c, sw, j, face_up, buf, out, members, exists, b, k):
    """Append to ``buf[out:]`` member ``j``'s listed moves that the member it was built from
    (``j`` less bit ``b``) lacks, the switch ``sw`` having just moved ``c``'s tail off the card
    ``x`` (now the top of the switch's source pile) onto ``x``'s twin: ``x`` home, ``c``'s twin
    onto ``x``, a card of ``x``'s pile onto the tail's top (no natural cut, no idle move) --
    less those another member one switch nearer lists.  The new count, or ``-1 - i`` when move
    ``i`` (``x`` home) is a safe home move (rule 2)."""
    pa = ((sw >> 16) & 0xFF) - 1
    pb = (sw & 0xFF) - 1
    x = np.int64(member[TAB + pa * CAP + np.int64(member[HEIGHT + pa]) - 1])
    tag = j << MEMBER_SHIFT
    ha = np.int64(member[HEIGHT + pa])
    base_a = TAB + pa * CAP
    # x home
    if home_height(member, x // 13) + 1 == rank(x):
        slot = -1
        for kk in range(4):
            f = member[FOUND + kk]
            if f != EMPTY and f + 1 == x:
                slot = 0 if kk == 0 else kk + 7
        if slot >= 0 and not _listed_nearer(members, exists, j, b, k, x, -1, face_up):
            buf[out] = np.int32(tag | (pa + 1) << 16 | 1 << 8 | slot)
            if safe_home(member, x):
                return -1 - out
            out += 1
    # c's twin onto x
    c2 = twin(c)
    if face_up & bit(c2) != np.uint64(0):
        p, n2 = _face_up_place(member, c2)
        if p != pa and not idle_lateral_move(member, p + 1, n2, face_up) and not _listed_nearer(
                members, exists, j, b, k, c2, x, face_up):
            buf[out] = np.int32(tag | (p + 1) << 16 | n2 << 8 | (pa + 1))
            out += 1
    # a card of x's pile onto the tail's top
    hb = np.int64(member[HEIGHT + pb])
    t = np.int64(member[TAB + pb * CAP + hb - 1])
    for i in range(np.int64(member[DOWN + pa]), ha):
        z = np.int64(member[base_a + i])
        if PARENTS[z] & bit(t) != np.uint64(0):
            m = np.int32((pa + 1) << 16 | (ha - i) << 8 | (pb + 1))
            if not _is_cut(member, m) and not idle_lateral_move(
                    member, pa + 1, ha - i, face_up) and not _listed_nearer(
                    members, exists, j, b, k, z, t, face_up):
                buf[out] = np.int32(tag | m)
                out += 1
    return out


@jit
def class_apply(state, code):
    """Play ``code`` from ``class_legal``: its member's switches, then the move."""
    j = np.int64(code) >> MEMBER_SHIFT
    if j != 0:
        tails = carray(stack_scratch(), 64)
        k = joints(state, tails)
        build_member(state, tails, k, j)
    apply(state, np.int32(code & _MOVE_MASK))


@jit
def store_class_terms(state):
    """Each pile's :func:`_pile_terms` (joints against the tops) and face-up cards into the
    solver state's ``CLASS_TERMS`` words, and the King-chain cards into ``CHAINS``, for
    :func:`class_child_hashes` on its children."""
    tops = _tops(state)
    chains = _chains(state, tops)
    put_word(state, CHAINS, chains)
    for p in range(N_PILES):
        base = TAB + p * CAP
        h = np.int64(state[HEIGHT + p])
        dn = np.int64(state[DOWN + p])
        a, b, kp = _pile_terms(state, base, h, 0, 0, dn, tops, chains)
        up = np.uint64(0)
        for i in range(dn, h):
            up |= bit(np.int64(state[base + i]))
        put_word(state, CLASS_TERMS + 12 * p, a)
        put_word(state, CLASS_TERMS + 12 * p + 4, b)
        put_word(state, CLASS_TERMS + 12 * p + 8, up | (np.uint64(kp) << np.uint64(56)))


@jit
def class_child_hashes(state, code, out, at):
    """:func:`class_hashes` of the child ``code`` leads to.  A move of the searched position
    itself is hashed without building the child: only the piles it changes and the piles
    holding a card whose twin's top status it changes (so perhaps a joint) are hashed again,
    the others' terms read from the words :func:`store_class_terms` wrote.  A member's move
    is read from the stash ``class_legal`` filled; past the stash, or for a child with more
    than ``K_MAX`` joints, the child is built in scratch and hashed whole."""
    if state.shape[0] >= SOLVER_STATE_SIZE:
        if code >> MEMBER_SHIFT == 0:
            if _child_class_hashes(state, code, out, at):
                return
        else:
            for i in range(np.int64(state[STASH])):
                e = STASH + 1 + 10 * i
                if (np.int64(state[e]) & 0xFFFF) | (np.int64(state[e + 1]) & 0xFFFF) << 16 == code:
                    out[at] = stored_word(state, e + 2)
                    out[at + 1] = stored_word(state, e + 6)
                    return
    child = carray(_state_scratch(), STATE_SIZE)
    _copy_rules_state(child, state)
    class_apply(child, code)
    class_hashes(child, out, at)


@jit
def _child_class_hashes(state, code, out, at):
    """:func:`class_child_hashes` for a move of the searched position (``store_class_terms``
    done): True, or False when the child has more than ``K_MAX`` joints.  Hashed again: the
    piles the move changes, the piles holding a card whose twin's top status it changes (so
    perhaps a joint, or the end of a King chain), and the piles holding a King-chain card
    whose twin enters or leaves a King chain (so perhaps a twin swap)."""
    s, k, d, hs, base_s, keep, down_s = source_after(state, code)
    tops = _tops(state)
    after = tops
    found = found_key(state)
    t = -1
    if is_foundation(d):
        c = np.int64(state[base_s + hs - 1])
        after &= ~bit(c)
        found += np.uint64(1) << np.uint64(4 * (c // 13))
    else:
        t = d - 1
        ht = np.int64(state[HEIGHT + t])
        if ht > 0:
            after &= ~bit(np.int64(state[TAB + t * CAP + ht - 1]))
    if keep > 0:
        after |= bit(np.int64(state[base_s + keep - 1]))
    parents = twin_mask(tops ^ after) & ~tops     # cards whose joint status may change
    chains = stored_word(state, CHAINS)
    redo = 0                                       # piles hashed again, a bit each
    left = np.uint64(0)                            # their face-up cards before the move
    new_chains = np.uint64(0)                      # and King-chain cards after it
    for p in range(N_PILES):
        up = stored_word(state, CLASS_TERMS + 12 * p + 8) & ~(np.uint64(0xFF) << np.uint64(56))
        if p == s or p == t or up & parents != np.uint64(0):
            base, n, extra_at, extra_n, dn = _pile_after(state, p, s, t, base_s, keep, down_s, k)
            redo |= 1 << p
            left |= up
            new_chains |= _pile_chain(state, base, n, extra_at, extra_n, dn, after)
    new_chains |= chains & ~left
    swapped = twin_mask(chains ^ new_chains) & chains
    sum1 = np.uint64(0)
    sum2 = np.uint64(0)
    joints_ = 0
    for p in range(N_PILES):
        up = stored_word(state, CLASS_TERMS + 12 * p + 8)
        if (redo >> p) & 1 or up & swapped != np.uint64(0):
            base, n, extra_at, extra_n, dn = _pile_after(state, p, s, t, base_s, keep, down_s, k)
            a, b, kp = _pile_terms(state, base, n, extra_at, extra_n, dn, after, new_chains)
        else:
            a = stored_word(state, CLASS_TERMS + 12 * p)
            b = stored_word(state, CLASS_TERMS + 12 * p + 4)
            kp = np.int64(up >> np.uint64(56))
        sum1 += a
        sum2 += b
        joints_ += kp
    if joints_ > K_MAX:
        return False
    out[at] = hash1_of(sum1 ^ _DOMAIN1, found)
    out[at + 1] = hash2_of(sum2 + _DOMAIN2, found)
    return True


@jit
def class_hash1(state):
    out = carray(_key_scratch(), 2)
    class_hashes(state, out, 0)
    return out[0]


@jit
def class_hash2(state):
    out = carray(_key_scratch(), 2)
    class_hashes(state, out, 0)
    return out[1]


@jit
def expand_code(state, code, out):
    """The engine moves of ``code`` played from ``state`` (which it plays): the member's
    switches, then the move, into ``out``; their count."""
    j = np.int64(code) >> MEMBER_SHIFT
    n = 0
    if j != 0:
        tails = carray(stack_scratch(), 64)
        n = _play_switches(state, tails, joints(state, tails), j, out)
        if n < 0:
            return -1
    m = code & _MOVE_MASK
    apply(state, np.int32(m))
    out[n] = m
    return n + 1


@jit
def expand_line(start, codes, out):
    """The engine moves of the class-search line ``codes`` played from rules state array
    ``start`` (on a copy) into ``out`` (room for ``K_MAX + 1`` per code): their count, or
    ``-1 - i`` when code ``i`` names no member of its class."""
    state = start[:STATE_SIZE].copy()
    n = 0
    for i in range(codes.shape[0]):
        k = expand_code(state, codes[i], out[n:])
        if k < 0:
            return -1 - i
        n += k
    return n
