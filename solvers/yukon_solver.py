"""Yukon solver (thoughtful: every card known, face-down ones included): the Yukon plug for
:mod:`solvers.search`.

Rules come from :mod:`rules.yukon` (its solver move set, ``faithful=0``).  Two rule modes:

* ``rules="aisleriot"`` (default): Aisleriot's continue predicate is terminal.  A position whose
  status is LOST (the hint finds nothing, spec 5.6) is a dead end -- ``legal`` lists no moves
  there -- so every position on a reported solution before the win is one where the real game
  lets you go on.  ``verify()`` checks exactly that with the independent referee.
* ``rules="open"``: only the move rules; "winnable" in the usual sense.

Every solvable deal in aisleriot mode is solvable in open mode (same moves, fewer positions).

Canonical hashing.  Both hashes treat the seven tableau piles as a multiset (each pile hashed
with its cards and face-down count) and the foundations as per-suit heights.  Why that is sound
for duplicate detection: the move rules and the hint are invariant under permuting piles (the
hint's pair loop ``s1 in 1..7, s2 != s1`` and its recursion use piles only as names; the spec's
``2..7 if s1 == 1`` is just ``s2 != s1``), so positions equal up to pile order have isomorphic
futures under both modes and the same status.  Slot numbers only matter for replay, and the
moves returned are the ones actually applied from the real start, so they replay as they are.
``hash1`` and ``hash2`` use unrelated per-pile hashes and combining functions (see
:mod:`solvers.table` for why two).

Pruning (in ``legal``), each with the argument that it never loses a solution:

1. *Duplicate King moves* (both modes).  A group moved to an empty pile gives the same
   canonical position whichever empty pile receives it, so only the first empty pile is kept;
   and moving a *whole* pile (its bottom card a face-up King) to an empty pile leaves the pile
   multiset unchanged, i.e. the parent itself -- dropped.  Both children would be found in the
   transposition table anyway; dropping them only saves the work.
2. *Safe foundation move* (open mode only).  If the top card ``c`` of a pile can go home and
   both cards of the opposite colour and rank ``r-1`` are already home (always true for an
   Ace), the move "c home" is the only move listed.  Proof: nothing can ever be dropped on
   ``c`` again (that needs an opposite-colour ``r-1`` card, and cards never leave a
   foundation), so ``c`` stays the top card of whatever pile holds it.  Take any winning line
   from the position and replay it after sending ``c`` home, dropping ``c`` from every group
   that carries it and skipping the moves of ``c`` alone: each move stays legal (same deepest
   card unless the group was ``c`` alone; destination tops are never ``c``; every card is face
   up at least as early because the card under ``c`` flips sooner), and it ends in the same
   win.  Note that a 2 is *not* always safe in Yukon, unlike Klondike: an Ace with cards on it
   can be dropped on a 2 of the other colour (groups need not be runs), which may be the only
   way to uncover the card under that Ace, so the rule uses the opposite-colour foundations.
   Not used in aisleriot mode: there the top card ``c`` keeps the hint true (step A) for as
   long as it stays put, so a winning line may need ``c`` kept back while it makes lateral
   moves the hint alone would call LOST.  There the heuristic merely tends to try it first.
3. *Dead ends* (both modes): :func:`dead_end` finds a card that provably stays covered for ever
   (argument in :func:`_sweep_stuck`'s docstring, the twin rules included); such a position
   gets no moves (the search plugs test it in their heuristic, which makes the core skip the
   position, see :data:`solvers.search.DEAD_END`).  A win in aisleriot mode is a win in open
   mode, so a test that holds for open mode holds for both.
4. *Reversible lateral moves* (a group moved between two piles and back) are not pruned; the
   transposition table removes the repeats.
5. *Idle lateral moves* (open mode only).  A lateral move t takes a group whose deepest card
   ``c`` lies on ``u``, the lowest face-up card of its pile (only face-down cards, or none,
   under it), to a non-empty pile, onto its top ``v``.  Call t *idle* when right after it
   (i) ``u`` cannot go home, (ii) no natural child of ``u`` (other colour, one rank lower)
   other than ``c`` and (iii) no natural parent of ``u`` is face up in a pile.  Idle moves
   are not listed.  (The previous session's rule took only twin moves -- ``c`` on its
   natural parent -- at any height and lacked (iii); its proof missed a group based at or
   below ``u`` going onto ``c``'s group, which a first version of this rule also got wrong:
   a random small position where Qh had to leave Jc so that Jc could go onto Qh showed it.)
   Proof that a winning line without idle moves exists whenever a win exists: let W win
   from P and let t be its first idle move, from position Q.  Play W without t (line V),
   keeping ``c``'s group on ``u``; until V and W meet, V's position is W's with ``c``'s group
   on ``u`` instead of on ``v``.  Every W move is copied in V with the same deepest card and
   destination card.  W's tops are V's tops except ``u`` (a top in W until it is used: only
   its natural children fit on it) and ``v`` (covered in W, so W never drops on it and V does
   not either); the only face-up card at or below ``u`` is ``u``, whose group carries ``c``'s
   group in V and not in W -- which changes nothing unless it goes onto the top of ``c``'s
   group, a natural parent of ``u``.  Flips match (the card under every deepest card is the
   same, except ``c``'s).  So the copies are legal until W (a) moves ``c``'s group away from
   ``v`` -- V moves it from ``u`` to the same place, or skips the move if that is ``u`` -- or
   (b) sends ``u`` home, drops a natural child of ``u`` on it, or moves ``u`` onto ``c``'s
   group: V plays t first (``v`` is a top in V) and then the move; this t is not idle, as
   the next move shows a card that (i), (ii) or (iii) requires absent.  Either way the lines
   meet; W cannot win before (``u`` is not home).  Whether any other move is idle depends only
   on its own ``c`` and ``u`` (and whether ``u`` is its pile's lowest face-up card, which
   ``c``'s group above does not change), the foundations and the face-up cards, which the
   two lines share; so V has one idle move fewer than W, or as many and one move fewer
   (case (a) may turn t and the later move into one idle move), and induction on (idle
   moves, length) gives a winning line with none.  Together with rules 1-3: from a solvable
   position, a position with a safe home move keeps only that move, which lowers the cards
   out; otherwise a winning line with no idle moves is listed move by move up to its first
   home move or the first position with a safe home move, both solvable, so by induction on
   the cards out the listed moves reach a win.  Not used in aisleriot mode: V passes through
   positions W does not, which the hint might call LOST.

Aisleriot mode searches open mode first (:func:`_search`): an open-mode ``unsolvable`` is also
an aisleriot one (every aisleriot win is an open win), and an open-mode solution on which
:func:`never_lost` holds is an aisleriot solution; otherwise (LOST on the way) the aisleriot
search runs on the budget that is left.  On seeds 1-200 every open solution found passed.

Move generation: :func:`solver_moves` lists the engine's solver moves per destination (same
set as ``rules.yukon.legal_moves(state, buf, 0)``, checked by a test), about 6x faster.

Move ordering (depth-first) and best-first ``h``: :func:`heuristic`, lower is better.

Search schedule (``method="dfs"``, the default): randomized probes first (:func:`_probe`:
short depth-first searches whose heuristic adds salted noise), then the complete search.  Why:
the hard solvable deals are heavy-tailed -- one order of near-equal children needs millions
of nodes, another a few hundred -- while an unsolvable deal costs the whole reachable space
in any order, so the probes take at most 300,000 nodes (or 30% of a limit) and the rest goes
to the complete search (it starts first for LEAD_NODES, pauses for the probes, then resumes).

Where a hard proof's time goes (seeds 491, 550, 921 exhausted, 838K expanded nodes in 1.6-1.7 s
on one core of the loaded 2-core box, 3.1 s before the changes below; 761K nodes since the twin
rules of :func:`_sweep_stuck`): each expanded position
has about 6.7 children, of which 4.7 were seen before and 0.9 are dead ends.  So children are
hashed before they are built (:func:`child_hashes`, from the parent's stored pile terms and
sums), dead ends are tested in the heuristic once per new position (the core never expands
them), :func:`dead_end` works on card masks in rounds, and the table is sized once after the
probes.  :func:`dead_end` cuts proofs about 5x (seed 646 takes 3.0M nodes with it, 15.7M with
:func:`dead_end_basic` or none).

Measured and left out (complete searches, nodes expanded): partial-order reduction -- stubborn
sets over card moves (a group onto a parent, a King to an empty pile, a card home), which keep
every reachable dead end and so every win -- lists 2.1 moves a position instead of 4.5 but
expands only 1.1-2x fewer positions (207: 4.67M to 2.40M; 473: 5.72M to 5.33M; 637: 11.05M to
9.73M) and costs about 6 us a position, three times a position's whole search cost otherwise.
Two sound sharpenings of :func:`dead_end` -- a stuck lower card of its suit also closes a
card's way home; a parent lying above a card in its own pile, with only stuck cards between,
is no exit -- change under 0.1% of positions (207: 4,669,351 to 4,666,577).  Skipping the move
that puts the last group back (its child is the grandparent) saves nothing measurable.  The
twin rule of :func:`_sweep_stuck` was also tried in a general form: "must leave first"
followed through every card whose only way out is one parent (the card on that parent must
leave it first) or home (the card on it and the lower cards of its suit), recomputed each
round.  It refutes nothing the pile form misses on the hard deals (473: 6,020,641 positions
against 6,023,112) and makes proofs over 3x slower (491: 3.6 s against 1.1 s).
"""
import time

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic

from rules import yukon as yk
from rules._jit import jit
from rules.cards import EMPTY
from rules.game import Outcome
from rules.moves import DRAG, Move
from rules.registry import get_game
from .result import SOLVED, UNKNOWN, UNSOLVABLE, replay_with_referee
from .search import DEAD_END, BestFirst, DFS, GamePlug, Limits
from .table import fmix64 as _fmix, splitmix64 as _splitmix
from .warm import ready_for_timing

TAB, CAP, HEIGHT, DOWN, FOUND = yk.TAB, yk.CAP, yk.HEIGHT, yk.DOWN, yk.FOUND
STATE_SIZE, MAX_MOVES, N_PILES = yk.STATE_SIZE, yk.MAX_MOVES, yk.N_PILES
ONGOING = int(Outcome.ONGOING)
RULE_MODES = ("aisleriot", "open")

# heuristic weights: cards not home, face-down cards, face-up cards off their natural parent,
# cards lying on the next card a suit needs, Kings not at a pile's bottom, empty piles (bonus)
W_OUT, W_DOWN, W_BAD, W_BURIED, W_KING, W_EMPTY = 6, 10, 2, 1, 3, 2

# Randomized probes (see _probe): tie-break noise added to NOISE_SCALE*h, node budget of one
# probe, at most PROBES of them, and at most PROBE_SHARE of a time or node limit on them.
NOISE_SCALE, NOISE_AMP = 8, 128
PROBE_NODES, PROBES, PROBE_SHARE = 2000, 150, 0.3
LEAD_NODES = 20000          # complete-search nodes before the probes (see _search)
# Positions entered in the table per expanded node and per second of a long proof (measured on
# seeds 220, 417, 491: 1.6-2.1 per node, 0.6-0.9M per second, one core of the 2-core box).
# After the probes the table is sized once from what is left of the limits, up to
# RESERVE_STATES (a 384 MB table; bigger ones cost more in fresh pages than rehashing saves).
STATES_PER_NODE, STATES_PER_SECOND, RESERVE_STATES = 1.8, 900_000, 10_000_000

# solver state = the rules state, then one word, the probe's salt (0: no noise), then each
# pile's two hash terms (4 words per 64-bit term, PILE_H1 + 4*p and PILE_H2 + 4*p), so that a
# child's hashes recompute only the piles the move changes, and its part of the heuristic that
# depends on it alone (PILE_SCORE + p, see _pile_score), then a bit mask of the piles whose
# stored words are stale (DIRTY), then the two hashes' sums over the piles (SUM1, SUM2).  The
# plug's apply only marks the piles it changes: most positions built are scored and never
# expanded, so the stored words are brought up to date by ``legal`` (:func:`_refresh`) when the
# position is expanded.  Rules kernels never read these words; copies carry them along.
SALT = STATE_SIZE
PILE_H1 = SALT + 1
PILE_H2 = PILE_H1 + 4 * N_PILES
PILE_SCORE = PILE_H2 + 4 * N_PILES
DIRTY = PILE_SCORE + N_PILES
SUM1 = DIRTY + 1            # hash1's and hash2's sums over the piles (4 words each), valid
SUM2 = SUM1 + 4             # when DIRTY is 0
SOLVER_STATE_SIZE = (SUM2 + 4 + 31) // 32 * 32    # rows of whole 64-byte cache lines

METHODS = {
    "dfs": ("dfs", None),              # depth-first, children by heuristic
    "greedy": ("best-first", (0, 1)),
    "astar": ("best-first", (1, 1)),   # weighted A*: shorter solutions
}


# ---- helpers -----------------------------------------------------------------------------
@jit
def _rank(c):
    return c % 13 + 1


@jit
def _red(c):
    s = c // 13
    return 1 if (s == 1 or s == 2) else 0


@jit
def _home_height(state, suit):
    """Cards of ``suit`` on the foundations (0..13)."""
    for k in range(4):
        f = state[FOUND + k]
        if f != EMPTY and f // 13 == suit:
            return f % 13 + 1
    return 0


@jit
def _is_foundation(slot):
    return slot == 0 or slot >= 8


@jit
def _safe_home(state, c):
    """Card ``c`` can go home with no loss: both opposite-colour ``rank-1`` cards are home."""
    r = _rank(c)
    if r == 1:
        return True
    if _red(c) == 1:
        lo = min(_home_height(state, 0), _home_height(state, 3))
    else:
        lo = min(_home_height(state, 1), _home_height(state, 2))
    return r <= lo + 1


@jit
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@jit
def _exit_open(x, home, locked, empty_ok, pinned):
    """Could card ``x`` leave the card it sits on, given ``locked`` cards can never be pile
    tops or home?  Exits: a parent (other colour, one rank higher) not home and not locked; its
    foundation (``x`` itself not locked -- only a top card goes home -- and every lower card of
    its suit not locked); for a King, an empty pile if ``empty_ok`` (see :func:`dead_end`).
    ``pinned``: ``x`` is pinned by the twin rule (see :func:`_sweep_stuck`), so a lone open
    parent is no exit unless its twin can go home."""
    r = _rank(x)
    if r == 13 and empty_ok:
        return True
    if r < 13:
        if _red(x) == 1:
            s1, s2 = 0, 3
        else:
            s1, s2 = 1, 2
        n_open = 0
        if home[s1] < r + 1 and (locked & _bit(s1 * 13 + r)) == np.uint64(0):
            n_open += 1
        if home[s2] < r + 1 and (locked & _bit(s2 * 13 + r)) == np.uint64(0):
            n_open += 1
        if n_open == 2 or (n_open == 1 and (
                not pinned or _home_exit_open(_twin(x), home, locked))):
            return True
    return _home_exit_open(x, home, locked)


@jit
def _home_exit_open(x, home, locked):
    """Could ``x`` go home some day as far as ``locked`` cards allow: neither it (only a top
    card goes home) nor a lower card of its suit still out is locked."""
    if (locked & _bit(x)) != np.uint64(0):
        return False
    s = x // 13
    lo = s * 13 + home[s]                       # the lower cards not home: lo .. x-1
    if lo >= x:
        return True
    mask = (_bit(x) - np.uint64(1)) & ~(_bit(lo) - np.uint64(1))
    return (locked & mask) == np.uint64(0)


@jit
def _twin(c):
    """The other card of ``c``'s colour and rank (clubs-spades, diamonds-hearts): it has the
    same two parents."""
    return (3 - c // 13) * 13 + c % 13


# parents of each card (the two cards of the other colour, one rank higher) as a bit mask
_PARENTS = np.zeros(52, np.uint64)
for _c in range(52):
    if _c % 13 < 12:
        for _s in ((0, 3) if _c // 13 in (1, 2) else (1, 2)):
            _PARENTS[_c] |= np.uint64(1) << np.uint64(_s * 13 + _c % 13 + 1)
# natural children of each card (the two cards of the other colour, one rank lower)
_CHILDREN = np.zeros(52, np.uint64)
for _c in range(52):
    _m = int(_PARENTS[_c])
    for _p in range(52):
        if _m >> _p & 1:
            _CHILDREN[_p] |= np.uint64(1) << np.uint64(_c)
del _c, _s, _m, _p


# bit masks over the 52 cards (card = 13*suit + rank - 1; suits c d h s, so 1 and 2 are red)
_RANKS = np.uint64(0x1FFF)
_SUIT_MASKS = np.array([_RANKS << np.uint64(13 * s) for s in range(4)], np.uint64)
_KINGS = np.uint64(sum(1 << (13 * s + 12) for s in range(4)))
# lowest set bit -> its index, by de Bruijn multiplication
_DEBRUIJN = np.uint64(0x022FDD63CC95386D)
_DEBRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((int(_DEBRUIJN) << _i) & (2 ** 64 - 1)) >> 58] = _i
del _i


@jit
def _lowest_bit_index(low):
    """Index of the single set bit of ``low``."""
    return _DEBRUIJN_INDEX[np.int64((low * _DEBRUIJN) >> np.uint64(58))]


@jit
def _with_open_parent(available):
    """Cards with a parent (other colour, one rank higher) among ``available``: each colour's
    available ranks, shifted one rank down, copied into both suits of the other colour."""
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
def _twin_mask(cards):
    """The twins (:func:`_twin`) of ``cards``: clubs and spades swapped, diamonds and hearts."""
    clubs_spades = (((cards & _SUIT_MASKS[0]) << np.uint64(39))
                    | ((cards & _SUIT_MASKS[3]) >> np.uint64(39)))
    return clubs_spades | ((cards & _SUIT_MASKS[1]) << np.uint64(13)) | (
        (cards & _SUIT_MASKS[2]) >> np.uint64(13))


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


@intrinsic
def _stack_scratch(typingctx):
    """Pointer to 64 int64 on the calling kernel's stack, valid until it returns: scratch for
    kernels that run once per generated position and so must not allocate."""
    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, ir.IntType(64), size=64)
    return types.CPointer(types.int64)(), codegen


@jit
def dead_end(state):
    """True when some card provably stays covered for ever, so no win is reachable.

    The fixpoint and its proof are :func:`_sweep_stuck`'s; this computes the same fixpoint
    on 52-bit card masks, releasing every free blocker of a round at once (the release
    conditions are monotone -- fewer locked or stuck cards only open exits -- so releasing in
    rounds reaches the same greatest fixpoint; a test compares the two on many positions).
    Masks: ``stuck`` the stuck blockers, ``locked`` the cards directly under them, ``down``
    the face-down cards, ``bottoms`` the pile bottoms; ``under`` maps a blocker to the card
    under it.  A face-down card is locked exactly when the card on it is stuck, which is the
    sweep's "face down under a stuck card".  Then the twin-pair rule (:func:`_twin_pair_dead`).
    """
    under = carray(_stack_scratch(), 64)
    scan = _blocker_scan(state, under)
    return _stuck_for_ever(scan[0], scan[1], scan[2], scan[3], scan[4], scan[5], scan[6], under)


@jit
def _stuck_for_ever(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
    """:func:`dead_end` from :func:`_blocker_scan`'s masks: the fixpoint keeps a blocker stuck
    (:func:`_stuck_set`), or the twin-pair rule applies (:func:`_twin_pair_dead`)."""
    if _stuck_set(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under,
                  ~np.uint64(0))[0] != np.uint64(0):
        return True
    return _twin_pair_dead(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under)


@jit
def _home_shut_for(c, home_mask, locked, q_bit):
    """Could a stuck set keep ``c`` from going home once it lies on ``q``: some card it needs
    (itself: it must be a top; a lower card of its suit) has a card on it there?"""
    need = (_bit(c) | (_bit(c) - np.uint64(1))) & _SUIT_MASKS[c // 13] & ~home_mask
    return need & (locked | q_bit) != np.uint64(0)


@jit
def _twin_pair_dead(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
    """The twin-pair rule (proof in :func:`_sweep_stuck`): the two children of a pile top ``q`` are
    face-up blockers, their other parent is face down or home, and moving either one onto ``q``
    leaves it stuck there, with a lower card of ``q``'s suit covered. The position after such a
    move is read off the masks: the card ``u`` under it turns into a top (face up), ``q`` gets
    covered, and a twin-rule pin that came from the card moved (it was the lowest face-up card
    on ``u``) goes."""
    tops = (bottoms | stuck) & ~locked
    face_up_blockers = stuck & ~down
    todo = tops
    while todo != np.uint64(0):
        q_bit = todo & (~todo + np.uint64(1))
        todo ^= q_bit
        children = _CHILDREN[_lowest_bit_index(q_bit)]
        if children == np.uint64(0) or children & face_up_blockers != children:
            continue
        y = _lowest_bit_index(children & (~children + np.uint64(1)))
        if _PARENTS[y] & ~q_bit & (down | home_mask) == np.uint64(0):
            continue                            # the other parent is neither face down nor home
        q = _lowest_bit_index(q_bit)
        q_lower = (q_bit - np.uint64(1)) & _SUIT_MASKS[q // 13] & ~home_mask
        if q_lower & locked == np.uint64(0):
            continue                            # q's way home cannot be shut (see below)
        if not (_home_shut_for(y, home_mask, locked, q_bit) and
                _home_shut_for(_twin(y), home_mask, locked, q_bit)):
            continue                            # a child could go home instead
        x = q                                   # a child in q's own pile cannot go onto q
        while stuck & _bit(x) != np.uint64(0) and children & _bit(x) == np.uint64(0):
            x = under[x]
        if children & _bit(x) != np.uint64(0):
            continue
        dead = True
        for c in (y, _twin(y)):
            u = under[c]
            down_after = down & ~_bit(u)
            pinned_after = pinned
            if down & _bit(u) != np.uint64(0):
                pinned_after &= ~(_bit(_twin(c)) | _bit(u))
            under[c] = q
            left, covered = _stuck_set(home_mask, (locked & ~_bit(u)) | q_bit, stuck,
                                       down_after, bottoms, pinned_after, empty_pile, under,
                                       _bit(c))
            under[c] = u
            if left & _bit(c) == np.uint64(0) or covered & q_lower == np.uint64(0):
                dead = False                    # c gets free, or q could go home first
                break
        if dead:
            return True
    return False


@jit
def _blocker_scan(state, under):
    """One pass over the tableau for :func:`dead_end` (its masks, ``under``) and for the
    heuristic (cards home, cards on top of the next card each suit needs); returns
    ``(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried)``."""
    home_mask = np.uint64(0)
    need = np.uint64(0)                        # the next card of each suit not home
    cards_home = 0
    for suit in range(4):
        hh = _home_height(state, suit)
        cards_home += hh
        home_mask |= ((np.uint64(1) << np.uint64(hh)) - np.uint64(1)) << np.uint64(suit * 13)
        if hh < 13:
            need |= _bit(suit * 13 + hh)
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
        bottoms |= _bit(below)
        if need & _bit(below) != np.uint64(0):
            buried += h - 1
        n_down = np.int64(state[DOWN + p])
        if n_down > 0:
            down |= _bit(below)
        chain_down = np.uint64(0)              # face-down blockers below card i
        for i in range(1, h):
            c = np.int64(state[base + i])
            locked |= _bit(below)
            stuck |= _bit(c)
            under[c] = below
            below = c
            if need & _bit(c) != np.uint64(0):
                buried += h - 1 - i
            if i <= n_down:                    # c: face down, or the lowest face-up card
                if chain_down & _bit(_twin(c)) != np.uint64(0):
                    pinned |= _bit(_twin(c))
                if i < n_down:
                    chain_down |= _bit(c)
                    down |= _bit(c)
    return home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried


@jit
def _stuck_set(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under, watch):
    """:func:`dead_end`'s fixpoint from :func:`_blocker_scan`'s masks: ``(stuck, locked)``, the
    blockers that stay stuck and the cards directly under them (stuck 0: none, or none of
    ``watch``: the search stops once they are all free).
    ``pinned``: the blockers the twin rule pins (see :func:`_sweep_stuck`)."""
    while stuck != np.uint64(0):
        available = ~home_mask & ~locked
        open_parent = _with_open_parent(available)
        home_open = _home_open(home_mask, locked)
        covered_down = down & locked               # face down under a stuck card: never moves
        empty_ok = empty_pile or (bottoms & open_parent & ~covered_down) != np.uint64(0) or (
            bottoms & home_open) != np.uint64(0)
        if pinned != np.uint64(0):                 # the twin rule: both parents open, or the
            exits = pinned & (_with_both_parents(available) | (   # twin can go home
                open_parent & _twin_mask(home_open))) | (open_parent & ~pinned) | home_open
        else:
            exits = open_parent | home_open
        if empty_ok:
            exits |= _KINGS
        free = stuck & exits & ~covered_down
        if free == np.uint64(0):
            return stuck, locked
        while free != np.uint64(0):    # exits only grow, so this round's stay open: release
            stuck &= ~free             # down the face-down cards before recomputing them
            while free != np.uint64(0):
                low = free & (~free + np.uint64(1))
                free ^= low
                locked &= ~_bit(np.int64(under[_lowest_bit_index(low)]))
            free = stuck & exits & ~(down & locked)
        if stuck & watch == np.uint64(0):
            return np.uint64(0), locked
    return np.uint64(0), locked


@jit
def dead_end_sweep(state):
    """Reference form of :func:`dead_end`: the fixpoint by plain sweeps (:func:`_sweep_stuck`,
    whose docstring has the argument) and the twin-pair rule on built positions."""
    stuck = _sweep_stuck(state)
    for p in range(N_PILES):
        if stuck[p] != np.uint64(0):
            return True
    return _twin_pair_sweep(state)


@jit
def _sweep_stuck(state):
    """The fixpoint of :func:`dead_end` by plain repeated sweeps over the piles (kept for the
    tests, which check that both give the same answer): bit ``i`` of entry ``p`` is set when
    the card at index ``i`` of pile ``p`` stays stuck.  Any stuck card provably stays covered
    for ever, so no win is reachable.

    Every card lying on another card (pile index >= 1) is a *blocker*: the card under it is
    covered until the blocker *leaves* it, i.e. until a group whose deepest card is the blocker
    moves -- onto a parent (a pile top), to the foundation (as a top card, all lower cards of
    its suit home) or, for a King, to an empty pile (always assumed possible).  Moving a group
    based lower down carries the blocker along, still on the same card.  A face-down blocker
    cannot move at all while a card lies on it.

    Greatest fixpoint: start with every blocker *stuck*; a card directly under a stuck blocker
    is *locked*.  Release (un-stick) a blocker when it is face up and some exit avoids locked
    cards (:func:`_exit_open`), or face down, the card directly on it released, and such an
    exit.  (Only the card *directly* on a face-down card keeps it covered: a stuck card higher
    up can be carried away by moving a group based below it.)
    Repeat until nothing changes.  Claim: if a stuck set S remains, no win is reachable.  Take
    any continuation and the first move in it where a member y of S leaves the card under it.
    Before that move every member of S lies where it did, so every locked card is covered: not
    a pile top, not home.  If y is face down and stuck because the stuck card directly on it,
    a member of S, still lies there, y is covered and cannot move -- contradiction.  Otherwise
    every exit of y needs a locked card as a pile top or at home -- contradiction; this
    includes y itself for the foundation exit, since only a top card goes home and a locked y
    has a member of S lying on it.  So no member of S ever leaves the card under it, that
    card never goes home, and the game is not won.  A win under aisleriot rules
    is a win under open rules, so the test is sound in both modes.

    Kings: the empty-pile exit counts only if ``empty_ok``: some pile is empty, or some pile's
    bottom card ``b`` could leave it -- a non-King onto a parent (not home, not locked; ``b``
    may carry stuck cards along), or any card home as a pile top (lower cards of its suit not
    locked; not if a stuck card lies on ``b``); a face-down ``b`` under a stuck card never
    moves.  Why: if no pile is empty, the first empty pile of a continuation appears when a
    bottom card leaves by one of those exits (a bottom King cannot go to an empty pile before
    one exists), so before the first member of S moves no empty pile can appear unless
    ``empty_ok``; a King in S needs one to leave.

    Twin rule: a face-down blocker ``y`` is *pinned* when its *twin* ``y'`` (the other non-King
    of its colour and rank, so the same two parents) lies above it among the face-down cards of
    its pile or is the lowest face-up card there: for ``y`` a single open parent is no exit
    unless ``y'`` could go home. Why: ``y`` moves only after ``y'`` has left the card under it
    (``y`` turns face up only as a pile top, and a card lying on a face-down card leaves it only
    as the deepest card of a group), and a non-King that has left the card it lies on now lies
    on a parent or is home from then on (only Kings go to empty piles; ``y`` is not a parent of
    ``y'``, so ``y'`` cannot come back to it). Before the first member of S moves, the locked
    parent is covered and ``y'`` is not home (a lower card of its suit is covered), so ``y'``
    lies on the one open parent, and ``y`` in S cannot leave by it either. Seed 143 (``8C* 7H*
    7D*``, with 3D and AH under them) is refuted at the deal this way: 7D can only go onto 8S
    and stay there, so 7H never leaves 8C.

    Twin-pair rule (:func:`_twin_pair_dead`), applied when the fixpoint leaves nothing stuck:
    the position is also a dead end when the two children ``y``, ``y'`` of a pile top ``q`` (the
    non-Kings of the other colour, one rank lower) are face-up blockers in other piles, their
    other parent is face down or home, and for each of them the position after moving it (with
    its group) onto ``q`` has a stuck set S that holds it and covers a lower card of ``q``'s
    suit. Why: a win needs both to leave the cards they lie on; say ``y`` leaves first, at time
    t, and take ``y``'s S. Up to t no member of S moves: their exits are closed by the same
    locks (``y`` still lying on its own card only adds one), except that ``q`` is uncovered --
    but only ``y`` and ``y'`` fit on it (``y'`` has not left), and ``q`` cannot go home (a lower
    card of its suit stays covered). So ``y``'s other exits stay shut and it leaves onto ``q``;
    from then on every member of S lies where it does in that position, so none ever moves, and
    the game is not won. The same holds for ``y'``, and if neither leaves, the game is not won
    either. Without the lower-card condition the rule is unsound: ``q`` could go home, and the
    locks ``y``'s stuck set relied on with it (the random reference test found such a position).

    This extends :func:`dead_end_basic` (blockers there: face-down cards and the lowest face-up
    card over them only): covered face-up cards can now be locked too.
    """
    home = np.empty(4, np.int64)
    for suit in range(4):
        home[suit] = _home_height(state, suit)
    stuck = np.empty(N_PILES, np.uint64)       # bit i: the card at index i is a stuck blocker
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        stuck[p] = ((np.uint64(1) << np.uint64(h)) - np.uint64(2)) if h >= 2 else np.uint64(0)
    locked = np.uint64(0)                      # every card with a card on it, at first
    for p in range(N_PILES):
        base = TAB + p * CAP
        for i in range(np.int64(state[HEIGHT + p]) - 1):
            locked |= _bit(np.int64(state[base + i]))
    changed = True
    while changed:
        changed = False
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
            if _rank(b) == 13:
                if not under_stuck and _exit_open(b, home, locked, False, False):
                    empty_ok = True                 # the King goes home
                    break
                continue
            if _exit_open(b, home, locked, False, False):
                if under_stuck:                     # can leave only onto a parent, as a group
                    b_red = _red(b)
                    r = _rank(b)
                    s1 = 0 if b_red == 1 else 1
                    s2 = 3 if b_red == 1 else 2
                    if ((home[s1] < r + 1 and (locked & _bit(s1 * 13 + r)) == np.uint64(0)) or
                            (home[s2] < r + 1 and (locked & _bit(s2 * 13 + r)) == np.uint64(0))):
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
                for j in range(i + 1, min(dn, h - 1) + 1):
                    pinned = pinned or np.int64(state[base + j]) == _twin(x)
                if _exit_open(x, home, locked, empty_ok, pinned):
                    stuck[p] &= ~(np.uint64(1) << np.uint64(i))
                    locked &= ~_bit(np.int64(state[base + i - 1]))
                    changed = True
    return stuck


@jit
def _twin_pair_sweep(state):
    """Reference form of :func:`_twin_pair_dead`: builds the two positions and sweeps them."""
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
        shut = _home_height(state, other // 13) > other % 13
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
            left = _sweep_stuck(after)
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
    """True when some card can provably never leave its pile, so the deal cannot be won.

    A *blocker* is a card with face-down cards under it: the lowest face-up card of a pile
    with face-down cards, and every face-down card but the bottom one.  The cards under a
    blocker stay where they are (face down) until the blocker leaves the pile, and it leaves
    as the deepest card of a group, to one of its *exits*: onto a parent (the two cards of the
    other colour and one rank higher) that is the top of another pile, to its foundation (all
    lower cards of its suit home), or, for a King, to an empty pile (always assumed possible).

    Fixpoint: per pile, ``hi`` is the highest blocker not yet shown able to leave; the cards
    under it are *locked*.  A blocker whose exits are not all locked (a parent not home and not
    locked, or no lower card of its suit locked) is released and ``hi`` moves down.  If some
    pile keeps ``hi > 0``, take the set S of those blockers: each has every exit locked under
    a member of S.  In any continuation, consider the first member of S to leave its pile: until
    then every locked card is still face down in place, so it is not a pile top and not home,
    and none of that member's exits is open -- contradiction.  So no member of S ever leaves,
    the cards under it never go home, and no win is reachable (under either rule mode, since
    an aisleriot-mode win is also an open-mode win).  The test only ever removes positions
    from which no win exists.
    """
    hi = np.empty(N_PILES, np.int64)  # tiny, per call; fixed size
    home = np.empty(4, np.int64)
    for suit in range(4):
        home[suit] = _home_height(state, suit)
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
                locked |= _bit(np.int64(state[base + i]))
        for p in range(N_PILES):
            base = TAB + p * CAP
            while hi[p] > 0:
                x = np.int64(state[base + hi[p]])
                r = _rank(x)
                s = x // 13
                free = r == 13
                if not free:
                    # a parent: rank r+1, the two suits of the other colour, not home, not locked
                    if _red(x) == 1:
                        s1, s2 = 0, 3
                    else:
                        s1, s2 = 1, 2
                    for ps in (s1, s2):
                        if home[ps] < r + 1 and (locked & _bit(ps * 13 + r)) == np.uint64(0):
                            free = True
                if not free:
                    lo = s * 13 + home[s]          # lowest card of the suit not home
                    top = s * 13 + r - 1           # x itself (excluded)
                    mask = np.uint64(0)
                    for c in range(lo, top):
                        mask |= _bit(c)
                    if (locked & mask) == np.uint64(0):
                        free = True
                if not free:
                    break
                hi[p] -= 1
                changed = True
                locked &= ~_bit(np.int64(state[base + hi[p]]))  # the card just under it
    for p in range(N_PILES):
        if hi[p] > 0:
            return True
    return False


@jit
def _idle_lateral_move(state, s, k, face_up):
    """Rule 5 (open mode): ``drag s k`` to a non-empty pile moves a group whose deepest card
    ``c`` lies on the lowest face-up card ``u`` of its pile, and right after it ``u`` can
    neither go home, nor receive a natural child other than ``c``, nor go onto a natural
    parent in a pile (no such child or parent is face up; ``face_up`` is the mask of face-up
    cards).  Proof in the module docstring."""
    dn = np.int64(state[DOWN + s - 1])
    base = TAB + (s - 1) * CAP
    i = np.int64(state[HEIGHT + s - 1]) - k
    if i - 1 != dn:
        return False                      # u face down, absent, or not the lowest face-up card
    c = np.int64(state[base + i])
    u = np.int64(state[base + i - 1])
    if _home_height(state, u // 13) + 1 == _rank(u):
        return False                      # u can go home right after
    return ((_CHILDREN[u] & ~_bit(c)) | _PARENTS[u]) & face_up == np.uint64(0)


@jit
def solver_moves(state, buf):
    """The engine's solver move set (``rules.yukon.legal_moves(state, buf, 0)``, same set,
    other order), generated per destination instead of per (source, group, destination):
    a non-empty pile with top ``x`` takes only a group based at one of the two cards of the
    other colour and rank ``rank(x)-1``, an empty pile a group based at a King, a foundation
    the next card of its suit (an Ace: the first empty foundation in Aisleriot's order).  A
    card can be a group's base when it is face up in a pile.  Measured ~6x faster than the
    engine's scan; a test compares the two sets."""
    return _solver_moves(state, buf)[0]


@jit
def _solver_moves(state, buf):
    """:func:`solver_moves` and the mask of face-up cards, from one pass over them."""
    where = carray(_stack_scratch(), 64)       # card -> 64*pile + index, face-up cards only
    where[:52] = -1
    face_up = np.uint64(0)
    for p in range(N_PILES):
        base = TAB + p * CAP
        for j in range(np.int64(state[DOWN + p]), np.int64(state[HEIGHT + p])):
            c = np.int64(state[base + j])
            where[c] = 64 * p + j
            face_up |= _bit(c)
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
            r = _rank(x)
            if r == 1:
                continue
            if _red(x) == 1:
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
        if _rank(c) == 1:
            k = empty_k
        else:
            for kk in range(4):
                f = state[FOUND + kk]
                if f != EMPTY and f + 1 == c and _rank(c) > 1:
                    k = kk
        if k >= 0:
            buf[out] = (s + 1) << 16 | 1 << 8 | (0 if k == 0 else k + 7)
            out += 1
    return out, face_up


@jit
def _legal(state, buf, mode):
    """Solver moves; ``mode`` bit 0: open rules; bit 2: reference search for the tests (no
    dead-end test, no safe-home rule, no rule 5); bit 3: the search plugs, whose heuristic
    tests dead ends (so ``legal`` need not)."""
    open_mode = mode & 1
    if open_mode == 0 and yk.status(state) != ONGOING:
        return np.int64(0)  # LOST: Aisleriot ends the game here
    if mode & 12 == 0 and dead_end(state):
        return np.int64(0)  # no win reachable (proof in dead_end)
    n, face_up = _solver_moves(state, buf)
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
        if _is_foundation(d):
            if open_mode != 0 and mode & 4 == 0:
                h = np.int64(state[HEIGHT + s - 1])
                if _safe_home(state, np.int64(state[TAB + (s - 1) * CAP + h - 1])):
                    buf[0] = m
                    return np.int64(1)
        elif state[HEIGHT + d - 1] == 0:
            if d != first_empty or k == state[HEIGHT + s - 1]:
                continue  # rule 1: same canonical position as a kept move / the parent
        elif open_mode != 0 and mode & 4 == 0 and _idle_lateral_move(state, s, k, face_up):
            continue  # rule 5 (open mode)
        buf[out] = m
        out += 1
    return np.int64(out)


# ---- plug kernels ------------------------------------------------------------------------
@jit
def legal_aisleriot(state, buf):
    return _legal(state, buf, 0)


@jit
def legal_open(state, buf):
    return _legal(state, buf, 1)


@jit
def legal_aisleriot_search(state, buf):
    _refresh(state)                  # the parent of the children child_hashes will hash
    return _legal(state, buf, 8)     # dead ends: the search plug's heuristic checks them


@jit
def legal_open_search(state, buf):
    _refresh(state)
    return _legal(state, buf, 9)


@jit
def legal_aisleriot_plain(state, buf):
    return _legal(state, buf, 4)


@jit
def legal_open_plain(state, buf):
    return _legal(state, buf, 5)


@jit
def apply(state, move):
    """The rules' apply; on a solver state, the piles it changed are marked DIRTY."""
    yk.apply(state, move)
    if state.shape[0] >= SOLVER_STATE_SIZE:
        dirty = np.int64(state[DIRTY]) | (1 << (((move >> 16) & 0xFF) - 1))
        d = move & 0xFF
        if not _is_foundation(d):
            dirty |= 1 << (d - 1)
        state[DIRTY] = dirty


@jit
def won(state):
    return np.int64(1) if yk.won(state) else np.int64(0)


@jit
def _found_key(state):
    """Each suit's height on the foundations, 4 bits per suit (slots hold one suit each)."""
    key = np.uint64(0)
    for k in range(4):
        f = np.int64(state[FOUND + k])
        if f != EMPTY:
            key |= np.uint64(f % 13 + 1) << np.uint64(4 * (f // 13))
    return key


@jit
def _word(state, at):
    """Entries ``at .. at+3`` packed into one 64-bit word (4 cards per multiply below).  Pile
    entries above the height hold EMPTY (rules.yukon keeps them so), so a pile's last word is
    the same for equal piles."""
    return (np.uint64(state[at] & 0xFFFF) | (np.uint64(state[at + 1] & 0xFFFF) << np.uint64(16))
            | (np.uint64(state[at + 2] & 0xFFFF) << np.uint64(32))
            | (np.uint64(state[at + 3] & 0xFFFF) << np.uint64(48)))


@jit
def _terms(state, p):
    """Pile ``p``'s terms of :func:`hash1` and :func:`hash2` (see :func:`_virtual_terms`)."""
    return _virtual_terms(state, TAB + p * CAP, np.int64(state[HEIGHT + p]), 0, 0,
                          np.int64(state[DOWN + p]))


@jit
def _store_terms(state, p):
    """Pile ``p``'s stored words: its two hash terms and its score part."""
    state[PILE_SCORE + p] = _pile_score(state, p)
    t1, t2 = _terms(state, p)
    _put(state, PILE_H1 + 4 * p, t1)
    _put(state, PILE_H2 + 4 * p, t2)


@jit
def _put(state, at, v):
    """Store 64-bit ``v`` in the four int16 words ``at .. at+3`` (read back by :func:`_stored`)."""
    for k in range(4):
        state[at + k] = np.int16(np.int64((v >> np.uint64(16 * k)) & np.uint64(0xFFFF)) - 32768)


@jit
def _stored(state, at):
    v = np.uint64(0)
    for k in range(4):
        v |= np.uint64(np.int64(state[at + k]) + 32768) << np.uint64(16 * k)
    return v


@jit
def _sum_parts(state, p):
    """Pile ``p``'s stored terms as they enter SUM1 and SUM2."""
    return _stored(state, PILE_H1 + 4 * p), _mix2(_stored(state, PILE_H2 + 4 * p))


@jit
def store_all_terms(state):
    """Fill in every pile's stored words and the sums (a fresh solver state)."""
    sum1 = np.uint64(0)
    sum2 = np.uint64(0)
    for p in range(N_PILES):
        _store_terms(state, p)
        a, b = _sum_parts(state, p)
        sum1 += a
        sum2 += b
    _put(state, SUM1, sum1)
    _put(state, SUM2, sum2)
    state[DIRTY] = 0


@jit
def _refresh(state):
    """Recompute the stored words of the DIRTY piles and the sums (solver states only)."""
    if state.shape[0] >= SOLVER_STATE_SIZE and state[DIRTY] != 0:
        dirty = np.int64(state[DIRTY])
        sum1 = _stored(state, SUM1)            # the sums still match the stale terms
        sum2 = _stored(state, SUM2)
        for p in range(N_PILES):
            if dirty >> p & 1:
                a, b = _sum_parts(state, p)
                _store_terms(state, p)
                a2, b2 = _sum_parts(state, p)
                sum1 += a2 - a
                sum2 += b2 - b
        _put(state, SUM1, sum1)
        _put(state, SUM2, sum2)
        state[DIRTY] = 0


@jit
def _pile_terms(state, p):
    """Pile ``p``'s :func:`_terms`: stored unless the state has none or they are stale."""
    if state.shape[0] >= SOLVER_STATE_SIZE and (np.int64(state[DIRTY]) >> p) & 1 == 0:
        return _stored(state, PILE_H1 + 4 * p), _stored(state, PILE_H2 + 4 * p)
    return _terms(state, p)


@jit
def _virtual_terms(state, base, keep, extra_at, extra_n, down):
    """The two hash terms of a pile, given as its first ``keep`` cards from ``base``, then
    ``extra_n`` cards from ``extra_at``, ``down`` face down (so a child's piles need not be
    built): over the cards packed 4 to a 64-bit word (EMPTY past the top), FNV-1a style
    for :func:`hash1` and a polynomial for :func:`hash2`, each finalised."""
    n = keep + extra_n
    x1 = np.uint64(0xCBF29CE484222325)
    x1 = (x1 ^ np.uint64(down + 64 * n)) * np.uint64(0x100000001B3)
    x2 = np.uint64(0x13198A2E03707344) + np.uint64(down) * np.uint64(977)
    for i in range(0, n, 4):
        if i + 4 <= keep:
            w = _word(state, base + i)
        else:
            w = np.uint64(0)
            for q in range(4):
                j = i + q
                if j < keep:
                    v = np.int64(state[base + j])
                elif j < n:
                    v = np.int64(state[extra_at + j - keep])
                else:
                    v = np.int64(EMPTY)
                w |= np.uint64(v & 0xFFFF) << np.uint64(16 * q)
        x1 = (x1 ^ w) * np.uint64(0x100000001B3)
        x2 = x2 * np.uint64(0x5851F42D4C957F2D) + w
    return _splitmix(x1), _fmix(x2 + np.uint64(n))


@jit
def child_hashes(state, move, out, at):
    """:func:`hash1` and :func:`hash2` of the position after ``move`` (a solver move) into
    ``out[at]``, ``out[at + 1]``, without building it: only the source and destination piles
    change, so their terms are computed from the parent's cards and swapped into the sums
    the solver state keeps (a test checks equality with the built child)."""
    s = ((move >> 16) & 0xFF) - 1
    k = np.int64((move >> 8) & 0xFF)
    d = move & 0xFF
    hs = np.int64(state[HEIGHT + s])
    base_s = TAB + s * CAP
    keep = hs - k
    down_s = np.int64(state[DOWN + s])
    if keep > 0 and down_s >= keep:
        down_s = keep - 1                     # the new top turns face up
    s1, s2 = _virtual_terms(state, base_s, keep, 0, 0, down_s)
    found = _found_key(state)
    t = -1
    d1 = d2 = np.uint64(0)
    if _is_foundation(d):
        found += np.uint64(1) << np.uint64(4 * (np.int64(state[base_s + hs - 1]) // 13))
    else:
        t = d - 1
        d1, d2 = _virtual_terms(state, TAB + t * CAP, np.int64(state[HEIGHT + t]),
                                base_s + keep, k, np.int64(state[DOWN + t]))
    if state[DIRTY] == 0:                     # as in the search, after legal's _refresh
        sum1 = _stored(state, SUM1) - _stored(state, PILE_H1 + 4 * s) + s1
        sum2 = _stored(state, SUM2) - _mix2(_stored(state, PILE_H2 + 4 * s)) + _mix2(s2)
        if t >= 0:
            sum1 += d1 - _stored(state, PILE_H1 + 4 * t)
            sum2 += _mix2(d2) - _mix2(_stored(state, PILE_H2 + 4 * t))
    else:
        sum1 = np.uint64(0)
        sum2 = np.uint64(0)
        for p in range(N_PILES):
            if p == s:
                x1, x2 = s1, s2
            elif p == t:
                x1, x2 = d1, d2
            else:
                x1, x2 = _pile_terms(state, p)
            sum1 += x1
            sum2 += _mix2(x2)
    out[at] = _hash1_of(sum1, found)
    out[at + 1] = _hash2_of(sum2, found)


@jit
def hash1(state):
    """Piles as a multiset: the sum of per-pile terms (:func:`_terms`, read from the solver
    state's stored terms when it has them); foundations by suit."""
    acc = np.uint64(0)
    for p in range(N_PILES):
        acc += _pile_terms(state, p)[0]
    return _hash1_of(acc, _found_key(state))


@jit
def hash2(state):
    """Independent multiset hash: the sum of per-pile terms (:func:`_terms`, through
    :func:`_mix2`), mixed with the foundations."""
    acc = np.uint64(0)
    for p in range(N_PILES):
        acc += _mix2(_pile_terms(state, p)[1])
    return _hash2_of(acc, _found_key(state))


@jit
def _mix2(x):
    """A pile's contribution to hash2's sum."""
    return _fmix(x ^ np.uint64(0xA4093822299F31D0))


@jit
def _hash2_of(acc, found):
    return _fmix(acc + _fmix(found + np.uint64(0x243F6A8885A308D3)))


@jit
def _hash1_of(acc, found):
    return _splitmix(acc ^ (found * np.uint64(0x9E3779B97F4A7C15)))


@jit
def heuristic(state):
    """The search's heuristic: DEAD_END for a proven dead end (:func:`dead_end`; the searches
    then never expand it), else :func:`score`.  Checking dead ends here, once per new
    position, instead of in ``legal`` spares expanding the leaves: about half the positions a
    hard proof generates are dead ends.  On a solver state one pass over the cards serves
    both, with the piles' stored score parts."""
    if state.shape[0] < SOLVER_STATE_SIZE:
        return DEAD_END if dead_end(state) else score(state)
    under = carray(_stack_scratch(), 64)
    home_mask, locked, stuck, down, bottoms, pinned, empty_pile, cards_home, buried = (
        _blocker_scan(state, under))
    if _stuck_for_ever(home_mask, locked, stuck, down, bottoms, pinned, empty_pile, under):
        return DEAD_END
    n_down = 0
    empty = 0
    piles = 0
    for p in range(N_PILES):
        n_down += np.int64(state[DOWN + p])
        empty += state[HEIGHT + p] == 0
    dirty = np.int64(state[DIRTY])
    for p in range(N_PILES):
        if (dirty >> p) & 1:
            piles += _pile_score(state, p)
        else:
            piles += np.int64(state[PILE_SCORE + p])
    return _score_from(state, 52 - cards_home, n_down, piles, buried, empty)


@jit
def score(state):
    """Lower is better: W_OUT*cards not home + W_DOWN*face-down cards + W_BAD*face-up cards not
    on their natural parent (opposite colour, one rank higher; a King at a pile's bottom is fine)
    + W_BURIED*cards on top of the next card each suit needs + W_KING*Kings not at a pile's
    bottom - W_EMPTY*empty piles.

    With a non-zero ``state[SALT]`` (a randomized probe, see :func:`_probe`) the value is
    ``NOISE_SCALE*h`` plus a pseudo-random term below ``NOISE_AMP`` drawn from the salt and each
    pile's height, face-down count and top card (what a move changes), so each salt orders
    near-equal children differently."""
    out = 52
    need = 0
    for suit in range(4):
        hh = _home_height(state, suit)
        out -= hh
        need |= (hh + 1) << (4 * suit)
    n_down = 0
    piles = 0
    buried = 0
    empty = 0
    for p in range(N_PILES):
        n = np.int64(state[HEIGHT + p])
        n_down += np.int64(state[DOWN + p])
        if n == 0:
            empty += 1
        piles += _pile_score(state, p)
        base = TAB + p * CAP
        for i in range(n):
            c = np.int64(state[base + i])
            if ((need >> (4 * (c // 13))) & 15) == _rank(c):
                buried += n - 1 - i
    return _score_from(state, out, n_down, piles, buried, empty)


@jit
def _pile_score(state, p):
    """Pile ``p``'s part of :func:`score` that depends on it alone: W_BAD*its face-up cards
    off their natural parent + W_KING*its Kings not at the bottom."""
    n = np.int64(state[HEIGHT + p])
    dn = np.int64(state[DOWN + p])
    base = TAB + p * CAP
    bad = 0
    kings = 0
    for i in range(n):
        c = np.int64(state[base + i])
        r = _rank(c)
        if i > 0 and r == 13:
            kings += 1
        if i < dn:
            continue
        if i == 0:
            if r != 13:
                bad += 1
        elif i == dn:
            bad += 1
        else:
            u = np.int64(state[base + i - 1])
            if _red(u) == _red(c) or _rank(u) != r + 1:
                bad += 1
    return W_BAD * bad + W_KING * kings


@jit
def _score_from(state, out, n_down, piles, buried, empty):
    """:func:`score` from its parts (``piles``: the sum of :func:`_pile_score`), with the
    probe's noise when the state carries a salt."""
    h = np.int64(W_OUT * out + W_DOWN * n_down + piles + W_BURIED * buried - W_EMPTY * empty)
    salt = np.int64(state[SALT]) if state.shape[0] > SALT else 0
    if salt == 0:
        return h
    return NOISE_SCALE * h + _noise(state, salt)


@jit
def _noise(state, salt):
    """A probe's tie-break term, below NOISE_AMP: the salt mixed with each pile's height,
    face-down count and top card."""
    mix = np.uint64(0)
    for p in range(N_PILES):
        n = np.int64(state[HEIGHT + p])
        top = np.int64(state[TAB + p * CAP + n - 1]) if n > 0 else 63
        word = n << 12 | np.int64(state[DOWN + p]) << 6 | top
        mix = mix * np.uint64(0x9E3779B97F4A7C15) + np.uint64(word)
    return np.int64(_splitmix(mix ^ (np.uint64(salt) * np.uint64(0xD1B54A32D192ED03)))
                    >> np.uint64(40)) % NOISE_AMP


@jit
def cost(parent, child, move):
    return np.int64(1)


PLUGS = {
    "aisleriot": GamePlug(legal_aisleriot_search, apply, won, hash1, hash2, heuristic, cost,
                          MAX_MOVES, SOLVER_STATE_SIZE, child_hashes),
    "open": GamePlug(legal_open_search, apply, won, hash1, hash2, heuristic, cost, MAX_MOVES,
                     SOLVER_STATE_SIZE, child_hashes),
    # reference searches without the dead-end test (tests compare verdicts with them)
    "aisleriot-plain": GamePlug(legal_aisleriot_plain, apply, won, hash1, hash2, score, cost,
                                MAX_MOVES, SOLVER_STATE_SIZE),
    "open-plain": GamePlug(legal_open_plain, apply, won, hash1, hash2, score, cost, MAX_MOVES,
                           SOLVER_STATE_SIZE),
}


# ---- Python API --------------------------------------------------------------------------
def _start_state(state):
    return get_game("yukon").as_state(state)


verify_result = replay_with_referee


def _runner(method, rules, limits):
    kind, weights = METHODS[method]
    if kind == "dfs":
        return DFS(PLUGS[rules], limits)
    return BestFirst(PLUGS[rules], limits, weights)


def _check_args(method, rules):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    if rules not in RULE_MODES:
        raise ValueError(f"unknown Yukon rule mode {rules!r} (choose from {', '.join(RULE_MODES)})")


def never_lost(start, codes):
    """True if no position before the end of ``codes`` (move codes from array ``start``) is
    LOST, i.e. Aisleriot would let the whole line be played."""
    a = np.array(start, dtype=np.int16)
    for m in codes:
        if yk.status(a) != ONGOING:
            return False
        yk.apply(a, m)
    return True


def _remaining(max_nodes, timeout, t0, used_nodes):
    nodes = None if max_nodes is None else max(0, max_nodes - used_nodes)
    secs = None if timeout is None else max(0.0, timeout - (time.perf_counter() - t0))
    return nodes, secs


def solver_root(array):
    """The solver state for a rules state array: a copy, salt 0, every pile's hash terms."""
    root = np.zeros(SOLVER_STATE_SIZE, dtype=np.int16)
    root[:STATE_SIZE] = array[:STATE_SIZE]
    store_all_terms(root)
    return root


def _probe(root, max_nodes, timeout, max_memory_mb, rules):
    """Randomized restarts before the complete search: the solvable deals DFS finds hard are
    mostly heavy-tailed -- a different order of near-equal children solves them in a few
    hundred nodes (seeds 1-1000: about 30 of the 53 deals undecided at 10 s without probes
    are solved this way, within 216,000 probe nodes) -- so up to PROBES depth-first searches
    of PROBE_NODES nodes each, salt 1, 2, ..., run first, on at most PROBE_SHARE of the
    limits.

    Each probe is a complete search cut by a node budget: a probe that exhausts the space
    proves the deal unsolvable (in open mode, hence in both).  In aisleriot mode a probe's
    (open-mode) solution counts only if :func:`never_lost` holds on it.  Returns the deciding
    result or None, and the nodes spent."""
    t0 = time.perf_counter()
    nodes_cap = PROBES * PROBE_NODES
    if max_nodes is not None:
        nodes_cap = min(nodes_cap, int(max_nodes * PROBE_SHARE))
    secs_cap = None if timeout is None else timeout * PROBE_SHARE
    runner = DFS(PLUGS["open"], Limits(PROBE_NODES, None, max_memory_mb))
    spent = 0
    for salt in range(1, PROBES + 1):
        if spent + PROBE_NODES > nodes_cap or (
                secs_cap is not None and time.perf_counter() - t0 >= secs_cap):
            break
        root[SALT] = salt
        r = runner.reset(Limits(PROBE_NODES, None, max_memory_mb)).run(root)
        spent += r.nodes_expanded
        if r.verdict == UNSOLVABLE or (r.verdict == SOLVED and (
                rules == "open" or never_lost(root[:STATE_SIZE], r.moves))):
            r.nodes_expanded = spent
            r.seconds = time.perf_counter() - t0
            root[SALT] = 0
            return r, spent
        if r.limit == "memory":
            break                          # the complete search reports the memory limit
    root[SALT] = 0
    return None, spent


def _search(start, method, max_nodes, timeout, max_memory_mb, rules):
    """Depth-first: randomized probes first (:func:`_probe`), then the complete search on what
    is left of the limits.  Aisleriot mode searches open mode first (module docstring): an
    open-mode ``unsolvable`` is final, an open-mode solution that never passes a LOST
    position is an aisleriot solution; otherwise the aisleriot-mode search runs on the
    remaining budget.  The limits cover every search together."""
    t0 = time.perf_counter()
    root = solver_root(start)
    if method != "dfs":
        return _runner(method, rules, Limits(max_nodes, timeout, max_memory_mb)).run(root)
    # the complete search starts first for LEAD_NODES (most proofs are short), pauses for the
    # probes, then resumes where it stopped (its arrays keep the whole search state)
    lead = LEAD_NODES if max_nodes is None else min(LEAD_NODES, max_nodes)
    complete = _runner(method, "open", Limits(lead, timeout, max_memory_mb))
    first = complete.run(root)
    if first.verdict != UNKNOWN or first.limit != "nodes" or lead == max_nodes:
        if rules == "open" or first.verdict != SOLVED or never_lost(start, first.moves):
            return first
    else:
        nodes, secs = _remaining(max_nodes, timeout, t0, first.nodes_expanded)
        probed, used = _probe(root, nodes, secs, max_memory_mb, rules)
        if probed is not None:
            probed.nodes_expanded += first.nodes_expanded
            probed.seconds = time.perf_counter() - t0
            return probed
        nodes, secs = _remaining(max_nodes, timeout, t0, first.nodes_expanded + used)
        complete.limits = Limits(None if nodes is None else first.nodes_expanded + nodes, secs,
                                 max_memory_mb)
        complete.reserve(min(RESERVE_STATES,                # a hard deal: size the table once
                             STATES_PER_NODE * nodes if nodes is not None else np.inf,
                             STATES_PER_SECOND * secs if secs is not None else np.inf))
        first = complete.run(root)                     # resumes
        first.nodes_expanded += used
        first.seconds = time.perf_counter() - t0
    if rules == "open" or first.verdict == UNSOLVABLE or (
            first.verdict == SOLVED and never_lost(start, first.moves)):
        return first
    if first.verdict == UNKNOWN and first.limit != "seconds" and first.limit != "nodes":
        return first                                   # memory: no room for a second search
    nodes, secs = _remaining(max_nodes, timeout, t0, first.nodes_expanded)
    if first.verdict == UNKNOWN or nodes == 0 or secs == 0.0:
        first.verdict, first.moves = UNKNOWN, []
        first.limit = first.limit or ("nodes" if nodes == 0 else "seconds")
        return first
    second = _runner(method, "aisleriot", Limits(nodes, secs, max_memory_mb)).run(root)
    second.nodes_expanded += first.nodes_expanded
    second.states_stored += first.states_stored
    second.seconds = time.perf_counter() - t0
    second.peak_memory_bytes = max(first.peak_memory_bytes, second.peak_memory_bytes)
    return second


def solve(state, method="dfs", max_nodes=None, timeout=None, max_memory_mb=None, rules="aisleriot"):
    """Solve a Yukon position (State, Aisleriot seed, layout text or array).

    ``rules`` is ``"aisleriot"`` (LOST positions are dead ends) or ``"open"``; the result
    carries it as ``result.rules``.  ``max_memory_mb=None`` means 4096 MiB.  With
    ``method="dfs"`` in aisleriot mode the open-mode search runs first (see :func:`_search`);
    the limits cover both searches together.
    """
    _check_args(method, rules)
    start = _start_state(state)
    compiled = ready_for_timing(__name__, warmup, timeout)
    result = _search(start.array, method, max_nodes, timeout,
                     4096 if max_memory_mb is None else max_memory_mb, rules)
    result.method = method
    result.rules = rules
    result.start = start
    result.compile_seconds = compiled
    result._verifier = verify_result
    if isinstance(state, (int, np.integer)):
        result.deal = int(state)
    if result.verdict == SOLVED:
        result.moves = [Move.from_code(c) for c in result.moves]
        result.atomic_length = sum(m.n if m.kind == DRAG else 1 for m in result.moves)
    return result


def solve_many(seeds, method="dfs", max_nodes=None, timeout=None, max_memory_mb=None,
               rules="aisleriot", progress=None):
    """Solve Aisleriot seeds one after another in this process; list of SolveResult."""
    out = []
    for i, seed in enumerate(seeds):
        out.append(solve(int(seed), method, max_nodes, timeout, max_memory_mb, rules))
        if progress is not None:
            progress(i, out[-1])
    return out


def warmup():
    """Compile (or load from the cache) every kernel on seed 1; returns seconds taken."""
    t0 = time.perf_counter()
    for rules in RULE_MODES:
        for method in METHODS:
            solve(1, method, max_nodes=50, rules=rules)
    return time.perf_counter() - t0
