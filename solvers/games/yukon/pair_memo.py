"""The pair test inside the search, with a memo of its refutations (the *pair search*).

A solver state that carries a memo's address (:func:`attach`) has the heuristic call
:func:`memo_dead_end` on each new position the dead-end test leaves alive:

* a refutation kept in the memo for the position's *stage* (its face-down cards and cards on
  the tableau) refutes it when every pair of its facts, named in that refutation's task, lies
  in the refutation's closed set of pairs (a few microseconds each; up to ``WAYS`` are kept
  for a stage, since the positions of one stage differ in arrangement and one refutation
  seldom covers another's);
* otherwise, if the position's stage differs from its parent's (a card turned up or went
  home) and that stage has not yet passed the test: if a kept refutation of the stage names
  all of the position's facts, the position's pairs are *merged* into it -- added to its rows
  and the fixpoint run on from there, only the actions the new pairs touch looked at; when a
  ``home`` fact is still missing, the grown rows replace the kept ones and refute both;
  failing that, the pair test runs (about 0.2 ms), and a refutation is kept, replacing the
  oldest one of its set.  On hard proofs a merge nearly always refutes, and costs a fraction
  of a test.

Why a kept refutation, merged or not, refutes other positions: docs/yukon.md, "The pair
search".  The memo is one ``uint64`` array; a search owns it and must keep it alive while
states carry its address.  One thread only: entries are written in place.
"""
import numpy as np
from numba import carray, types
from numba.extending import intrinsic

from rules._jit import jit
from rules.hashing import splitmix64
from rules.yukon import CAP, DOWN, HEIGHT, N_PILES, STATE_SIZE, TAB
from solvers.games.yukon.cards import stack_array
from solvers.games.yukon.pairs import (A_WIDTH, MAX_ACTIONS, MAX_FACTS, MAX_SUPPORTS, ROWS, WORDS, _CLEAR, _DOWN,
                    _HOME, _IDS, _N_DEST, _NOW, _S, _has, _set, fixpoint, pair_refutes, task)
from solvers.games.yukon.state import MEMO, STAGE

SETS, WAYS = 256, 4            # refutations kept: a set by stage key, the oldest of 4 replaced
PASSED = 4096                  # stage keys that passed the test (direct-mapped)
_POSITION = (STATE_SIZE + 3) // 4       # a rules state, four int16 entries a word
# key, the refutation's pair rows, its task's fact ids (each + 1), the refuted position (its
# task is built again for a merge)
ENTRY = 1 + ROWS + _IDS + _POSITION
HEADER = 8                     # counters (below)
_PASSED_AT = HEADER
_NEXT_AT = _PASSED_AT + PASSED          # each set's next way to replace
_ENTRIES_AT = _NEXT_AT + SETS
MEMO_WORDS = _ENTRIES_AT + SETS * WAYS * ENTRY
# tests, refutations by test, checks, refutations kept, merges tried, merges that refuted
TESTS, REFUTED, CHECKS, REUSED, MERGES, MERGED = range(6)
_MAX_LISTED = 128              # a position's facts: 52 on or home, 45 up or down, 7 clear

_facts_scratch = stack_array(types.int64, _MAX_LISTED)
_mask_scratch = stack_array(types.uint64, WORDS)


def new_memo():
    """An empty memo (``MEMO_WORDS`` words, about 32 MB, zeroed lazily by the system)."""
    return np.zeros(MEMO_WORDS, dtype=np.uint64)


def attach(state, memo):
    """Write ``memo``'s address into solver state ``state`` (0 detaches: no memo)."""
    addr = 0 if memo is None else memo.ctypes.data
    for i in range(4):
        word = (addr >> (16 * i)) & 0xFFFF
        state[MEMO + i] = word - 0x10000 if word >= 0x8000 else word


@intrinsic
def _u64_at(typingctx, addr):
    """A uint64 pointer to integer address ``addr``."""
    sig = types.CPointer(types.uint64)(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@jit
def memo_address(state):
    """The memo address :func:`attach` wrote into ``state`` (0: none)."""
    addr = np.int64(0)
    for i in range(4):
        addr |= (np.int64(state[MEMO + i]) & 0xFFFF) << (16 * i)
    return addr


@jit
def stage_signature(state):
    """Face-down cards and cards on the tableau, as one number: it changes exactly when a card
    turns up or goes home (the legal plug stores the parent's in ``STAGE``)."""
    nd = 0
    n = 0
    for p in range(N_PILES):
        nd += np.int64(state[DOWN + p])
        n += np.int64(state[HEIGHT + p])
    return nd * 64 + n


@jit
def _stage_key(state):
    down = np.uint64(0)
    tableau = np.uint64(0)
    for p in range(N_PILES):
        for i in range(np.int64(state[HEIGHT + p])):
            b = np.uint64(1) << np.uint64(state[TAB + p * CAP + i])
            tableau |= b
            if i < np.int64(state[DOWN + p]):
                down |= b
    return splitmix64(down * np.uint64(0x9E3779B97F4A7C15) ^ splitmix64(tableau)) | np.uint64(1)


@jit
def _id(entry, i):
    return np.int64(entry[1 + ROWS + i]) - 1


@jit
def _facts_in(state, entry, facts):
    """``state``'s facts named in ``entry``'s task, listed in ``facts``: their count, or -1 if
    one has no name there (a card home or lying elsewhere in the task's position, a face-down
    card that was face up, a top the task has no ``clear`` for)."""
    nf = 0
    tableau = np.uint64(0)
    # the pile walk of pairs.pair_task, which names these facts; here they are looked up
    for p in range(N_PILES):
        h = np.int64(state[HEIGHT + p])
        nd = np.int64(state[DOWN + p])
        below = 52 + p
        for i in range(h):
            c = np.int64(state[TAB + p * CAP + i])
            tableau |= np.uint64(1) << np.uint64(c)
            if _id(entry, _HOME + c) < 0:
                return -1
            k = _id(entry, _N_DEST + c)
            k_all = k + 1 if _id(entry, _NOW + c) == k else k
            f = -1
            for j in range(k_all):
                if _id(entry, c * MAX_SUPPORTS + j) == below:
                    f = _id(entry, _S + c * MAX_SUPPORTS + j)
            if f < 0:
                return -1
            facts[nf] = f
            nf += 1
            d = _id(entry, _DOWN + c)
            if i < nd:
                if d < 0:
                    return -1
                facts[nf] = d
                nf += 1
            elif d >= 0:
                facts[nf] = d + 1
                nf += 1
            below = c
        f = _id(entry, _CLEAR + below)
        if f < 0:
            return -1
        facts[nf] = f
        nf += 1
    for c in range(52):
        home = _id(entry, _HOME + c)
        if home >= 0 and (tableau >> np.uint64(c)) & np.uint64(1) == 0:
            facts[nf] = home
            nf += 1
            d = _id(entry, _DOWN + c)
            if d >= 0:
                facts[nf] = d + 1
                nf += 1
    return nf


@jit
def _pairs_kept(entry, facts, nf):
    """True if every pair of ``facts[:nf]`` is in ``entry``'s rows."""
    mask = carray(_mask_scratch(), WORDS)
    for w in range(WORDS):
        mask[w] = np.uint64(0)
    for i in range(nf):
        _set(mask, 0, facts[i])
    for i in range(nf):
        base = 1 + facts[i] * WORDS
        for w in range(WORDS):
            if entry[base + w] & mask[w] != mask[w]:
                return False
    return True


@jit
def memo_dead_end(state, memo):
    """True when a refutation in ``memo`` covers ``state`` or, on a new stage, the pair test
    refutes it (and is kept); see the module docstring."""
    key = _stage_key(state)
    kept = np.int64(key & np.uint64(SETS - 1))          # the stage's set
    first = _ENTRIES_AT + kept * WAYS * ENTRY
    for way in range(WAYS):
        entry = memo[first + way * ENTRY:first + (way + 1) * ENTRY]
        if entry[0] == key:
            memo[CHECKS] += 1
            facts = carray(_facts_scratch(), _MAX_LISTED)
            nf = _facts_in(state, entry, facts)
            if nf >= 0 and _pairs_kept(entry, facts, nf):
                memo[REUSED] += 1
                return True
    if np.int64(state[STAGE]) == stage_signature(state):
        return False
    passed = _PASSED_AT + np.int64(key & np.uint64(PASSED - 1))
    if memo[passed] == key:
        return False
    for way in range(WAYS):
        entry = memo[first + way * ENTRY:first + (way + 1) * ENTRY]
        if entry[0] == key:
            merged = _merge(state, entry)
            if merged >= 0:
                memo[MERGES] += 1
            if merged == 1:
                memo[MERGED] += 1
                return True
    memo[TESTS] += 1
    ids = np.empty(_IDS, np.int16)
    rows = np.zeros(ROWS, np.uint64)
    if not pair_refutes(state, ids, rows):
        memo[passed] = key
        return False
    memo[REFUTED] += 1
    way = np.int64(memo[_NEXT_AT + kept]) % WAYS
    memo[_NEXT_AT + kept] += 1
    entry = memo[first + way * ENTRY:first + (way + 1) * ENTRY]
    entry[0] = key
    for i in range(ROWS):
        entry[1 + i] = rows[i]
    for i in range(_IDS):
        entry[1 + ROWS + i] = np.uint64(np.int64(ids[i]) + 1)
    _keep_position(entry, state)
    return True


@jit
def _keep_position(entry, state):
    """``state``'s rules entries into ``entry``'s last words, four 16-bit fields a word."""
    at = 1 + ROWS + _IDS
    for w in range(_POSITION):
        entry[at + w] = np.uint64(0)
    for i in range(STATE_SIZE):
        entry[at + i // 4] |= np.uint64(np.int64(state[i]) & 0xFFFF) << np.uint64(16 * (i % 4))


@jit
def _kept_position(entry):
    """The rules state :func:`_keep_position` kept in ``entry``."""
    at = 1 + ROWS + _IDS
    out = np.empty(STATE_SIZE, np.int16)
    for i in range(STATE_SIZE):
        v = np.int64((entry[at + i // 4] >> np.uint64(16 * (i % 4))) & np.uint64(0xFFFF))
        out[i] = np.int16(v - 65536 if v >= 32768 else v)
    return out


@jit
def _merge(state, entry):
    """Merge ``state``'s pairs into ``entry``'s refutation (see the module docstring): -1 when
    its task lacks a name for one of ``state``'s facts, 1 when the grown rows still leave a
    ``home`` fact out (they replace the entry's), else 0 (the entry is unchanged)."""
    facts = carray(_facts_scratch(), _MAX_LISTED)
    nf = _facts_in(state, entry, facts)
    if nf < 0:
        return -1
    refuted = _kept_position(entry)
    ids = np.empty(_IDS, np.int16)
    acts = np.empty(MAX_ACTIONS * A_WIDTH, np.int16)
    n, n_acts, _ = task(refuted, ids, acts)
    rows = entry[1:1 + ROWS].copy()
    flags = np.zeros(2 * MAX_FACTS, np.uint8)
    for i in range(nf):
        f = facts[i]
        for j in range(nf):
            g = facts[j]
            if not _has(rows, f * WORDS, g):
                _set(rows, f * WORDS, g)
                flags[f] = 1
    if fixpoint(rows, acts, n, n_acts, flags, ids[_HOME:_HOME + 52]):
        return 0
    for i in range(ROWS):          # a loop: slice assignment compiles its error message (2 s)
        entry[1 + i] = rows[i]
    return 1


@jit
def memo_at(addr):
    """The memo at address ``addr`` (not 0), as :func:`memo_address` reads it off a state."""
    return carray(_u64_at(addr), (MEMO_WORDS,))
