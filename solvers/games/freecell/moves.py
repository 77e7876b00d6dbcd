"""Move generation and application for the fused kernel: the engine's results, cheaper.

``legal_masked`` lists the moves of ``rules.freecell.legal_moves(state, buf, 0)`` in the same
order, or with ``pruned`` that list without two kinds of moves that winning lines seldom need
(docs/freecell.md, "Search move set"); ``apply_child`` / ``drag_to_row`` leave exactly the
array ``rules.freecell.apply`` leaves (tests compare them on random playouts).  What they save
is described with each kernel; card attributes come from lookup tables, cheaper than
Python-semantics ``%`` and ``//`` on signed integers.
"""
import numpy as np

from rules import freecell as fc
from rules._jit import jit
from rules.cards import EMPTY
from rules.moves import DRAG
from solvers.games.freecell.inlining import jit_leaf

FREE, HOME, HIGH, HEIGHT = fc.FREE, fc.HOME, fc.HIGH, fc.HEIGHT
COLS, COL_WIDTH, STATE_SIZE = fc.COLS, fc.COL_WIDTH, fc.STATE_SIZE
FIRST_HOME, FIRST_COL = fc.FIRST_HOME, fc.FIRST_COL

RANK0 = np.array([c % 13 for c in range(52)], dtype=np.int64)      # rank - 1
SUIT = np.array([c // 13 for c in range(52)], dtype=np.int64)
RED = np.array([1 if c // 13 in (1, 2) else 0 for c in range(52)], dtype=np.int64)
# SEQ[52 * lo + up] = 1 when card ``up`` may sit on card ``lo`` in a sequence (one rank lower,
# the other colour)
SEQ = np.array([1 if (lo % 13 == up % 13 + 1 and (lo // 13 in (1, 2)) != (up // 13 in (1, 2)))
                else 0 for lo in range(52) for up in range(52)], dtype=np.uint8)


@jit
def need_bits(state):
    """4 bits per suit: the rank each suit needs next on the foundations (14 = complete)."""
    need = 0x1111
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY:
            sh = 4 * (top // 13)
            need = (need & ~(15 << sh)) | ((top % 13 + 2) << sh)
    return need


@jit
def need_mask(need):
    """Bit ``c`` set for each card ``c`` some suit needs next (``need`` from :func:`need_bits`)."""
    mask = np.int64(0)
    for s in range(4):
        r = (need >> (4 * s)) & 15
        if r <= 13:
            mask |= np.int64(1) << (13 * s + r - 1)
    return mask


@jit
def autoplay_pending(state):
    """True when ``rules.freecell.autoplay`` would move a card (spec 4.5), cheaply.

    The engine's scan looks for the first top card ``c`` with ``rank(c) <= limit(colour)``
    that its homecell accepts; a homecell accepts ``c`` exactly when ``rank(c)`` is one more
    than the height of ``c``'s suit on the foundations (a suit's cards sit on one homecell, A
    upwards; an Ace goes to an empty homecell, and one is free while its suit has none).
    """
    black_min = min(state[HIGH + 0], state[HIGH + 3])
    red_min = min(state[HIGH + 1], state[HIGH + 2])
    limit_red = min(2 + black_min, 3 + red_min)
    limit_black = min(2 + red_min, 3 + black_min)
    need = need_bits(state)
    for k in range(12):
        if k < 4:
            c = state[FREE + k]
        else:
            col = k - 4
            h = state[HEIGHT + col]
            c = state[COLS + col * COL_WIDTH + h - 1] if h > 0 else EMPTY
        if c == EMPTY:
            continue
        r = c % 13 + 1
        if r != ((need >> (4 * (c // 13))) & 15):
            continue
        if r <= (limit_red if RED[c] == 1 else limit_black):
            return True
    return False


@jit
def card_pending(state, c):
    """Would autoplay send card ``c`` (a top card) home now?  (Spec 4.5, as above.)"""
    r = RANK0[c] + 1
    want = 1
    for i in range(4):
        top = state[HOME + i]
        if top != EMPTY and SUIT[top] == SUIT[c]:
            want = RANK0[top] + 2
    if r != want:
        return False
    black_min = min(state[HIGH + 0], state[HIGH + 3])
    red_min = min(state[HIGH + 1], state[HIGH + 2])
    if RED[c] == 1:
        return r <= min(2 + black_min, 3 + red_min)
    return r <= min(2 + red_min, 3 + black_min)


@jit
def apply_child(state, move, fixpoint):
    """``rules.freecell.apply`` for solver moves, skipping autoplay's scan when nothing can go.

    The drag is played as in the engine, and ``rules.freecell.autoplay`` runs whenever a card
    could go.  ``fixpoint``: ``state`` is an autoplay fixpoint (any position an action
    produced).  Then a drag that sends nothing home can only make the newly exposed top of a
    source column playable (limits and foundations are unchanged, and the moved cards were
    tops already), so only that card is checked; otherwise every top card is.
    """
    src = (move >> 16) & 0xFF
    if (move >> 24) != DRAG or FIRST_HOME <= src < FIRST_COL:
        fc.apply(state, move)
        return
    n = (move >> 8) & 0xFF
    dst = move & 0xFF
    fc.drag(state, src, n, dst)
    if fixpoint and not (FIRST_HOME <= dst < FIRST_COL):
        if src < FIRST_COL:
            return
        sc = src - FIRST_COL
        h = state[HEIGHT + sc]
        if h == 0 or not card_pending(state, state[COLS + sc * COL_WIDTH + h - 1]):
            return
    elif not autoplay_pending(state):
        return
    fc.autoplay(state)


@jit
def drag_to_row(pool, k, st, src, n, dst):
    """Row ``k`` of ``pool`` becomes ``st`` after a drag of ``n`` cards from ``src`` to ``dst``
    that sends nothing home (free cells and columns only; the caller checked): what
    ``apply_child`` gives, since such a drag changes no score, ``high[]`` or homecell, written
    straight into the row without a second copy of the position or autoplay's checks."""
    for j in range(STATE_SIZE):
        pool[k, j] = st[j]
    if src < FIRST_HOME:
        first = FREE + src
        pool[k, first] = EMPTY
    else:
        sc = src - FIRST_COL
        h = st[HEIGHT + sc] - n
        pool[k, HEIGHT + sc] = h
        first = COLS + sc * COL_WIDTH + h
        for i in range(n):
            pool[k, first + i] = EMPTY
    if dst < FIRST_HOME:
        pool[k, FREE + dst] = st[first]
    else:
        dc = dst - FIRST_COL
        h = st[HEIGHT + dc]
        out = COLS + dc * COL_WIDTH + h
        for i in range(n):
            pool[k, out + i] = st[first + i]
        pool[k, HEIGHT + dc] = h + n


@jit_leaf
def _home_moves(state, buf, count, src, card, first_home):
    """List the drag of ``card`` (top of slot ``src``) to a homecell at ``buf[count:]``: an Ace
    to the first empty one, another card onto the homecell topped by the card one rank lower
    (card code ``card - 1``).  Returns the new count."""
    if RANK0[card] == 0:
        buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | (FIRST_HOME + first_home)
        return count + 1
    for h in range(4):
        if state[HOME + h] == card - 1:
            buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | (FIRST_HOME + h)
            count += 1
    return count


@jit
def legal_masked(state, buf, colmask, pruned):
    """``rules.freecell.legal_moves(state, buf, 0)``: the same moves in the same order, given a
    scratch array ``colmask`` of 26 int64.  With ``pruned``, without a column's top card to a
    free cell when it lies on its natural parent (one rank higher, other colour), and without
    a group to an empty column other than the largest that fits there (the search move set).

    Savings over the engine: the pending-autoplay test is :func:`autoplay_pending`; a card
    goes to a homecell only as an Ace to the first empty one, or onto the homecell whose top
    is the card one rank lower (card code ``c - 1``); and destinations come from
    ``colmask[2 * (rank - 1) + red]``, the set of columns whose top card has that rank and
    colour: a card (or the bottom of a group of n cards) fits on exactly one (rank, colour),
    so only the columns in those sets (and the first empty column) are looked at, in
    ascending order as the engine lists them.
    """
    count = 0
    empty_free = 0
    first_free = -1
    for i in range(4):
        if state[FREE + i] == EMPTY:
            empty_free += 1
            if first_free < 0:
                first_free = i
    for j in range(26):
        colmask[j] = 0
    empty_cols = 0
    first_col = -1
    for i in range(8):
        h = state[HEIGHT + i]
        if h == 0:
            empty_cols += 1
            if first_col < 0:
                first_col = i
        else:
            t = state[COLS + i * COL_WIDTH + h - 1]
            colmask[2 * RANK0[t] + RED[t]] |= 1 << i
    empty_bit = 0 if first_col < 0 else 1 << first_col
    first_home = -1
    for h in range(4):
        if state[HOME + h] == EMPTY:
            first_home = h
            break
    pending = autoplay_pending(state) if empty_cols > 0 else False
    to_empty_cap = (empty_free + 1) << max(empty_cols - 1, 0)
    to_full_cap = (empty_free + 1) << empty_cols

    for s in range(4):
        c = state[FREE + s]
        if c == EMPTY:
            continue
        rc = RANK0[c]
        count = _home_moves(state, buf, count, s, c, first_home)
        cand = empty_bit
        if rc < 12:
            cand |= colmask[2 * (rc + 1) + 1 - RED[c]]
        for col in range(8):
            if (cand >> col) & 1:
                buf[count] = (DRAG << 24) | (s << 16) | (1 << 8) | (FIRST_COL + col)
                count += 1

    # rules.freecell.legal_moves' column sources, pruned and masked for the search (docstring)
    for sc in range(8):
        h_src = state[HEIGHT + sc]
        if h_src == 0:
            continue
        base = COLS + sc * COL_WIDTH
        top = state[base + h_src - 1]
        src = FIRST_COL + sc
        if first_free >= 0 and not (pruned and h_src >= 2
                                    and SEQ[52 * state[base + h_src - 2] + top] == 1):
            buf[count] = (DRAG << 24) | (src << 16) | (1 << 8) | first_free
            count += 1
        rtop = RANK0[top]
        count = _home_moves(state, buf, count, src, top, first_home)
        run = 1
        upper = top
        while run < h_src:
            lower = state[base + h_src - run - 1]
            if SEQ[52 * lower + upper] == 0:
                break
            upper = lower
            run += 1
        # the group of n cards goes on a top of rank rtop + n + 1 (1-based) and colour
        # red(top) ^ (n & 1) (colours alternate up a run)
        red_top = RED[top]
        cand = empty_bit
        for n in range(1, run + 1):
            if rtop + n > 12:
                break
            cand |= colmask[2 * (rtop + n) + (red_top ^ (n & 1))]
        if cand == 0:
            continue
        for dc in range(8):
            if (cand >> dc) & 1 == 0:
                continue
            h_dst = state[HEIGHT + dc]
            if h_dst == 0:
                largest = min(run, to_empty_cap)
                for n in range(1 if not pruned else largest, largest + 1):
                    if n == h_src and not pending:
                        continue
                    buf[count] = (DRAG << 24) | (src << 16) | (n << 8) | (FIRST_COL + dc)
                    count += 1
            else:
                t = state[COLS + dc * COL_WIDTH + h_dst - 1]
                n = RANK0[t] - rtop
                if n < 1 or n > run:
                    continue
                if RED[state[base + h_src - n]] == RED[t]:
                    continue
                if n <= to_full_cap:
                    buf[count] = (DRAG << 24) | (src << 16) | (n << 8) | (FIRST_COL + dc)
                    count += 1
    return np.int64(count)
