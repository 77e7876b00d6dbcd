"""No import cycle in rules + solvers, counting imports inside functions.

``lint-imports`` (contracts in pyproject.toml) checks that the layers import only downwards; it
does not see a cycle inside one layer, so this walks grimp's graph (import-linter's own) for one.
"""
import grimp
import pytest


def find_cycle(graph):
    """One import cycle in ``graph`` as a list of modules, first one repeated at the end, or None."""
    done, path, on_path = set(), [], {}
    for root in sorted(graph.modules):
        if root in done:
            continue
        stack = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        on_path[root] = 0
        path.append(root)
        while stack:
            module, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                del on_path[module]
                done.add(module)
            elif child in on_path:
                return path[on_path[child]:] + [child]
            elif child not in done:
                on_path[child] = len(path)
                path.append(child)
                stack.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
    return None


def _graph(edges):
    graph = grimp.ImportGraph()
    for importer, imported in edges:
        graph.add_import(importer=importer, imported=imported)
    return graph


@pytest.mark.parametrize("edges, cycle", [
    ([("a", "b"), ("b", "c")], None),
    ([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")], None),
    ([("a", "b"), ("b", "c"), ("c", "a")], ["a", "b", "c", "a"]),
    ([("a", "b"), ("b", "c"), ("c", "b")], ["b", "c", "b"]),
])
def test_find_cycle(edges, cycle):
    assert find_cycle(_graph(edges)) == cycle


def test_cycle_through_an_import_inside_a_function_is_found(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("import pkg.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert find_cycle(grimp.build_graph("pkg", cache_dir=None)) == ["pkg.a", "pkg.b", "pkg.a"]


def test_no_import_cycle():
    cycle = find_cycle(grimp.build_graph("rules", "solvers", cache_dir=None))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
