"""Reference forms for the Freecell solver tests: the whole-position versions that the fused
kernel's incremental pieces (:mod:`solvers.games.freecell.moves`, :mod:`solvers.games.freecell.columns`)
are checked against.  Plain Python over the kernels' building blocks: slow and obvious.

* :func:`legal_fast`, :func:`apply_fast` -- the fused kernel's move list and apply on any
  position (its full autoplay check), to compare with the engine's;
* :func:`col_share_by_need` -- a column's heuristic share from the per-suit ranks each suit
  needs (the form ``weighted_heuristic`` uses), against ``columns.col_share``'s card mask;
* :func:`heuristic_from_shares` -- the heuristic summed from per-column shares;
* :func:`zhashes` -- the fused kernel's two hashes from every column at once.
"""
import numpy as np

from rules import freecell as fc
from rules.cards import EMPTY
from solvers.games.freecell.columns import col_parts, h_from_shares, hash_finish
from solvers.games.freecell.moves import apply_child, legal_masked
from solvers.games.freecell.plug import foundation_count


def legal_fast(state, buf, pruned=False):
    """``legal_masked`` with its own scratch array: the engine's solver move list, or with
    ``pruned`` the search move set."""
    return legal_masked(state, buf, np.empty(26, np.int64), pruned)


def search_move_set(state, moves):
    """The engine's solver moves ``moves`` minus what the search move set leaves out
    (docs/freecell.md): a column's top card to a free cell when it lies on its natural parent,
    and a group to an empty column unless it is the largest that fits there, min(the run on
    top of its column, (empty cells + 1) * 2^(empty columns - 1))."""
    empty_cells = sum(1 for i in range(4) if state[fc.FREE + i] == EMPTY)
    empty_cols = sum(1 for c in range(8) if state[fc.HEIGHT + c] == 0)
    keep = []
    for m in moves:
        src, n, dst = (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF
        if src >= fc.FIRST_COL:
            cards = _column(state, src - fc.FIRST_COL)
            run = 1
            while run < len(cards) and _fits(cards[-run - 1], cards[-run]):
                run += 1
            if dst < fc.FIRST_HOME and len(cards) >= 2 and _fits(cards[-2], cards[-1]):
                continue
            if dst >= fc.FIRST_COL and state[fc.HEIGHT + dst - fc.FIRST_COL] == 0 and \
                    n != min(run, (empty_cells + 1) * 2 ** max(empty_cols - 1, 0)):
                continue
        keep.append(m)
    return keep


def _column(state, col):
    base = fc.COLS + col * fc.COL_WIDTH
    return [int(c) for c in state[base:base + int(state[fc.HEIGHT + col])]]


def _fits(lower, upper):
    """``upper`` may lie on ``lower`` in a sequence: one rank lower, the other colour."""
    return _rank(lower) == _rank(upper) + 1 and _red(lower) != _red(upper)


def apply_fast(state, move):
    """``apply_child`` for any position (not known to be an autoplay fixpoint)."""
    apply_child(state, move, False)


def _rank(c):
    return c % 13 + 1


def _red(c):
    return 1 if c // 13 in (1, 2) else 0


def need_ranks(state):
    """The rank each suit needs next on the foundations (14 when complete), suit by suit."""
    need = [1, 1, 1, 1]
    for i in range(4):
        top = int(state[fc.HOME + i])
        if top != EMPTY:
            need[top // 13] = _rank(top) + 1
    return need


def col_share_by_need(state, col, need, hw):
    """Column ``col``'s share of the heuristic: ``hw[1]`` per card above its first break,
    ``hw[2]`` per card above a card its suit needs next, ``hw[5]`` per break."""
    cards = _column(state, col)
    n = len(cards)
    first_break, breaks, buried = n, 0, 0
    for i in range(1, n):
        if not _fits(cards[i - 1], cards[i]):
            breaks += 1
            first_break = min(first_break, i)
    for i, c in enumerate(cards):
        if need[c // 13] == _rank(c):
            buried += n - 1 - i
    return int(hw[1] * (n - first_break) + hw[2] * buried + hw[5] * breaks)


def heuristic_from_shares(state, shares, hw):
    """The heuristic with weights ``hw`` given every column's share."""
    return int(h_from_shares(state, np.asarray(shares, np.int64), np.asarray(hw, np.int64),
                             foundation_count(state)))


def zhashes(state):
    """The fused kernel's two canonical hashes of ``state``, from all its columns."""
    s1 = s2 = 0
    for col in range(8):
        a, b = col_parts(state, col)
        s1 = (s1 + int(a)) % 2**64          # the kernel's uint64 sums wrap around
        s2 = (s2 + int(b)) % 2**64
    h1, h2 = hash_finish(state, np.uint64(s1), np.uint64(s2))
    return int(h1), int(h2)
