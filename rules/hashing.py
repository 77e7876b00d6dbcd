"""The 64-bit hash mixers of the whole library, written once: the rules' canonical hashes and
the solvers' second hashes and transposition table all mix with these.

Each is a small ``@jit`` function that LLVM inlines into the kernel calling it, so sharing
costs nothing.  Their constants and arithmetic fix every hash value the library computes
(golden node counts and table behaviour depend on them): a change here changes them all.
Inputs are ``uint64`` (``fnv1a``'s ``x``: any integer, converted), arithmetic wraps mod 2**64.
"""
import numpy as np

from rules._jit import jit

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)   # 2**64 / golden ratio: SplitMix64's increment
FNV_OFFSET = np.uint64(0xCBF29CE484222325)     # FNV-1a's 64-bit offset basis ...
FNV_PRIME = np.uint64(0x100000001B3)           # ... and prime


@jit
def fnv1a(h, x):
    """One FNV-1a step: the integer ``x`` folded into the running hash ``h``."""
    return (h ^ np.uint64(x)) * FNV_PRIME


@jit
def splitmix64(k):
    """SplitMix64's output mix (without the increment)."""
    k = (k ^ (k >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    k = (k ^ (k >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return k ^ (k >> np.uint64(31))


@jit
def splitmix64_next(x):
    """SplitMix64's output for the generator state ``x``: advanced by the increment, mixed."""
    return splitmix64(x + GOLDEN_GAMMA)


@jit
def fmix64(k):
    """MurmurHash3's 64-bit finaliser: the solvers' second hashes mix their keys with it."""
    k ^= k >> np.uint64(33)
    k *= np.uint64(0xFF51AFD7ED558CCD)
    k ^= k >> np.uint64(33)
    k *= np.uint64(0xC4CEB9FE1A85EC53)
    k ^= k >> np.uint64(33)
    return k
