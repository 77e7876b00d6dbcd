"""Ten Across (Aisleriot ``games/ten-across.scm``; spec section 6).

Slots: 0 and 1 are the two temporary spots (one card each at most), 2..11 the ten tableau
piles.  Every card is dealt: 5 rounds of serpentine dealing to the piles (face down iff
round ``r <= min(i, 9 - i)`` for column ``i``), then ``D[50]`` face up to slot 1 and ``D[51]``
face up in slot 0, so both spots start full.  There are no foundations: the game is won when
every pile is empty or a face-up King..Ace run of one suit.  No score, no clicks, no autoplay;
the only automatic step is turning up the new top card of a tableau source pile.

State array (``np.int16``, ``STATE_SIZE`` entries; offsets are module constants):

=============  ======  ==========================================================================
offset         length  meaning
=============  ======  ==========================================================================
``OPT``        1       option "Allow temporary spots use" (1 on, 0 off); controls drops INTO spots
``SPOT``       2       card in slot 0 / slot 1, or ``EMPTY``
``HEIGHT``     10      number of cards in tableau pile ``p`` (slot ``p + 2``)
``DOWN``       10      face-down cards of pile ``p``; they are always its bottom ``DOWN`` cards
``PILES``      10*52   pile ``p`` bottom to top at ``PILES + 52*p``; entries above HEIGHT = EMPTY
=============  ======  ==========================================================================

Face-down cards stay a prefix of their pile: the deal puts them at the bottom, drops only add
face-up cards on top, and a pick-up must start at a face-up card.  A layout with a face-down
card above a face-up one (or a face-down spot card) is therefore refused: the array cannot hold
it and Aisleriot cannot reach it.  A face-down *top* card is accepted (the array holds it; the
game reaches it only by hand-made layouts): like Aisleriot's ``droppable?``, which reads
``get-top-card`` without looking at its face, a matching card may then be dropped onto it.

Verdicts: the continue predicate is ``not won``, so :func:`status` is only ``WON`` or
``ONGOING`` -- Ten Across never declares a loss, even when no move is left.  Solvers that want
the "no legal move left" test call the extra kernel :func:`has_any_move` (faithful moves).

Solver moves (``faithful=0``), each choice safe because it only drops positions equal to a kept
one up to a symmetry of the rules:

* a card into an empty spot: only the lowest empty spot (the spots are interchangeable);
* spot -> other spot: dropped; it only swaps which spot holds the card, the same canonical
  position (spots hash as a set), so it can never help;
* a King-led group into an empty pile: only the lowest empty pile.  No rule of Ten Across looks
  at a pile's index (drops, flips and the won test treat the ten piles alike), so positions that
  differ by a permutation of piles have the same future up to that permutation;
* a whole tableau pile (King at the bottom) into an empty pile: dropped, the result is the same
  position with two piles renamed (same argument).

The canonical hash treats the two spots as a set; the tableau piles are hashed in slot order
(cheap; the solver moves above avoid the direct pile renamings, but positions reached by longer
paths that differ only in pile order still hash apart -- hashing the piles as a multiset would
merge them at the cost of sorting ten piles per hash).  The option is hashed too, the score
(always 0) is not.  Unused pile entries are kept ``EMPTY`` so equal positions have equal arrays.
"""
import numpy as np

from rules.cards import EMPTY, aisleriot_card_str, check_deck
from rules.deals import AisleriotRandom, shuffle_many
from rules.errors import InvalidDealError, InvalidStateError
from rules.game import STATE_DTYPE, Game, Kernels, Role, face_down_entries, slot_row
from rules.hashing import FNV_OFFSET, fnv1a, splitmix64
from rules.layout import Layout
from rules._jit import jit
from rules.moves import DRAG, encode, move_dst, move_n, move_src

# ---- slots and state layout -----------------------------------------------------------------
N_SPOTS = 2
N_PILES = 10
N_SLOTS = N_SPOTS + N_PILES
FIRST_PILE = N_SPOTS          # slot id of tableau pile 0
PILE_CAP = 52                 # a pile can in principle hold every card

OPT = 0
SPOT = 1
HEIGHT = SPOT + N_SPOTS       # 3
DOWN = HEIGHT + N_PILES       # 13
PILES = DOWN + N_PILES        # 23
STATE_SIZE = PILES + N_PILES * PILE_CAP   # 543

KING_INDEX = 12               # card % 13 of a King

# MAX_MOVES: a proven bound on the faithful move count.
# * Drops on a NON-EMPTY pile d with top card t need the group's deepest card to be t's same-suit
#   predecessor -- one card, sitting in one place, so at most one (source, n) per d.
# * Drops on an EMPTY pile need a King as the deepest card: at most 4 groups (one per King), each
#   to at most E empty piles.  52 cards cannot fit in the two spots, so E <= 9, and the piles give
#   at most (10 - E) + 4E = 10 + 3E <= 37 tableau drops.
# * Drops into spots need n = 1 and an empty spot: with both spots empty, at most 10 tableau top
#   cards x 2 spots = 20; with one empty, at most 10 tops + the other spot's card = 11.
# Total <= 37 + 20 = 57 <= 64.
MAX_MOVES = 64

SLOT_NAMES = ("spot 0", "spot 1") + tuple(f"pile {s}" for s in range(FIRST_PILE, N_SLOTS))


# ---- deal -----------------------------------------------------------------------------------
@jit
def deal_into(deck, spots_on, state):
    """Kernel: fill ``state`` with the Ten Across deal of ``deck`` (``D``, first dealt first)."""
    for k in range(state.shape[0]):
        state[k] = 0
    for k in range(PILES, STATE_SIZE):
        state[k] = EMPTY
    state[OPT] = 1 if spots_on else 0
    pos = 0
    for r in range(1, 6):
        for step in range(N_PILES):
            i = step if r % 2 == 1 else N_PILES - 1 - step
            h = state[HEIGHT + i]
            state[PILES + PILE_CAP * i + h] = deck[pos]
            pos += 1
            state[HEIGHT + i] = h + 1
            if r <= min(i, N_PILES - 1 - i):
                state[DOWN + i] += 1
    state[SPOT + 1] = deck[50]
    state[SPOT + 0] = deck[51]


def deal_many(seeds, spots=True):
    """Deals for many Aisleriot seeds at once: a ``(len(seeds), STATE_SIZE)`` int16 array."""
    decks = shuffle_many(seeds, 52)
    out = np.zeros((decks.shape[0], STATE_SIZE), dtype=STATE_DTYPE)
    for k in range(decks.shape[0]):
        deal_into(decks[k], bool(spots), out[k])
    return out


# ---- kernels --------------------------------------------------------------------------------
@jit
def _push(state, dst, card):
    if dst < N_SPOTS:
        state[SPOT + dst] = card
    else:
        p = dst - FIRST_PILE
        h = state[HEIGHT + p]
        state[PILES + PILE_CAP * p + h] = card
        state[HEIGHT + p] = h + 1


@jit
def drops(state, buf, count, faithful, src, n, card, whole_pile):
    """Write every accepted drop of the group (``src``, ``n``) whose deepest card is ``card``."""
    is_king = card % 13 == KING_INDEX
    placed_on_empty = False
    for p in range(N_PILES):
        dst = p + FIRST_PILE
        if dst == src:
            continue
        h = state[HEIGHT + p]
        if h == 0:
            if not is_king:
                continue
            if faithful == 0 and (placed_on_empty or whole_pile):
                continue
            buf[count] = encode(DRAG, src, n, dst)
            count += 1
            placed_on_empty = True
        elif not is_king and state[PILES + PILE_CAP * p + h - 1] == card + 1:
            buf[count] = encode(DRAG, src, n, dst)
            count += 1
    if state[OPT] != 0 and n == 1:
        if faithful == 0 and src < N_SPOTS:
            return count  # spot -> other spot only swaps the spots
        for dst in range(N_SPOTS):
            if dst != src and state[SPOT + dst] == EMPTY:
                buf[count] = encode(DRAG, src, 1, dst)
                count += 1
                if faithful == 0:
                    break
    return count


@jit
def legal_moves(state, buf, faithful):
    """Faithful: every ``drag s n d`` Aisleriot accepts; else the solver's distinct moves.

    A 52-bit mask of the cards some pile top would accept (their same-suit predecessors) lets
    the scan over groups skip, with one bit test, every card that has nowhere to go.
    """
    wanted = np.uint64(0)
    any_empty = False
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        if h == 0:
            any_empty = True
        else:
            top = np.int64(state[PILES + PILE_CAP * p + h - 1])
            if top % 13 != 0:
                wanted |= np.uint64(1) << np.uint64(top - 1)
    spot_free = state[OPT] != 0 and (state[SPOT] == EMPTY or state[SPOT + 1] == EMPTY)
    count = 0
    for s in range(N_SPOTS):
        card = np.int64(state[SPOT + s])
        if card != EMPTY:
            count = drops(state, buf, count, faithful, s, 1, card, False)
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        up = h - state[DOWN + p]
        base = PILES + PILE_CAP * p
        for n in range(1, up + 1):
            card = np.int64(state[base + h - n])
            if ((wanted >> np.uint64(card)) & np.uint64(1)) != 0 \
                    or (any_empty and card % 13 == KING_INDEX) or (n == 1 and spot_free):
                count = drops(state, buf, count, faithful, p + FIRST_PILE, n, card, n == h)
    return count


@jit
def _group_can_go(state, src, n, card):
    if state[OPT] != 0 and n == 1:
        for d in range(N_SPOTS):
            if d != src and state[SPOT + d] == EMPTY:
                return True
    is_king = card % 13 == KING_INDEX
    for p in range(N_PILES):
        if p + FIRST_PILE == src:
            continue
        h = state[HEIGHT + p]
        if h == 0:
            if is_king:
                return True
        elif not is_king and state[PILES + PILE_CAP * p + h - 1] == card + 1:
            return True
    return False


@jit
def has_any_move(state):
    """True iff Aisleriot would accept some action (Ten Across never turns this into a loss)."""
    for s in range(N_SPOTS):
        card = state[SPOT + s]
        if card != EMPTY and _group_can_go(state, s, 1, card):
            return True
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        base = PILES + PILE_CAP * p
        for n in range(1, h - state[DOWN + p] + 1):
            if _group_can_go(state, p + FIRST_PILE, n, state[base + h - n]):
                return True
    return False


@jit
def apply(state, move):
    """Play ``drag s n d`` in place, then turn up the new top card of a tableau source."""
    src = move_src(move)
    n = move_n(move)
    dst = move_dst(move)
    if src < N_SPOTS:
        card = state[SPOT + src]
        state[SPOT + src] = EMPTY
        _push(state, dst, card)
        return
    p = src - FIRST_PILE
    h = state[HEIGHT + p]
    base = PILES + PILE_CAP * p
    for k in range(h - n, h):
        _push(state, dst, state[base + k])
        state[base + k] = EMPTY   # unused entries stay EMPTY: equal positions, equal arrays
    rest = h - n
    state[HEIGHT + p] = rest
    if rest > 0 and state[DOWN + p] == rest:
        state[DOWN + p] = rest - 1


@jit
def won(state):
    """Aisleriot's ``game-won``: every pile empty or exactly K..A face up in one suit."""
    for p in range(N_PILES):
        h = state[HEIGHT + p]
        if h == 0:
            continue
        if h != 13 or state[DOWN + p] != 0:
            return False
        base = PILES + PILE_CAP * p
        bottom = state[base]
        if bottom % 13 != KING_INDEX:
            return False
        for k in range(1, 13):
            if state[base + k] != bottom - k:
                return False
    return True


# status and score below are freecell's too, word for word: each game module is all its kernels
@jit
def status(state):
    """Continue predicate is ``not won``: WON or ONGOING, never LOST."""
    return 1 if won(state) else 0


@jit
def score(state):
    return 0


@jit
def hash_state(state):
    """64-bit hash of the canonical position: spots as a set, piles in order, no score.
    Shaped like yukon.canonical_hash, its own values (golden tests and tables rely on them)."""
    h = FNV_OFFSET
    h = fnv1a(h, np.int64(state[OPT]) + 2)
    a = np.int64(state[SPOT])
    b = np.int64(state[SPOT + 1])
    if a > b:
        a, b = b, a
    h = fnv1a(h, a + 2)
    h = fnv1a(h, b + 2)
    for p in range(N_PILES):
        ht = np.int64(state[HEIGHT + p])
        h = fnv1a(h, ht + 2)
        h = fnv1a(h, np.int64(state[DOWN + p]) + 2)
        base = PILES + PILE_CAP * p
        for k in range(ht):
            h = fnv1a(h, np.int64(state[base + k]) + 2)
    return splitmix64(h)    # so that nearby positions spread over all bits


KERNELS = Kernels(legal_moves, apply, status, won, hash_state, score)


# ---- the Game ---------------------------------------------------------------------------------
class TenAcrossGame(Game):
    name = "ten-across"
    title = "Ten Across"
    n_slots = N_SLOTS
    state_size = STATE_SIZE
    max_moves = MAX_MOVES
    slot_names = SLOT_NAMES
    slot_roles = (Role.SPOT,) * N_SPOTS + (Role.TABLEAU,) * N_PILES
    kernels = KERNELS
    options = {"spots": True}   # "Allow temporary spots use" (allow-two-spot-use)
    # ten-across.scm: a blank, the two spots; the ten piles on the next row.
    picture_places = tuple(slot_row(0, (1, 2), "stack") + slot_row(1, range(10), "down"))
    keeps_score = False         # scores-disabled
    hides_cards = True

    def hidden_entries(self, array, history):
        """The face-down cards.  They never move (only groups with a face-up deepest card move)
        and a card once face up stays face up, so memory adds nothing."""
        return face_down_entries(array, N_PILES, PILES, PILE_CAP, DOWN)

    def blind_move(self, array, move):
        """A pile whose top card is face down accepts a drop only if that card matches."""
        if move.kind != DRAG or move.dst < FIRST_PILE:
            return False
        p = move.dst - FIRST_PILE
        h = int(array[HEIGHT + p])
        return h > 0 and int(array[DOWN + p]) == h

    def deal_array(self, seed, numbering, options):
        deck = np.array(AisleriotRandom(seed).shuffle(range(52)), dtype=np.int64)
        state = np.zeros(STATE_SIZE, dtype=STATE_DTYPE)
        deal_into(deck, bool(options["spots"]), state)
        return state

    def layout_to_array(self, layout: Layout, options):
        slots = layout.slots
        if len(slots) != N_SLOTS:
            raise InvalidDealError(f"Ten Across has {N_SLOTS} slots, the layout has {len(slots)}")
        if layout.score != 0 or layout.redeals != 0:
            raise InvalidDealError(
                f"Ten Across keeps no score or redeal counter; layout has "
                f"#{layout.score}#{layout.redeals} (expected #0#0)"
            )
        state = np.zeros(STATE_SIZE, dtype=STATE_DTYPE)
        state[PILES:] = EMPTY
        state[OPT] = 1 if options["spots"] else 0
        seen = []
        for s in range(N_SPOTS):
            slot = slots[s]
            if len(slot) > 1:
                raise InvalidDealError(f"temporary spot {s} holds at most one card, layout has {len(slot)}")
            if slot and not slot[0][1]:
                raise InvalidDealError(
                    f"temporary spot {s} card {aisleriot_card_str(slot[0][0])}* is face down; spot cards are face up"
                )
            state[SPOT + s] = slot[0][0] if slot else EMPTY
            seen.extend(c for c, _ in slot)
        for p in range(N_PILES):
            slot = slots[p + FIRST_PILE]
            down = 0
            while down < len(slot) and not slot[down][1]:
                down += 1
            if any(not up for _, up in slot[down:]):
                raise InvalidDealError(
                    f"slot {p + FIRST_PILE}: a face-down card lies above a face-up one "
                    f"(face-down cards must be the bottom of a pile)"
                )
            cards = [c for c, _ in slot]
            state[HEIGHT + p] = len(cards)
            state[DOWN + p] = down
            state[PILES + PILE_CAP * p: PILES + PILE_CAP * p + len(cards)] = cards
            seen.extend(cards)
        check_deck(seen, "Ten Across layout")
        return state

    def array_options(self, array):
        """The spots option is entry ``OPT``: 1 on, 0 off."""
        if array[OPT] not in (0, 1):
            raise InvalidStateError(f"Ten Across option entry {OPT} is {int(array[OPT])}; 1 (spots on) or 0 (off)")
        return self.resolve_options(spots=bool(array[OPT]))

    def array_to_layout(self, array) -> Layout:
        slots = []
        for s in range(N_SPOTS):
            c = int(array[SPOT + s])
            slots.append(() if c == EMPTY else ((c, True),))
        for p in range(N_PILES):
            h, down = int(array[HEIGHT + p]), int(array[DOWN + p])
            base = PILES + PILE_CAP * p
            slots.append(tuple((int(array[base + k]), k >= down) for k in range(h)))
        return Layout(tuple(slots), 0, 0)


GAME = TenAcrossGame()
