"""No import circle anywhere: the graph of which module imports which, read from the source.

Every import counts: at the top of a module, inside a function (it runs when the function does)
and under `if TYPE_CHECKING:` (a circle of types is a circle a reader follows, and one import
moved out of that `if` away from a circle at run time). An import of `a.b.c` runs the packages
`a` and `a.b` too, so it is an edge to each of them, save the importer's own packages (they
were imported before it). The strongly connected components of that graph with more than one
module, or a module importing itself, are the circles.

Run as a script, it prints them: `python tests/test_import_graph.py`.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("spellpress", "companion", "benchmarks")


def modules() -> dict[str, Path]:
    """Every module of the trees, by its dotted name (a package by its own, for __init__.py)."""
    found = {}
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(tree: ast.AST):
    """Every Import and ImportFrom node, at any depth."""
    return (node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom))


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)} | {name}
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # `from pkg import mod` imports the module pkg.mod; `from mod import name` only mod
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
            for target in targets:
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    step = ".".join(parts[:i])
                    if step in known and step not in own:
                        edges[name].add(step)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components that are circles, each sorted, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    found.append(sorted(component))
    return found


def test_the_graph_is_read():
    edges = graph()
    assert "spellpress.cli" in edges and "companion.server" in edges
    assert edges["spellpress.cli"], "the command line imports modules of its own"


def test_no_import_circle():
    assert circles(graph()) == []


if __name__ == "__main__":
    for circle in circles(graph()):
        print(" <-> ".join(circle))
    sys.exit(0)
