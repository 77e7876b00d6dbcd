"""The solver state: a :mod:`rules.yukon` state array followed by the search's own words.

After the rules state come the probe's salt (0: no noise, see :mod:`.heuristic`), then each
pile's two hash terms (4 int16 words per 64-bit term, at ``PILE_H1 + 4*p`` and
``PILE_H2 + 4*p``) so that a child's hashes recompute only the piles a move changes, each
pile's part of the heuristic that depends on it alone (``PILE_SCORE + p``), a bit mask of the
piles whose stored words are stale (``DIRTY``), and the two hashes' sums over the piles
(``SUM1``, ``SUM2``, valid when ``DIRTY`` is 0), and for the class search three 64-bit words a pile
(from ``CLASS_TERMS``: its two segment-hash terms, its face-up cards with its joint count in
the top byte) and the cards in King chains (``CHAINS``, one 64-bit word), written by its
``legal`` for the parent's children, and a count and up to ``STASH_SIZE``
entries (a move code, its child's two hashes) of the class keys that ``legal`` computed for
members' moves (:mod:`.classes`); then the parent's stage signature (``STAGE``, written by the
class search's ``legal``) and the address of the pair search's memo in four words (``MEMO``, 0
for none; :mod:`.pair_memo`).  The plug's ``apply`` only marks the piles it
changes: most positions built are scored and never expanded, so ``legal`` brings the stored
words up to date (:func:`solvers.games.yukon.hashing.refresh`) when a position is expanded.  Rules
kernels never read these words; copies carry them along.
"""
from rules.yukon import N_PILES, STATE_SIZE

SALT = STATE_SIZE
PILE_H1 = SALT + 1
PILE_H2 = PILE_H1 + 4 * N_PILES
PILE_SCORE = PILE_H2 + 4 * N_PILES
DIRTY = PILE_SCORE + N_PILES
SUM1 = DIRTY + 1
SUM2 = SUM1 + 4
CLASS_TERMS = SUM2 + 4
CHAINS = CLASS_TERMS + 12 * N_PILES
STASH = CHAINS + 4
STASH_SIZE = 31
STAGE = STASH + 1 + 10 * STASH_SIZE
MEMO = STAGE + 1
SOLVER_STATE_SIZE = (MEMO + 4 + 31) // 32 * 32   # whole 64-byte cache lines
