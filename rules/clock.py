"""Clock (Aisleriot ``games/clock.scm``; spec section 3).

Thirteen slots of four cards, each with a clock rank (slot 2 = Ace ... slot 1 = Queen, the
centre slot 6 = King).  The game plays itself: at every moment exactly one game move exists.

* **Place** (``drag 6 1 d`` or ``dbl d``): the centre's top card ``c`` (not a King) goes on top
  of the pile ``d`` of its rank, that pile's *bottom* card goes face up on top of the centre,
  score +1.  Every slot therefore always holds exactly four cards.
* **King turn** (``click s``): when slot ``s`` has a face-up King on top, the centre's bottom
  card moves to the centre's top, face up.  Aisleriot's ``button-clicked`` tests the clicked
  slot but always turns the centre; only the centre can show a King in play, but hand-made
  layouts can put one on an outer pile, and then ``click s`` is accepted too.
* **End**: the continue predicate is false when the centre's bottom card is face up and its top
  card is a King (the 4th King).  **Won** is the *code's* test -- no face-down card anywhere --
  not the help text's "a face-down card on its own pile is fine" (spec 3.6).  ``click`` is still
  accepted in a finished position (the trace records it), so ``legal_moves`` lists it there.

State array (``np.int16``, ``STATE_SIZE`` entries; offsets are module constants):

==========  ======  ===========================================================================
offset      length  meaning
==========  ======  ===========================================================================
``CARDS``   52      card at position ``p`` (0 = bottom .. 3 = top) of slot ``s``: ``CARDS+4*s+p``
``UP``      52      1 if that card is face up, same indexing
``SCORE``   1       Aisleriot's score
==========  ======  ===========================================================================

Any mix of face-up and face-down cards is representable (a placed card keeps its face, exactly
as ``add-cards!`` does), so layouts are only refused for a wrong slot count, a slot that does
not hold four cards (Aisleriot never leaves four-card slots; a fixed-size array is the price of
speed), wrong cards, a negative or huge score, or a non-zero redeal counter.

Where the spec is silent:

* A face-down centre top (hand-made layouts only) can still be placed: ``button-pressed`` and
  ``button-double-clicked`` look at the card's value, not its face; it stays face down on ``d``.
* Score bound: from any four-card layout at most 48 places can follow.  Call an outer card
  *settled* when it is on its own rank's pile above every wrong card there.  A place puts a
  right card on top (settled) and removes the pile's bottom card, which is never settled (a
  pile of four right cards leaves no card of that rank to place) and whose removal can only
  settle more cards; so the settled count, at most 48, grows with every place.  A layout
  score up to ``MAX_LAYOUT_SCORE`` therefore never overflows ``int16``.
* Solver moves (``faithful=0``): the place as ``drag 6 1 d`` (``dbl d`` is the same move) and
  one ``click`` (all clicks do the same thing), ``click 6`` when the centre allows it.
* Canonical hash: no two Clock slots are interchangeable (each has its own rank), so the hash
  covers every card and face flag in slot order; the score is excluded.

Fast paths: :func:`play_many` plays whole games for many seeds in a kernel that deals with an
exact, lazily twisted MT19937 (see ``_play_block``); :func:`autoplay` plays one seed through the
ordinary kernels and returns the moves.
"""
import numpy as np
import numba

from rules.cards import KING, card_label, card_str, check_deck
from rules.deals import mt_seed, shuffle_into, aisleriot_shuffle, check_aisleriot_seeds
from rules.errors import InvalidDealError
from rules.game import STATE_DTYPE, Game, Kernels, Outcome, Role, SlotPlace
from rules.layout import Layout
from rules._jit import cached_jit, jit
from rules.moves import CLICK, DBL, DRAG, encode, move_dst, move_kind, move_src

# ---- slots and state layout -----------------------------------------------------------------
N_SLOTS = 13
PILE = 4                      # every slot holds exactly four cards
CENTRE = 6
CARDS = 0
UP = CARDS + N_SLOTS * PILE   # 52
SCORE = UP + N_SLOTS * PILE   # 104
STATE_SIZE = SCORE + 1        # 105
MAX_LAYOUT_SCORE = 32767 - 48

# Deal order (spec 3.2): D[k] goes to DEAL_ORDER[k % 12]; DEAL_ORDER[i] is the slot of rank i+1.
DEAL_ORDER = np.array([2, 4, 7, 9, 12, 11, 10, 8, 5, 3, 0, 1], dtype=np.int64)
SLOT_RANK = np.zeros(N_SLOTS, dtype=np.int64)     # slot -> clock rank (1..13)
RANK_SLOT = np.zeros(KING + 1, dtype=np.int64)    # rank -> slot (index 0 unused)
for _i, _s in enumerate(DEAL_ORDER):
    SLOT_RANK[_s] = _i + 1
    RANK_SLOT[_i + 1] = _s
SLOT_RANK[CENTRE] = KING
RANK_SLOT[KING] = CENTRE
SLOT_NAMES = tuple(
    "centre (K)" if s == CENTRE else f"{s} ({'A23456789TJQK'[SLOT_RANK[s] - 1]})" for s in range(N_SLOTS)
)

# MAX_MOVES (faithful): a place needs a non-King centre top, whose rank matches exactly one
# slot, giving `drag 6 1 d` and `dbl d` (2 actions).  A click needs a face-up King on top of the
# clicked slot; there are 4 Kings, so at most 4 clicks.  2 + 4 = 6.  (Grabs of n > 1 cards,
# grabs from other slots, drops elsewhere and `dbl 6` are refused by the rules.)
MAX_MOVES = 6


# ---- deal -----------------------------------------------------------------------------------
def deal_from_deck(deck):
    """State array for ``D`` (first card dealt first), spec 3.2."""
    state = np.zeros(STATE_SIZE, dtype=STATE_DTYPE)
    for k in range(48):
        s = DEAL_ORDER[k % 12]
        state[CARDS + PILE * s + k // 12] = deck[k]
    for p in range(PILE):               # centre bottom -> top: D[51], D[50], D[49], D[48]
        state[CARDS + PILE * CENTRE + p] = deck[51 - p]
    state[UP + PILE * CENTRE + PILE - 1] = 1
    return state


# ---- kernels --------------------------------------------------------------------------------
@jit
def _top_is_up_king(state, s):
    i = PILE * s + PILE - 1
    return state[CARDS + i] % 13 == KING - 1 and state[UP + i] != 0


@jit
def legal_moves(state, buf, faithful):
    n = 0
    top = state[CARDS + PILE * CENTRE + PILE - 1]
    rank = top % 13 + 1
    if rank != KING:
        d = RANK_SLOT[rank]
        buf[n] = encode(DRAG, CENTRE, 1, d)
        n += 1
        if faithful:
            buf[n] = encode(DBL, d, 0, 0)
            n += 1
    if faithful:
        for s in range(N_SLOTS):
            if _top_is_up_king(state, s):
                buf[n] = encode(CLICK, s, 0, 0)
                n += 1
    else:
        if _top_is_up_king(state, CENTRE):
            buf[n] = encode(CLICK, CENTRE, 0, 0)
            n += 1
        else:
            for s in range(N_SLOTS):
                if _top_is_up_king(state, s):
                    buf[n] = encode(CLICK, s, 0, 0)
                    n += 1
                    break
    return n


@jit
def apply(state, move):
    c0 = CARDS + PILE * CENTRE
    u0 = UP + PILE * CENTRE
    if move_kind(move) == CLICK:
        # King turn: the centre's bottom card moves to its top, face up.
        card = state[c0]
        for p in range(PILE - 1):
            state[c0 + p] = state[c0 + p + 1]
            state[u0 + p] = state[u0 + p + 1]
        state[c0 + PILE - 1] = card
        state[u0 + PILE - 1] = 1
        return
    d = move_dst(move) if move_kind(move) == DRAG else move_src(move)
    a = CARDS + PILE * d
    b = UP + PILE * d
    card, up = state[c0 + PILE - 1], state[u0 + PILE - 1]
    bottom = state[a]
    for p in range(PILE - 1):          # pile d: drop its bottom, put the centre's top card on top
        state[a + p] = state[a + p + 1]
        state[b + p] = state[b + p + 1]
    state[a + PILE - 1] = card
    state[b + PILE - 1] = up
    state[c0 + PILE - 1] = bottom       # the old bottom goes face up on the centre
    state[u0 + PILE - 1] = 1
    state[SCORE] += 1


@jit
def won(state):
    for i in range(N_SLOTS * PILE):
        if state[UP + i] == 0:
            return False
    return True


@jit
def status(state):
    if state[UP + PILE * CENTRE] != 0 and state[CARDS + PILE * CENTRE + PILE - 1] % 13 == KING - 1:
        return 1 if won(state) else 2          # Outcome.WON / Outcome.LOST
    return 0


@jit
def score(state):
    return np.int64(state[SCORE])


@jit
def hash_state(state):
    """splitmix64-style mix over (card, face) of every position in slot order; score excluded.
    Its steps are its own, not :mod:`rules.hashing`'s mixers, so that its values stay."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(N_SLOTS * PILE):
        v = np.uint64(state[CARDS + i] * 2 + state[UP + i] + 1)
        h = (h ^ v) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(32)
    return h


KERNELS = Kernels(legal_moves, apply, status, won, hash_state, score)


# ---- whole games, fast ----------------------------------------------------------------------
# The walk only needs ranks.  Outer pile of rank r (order index r-1) yields its four dealt cards
# bottom first: D[r-1], D[r-1+12], D[r-1+24], D[r-1+36] (a pile is popped once per card of its
# rank placed, so never more than four times).  The centre yields D[48] and, at the first three
# Kings, D[51], D[50], D[49]; the fourth King ends the game.  Score = number of pops, and the
# game is won exactly when all 48 outer cards were popped (score 48): the centre is all face up
# by then.
@jit
def _walk_into(ranks, ptr):
    """(won, score) for deal ranks ``ranks[k] = rank(D[k]) - 1``; ``ptr`` is scratch (12)."""
    for p in range(12):
        ptr[p] = 0
    c = ranks[48]
    turns = 0
    placed = 0
    while True:
        if c == KING - 1:
            if turns == 3:
                break
            c = ranks[51 - turns]
            turns += 1
        else:
            k = ptr[c]
            ptr[c] = k + 1
            c = ranks[c + 12 * k]
            placed += 1
    return placed == 48, placed


# Lazily twisted MT19937.  A deal draws 52 outputs unless g_rand_int_range rejects one, which
# happens for about 1 seed in 6 million.  Output k < 227 of the first twist needs only the seeded
# words mt[k], mt[k+1] and mt[k+397], so for outputs 0..51 we keep mt[0..52] and mt[397..448]
# and never compute mt[449..623] nor twist words 52..623.  Seeds are processed LANES at a time
# with the lane index innermost, so the serial init_genrand chains of different seeds overlap
# (and vectorise).  A seed that needs a rejection is replayed with the full generator of
# rules.deals, so the result is exact for every seed.
LANES = 64
_NEED = 52
_LO = _NEED + 1               # mt[0 .. 52]
_HI0 = 397                    # mt[397 .. 448]
_STEPS = 52                   # a game takes at most 48 places + 3 turns + the final King
_LIMITS = np.array([0xFFFFFFFF - (2**32 % (52 - k)) for k in range(_NEED)], dtype=np.uint32)
_INV = np.array([1.0 / (52 - k) for k in range(_NEED)])
_RANK_TEMPLATE = (np.arange(52) % 13).astype(np.int32)
# Walk on the forward shuffle v (D[k] = v[51 - k]): centre top D[48] = v[3]; the turns read
# D[51], D[50], D[49] = v[0], v[1], v[2]; after the third turn a King reads the sentinel v[52]
# (a King), so a finished game stays put and lanes can walk in lock step without branches.
_TURN_INDEX = np.array([0, 1, 2, 52], dtype=np.int64)


@jit
def _play_block(seeds, start, count, won_out, score_out, lo, hi, x, raw, rej, ranks, ptr, walk, mt, pos, deck):
    """Play seeds[start:start+count] (count <= LANES) into won_out/score_out."""
    # 1. init_genrand for LANES seeds at once, keeping only the words the first 52 outputs use.
    m = np.uint32(1812433253)
    for l in range(LANES):
        x[l] = np.uint32(seeds[start + l]) if l < count else np.uint32(0)
        lo[0, l] = x[l]
    for i in range(1, _LO):
        iu = np.uint32(i)
        for l in range(LANES):
            v = x[l]
            v = m * (v ^ (v >> np.uint32(30))) + iu
            x[l] = v
            lo[i, l] = v
    for i in range(_LO, _HI0):
        iu = np.uint32(i)
        for l in range(LANES):
            v = x[l]
            x[l] = m * (v ^ (v >> np.uint32(30))) + iu
    for i in range(_HI0, _HI0 + _NEED):
        iu = np.uint32(i)
        for l in range(LANES):
            v = x[l]
            v = m * (v ^ (v >> np.uint32(30))) + iu
            x[l] = v
            hi[i - _HI0, l] = v
    # 2. Twist + temper outputs 0..51, and R(52 - k) = output mod (52 - k).
    for l in range(LANES):
        rej[l] = False
    for k in range(_NEED):
        n = np.uint32(52 - k)
        for l in range(LANES):
            y = (lo[k, l] & np.uint32(0x80000000)) | (lo[k + 1, l] & np.uint32(0x7FFFFFFF))
            v = hi[k, l] ^ (y >> np.uint32(1)) ^ ((np.uint32(0) - (y & np.uint32(1))) & np.uint32(0x9908B0DF))
            v ^= v >> np.uint32(11)
            v ^= (v << np.uint32(7)) & np.uint32(0x9D2C5680)
            v ^= (v << np.uint32(15)) & np.uint32(0xEFC60000)
            v ^= v >> np.uint32(18)
            # No integer division: the float quotient is within 1e-6 of v / n (v < 2**32, two
            # roundings of relative size 2**-53), so truncating it gives floor(v / n) or one
            # less; one correction makes the remainder exact.
            q = np.uint32(np.float64(v) * _INV[k])
            rem = v - q * n
            rem = rem - n if rem >= n else rem
            raw[k, l] = rem
            rej[l] |= v > _LIMITS[k]
    # 3. Shuffle ranks (forward Fisher-Yates; v stays unreversed).
    for l in range(count):
        if not rej[l]:
            for i in range(52):
                ranks[l, i] = _RANK_TEMPLATE[i]
            for i in range(52):
                j = i + np.int64(raw[i, l])
                t = ranks[l, i]
                ranks[l, i] = ranks[l, j]
                ranks[l, j] = t
        else:                           # a rejection: replay this seed with the full generator
            mt_seed(mt, seeds[start + l])
            pos[0] = 624
            shuffle_into(mt, pos, deck, 52)
            for i in range(52):
                ranks[l, 51 - i] = deck[i] % 13
        ranks[l, 52] = KING - 1
    # 4. Walk all lanes in lock step (walk[0] = current rank-1, walk[1] = turns, walk[2] = placed).
    for l in range(count):
        walk[0, l] = ranks[l, 3]
        walk[1, l] = 0
        walk[2, l] = 0
        for p in range(13):
            ptr[l, p] = 0
    for step in range(_STEPS):
        for l in range(count):
            c = walk[0, l]
            turns = walk[1, l]
            king = np.int64(c == KING - 1)
            k = ptr[l, c]
            ptr[l, c] = k + 1 - king         # ptr[l, 12] (Kings) is never read
            idx = _TURN_INDEX[turns] if king else 51 - c - 12 * k
            walk[0, l] = ranks[l, idx]
            walk[1, l] = min(turns + king, 3)
            walk[2, l] += 1 - king
    for l in range(count):
        score_out[start + l] = walk[2, l]
        won_out[start + l] = walk[2, l] == 48


def _scratch():
    return (np.empty((_LO, LANES), np.uint32), np.empty((_NEED, LANES), np.uint32),
            np.empty(LANES, np.uint32), np.empty((_NEED, LANES), np.uint32), np.empty(LANES, np.bool_),
            np.empty((LANES, 53), np.int32), np.empty((LANES, 13), np.int32),
            np.empty((3, LANES), np.int32), np.empty(624, np.uint32), np.zeros(1, np.int64),
            np.empty(52, np.int64))


@jit
def _play_many_kernel(seeds, won_out, score_out, lo, hi, x, raw, rej, ranks, ptr, walk, mt, pos, deck):
    n = seeds.shape[0]
    for start in range(0, n, LANES):
        count = min(LANES, n - start)
        _play_block(seeds, start, count, won_out, score_out, lo, hi, x, raw, rej, ranks, ptr, walk,
                    mt, pos, deck)


def _play_chunks_parallel(seeds, won_out, score_out, chunks):
    """Same as _play_many_kernel, with ``chunks`` threads, each with its own scratch."""
    n = seeds.shape[0]
    blocks = (n + LANES - 1) // LANES
    for c in numba.prange(chunks):
        lo = np.empty((_LO, LANES), np.uint32)
        hi = np.empty((_NEED, LANES), np.uint32)
        x = np.empty(LANES, np.uint32)
        raw = np.empty((_NEED, LANES), np.uint32)
        rej = np.empty(LANES, np.bool_)
        ranks = np.empty((LANES, 53), np.int32)
        ptr = np.empty((LANES, 13), np.int32)
        walk = np.empty((3, LANES), np.int32)
        mt = np.empty(624, np.uint32)
        pos = np.zeros(1, np.int64)
        deck = np.empty(52, np.int64)
        for b in range(c * blocks // chunks, (c + 1) * blocks // chunks):
            start = b * LANES
            count = min(LANES, n - start)
            _play_block(seeds, start, count, won_out, score_out, lo, hi, x, raw, rej, ranks, ptr, walk,
                        mt, pos, deck)


_play_many_parallel = cached_jit(parallel=True)(_play_chunks_parallel)


def _check_seeds(seeds):
    return np.ascontiguousarray(check_aisleriot_seeds(seeds))


def play_many(seeds, parallel=False):
    """Play Clock to the end for every Aisleriot seed: ``(won bool array, score int array)``.

    ``parallel=True`` spreads the seeds over Numba's threads; the result is the same.
    """
    seeds = _check_seeds(seeds)
    won_out = np.zeros(seeds.shape[0], dtype=np.bool_)
    score_out = np.zeros(seeds.shape[0], dtype=np.int64)
    if parallel:
        chunks = max(1, min(numba.get_num_threads(), (seeds.shape[0] + LANES - 1) // LANES))
        _play_many_parallel(seeds, won_out, score_out, chunks)
    else:
        _play_many_kernel(seeds, won_out, score_out, *_scratch())
    return won_out, score_out


@jit
def _play_reference_kernel(seeds, won_out, score_out, mt, pos, deck, ranks, ptr):
    """Straightforward version (full generator of rules.deals); the fast kernel is tested on it."""
    for k in range(seeds.shape[0]):
        mt_seed(mt, seeds[k])
        pos[0] = 624
        shuffle_into(mt, pos, deck, 52)
        for i in range(52):
            ranks[i] = deck[i] % 13
        w, s = _walk_into(ranks, ptr)
        won_out[k] = w
        score_out[k] = s


def play_many_reference(seeds):
    """:func:`play_many` through the plain generator kernels of :mod:`rules.deals` (slower)."""
    seeds = _check_seeds(seeds)
    won_out = np.zeros(seeds.shape[0], dtype=np.bool_)
    score_out = np.zeros(seeds.shape[0], dtype=np.int64)
    _play_reference_kernel(seeds, won_out, score_out, np.empty(624, np.uint32), np.zeros(1, np.int64),
                           np.empty(52, np.int64), np.empty(52, np.int8), np.empty(12, np.int8))
    return won_out, score_out


# ---- one game, move by move -----------------------------------------------------------------
def play(state):
    """Play the forced moves from ``state`` (a :class:`.State`, changed in place) to the end.

    Places are played as ``drag 6 1 d``.  Returns the list of moves played.
    """
    moves = []
    while state.outcome == Outcome.ONGOING:
        options = state.legal_moves(distinct=True)
        if not options:          # only hand-made layouts can get stuck (face-down King on top)
            break
        moves.append(state.apply(options[0]))
    return moves


def autoplay(seed):
    """``(initial_state, moves, final_state)`` for Aisleriot seed ``seed``."""
    initial = GAME.deal(seed)
    final = initial.copy()
    moves = play(final)
    return initial, moves, final


# ---- the game -------------------------------------------------------------------------------
class ClockGame(Game):
    name = "clock"
    title = "Clock"
    n_slots = N_SLOTS
    state_size = STATE_SIZE
    max_moves = MAX_MOVES
    slot_names = SLOT_NAMES
    kernels = KERNELS
    options = {}
    # clock.scm: a 5 x 7 grid of slots and blanks, every slot fanned right; the columns are 1.15
    # units apart so that four right-fanned cards fit between slots.
    picture_places = tuple(SlotPlace(x * 1.15, y, "right") for x, y in (
        (1, 0), (3, 0), (5, 0), (0, 1), (6, 1), (0, 2), (3, 2), (6, 2), (0, 3), (6, 3), (1, 4), (3, 4), (5, 4)))
    slot_roles = (Role.TABLEAU,) * N_SLOTS     # clock.scm: every slot extended; moves read as below
    hides_cards = True
    plays_itself = True

    def describe_move(self, array, move):
        """A place reads ``7♥ to 7 o'clock`` (the outer piles are the hours, Ace at one o'clock,
        Queen at twelve, as Aisleriot draws them); a King turn ``K♣: turn up a centre card``.
        A face-down centre card (hand-made layouts only) is not named."""
        if move.kind == CLICK:
            king = int(array[CARDS + PILE * move.src + PILE - 1])
            return f"{card_label(king)}: turn up a centre card"
        d = move.dst if move.kind == DRAG else move.src
        top = PILE * CENTRE + PILE - 1
        what = card_label(int(array[CARDS + top])) if array[UP + top] else "the face-down centre card"
        return f"{what} to {SLOT_RANK[d]} o'clock"

    def hidden_entries(self, array, history):
        """The face-down cards (the game plays itself: no choice depends on them)."""
        up = array[UP:UP + N_SLOTS * PILE]
        return [CARDS + i for i in np.flatnonzero(up == 0).tolist()]

    def blind_move(self, array, move):
        """A face-down centre card on top is placed by its rank: blind until it shows."""
        if array[UP + PILE * CENTRE + PILE - 1] != 0:
            return False
        return move.kind == DBL or (move.kind == DRAG and move.src == CENTRE)

    def play_forced(self, state):
        return play(state)

    def deal_array(self, seed, numbering, options):
        return deal_from_deck(aisleriot_shuffle(seed, 52))

    def layout_to_array(self, layout: Layout, options):
        if len(layout.slots) != N_SLOTS:
            raise InvalidDealError(f"a Clock layout has {N_SLOTS} slots, got {len(layout.slots)}")
        for s, slot in enumerate(layout.slots):
            if len(slot) != PILE:
                raise InvalidDealError(
                    f"Clock slot {s} holds {len(slot)} cards; every Clock slot holds exactly {PILE}")
        check_deck((c for slot in layout.slots for c, _ in slot), "Clock layout")
        if not 0 <= layout.score <= MAX_LAYOUT_SCORE:
            raise InvalidDealError(f"Clock score {layout.score!r} is outside 0..{MAX_LAYOUT_SCORE}")
        if layout.redeals != 0:
            raise InvalidDealError(f"Clock has no redeals; redeal counter {layout.redeals!r} must be 0")
        state = np.zeros(STATE_SIZE, dtype=STATE_DTYPE)
        for s, slot in enumerate(layout.slots):
            for p, (card, up) in enumerate(slot):
                state[CARDS + PILE * s + p] = card
                state[UP + PILE * s + p] = 1 if up else 0
        state[SCORE] = layout.score
        return state

    def array_to_layout(self, array) -> Layout:
        a = np.asarray(array)
        slots = tuple(
            tuple((int(a[CARDS + PILE * s + p]), bool(a[UP + PILE * s + p])) for p in range(PILE))
            for s in range(N_SLOTS)
        )
        return Layout(slots, int(a[SCORE]), 0)

    def describe(self, array):
        """The clock face as Aisleriot draws it (spec 3.1), piles bottom to top."""
        layout = self.array_to_layout(array)

        def pile(s):
            return " ".join(card_str(c) + ("" if up else "*") for c, up in layout.slots[s])

        rows = [(None, 0, None, 1, None, 2), (3, None, None, None, None, None, 4),
                (5, None, None, 6, None, None, 7), (8, None, None, None, None, None, 9),
                (None, 10, None, 11, None, 12)]
        width = 15
        lines = []
        for row in rows:
            lines.append("".join((pile(s) if s is not None else "").ljust(width + 1) for s in row).rstrip())
        lines.append(f"score {layout.score}")
        return "\n".join(lines)


GAME = ClockGame()
