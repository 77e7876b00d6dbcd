"""Card arithmetic the Yukon kernels share: foundation heights, card bit masks (rank and colour
are :mod:`rules.cards`'s).

A card is ``13*suit + rank - 1`` with suits clubs, diamonds, hearts, spades (1 and 2 red), as in
:mod:`rules.cards`; a set of cards is a ``uint64`` with bit ``c`` for card ``c``.  A card's
*parents* are the two cards of the other colour one rank higher (what it may be dropped on in a
natural run), its *children* the two of the other colour one rank lower, and its *twin* the
other card of its colour and rank, which has the same two parents.
"""
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from rules._jit import jit
from rules.cards import EMPTY
from rules.yukon import FOUND

N_CARDS = 52


@jit
def home_height(state, suit):
    """Cards of ``suit`` on the foundations (0..13)."""
    for k in range(4):
        f = state[FOUND + k]
        if f != EMPTY and f // 13 == suit:
            return f % 13 + 1
    return 0


@jit
def bit(c):
    """The one-card mask of card ``c``."""
    return np.uint64(1) << np.uint64(c)


@jit
def twin(c):
    """The other card of ``c``'s colour and rank (clubs-spades, diamonds-hearts)."""
    return (3 - c // 13) * 13 + c % 13


# lowest set bit -> its index, by de Bruijn multiplication
_DEBRUIJN = np.uint64(0x022FDD63CC95386D)
_DEBRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((int(_DEBRUIJN) << _i) & (2 ** 64 - 1)) >> 58] = _i
del _i


@jit
def bit_index(low):
    """Index of the single set bit of mask ``low`` (a card, for a one-card mask)."""
    return _DEBRUIJN_INDEX[np.int64((low * _DEBRUIJN) >> np.uint64(58))]


_SUIT = np.uint64(0x1FFF)


@jit
def twin_mask(cards):
    """The twins of the cards of mask ``cards``: clubs and spades swapped, diamonds and
    hearts."""
    return (((cards & _SUIT) << np.uint64(39)) | ((cards >> np.uint64(39)) & _SUIT)
            | (((cards >> np.uint64(13)) & _SUIT) << np.uint64(26))
            | (((cards >> np.uint64(26)) & _SUIT) << np.uint64(13)))


def _parent_masks():
    parents = np.zeros(N_CARDS, np.uint64)
    for c in range(N_CARDS):
        if c % 13 < 12:
            for s in ((0, 3) if c // 13 in (1, 2) else (1, 2)):
                parents[c] |= np.uint64(1) << np.uint64(s * 13 + c % 13 + 1)
    return parents


def _child_masks(parents):
    children = np.zeros(N_CARDS, np.uint64)
    for c in range(N_CARDS):
        for p in range(N_CARDS):
            if int(parents[c]) >> p & 1:
                children[p] |= np.uint64(1) << np.uint64(c)
    return children


TWIN_BITS = np.array([1 << twin.py_func(c) for c in range(N_CARDS)], np.uint64)  # card -> mask of its twin
PARENTS = _parent_masks()            # card -> mask of its two parents (none for a King)
CHILDREN = _child_masks(PARENTS)     # card -> mask of its two children (none for an Ace)


def stack_array(dtype, size):
    """An intrinsic: pointer to ``size`` items of ``dtype`` on the calling kernel's stack,
    valid until it returns: scratch for kernels that run once per generated position and so
    must not allocate."""
    @intrinsic
    def scratch(typingctx):
        def codegen(context, builder, signature, args):
            return cgutils.alloca_once(builder, context.get_value_type(dtype), size=size)
        return types.CPointer(dtype)(), codegen
    return scratch


stack_scratch = stack_array(types.int64, 64)     # 64 int64
