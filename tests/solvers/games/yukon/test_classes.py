"""Yukon classes under natural cuts (solvers/games/yukon/classes.py): the class key is the class,
the members built by switches are the reference's, the class search's moves cover the class,
twin swaps keep the key only on King chains, and the class search gives the reference verdicts."""
import numpy as np
from hypothesis import Phase, find, given, settings, strategies as st

from rules import yukon as yk
from solvers.core.search import C_SP, DFS, Limits
from solvers.games.yukon.cards import PARENTS
from solvers.games.yukon.classes import CLASS_MAX_MOVES, K_MAX, MEMBER_SHIFT
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import solver_root
from tests.support.yukon import (GAME, SEEDS, WALKS, check_class, check_class_covers,
                                 check_class_search, check_class_search_agrees, class_key,
                                 class_tails, run_positions, small_positions, verdict_of,
                                 walk_positions)


@settings(max_examples=60)
@given(SEEDS, WALKS)
def test_class_moves_cover_the_class_on_playouts(seed, walk):
    """The class search's moves cover every member's listed moves (positions along random
    playouts of real deals, where natural runs are common)."""
    for a in walk_positions(seed, walk):
        check_class_covers(a)


@settings(max_examples=300)
@given(st.one_of(small_positions(max_out=30, full_piles=False), run_positions(max_out=30)))
def test_class_moves_cover_the_class_on_small_positions(a):
    """The same with foundations, empty piles and endgames."""
    check_class_covers(a)


def test_class_cover_checks_meet_members_moves():
    """The playouts above meet classes searched with other members' moves."""
    rng = np.random.default_rng(7)
    hits = 0
    for seed in range(1, 6):
        for a in walk_positions(seed, rng.integers(0, 1000, 150)):
            hits += check_class_covers(a)
    assert hits > 20


@settings(max_examples=100)
@given(SEEDS, WALKS)
def test_class_key_is_the_class_on_playouts(seed, walk):
    """The class key is the same on every position natural cuts join and differs elsewhere,
    and the members built by switches are the class (positions along random playouts)."""
    for a in walk_positions(seed, walk):
        check_class(a)


def test_class_key_checks_meet_classes_searched_as_one_node():
    """The playouts above meet classes of several members searched as one node."""
    ks = []
    rng = np.random.default_rng(5)
    for seed in range(1, 6):
        for a in walk_positions(seed, rng.integers(0, 1000, 150)):
            ks.append(check_class(a))
    assert max(k for k in ks if k <= K_MAX) >= 3 and sum(1 <= k <= K_MAX for k in ks) > 100


def _path_states(seed, rounds, nodes=5000):
    """The positions on the depth-first path of the open-mode class search of ``seed``'s
    deal, read every ``nodes`` classes, ``rounds`` times (distinct ones)."""
    search = DFS(PLUGS["open_class"], Limits(nodes, None, 1000), keys_only=True)
    root = solver_root(GAME.deal(seed, "aisleriot").array)
    found = {}
    for i in range(rounds):
        search.limits = Limits(nodes * (i + 1), None, 1000)
        search.run(root)
        for j in range(1, int(search.ctl[C_SP]) + 1):
            a = search.st_states[j][:yk.STATE_SIZE].copy()
            found[a.tobytes()] = a
    return list(found.values())


def test_class_checks_on_classes_of_k_max_joints():
    """Classes of exactly K_MAX joints, the largest searched as one node (seed 963's proof
    passes through many): the members built are the reference's class, the key is the class,
    and the moves listed cover it."""
    found = [a for a in _path_states(963, 40) if class_tails(a)[1] == K_MAX]
    assert len(found) >= 3
    for a in found:
        assert check_class(a) == K_MAX
        check_class_covers(a)


def test_class_moves_cover_classes_on_hard_proof_paths():
    """Classes of several joints on the paths of hard proofs (seeds 627 and 963): the moves
    listed cover the class, and the paths meet moves that only members two switches or more
    away list (a move a switch makes new is left out when another member one switch nearer
    lists it; these are the ones no such member lists)."""
    from solvers.games.yukon.classes import class_legal
    buf = np.empty(CLASS_MAX_MOVES, np.int32)
    far = 0
    for seed in (627, 963):
        for a in _path_states(seed, 20):
            if 2 <= class_tails(a)[1] <= K_MAX:
                check_class_covers(a)
                n = class_legal(solver_root(a), buf)
                far += any(bin(int(c) >> MEMBER_SHIFT).count("1") >= 2 for c in buf[:n])
    assert far >= 10


@settings(max_examples=300)
@given(st.one_of(small_positions(max_out=24), run_positions()))
def test_class_search_agrees_with_reference_on_small_positions(a):
    """The open-mode search over classes gives the unpruned reference's verdict, and its
    solutions replay; the class key is the class."""
    check_class_search_agrees(a)


@st.composite
def twin_chain_positions(draw):
    """A small position with a *twin swap* (docs/yukon.md): two piles whose lowest face-up
    cards are the two Kings of a colour, each with a natural chain of 1-3 cards on it, the
    twins of each level split between them at random, then the other cards out placed at
    random (on the chains too, often on a parent).  Returns the position, the two chain piles
    and the chain length."""
    red = draw(st.booleans())
    kings = (25, 38) if red else (12, 51)
    length = draw(st.integers(1, 3))
    chains = [[kings[0]], [kings[1]]]
    for level in range(1, length + 1):
        r = 12 - level                                    # rank index of the level
        odd = level % 2 == 1
        black = red == odd                                # colours alternate up the chain
        pair = (r, 39 + r) if black else (13 + r, 26 + r)
        flip = draw(st.booleans())
        chains[0].append(pair[flip])
        chains[1].append(pair[not flip])
    heights = [draw(st.integers(7, 9)) for _ in range(4)]
    used = set(chains[0]) | set(chains[1])
    rest = [c for c in range(52) if c % 13 >= heights[c // 13] and c not in used]
    rest = draw(st.permutations(rest))
    piles = [[] for _ in range(7)]
    a_pile, b_pile = draw(st.sampled_from([(0, 1), (2, 5), (6, 3)]))
    down = {a_pile: [], b_pile: []}
    for p in (a_pile, b_pile):
        if rest and draw(st.booleans()):
            down[p].append(rest.pop())
    piles[a_pile] = [(c, False) for c in down[a_pile]] + [(c, True) for c in chains[0]]
    piles[b_pile] = [(c, False) for c in down[b_pile]] + [(c, True) for c in chains[1]]
    for c in rest:
        natural = [p for p in range(7) if piles[p] and (int(PARENTS[c]) >> piles[p][-1][0]) & 1]
        if natural and draw(st.integers(0, 2)):
            p = natural[draw(st.integers(0, len(natural) - 1))]
        else:
            p = draw(st.integers(0, 6))
        face_up = not (p not in (a_pile, b_pile) and not piles[p] and draw(st.booleans()))
        piles[p].append((c, face_up))
    for p in range(7):                   # a face-down top would be turned up by the rules
        if piles[p] and not piles[p][-1][1]:
            piles[p][-1] = (piles[p][-1][0], True)
    tops = [s * 13 + heights[s] - 1 for s in range(4)]
    return yk.array_from_piles(piles, tops), a_pile, b_pile, length


def _swapped(a, p, q, level):
    """``a`` with the cards from ``level`` up of the King chains of piles ``p`` and ``q``
    exchanged."""
    piles = []
    for x in range(yk.N_PILES):
        h, dn = int(a[yk.HEIGHT + x]), int(a[yk.DOWN + x])
        piles.append([(int(a[yk.TAB + x * yk.CAP + i]), i >= dn) for i in range(h)])
    cut_p = int(a[yk.DOWN + p]) + level
    cut_q = int(a[yk.DOWN + q]) + level
    piles[p], piles[q] = piles[p][:cut_p] + piles[q][cut_q:], piles[q][:cut_q] + piles[p][cut_p:]
    tops = [int(f) for f in a[yk.FOUND:yk.FOUND + 4]]
    return yk.array_from_piles(piles, tops)


@settings(max_examples=150)
@given(twin_chain_positions(), st.integers(1, 3))
def test_twin_swap_keeps_class_key_and_verdict(drawn, level):
    """Exchanging what lies on two twin cards of two twin King chains gives the same class key
    and the same verdict (the unpruned reference's); the class search agrees with it, and its
    child keys computed pile by pile are the children's keys."""
    a, p, q, length = drawn
    b = _swapped(a, p, q, min(level, length))
    assert class_key(a) == class_key(b)
    assert (verdict_of("open", a, plain=True) == verdict_of("open", b, plain=True)
            == check_class_search(a))
    check_class(a)
    check_class_covers(a)          # with the child keys hashed pile by pile as the search does


def test_twin_swap_needs_king_chains():
    """Twin children on twin parents that are no King chain keep their own keys: there the
    exchange can change the verdict (docs/yukon.md, "Twin swaps").  Here 8S 7H and 8C 7D 9H:
    only the first can put its 8 onto the other's 9H."""
    home = {0: 7, 3: 7, 1: 6, 2: 6}                  # clubs, spades to 7; diamonds, hearts to 6
    out = [c for c in range(52) if c % 13 >= home[c // 13]]
    c8, s8, h7, d7, h9 = 7, 46, 32, 19, 34
    fixed = [s8, h7, c8, d7, h9]
    others = [c for c in out if c not in fixed]
    piles = [[(others[0], False), (s8, True), (h7, True)],
             [(others[1], False), (c8, True), (d7, True), (h9, True)]]
    rest = others[2:]
    for i in range(5):
        piles.append([(c, True) for c in rest[i::5]])
    tops = [s * 13 + home[s] - 1 for s in range(4)]
    a = yk.array_from_piles(piles, tops)
    b = _swapped(a, 0, 1, 1)
    assert class_key(a) != class_key(b)


def test_class_search_meets_members_on_small_positions():
    """The property above meets positions whose search plays members' moves (codes with
    member bits) on solvable and unsolvable positions."""
    def member_moves(a):
        buf = np.empty(PLUGS["open_class"].max_moves, np.int32)
        from solvers.games.yukon.classes import class_legal
        n = class_legal(solver_root(a), buf)
        return any(int(c) >> MEMBER_SHIFT for c in buf[:n])
    for verdict in ("solved", "unsolvable"):        # any example will do: none is shrunk
        a = find(run_positions(),
                 lambda a: member_moves(a) and verdict_of("open", a, plain=True) == verdict,
                 settings=settings(max_examples=5000, derandomize=True, database=None,
                                   phases=[Phase.generate]))
        assert check_class_search(a) == verdict
