"""How the fused kernel's helpers are compiled so that calling them costs nothing.

Numba counts references to arrays: a compiled function that takes an array adds one on
entry and drops it on exit, each an atomic update, unless its optimiser can pair and remove
them.  It can when every path through the function reaches one common exit; a call to a
compiled function that is not inlined breaks that (the call's error return is another way
out), and so do array arguments last used in different branches.  Per child of every node
those updates would cost a large share of the search, so:

* ``jit_leaf``: small leaf kernels that the fused kernel's helpers call are always inlined
  by LLVM (``forceinline``), so a helper calling them stays one path;
* the helpers themselves are plain ``rules._jit.jit`` functions written without
  branches over array arguments -- the kernel body does the branching, over its own
  arrays, and picks the helper;
* ``jit_ir_inline``: ``_enter_child`` and ``_link_row``, which the kernel calls from its own
  branches, are inlined at Numba's IR level (``inline="always"``): as cheap as writing them
  out there;
* the kernel itself takes its arrays (the driver's, the scratch arrays included:
  ``fused.Space.scratch``) as views that hold no reference (``solvers.core.search.unowned``), so the
  helpers it passes them to, inlined or not, count no references at all.

To check a helper, compile with an empty ``NUMBA_CACHE_DIR`` and count ``NRT_incref`` in its
function in ``fc_best_first.inspect_llvm()``, the kernel's code, where the helpers it calls are
optimised (a helper's own ``inspect_llvm()`` shows it before that pass, ``rules._jit``): it
should be none.
"""
from rules._jit import cached_jit

jit_leaf = cached_jit(forceinline=True)
jit_ir_inline = cached_jit(inline="always")
