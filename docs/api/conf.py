"""Sphinx configuration of the API reference, generated from the docstrings.

Build it (CI does) from the repository root with::

    python -m sphinx -W -n --keep-going -b html docs/api docs/_build/api

``-n`` makes every reference that does not resolve (``:func:``, ``:class:``, ``:mod:``, ...) a
warning and ``-W`` makes any warning fail the build.  The page to open: docs/_build/api/index.html.
One page per module of ``rules`` and ``solvers`` is written into ``_generated/`` at each build.
"""
import importlib
import pkgutil
import sys
import types
from pathlib import Path

project = "aisle-solvers"
extensions = ["sphinx.ext.autodoc"]
exclude_patterns = ["_build"]
autodoc_default_options = {"members": True, "undoc-members": True, "private-members": True,
                           "show-inheritance": True, "ignore-module-all": True}
autodoc_typehints = "description"
# Outside the project: no inventory of them is fetched, so they cannot resolve.  ("string" is in
# argparse's docstring of ArgumentParser.error, which solvers.cli.common.Parser.error inherits.)
nitpick_ignore_regex = [("py:class", r"(numpy|numba|argparse|enum)\..*|string")]

PACKAGES = ("rules", "solvers")
PAGES = Path(__file__).parent / "_generated"


def _modules():
    """Every module of the packages, private ones (a part starting with ``_``) left out."""
    for top in PACKAGES:
        yield top
        for info in pkgutil.walk_packages(importlib.import_module(top).__path__, top + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):
                yield info.name


def _write_module_pages(app):
    PAGES.mkdir(exist_ok=True)
    names = list(_modules())
    for name in names:
        children = [n for n in names if n.rpartition(".")[0] == name]
        toc = "".join(f"   {child}\n" for child in children)
        text = f"{name}\n{'=' * len(name)}\n\n.. automodule:: {name}\n"
        if children:
            text += f"\n.. toctree::\n   :maxdepth: 1\n\n{toc}"
        page = PAGES / f"{name}.rst"
        if not page.exists() or page.read_text() != text:
            page.write_text(text)


def _find(target, modname, clsname):
    """The object a dotted name means where the docstring stands: in its class, its module, or
    as an absolute import path; None if there is no such object."""
    module = sys.modules.get(modname or "")
    scopes = [getattr(module, clsname.split(".")[0], None) if clsname else None, module]
    head, *rest = target.split(".")
    for scope in scopes:
        if scope is not None and hasattr(scope, head):
            obj = getattr(scope, head)
            break
    else:
        parts = target.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            rest = parts[i:]
            break
        else:
            return None
    for attr in rest:
        obj = getattr(obj, attr, None)
    return obj


def _resolve_in_scope(app, env, node, contnode):
    """A reference such as ``:class:`State``` in a module that imported State, or
    ``:func:`solvers.get_solver``` (re-exported), goes to the documented object it names."""
    if node.get("refdomain") != "py":
        return None
    obj = _find(node["reftarget"], node.get("py:module"), node.get("py:class"))
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
    elif getattr(obj, "__module__", None) and getattr(obj, "__qualname__", None):
        name = f"{obj.__module__}.{obj.__qualname__}"
    else:
        return None
    if name == node["reftarget"]:
        return None
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder, node["reftype"], name,
                                             node, contnode)


def setup(app):
    app.connect("builder-inited", _write_module_pages)
    app.connect("missing-reference", _resolve_in_scope)
