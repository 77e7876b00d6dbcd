"""The kernels' disk caches are tied to all of the library's sources (rules/_jit.py): an edit
to any file, not only the kernel's own, makes a process compile again instead of loading
machine code with stale callees or constants compiled in."""
import json
import os
import subprocess
import sys

import pytest

from rules import _jit
from rules._jit import SOURCES_DIGEST, sources_digest


def _tree(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_digest_covers_every_source_file(tmp_path):
    _tree(tmp_path, {"rules/a.py": "A = 1\n", "solvers/sub/b.py": "B = 2\n", "other/c.py": ""})
    first = sources_digest(tmp_path)
    assert sources_digest(tmp_path) == first
    (tmp_path / "solvers/sub/b.py").write_text("B = 3\n")            # a file with no kernel
    second = sources_digest(tmp_path)
    assert second != first
    (tmp_path / "other/c.py").write_text("C = 1\n")                  # outside the packages
    assert sources_digest(tmp_path) == second
    (tmp_path / "rules/new.py").write_text("")                       # a new file
    assert sources_digest(tmp_path) != second


def test_library_kernels_carry_the_stamp():
    import solvers.games.freecell.moves as freecell_moves
    from rules.clock import _play_many_parallel
    from solvers.core.search import dfs_kernel
    from solvers.games.yukon.classes import class_legal
    leaves = [f for f in vars(freecell_moves).values()
              if getattr(f, "targetoptions", {}).get("forceinline")]
    assert leaves, "no jit_leaf kernel found in solvers.games.freecell.moves"
    for kernel in [class_legal, dfs_kernel, _play_many_parallel, *leaves]:
        stamp = kernel._cache._cache_file._source_stamp
        assert isinstance(stamp, tuple) and stamp[1] == SOURCES_DIGEST, kernel


_RUN = """
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from rules import _jit
_jit.SOURCES_DIGEST = sys.argv[3]
from kernel_mod import twice
assert twice(21) == 42
print(json.dumps({"hits": sum(twice.stats.cache_hits.values()),
                  "misses": sum(twice.stats.cache_misses.values())}))
"""


def test_a_changed_digest_recompiles(tmp_path):
    (tmp_path / "kernel_mod.py").write_text(
        "from rules._jit import jit\n\n@jit\ndef twice(x):\n    return 2 * x\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    root = os.path.dirname(os.path.dirname(os.path.abspath(_jit.__file__)))

    def run(digest):
        out = subprocess.run([sys.executable, "-c", _RUN, root, str(tmp_path), digest], env=env,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    assert run("one") == {"hits": 0, "misses": 1}        # compiled, saved
    assert run("one") == {"hits": 1, "misses": 0}        # loaded
    assert run("two") == {"hits": 0, "misses": 1}        # other sources: compiled again
    assert run("two") == {"hits": 1, "misses": 0}


@pytest.mark.parametrize("signature", [None, "int64(int64)"])
def test_cached_jit_keeps_njit_semantics(signature):
    def plus_one(x):
        return x + 1
    kernel = _jit.cached_jit(signature)(plus_one)
    assert kernel(41) == 42
    if signature is not None:          # compiled for the signature alone, like njit(sig)
        assert len(kernel.signatures) == 1
        with pytest.raises(TypeError):
            kernel(1.5j)


def test_a_callee_skips_the_whole_module_pass_its_caller_runs():
    """rules/_jit.py: a kernel compiled as another's callee skips LLVM's whole-module pass
    (the caller's pass covers its code); one compiled from Python keeps it; both compute the
    same either way, the callee also when later called from Python itself."""
    from numba import njit

    @njit
    def inner(x):
        return x * 3 + 1

    @njit
    def outer(x):
        return inner(x) + inner(x + 1)

    @njit
    def alone(x):
        return x * 3 + 1

    assert outer(5) == 16 + 19
    assert inner(5) == alone(5) == 16
    (outer_result,) = outer.overloads.values()
    (inner_result,) = inner.overloads.values()
    (alone_result,) = alone.overloads.values()
    assert getattr(inner_result.library, "callee_only", False)
    assert not getattr(outer_result.library, "callee_only", False)
    assert not getattr(alone_result.library, "callee_only", False)
