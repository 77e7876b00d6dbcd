"""A source rule the kernels keep for compile time: no kernel copies an array into a slice.

``a[i:j] = b`` with an array ``b`` inside a Numba kernel makes Numba compile the error message
of a shape mismatch (string formatting, ``repr``, joins): about 2 s of compile in each kernel
that has one, for a copy an element loop does (filling a slice with a number, ``a[:] = 0``,
cannot mismatch and compiles none).  Checked on the source: the cost shows only on a cold
cache."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL_DECORATORS = {"jit", "njit", "jit_leaf", "jit_ir_inline", "cached_jit", "_typed_jit"}


def _decorator_name(node):
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)


def _number(node):
    """A number literal, signed or not."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def _slice_assignments(tree):
    """``(function, line)`` of every assignment of something other than a number to a slice,
    inside a kernel of ``tree``."""
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not any(
                _decorator_name(d) in KERNEL_DECORATORS for d in fn.decorator_list):
            continue
        for node in ast.walk(fn):
            targets = (node.targets if isinstance(node, ast.Assign) else
                       [node.target] if isinstance(node, ast.AugAssign) else [])
            for t in targets:
                if isinstance(t, ast.Subscript) and not _number(node.value) and any(
                        isinstance(s, ast.Slice) for s in ast.walk(t.slice)):
                    yield fn.name, node.lineno


def test_the_check_finds_a_slice_assignment():
    source = ("@jit\ndef k(a, b):\n    a[1:3] = b\n    a[0] = b[1]\n    a[:2] = -1\n"
              "\ndef plain(a, b):\n    a[:] = b\n")
    assert list(_slice_assignments(ast.parse(source))) == [("k", 3)]


def test_no_kernel_assigns_to_a_slice():
    found = [f"{path.relative_to(ROOT)}:{line} in {name}"
             for package in ("rules", "solvers") for path in sorted((ROOT / package).rglob("*.py"))
             for name, line in _slice_assignments(ast.parse(path.read_text()))]
    assert found == []
