"""The Numba decorators the library uses: compiled once, cached on disk, GIL released.

fastmath stays off: kernels are integer code, and exactness matters more than speed here.

Numba checks a kernel's disk cache against the kernel's own source file only, but the machine
code it caches has the kernels it calls, and the module constants it reads, compiled in: after
an edit to another file, a process would load a caller's stale code.  So every cache here is
also stamped with a digest of all the library's sources (``rules/`` and ``solvers/``): an edit
anywhere recompiles every kernel once, in the first process that runs it.
"""
import hashlib
from pathlib import Path

from numba import njit
from numba.core import typeinfer

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("rules", "solvers")


def sources_digest(root=_ROOT, packages=_PACKAGES):
    """SHA-256 (hex) over the path and bytes of every ``.py`` file under ``root`` in
    ``packages``, in sorted order."""
    h = hashlib.sha256()
    for package in packages:
        for path in sorted((Path(root) / package).rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


SOURCES_DIGEST = sources_digest()


def _stamp(dispatcher):
    """Make ``dispatcher``'s disk cache valid only for these sources (see the module text).
    The stamp lives in Numba's cache file object; should a Numba release rename it, caches
    fall back to Numba's own per-file check (``tests/test_jit_cache.py`` notices)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        cache_file._source_stamp = (cache_file._source_stamp, SOURCES_DIGEST)
    return dispatcher


def cached_jit(signature=None, **options):
    """``njit(cache=True, nogil=True, **options)`` with the sources stamp; given a
    ``signature``, compiled for it at once and for nothing else (as ``njit(signature)``)."""
    def decorate(fn):
        dispatcher = _stamp(njit(cache=True, nogil=True, **options)(fn))
        if signature is not None:
            with typeinfer.register_dispatcher(dispatcher):
                dispatcher.compile(signature)
            dispatcher.disable_compile()
        return dispatcher
    return decorate


jit = cached_jit()
