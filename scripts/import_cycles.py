"""The package's import graph and its cycles: ``python scripts/import_cycles.py`` prints every cycle.

Every ``import`` and ``from ... import`` in the package's source files counts, those inside
functions too (a lazy import is still a dependency). An edge goes to the module named, or to
``package.name`` when the imported name is a submodule; parent packages are not edges (importing
``a.b.c`` runs ``a/__init__.py``, but that is the package's own business, as in import-linter).
The repository's ``agents/`` and ``training/`` are ``tiny_york_env.agents`` and
``tiny_york_env.training``, as installed.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tiny_york_env"
# source folder -> its module prefix
SOURCE_DIRS = {ROOT / PACKAGE: PACKAGE, ROOT / "agents": f"{PACKAGE}.agents",
               ROOT / "training": f"{PACKAGE}.training"}


def module_files() -> dict[str, Path]:
    """Module name -> source file, for every module of the package."""
    modules = {}
    for folder, prefix in SOURCE_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join([prefix, *parts])] = path
    return modules


def _imported_modules(tree: ast.AST, module: str, is_package: bool, files) -> Iterator[str]:
    """Every module of ``files`` that ``module`` imports: ``from base import name`` imports
    ``base.name`` when that is a module, else ``base``."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    files = module_files()
    graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        graph[module] = {name for name in _imported_modules(tree, module, path.name == "__init__.py", files)
                         if name in files and name != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def main() -> int:
    """Print each cycle with the edges inside it; exit status 1 when there is any."""
    graph = import_graph()
    found = cycles(graph)
    for component in found:
        members = set(component)
        print(f"cycle of {len(component)} modules:")
        for module in component:
            inside = sorted(graph[module] & members)
            print(f"  {module} -> {', '.join(inside)}")
    print(f"{len(found)} cycles among {len(graph)} modules")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
