"""The Numba decorators the library uses: compiled once, cached on disk, GIL released.

fastmath stays off: kernels are integer code, and exactness matters more than speed here.

Numba checks a kernel's disk cache against the kernel's own source file only, but the machine
code it caches has the kernels it calls, and the module constants it reads, compiled in: after
an edit to another file, a process would load a caller's stale code.  So every cache here is
also stamped with a digest of all the library's sources (``rules/`` and ``solvers/``): an edit
anywhere recompiles every kernel once, in the first process that runs it.

Nothing compiles at import: a kernel compiles on its first call (a solver's ``warmup()``), so
``import rules, solvers`` stays fast and the compile time is seen where it is reported.

Where Numba finds no writable cache location (a read-only install and an unwritable HOME, or
``NUMBA_CACHE_DIR`` unwritable as well), the kernels are cached in a private directory under the
temporary directory instead, or not at all if that fails too; one line on stderr says which.
"""
import hashlib
import os
import sys
import tempfile
import threading
from pathlib import Path

from numba import config, njit
from numba.core import codegen, event, typeinfer, types
from numba.core.caching import FunctionCache

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


def _probe():
    """A function of this file: where Numba would cache it is where it caches the library."""


def _can_cache():
    """True if Numba finds a writable cache location for the library's kernels."""
    try:
        FunctionCache(_probe)
    except RuntimeError:                 # "cannot cache function ...: no locator available"
        return False
    return True


def _private_temp_dir():
    """``<temp dir>/aisle-numba-<uid>``: made if missing, used only if this user owns it and no
    one else may write to it (a cache is loaded as machine code); else None."""
    path = Path(tempfile.gettempdir()) / f"aisle-numba-{os.getuid() if hasattr(os, 'getuid') else 0}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.stat()
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
            return None
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return None
    return str(path)


def choose_cache(can_cache=_can_cache, temp_dir=_private_temp_dir):
    """Whether kernels are cached, and a note for stderr when not where Numba would by itself
    (None when nothing changed): ``(caching, note)``.  Falling back to the temporary directory
    sets ``numba.config.CACHE_DIR`` for this process."""
    if can_cache():
        return True, None
    unwritable = config.CACHE_DIR or "the package directory and the user's cache directory"
    fallback = temp_dir()
    if fallback is not None:
        previous, config.CACHE_DIR = config.CACHE_DIR, fallback
        if can_cache():
            return True, (f"aisle: cannot write Numba's cache ({unwritable}); caching compiled "
                          f"kernels in {fallback} instead")
        config.CACHE_DIR = previous
    return False, (f"aisle: cannot write Numba's cache ({unwritable}) nor a temporary one; "
                   f"kernels are compiled in every process")


CACHING, _NOTE = choose_cache()
if _NOTE:
    print(_NOTE, file=sys.stderr, flush=True)


def _stamp(dispatcher):
    """Make ``dispatcher``'s disk cache valid only for these sources (see the module text).
    The stamp lives in Numba's cache file object; should a Numba release rename it, caches
    fall back to Numba's own per-file check (``tests/test_jit_cache.py`` notices)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        cache_file._source_stamp = (cache_file._source_stamp, SOURCES_DIGEST)
    return dispatcher


def _one_version_per_type(dispatcher):
    """Make a kernel called from another compile for its arguments' plain types, never for
    literal values: a constant argument (an offset, a flag) would otherwise compile one more
    version of the callee per distinct value.  The code does not change, LLVM still inlines
    the callee and folds the constant, but each version costs a whole compile."""
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(a) for a in args),
                     {k: types.unliteral(v) for k, v in kws.items()})
    dispatcher.get_call_template = get_call_template


class _CompileDepth(event.Listener):
    """How many kernel compiles are under way in this thread (a kernel that calls another
    compiles the callee inside its own compile)."""

    def __init__(self):
        self._local = threading.local()

    @property
    def depth(self):
        return getattr(self._local, "depth", 0)

    def on_start(self, ev):
        self._local.depth = self.depth + 1

    def on_end(self, ev):
        self._local.depth = self.depth - 1


def _optimize_callers_only():
    """Skip LLVM's whole-module optimisation of a kernel compiled as a callee of another.

    Numba links every callee's code into its caller's module and optimises that module as a
    whole (inlining the callees), then compiles it to machine code; a callee compiled on the way
    got the same whole-module pass over its own callees first, so a call tree of depth ``d`` is
    optimised ``d`` times.  The caller's pass is the one its machine code comes from, so the
    callee's is wasted unless the callee is later called from Python itself, which then runs
    code that had only LLVM's per-function passes: same results, somewhat slower.  Kernels are
    called from Python on whole searches and batches, which compile at the top (a warm-up step
    calls each from Python first).  Saves about a fifth of Yukon's compile time
    (docs/benchmarks.md, "Cold start").  Left as it is if a Numba release renames the method."""
    library_class = getattr(codegen, "CPUCodeLibrary", None)
    optimize = getattr(library_class, "_optimize_final_module", None)
    if optimize is None or getattr(optimize, "callers_only", False):
        return
    compiles = _CompileDepth()
    event.register("numba:compile", compiles)

    def optimize_callers_only(library):
        if compiles.depth > 1:
            library.callee_only = True       # (tests/rules/test_jit_cache.py looks)
            return
        optimize(library)
    optimize_callers_only.callers_only = True
    library_class._optimize_final_module = optimize_callers_only


_optimize_callers_only()


def compile_declared(dispatcher):
    """Compile a ``cached_jit(signature)`` kernel for its signature (or load it from the
    cache), if not done yet; nothing for other kernels."""
    signature = getattr(dispatcher, "_declared_signature", None)
    if signature is not None and dispatcher._can_compile:
        with typeinfer.register_dispatcher(dispatcher):
            dispatcher.compile(signature)
        dispatcher.disable_compile()


def cached_jit(signature=None, **options):
    """``njit(cache=True, nogil=True, **options)`` with the sources stamp (no cache where none
    can be written).  Given a ``signature``, the kernel is compiled for it alone (as
    ``njit(signature)``), but on its first call from Python or at :func:`compile_declared`,
    not at import."""
    def decorate(fn):
        dispatcher = _stamp(njit(cache=CACHING, nogil=True, **options)(fn))
        _one_version_per_type(dispatcher)
        if signature is not None:
            def first_call(*args, **kws):
                # Numba calls this when no compiled version matches the arguments, and then
                # calls what it returns with them: the dispatcher again, now compiled for
                # the signature alone (a TypeError if the arguments do not match it)
                compile_declared(dispatcher)
                return dispatcher
            dispatcher._declared_signature = signature
            dispatcher._compile_for_args = first_call
        return dispatcher
    return decorate


jit = cached_jit()
