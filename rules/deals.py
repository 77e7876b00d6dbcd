"""Aisleriot's random generator and shuffle, and the Microsoft Freecell deal numbers.

Aisleriot (spec section 2) seeds GLib's ``GRand`` -- MT19937 loaded with ``init_genrand`` --
draws ``R(n) = g_rand_int_range(0, n)`` by rejection, and shuffles with a forward Fisher-Yates
whose picks are collected in reverse.  ``D[0]`` is the first card dealt.

Two implementations live here on purpose: a plain-Python :class:`AisleriotRandom` (readable,
used to deal single games and by the referees' tests) and Numba kernels that deal many seeds
at once (:func:`shuffle_many`).  Tests check that both agree with the spec's vectors.

Microsoft numbering (Freecell only): deals 1 .. 2**33 - 1 as Freecell Solver and PySol number
them -- the Visual C ``rand()`` LCG up to 2**31 - 1, with the FreeCell Pro extension above it.
"""
import re

import numpy as np

from rules._jit import jit
from rules.errors import InvalidSeedError, shorten

MAX_AISLERIOT_SEED = 2**32 - 1
MAX_MICROSOFT_DEAL = 2**33 - 1
_MASK32 = 0xFFFFFFFF


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def whole_number(value, what):
    """``value`` as an int if it is a whole number, else InvalidSeedError quoting it.

    Accepted: ints (numpy's too), floats with no fractional part, and strings of ASCII digits
    (the CLI passes seeds as text).  Refused: bools, ``1.9``, ``inf``, ``'4_2'``, ``'1e3'``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise InvalidSeedError(f"{what} {value!r} is a bool, not an integer")
    if isinstance(value, str):
        text = value.strip()
        if not _WHOLE_NUMBER.fullmatch(text):
            raise InvalidSeedError(f"{what} {shorten(value)} is not a whole number")
        if len(text.lstrip("+-").lstrip("0")) > 30:     # far beyond any range; int() would be slow
            raise InvalidSeedError(f"{what} {shorten(value)} is out of range")
        return int(text)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)) and np.isfinite(value) and float(value).is_integer():
        return int(value)
    raise InvalidSeedError(f"{what} {shorten(value)} is not an integer")


def check_aisleriot_seed(seed):
    """Return ``seed`` as an int if it is a 32-bit unsigned seed, else raise InvalidSeedError."""
    value = whole_number(seed, "seed")
    if not 0 <= value <= MAX_AISLERIOT_SEED:
        raise InvalidSeedError(f"Aisleriot seed {shorten(seed)} is outside 0..{MAX_AISLERIOT_SEED}")
    return value


def check_microsoft_deal(number):
    """Return ``number`` as an int if it is a Microsoft deal number, else raise InvalidSeedError."""
    value = whole_number(number, "deal number")
    if not 1 <= value <= MAX_MICROSOFT_DEAL:
        raise InvalidSeedError(f"Microsoft deal number {shorten(number)} is outside 1..{MAX_MICROSOFT_DEAL}")
    return value


SEED_CHECKS = {"aisleriot": check_aisleriot_seed, "microsoft": check_microsoft_deal}   # by numbering


# ---------------------------------------------------------------------------------------------
# Plain Python: GLib GRand (MT19937, init_genrand) and g_rand_int_range
# ---------------------------------------------------------------------------------------------
class AisleriotRandom:
    """GLib's ``GRand`` seeded with ``g_rand_new_with_seed(seed)``.

    The stream carries on across calls, as Aisleriot's does: Yukon's re-deal loop (spec 1.4)
    shuffles again from where the previous shuffle stopped.
    """

    def __init__(self, seed):
        seed = check_aisleriot_seed(seed)
        mt = [0] * 624
        mt[0] = seed
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK32
        self._mt = mt
        self._index = 624

    def _twist(self):
        mt = self._mt
        for i in range(624):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7FFFFFFF)
            v = mt[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[i] = v
        self._index = 0

    def next_uint32(self):
        """One raw ``genrand_int32`` output."""
        if self._index >= 624:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def int_range(self, n):
        """``g_rand_int_range(rand, 0, n)``: unbiased by rejection; ``n = 1`` still draws."""
        limit = _MASK32 - (2**32 % n)
        while True:
            r = self.next_uint32()
            if r <= limit:
                return r % n

    def shuffle(self, deck):
        """Aisleriot's shuffle of a list: returns ``D`` (first card dealt first)."""
        v = list(deck)
        n = len(v)
        for i in range(n):
            j = i + self.int_range(n - i)
            v[i], v[j] = v[j], v[i]
        v.reverse()
        return v


def aisleriot_shuffle(seed, n=52):
    """``D`` for the first deal after seeding with ``seed``: a permutation of ``range(n)``."""
    return AisleriotRandom(seed).shuffle(range(n))


# ---------------------------------------------------------------------------------------------
# Numba: the same generator, for many seeds at once
# ---------------------------------------------------------------------------------------------
@jit
def mt_seed(mt, seed):
    mt[0] = np.uint32(seed)
    for i in range(1, 624):
        prev = mt[i - 1]
        mt[i] = np.uint32(np.uint32(1812433253) * (prev ^ (prev >> np.uint32(30))) + np.uint32(i))


@jit
def _mt_twist(mt):
    for i in range(624):
        y = (mt[i] & np.uint32(0x80000000)) | (mt[(i + 1) % 624] & np.uint32(0x7FFFFFFF))
        v = mt[(i + 397) % 624] ^ (y >> np.uint32(1))
        if y & np.uint32(1):
            v ^= np.uint32(0x9908B0DF)
        mt[i] = v


@jit
def _mt_next(mt, pos):
    """Next tempered output; ``pos`` is a one-element array holding the read index."""
    if pos[0] >= 624:
        _mt_twist(mt)
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@jit
def _int_range(mt, pos, n):
    limit = np.uint32(0xFFFFFFFF - (4294967296 % n))
    while True:
        r = _mt_next(mt, pos)
        if r <= limit:
            return np.int64(r % np.uint32(n))


@jit
def shuffle_into(mt, pos, out, n):
    """Fill ``out[:n]`` with ``D`` for a deck ``0..n-1`` drawn from the generator state."""
    for i in range(n):
        out[i] = i
    for i in range(n):
        j = i + _int_range(mt, pos, n - i)
        t = out[i]
        out[i] = out[j]
        out[j] = t
    for i in range(n // 2):
        t = out[i]
        out[i] = out[n - 1 - i]
        out[n - 1 - i] = t


@jit
def shuffle_one(seed, n, out):
    """Kernel: ``D`` for one seed into ``out`` (int array of length >= n)."""
    mt = np.empty(624, dtype=np.uint32)
    pos = np.zeros(1, dtype=np.int64)
    mt_seed(mt, seed)
    pos[0] = 624
    shuffle_into(mt, pos, out, n)


@jit
def _shuffle_many_kernel(seeds, n, out):
    mt = np.empty(624, dtype=np.uint32)
    pos = np.zeros(1, dtype=np.int64)
    for k in range(seeds.shape[0]):
        mt_seed(mt, seeds[k])
        pos[0] = 624
        shuffle_into(mt, pos, out[k], n)


def check_aisleriot_seeds(seeds):
    """Aisleriot seeds as a flat ``np.int64`` array; InvalidSeedError for a bad one.

    Batch twin of :func:`check_aisleriot_seed`: integer arrays (or floats with no fractional
    part) within 0 .. 2**32 - 1; bools, fractions and other dtypes are refused, never truncated.
    """
    try:
        raw = np.asarray(seeds)
    except (TypeError, ValueError):
        raise InvalidSeedError(f"seeds {shorten(seeds)} are not an array of integers") from None
    if raw.dtype.kind == "f":
        if raw.size and not np.all(np.isfinite(raw) & (raw == np.floor(raw))):
            bad = raw[~(np.isfinite(raw) & (raw == np.floor(raw)))].flat[0]
            raise InvalidSeedError(f"seed {shorten(bad.item())} is not an integer")
    elif raw.dtype.kind not in "iu" and raw.size:
        raise InvalidSeedError(f"seeds must be integers, got {raw.dtype} values such as "
                               f"{shorten(raw.flat[0].item() if raw.dtype.kind != 'O' else raw.flat[0])}")
    raw = raw.ravel()
    if raw.size and (raw.min() < 0 or raw.max() > MAX_AISLERIOT_SEED):
        bad = raw[(raw < 0) | (raw > MAX_AISLERIOT_SEED)][0]
        raise InvalidSeedError(f"Aisleriot seed {shorten(bad.item())} is outside 0..{MAX_AISLERIOT_SEED}")
    return raw.astype(np.int64)


def shuffle_many(seeds, n=52):
    """``D`` for each Aisleriot seed: an ``(len(seeds), n)`` int8 array, first card dealt first."""
    seeds = check_aisleriot_seeds(seeds)
    out = np.empty((seeds.shape[0], n), dtype=np.int8)
    _shuffle_many_kernel(seeds, n, out)
    return out


# ---------------------------------------------------------------------------------------------
# Microsoft Freecell numbering
# ---------------------------------------------------------------------------------------------
def microsoft_deal(number):
    """The 52 cards of Microsoft Freecell deal ``number`` in dealing order.

    Card ``k`` goes to column ``k mod 8``, as in the original game and Freecell Solver.  Deal 1
    starts ``JD 2D 9H JC 5D 7H 7C 5H``.  Above 2**31 - 1 the numbering follows FreeCell Pro's
    extension (as fc-solve's ``make-microsoft-freecell-board`` and PySol do): deals 2**31 ..
    2**32 - 1 set bit 15 of every draw; deals 2**32 .. 2**33 - 1 restart the LCG from
    ``number - 2**32`` and draw 16 bits plus one.
    """
    number = check_microsoft_deal(number)
    state = number if number < 2**32 else number - 2**32

    def draw():
        nonlocal state
        state = (state * 214013 + 2531011) & _MASK32
        if number < 2**32:
            r = (state >> 16) & 0x7FFF
            return r | 0x8000 if number >= 2**31 else r
        return ((state >> 16) & 0xFFFF) + 1

    # Microsoft's deck order is rank-major: AC AD AH AS 2C ...; card index 4 * (rank-1) + suit.
    deck = [13 * (i % 4) + i // 4 for i in range(52)]
    dealt = []
    while deck:
        j = draw() % len(deck)
        dealt.append(deck[j])
        deck[j] = deck[-1]
        deck.pop()
    return dealt
