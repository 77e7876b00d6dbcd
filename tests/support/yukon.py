"""Yukon positions and differential checks shared by the Yukon solver tests and
benchmarks/yukon_soundness.py (which runs the same properties on many more examples).

Positions: hypothesis strategies of small random positions (:func:`small_positions`, rich in
natural runs: :func:`run_positions`; with rule 6 firing, with a twin planted) and random walks of
real deals.  Checks: the pruned searches against the unpruned reference search
(:mod:`tests.support.yukon_reference`), the dead-end test against its sweep form, rule 5's
dropped moves, and classes under natural cuts against the reference's classes.
"""
import re

import numpy as np
from hypothesis import strategies as st

from rules import yukon as yk
from rules.moves import Move
from rules.registry import get_game
from solvers.core.search import DFS, Limits
from solvers.games.yukon import SOLVER
from solvers.games.yukon.cards import twin
from solvers.games.yukon.classes import (CLASS_MAX_MOVES, K_MAX, MEMBER_SHIFT, build_member,
                                         class_apply, class_child_hashes, class_hashes,
                                         expand_code, joints)
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.moves import OPEN_RULES, king_room_move, legal, safe_home, solver_moves
from solvers.games.yukon.pairs import pair_dead_end
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import engine_moves, solver_root
from solvers.games.yukon.triples import triple_dead_end
from tests.support import yukon_reference as ref

GAME = get_game("yukon")
FOUNDATIONS = (0, 8, 9, 10)
SEEDS = st.integers(1, 100_000)
WALKS = st.lists(st.integers(0, 1000), max_size=120)
LOST_TEXT = ("AH | KC | 4H* 7D KS KD 8C 2H AC 3S | QD* 3C* 6H 5C 4D 5H 8D 7S 8H 7C | 4C* 5S* JD* 2S JS"
             " | TD* KH QS JH TS | 6D* QC* 2C* 6C* JC TH 9C AS 4S | 3H* QH* 9D* 9H* 8S 7H 6S 5D 9S TC"
             " | | | AD 2D 3D")


# ---- layouts, move lists, verdicts ------------------------------------------------------------------
def lay(text):
    """Layout text from a readable form: ' | ' between slots, suits in either case."""
    text = re.sub(r"\b([A2-9TJQK])([CDHS])", lambda m: m.group(1) + m.group(2).lower(), text)
    return "|".join(part.strip() for part in text.split("|")) + "#0#0"


def home_cards(suit, top):
    """Layout text of a foundation of ``suit`` built from the Ace to ``top``."""
    return " ".join(f"{r}{suit}" for r in "A23456789TJQK"[: "A23456789TJQK".index(top) + 1])


def move_set(fn, a):
    """The move codes a move generator ``fn(a, buf) -> count`` lists at ``a``, as a set."""
    buf = np.empty(yk.MAX_MOVES, np.int32)
    return {int(c) for c in buf[:fn(a, buf)]}


def verdict_of(rules, array, nodes=30_000_000, plain=False):
    """Verdict of a depth-first search from ``array``: the solver's plug, or with ``plain`` the
    reference plug without any pruning beyond duplicate King moves.  Random small positions
    need at most 35,000 nodes in 3,000 of them, but one in tens of thousands needs millions
    without pruning (13.1M, 36 s, 0.5 GB for one), so the budget is high and the table keeps
    keys only (the same search in less memory)."""
    plug = (ref.PLAIN_PLUGS if plain else PLUGS)[rules]
    r = DFS(plug, Limits(nodes, None, 2000), keys_only=True).run(solver_root(array))
    assert r.verdict != "unknown", (rules, plain, r.limit)
    return r.verdict


# ---- positions --------------------------------------------------------------------------------------
def random_small_position(rng, max_out, full_piles):
    """Random Yukon position with 6..max_out cards in the tableau (the rest home), random
    face-down prefixes; with ``full_piles`` every pile gets a card first (no empty pile)."""
    while True:
        heights = rng.integers(0, 14, 4)
        if 6 + 7 * full_piles <= 52 - heights.sum() <= max_out:
            break
    cards = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(cards)
    piles = [[] for _ in range(7)]
    for j, c in enumerate(cards):
        piles[j if full_piles and j < 7 else rng.integers(0, 7)].append(c)
    out = []
    for p in piles:
        down = int(rng.integers(0, len(p))) if p else 0
        out.append([(c, i >= down) for i, c in enumerate(p)])
    tops = [s * 13 + heights[s] - 1 if heights[s] else -1 for s in range(4)]
    return yk.array_from_piles(out, tops)


def _draw_cards_left(draw, n_out):
    """Foundation heights with ``n_out`` cards out, and the other cards in a drawn order."""
    heights, rest = [], 52 - n_out
    for s in range(4):
        h = draw(st.integers(max(0, rest - 13 * (3 - s)), min(13, rest)))
        heights.append(h)
        rest -= h
    cards = draw(st.permutations([s * 13 + r for s in range(4) for r in range(heights[s], 13)]))
    return heights, cards


@st.composite
def small_positions(draw, max_out=20, full_piles=None):
    """As :func:`random_small_position`, shrinking towards fewer cards out, cards in order,
    all in the first pile, face up."""
    full = draw(st.booleans()) if full_piles is None else full_piles
    n_out = draw(st.integers(6 + 7 * full, max_out))
    heights, cards = _draw_cards_left(draw, n_out)
    piles = [[] for _ in range(7)]
    for j, c in enumerate(cards):
        piles[j if full and j < 7 else draw(st.integers(0, 6))].append(c)
    out = []
    for p in piles:
        down = draw(st.integers(0, len(p) - 1)) if p else 0
        out.append([(c, i >= down) for i, c in enumerate(p)])
    tops = [s * 13 + heights[s] - 1 if heights[s] else -1 for s in range(4)]
    return yk.array_from_piles(out, tops)


@st.composite
def run_positions(draw, max_out=24):
    """Small positions rich in natural runs (so in natural cuts): the cards out, higher ranks
    mostly first, one in each pile, then each dropped on a pile whose top is one of its parents when a draw says so,
    at most one face-down card a pile."""
    n_out = draw(st.integers(8, max_out))
    heights, cards = _draw_cards_left(draw, n_out)
    cards.sort(key=lambda c: -(c % 13) + draw(st.integers(0, 2)))
    piles = [[] for _ in range(7)]
    for j, c in enumerate(cards):
        natural = [p for p in piles if p and p[-1] % 13 == c % 13 + 1
                   and (p[-1] // 13 in (1, 2)) != (c // 13 in (1, 2))]
        if j < 7:
            piles[j].append(c)
        elif natural and draw(st.integers(0, 3)):
            natural[draw(st.integers(0, len(natural) - 1))].append(c)
        else:
            piles[draw(st.integers(0, 6))].append(c)
    out = []
    for p in piles:
        down = draw(st.integers(0, min(1, len(p) - 1))) if p else 0
        out.append([(c, i >= down) for i, c in enumerate(p)])
    tops = [s * 13 + heights[s] - 1 if heights[s] else -1 for s in range(4)]
    return yk.array_from_piles(out, tops)


def walk_positions(seed, choices):
    """Positions of a random walk of solver moves from deal ``seed`` (``choices`` pick the
    moves), the deal first."""
    a = GAME.deal(seed).array.copy()
    buf = np.empty(yk.MAX_MOVES, np.int32)
    yield a.copy()
    for choice in choices:
        n = solver_moves(a, buf)[0]
        if n == 0:
            return
        yk.apply(a, buf[choice % n])
        yield a.copy()


def king_room_positions():
    """Small positions where rule 6 fires (an empty pile, room for every King on a card)."""
    return small_positions(max_out=24, full_piles=False).filter(
        lambda a: king_room_move(a) >= 0)


def plant_twin_at(a, p, i, to):
    """Swap the twin of the card at index ``i`` of pile ``p`` to index ``to`` of that pile;
    False if the card is a King or its twin is home."""
    at = yk.TAB + p * yk.CAP + i
    if a[at] % 13 == 12:
        return False
    dest = yk.TAB + p * yk.CAP + to
    for q in range(7):
        base = yk.TAB + q * yk.CAP
        for j in range(base, base + int(a[yk.HEIGHT + q])):
            if a[j] == twin(int(a[at])):
                a[j], a[dest] = a[dest], a[j]
                return True
    return False


@st.composite
def twin_planted_positions(draw):
    """A small position where a face-down blocker has its twin above it, among the face-down
    cards or as the lowest face-up card (None when the draw allows no such planting)."""
    a = draw(small_positions(max_out=22))
    tall = [p for p in range(7) if a[yk.HEIGHT + p] >= 3]
    if not tall:
        return None
    p = draw(st.sampled_from(tall))
    a[yk.DOWN + p] = down = draw(st.integers(max(2, int(a[yk.DOWN + p])), int(a[yk.HEIGHT + p]) - 1))
    out = {int(a[yk.TAB + q * yk.CAP + j]) for q in range(7) for j in range(int(a[yk.HEIGHT + q]))}
    spots = [i for i in range(1, down) if a[yk.TAB + p * yk.CAP + i] % 13 != 12
             and twin(int(a[yk.TAB + p * yk.CAP + i])) in out]
    if not spots:
        return None
    i = draw(st.sampled_from(spots))
    assert plant_twin_at(a, p, i, draw(st.integers(i + 1, down)))
    return a


# ---- checks: the pruned search, the dead-end test, rule 5 -------------------------------------------
def check_pruned_search_agrees(a):
    """The pruned searches give the reference searches' verdict (open mode; aisleriot mode on
    ONGOING positions); dead_end and the pair and triple tests fire only on unsolvable positions,
    dead_end includes dead_end_basic, the triple test the pair test, and the pair test's kernel
    agrees with its plain form.  Returns the reference open-mode verdict."""
    ref_open = verdict_of("open", a, plain=True)
    assert verdict_of("open", a) == ref_open
    if yk.status(a) == yk.ONGOING:
        assert verdict_of("aisleriot", a) == verdict_of("aisleriot", a, plain=True)
    if dead_end(a):
        assert ref_open == "unsolvable"
    assert not ref.dead_end_basic(a) or dead_end(a)        # the new test includes the old one
    pair = pair_dead_end(a)
    assert pair == ref.pair_dead_end_plain(a)
    triple = triple_dead_end(a)
    assert triple or not pair                              # triples see all pairs see
    if triple:
        assert ref_open == "unsolvable"
    if pair:
        assert SOLVER.solve(a, rules="open").verdict == "unsolvable"
    return ref_open


def check_dead_end(a):
    """dead_end equals its sweep form, and whenever the twin rule, the held-suit rule or the
    twin-pair rule is what makes a position a dead end, the reference search (no pruning)
    finds no win."""
    dead = bool(dead_end(a))
    assert dead == bool(ref.dead_end_sweep(a)), str(GAME.array_to_layout(a))
    if dead and not ref.plain_fixpoint_dead_end(a):
        assert verdict_of("open", a, plain=True) == "unsolvable", str(GAME.array_to_layout(a))
    return dead


def _is_idle_lateral(a, code):
    """Rule 5's condition, recomputed in plain Python from the layout."""
    m = Move.from_code(code)
    s, n = m.src, m.n
    h, down = int(a[yk.HEIGHT + s - 1]), int(a[yk.DOWN + s - 1])
    i = h - n
    if m.dst in FOUNDATIONS or i - 1 != down or a[yk.HEIGHT + m.dst - 1] == 0:
        return False
    pile = [int(x) for x in a[(s - 1) * yk.CAP:(s - 1) * yk.CAP + h]]
    c, u = pile[i], pile[i - 1]
    red = lambda x: x // 13 in (1, 2)  # noqa: E731
    home = {x // 13: x % 13 + 1 for x in a[yk.FOUND:yk.FOUND + 4] if x >= 0}
    if home.get(u // 13, 0) + 1 == u % 13 + 1:
        return False
    fits = lambda x, y: red(x) != red(y) and x % 13 + 1 == y % 13  # noqa: E731  x onto y
    needed = ({x for x in range(52) if fits(x, u)} - {c}) | {x for x in range(52) if fits(u, x)}
    face_up = {int(a[p * yk.CAP + j]) for p in range(7)
               for j in range(int(a[yk.DOWN + p]), int(a[yk.HEIGHT + p]))}
    return not (needed & face_up)


def check_rule5(a):
    """Open mode lists the reference moves minus rule 5's idle lateral moves (unless the
    safe-home rule forces one move, or the position is a dead end); aisleriot mode never
    applies rule 5.  Returns how many moves rule 5 dropped."""
    reference = move_set(ref.legal_open_plain, a)
    got = move_set(ref.legal_open, a)
    if dead_end(a) or king_room_move(a) >= 0 or (
            len(got) == 1 and Move.from_code(next(iter(got))).dst in FOUNDATIONS):
        return 0
    assert got <= reference
    for code in reference - got:
        assert _is_idle_lateral(a, code), str(Move.from_code(code))
    for code in got:
        assert not _is_idle_lateral(a, code)
    if yk.status(a) == yk.ONGOING:
        assert move_set(ref.legal_aisleriot, a) == move_set(ref.legal_aisleriot_plain, a)
    return len(reference - got)


# ---- checks: classes under natural cuts -------------------------------------------------------------
def class_key(a):
    """The two class hashes of ``a`` (positions natural cuts join have the same key)."""
    out = np.empty(2, np.uint64)
    class_hashes(a, out, 0)
    return int(out[0]), int(out[1])


def _canonical(a):
    """Position ``a`` up to the order of its piles."""
    piles = sorted(tuple(int(x) for x in a[yk.TAB + p * yk.CAP: yk.TAB + p * yk.CAP
                                          + a[yk.HEIGHT + p]]) + (int(a[yk.DOWN + p]),)
                   for p in range(yk.N_PILES))
    return tuple(piles), tuple(sorted(int(f) for f in a[yk.FOUND: yk.FOUND + 4]))


def class_tails(a):
    """``a``'s joints: the deepest card of each tail (an array), and their count."""
    tails = np.empty(64, np.int64)
    return tails, joints(a, tails)


def check_class(a):
    """Every position the reference reaches by natural cuts has the class key of ``a``; a
    position one solver move away has it only if it is one of them (up to pile order); when
    the class is searched as one node, the members built by their switches are exactly the
    reference's.  Returns the number of joints."""
    members = ref.natural_cut_class(a)
    key = class_key(a)
    assert {class_key(b) for b in members.values()} == {key}
    same = {_canonical(b) for b in members.values()}
    buf = np.empty(yk.MAX_MOVES, np.int32)
    for b in list(members.values())[:20]:
        n = solver_moves(b, buf)[0]
        for code in buf[:n]:
            kid = b.copy()
            yk.apply(kid, code)
            assert class_key(kid) != key or _canonical(kid) in same
    tails, k = class_tails(a)
    if 1 <= k <= K_MAX:
        built = set()
        for j in range(1 << k):
            b = np.array(a[:yk.STATE_SIZE], dtype=np.int16)
            if build_member(b, tails, k, j):
                assert b.tobytes() not in built
                built.add(b.tobytes())
        assert built == set(members)
    elif k == 0:
        assert len(members) == 1
    return k


def check_class_covers(a):
    """The class search's move list at ``a`` replays as engine moves and covers the class:
    either it is one forced move (rule 6 at ``a``, or a safe home move in some member), or for
    every member (the reference's natural-cut class) and every move ``legal`` lists there, the
    child is in the class, in the class of a listed child, or a dead end.  Returns whether the
    class was searched as one node with moves of other members."""
    from solvers.games.yukon.classes import class_legal
    root = solver_root(a)
    buf = np.empty(CLASS_MAX_MOVES, np.int32)
    n = class_legal(root, buf)
    kids, engine = [], np.empty(K_MAX + 1, np.int32)
    ebuf = np.empty(yk.MAX_MOVES, np.int32)
    for code in buf[:n]:
        b = np.array(a[:yk.STATE_SIZE], dtype=np.int16)
        c = b.copy()
        m = expand_code(b, code, engine)
        assert m > 0
        for mv in engine[:m]:
            assert mv in ebuf[:yk.legal_moves(c, ebuf, 0)]
            yk.apply(c, mv)
        kid = root.copy()
        class_apply(kid, code)
        assert (kid[:yk.STATE_SIZE] == b).all()
        out = np.empty(2, np.uint64)
        class_child_hashes(root, code, out, 0)      # after legal: from the stored terms
        assert (int(out[0]), int(out[1])) == class_key(b)
        kids.append(b)
    if not 1 <= class_tails(a)[1] <= K_MAX:
        return False
    if n == 1:
        code = int(buf[0])
        member = np.array(a[:yk.STATE_SIZE], dtype=np.int16)
        build_member(member, *class_tails(a), code >> MEMBER_SHIFT)
        m = code & ((1 << MEMBER_SHIFT) - 1)
        s_, d = (m >> 16) - 1, m & 0xFF
        top = member[yk.TAB + s_ * yk.CAP + member[yk.HEIGHT + s_] - 1]
        if king_room_move(a) == code or (d in FOUNDATIONS and safe_home(member, top)):
            return code >> MEMBER_SHIFT != 0
    keys = {class_key(b) for b in kids}
    own = class_key(a)
    lbuf = np.empty(yk.MAX_MOVES, np.int32)
    for x in ref.natural_cut_class(a).values():
        for m in lbuf[:legal(x, lbuf, OPEN_RULES)]:
            kid = x.copy()
            yk.apply(kid, m)
            key = class_key(kid)
            assert key == own or key in keys or dead_end(kid), (
                str(GAME.array_to_layout(a)), str(GAME.array_to_layout(x)),
                str(Move.from_code(int(m))))
    return any(int(c) >> MEMBER_SHIFT for c in buf[:n])


def check_class_search(a, nodes=300_000):
    """The class search's verdict, its solution replayed move by move as engine moves."""
    r = DFS(PLUGS["open_class"], Limits(nodes, None, 1000)).run(solver_root(a))
    assert r.verdict != "unknown"
    if r.verdict == "solved":
        assert_class_line_wins(a, r.moves)
    return r.verdict


def assert_class_line_wins(a, codes):
    """The class search's move ``codes`` from rules state array ``a``, played as engine moves
    (each one legal in the rules), end in a win."""
    b = np.array(a[:yk.STATE_SIZE], dtype=np.int16)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    for m in engine_moves(a, codes):
        assert m in buf[:yk.legal_moves(b, buf, 0)]
        yk.apply(b, m)
    assert yk.won(b)


def check_class_search_agrees(a):
    """The class key is the class, and the class search gives the unpruned reference's verdict."""
    check_class(a)
    assert check_class_search(a) == verdict_of("open", a, plain=True)
