"""What the tests share and benchmarks may import too (``from tests.support import ...``).

Paths of the repository and of the shared references, the plain-Python reference kernels the
fast ones are checked against (:mod:`.yukon_reference`, :mod:`.freecell_reference`), and the
hypothesis strategies and position generators used by more than one test file.
"""
import pathlib

TESTS = pathlib.Path(__file__).resolve().parents[1]
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
