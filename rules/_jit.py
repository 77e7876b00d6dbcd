"""The one Numba decorator the library uses: compiled once, cached on disk, GIL released.

fastmath stays off: kernels are integer code, and exactness matters more than speed here.
"""
from numba import njit

jit = njit(cache=True, nogil=True)
