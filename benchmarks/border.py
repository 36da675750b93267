"""The figures of the border between core and the rest, read from the source by AST.

    python benchmarks/border.py

Prints the modules and lines in `oriflamme.core`, the names the rest of the project
(wings, plugins, tests, examples) imports from core's private modules, the import
circles inside core, and core's imports of anything above it. The import contracts in
pyproject.toml ([tool.importlinter]) are what `make lint` enforces; this script gives
the counts behind them.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CORE = "oriflamme.core"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base.pop()
    for _ in range(node.level - 1):
        base.pop()
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path, current: str) -> list[tuple[str, str, str]]:
    """(module, name, where) for each import; where is 'top', 'typing' or 'function'."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str, str]] = []
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                here = "function"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                here = "typing" if where == "top" else where
            if isinstance(child, ast.Import):
                found.extend((alias.name, "", here) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                target = resolve(current, is_package, child)
                found.extend((target, alias.name, here) for alias in child.names)
            visit(child, here)

    visit(tree, "top")
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for after in edges.get(node, ()):
            if after not in index:
                connect(after)
                low[node] = min(low[node], low[after])
            elif after in on:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def main() -> None:
    import oriflamme  # noqa: PLC0415

    public = set(oriflamme.__all__)
    core_files = sorted((SRC / "oriflamme" / "core").rglob("*.py"))
    core_lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in core_files)
    modules = [p for p in core_files if p.name != "__init__.py"]
    print(f"core: {len(modules)} modules, {core_lines:,} lines")

    edges: dict[str, set[str]] = defaultdict(set)
    above: set[tuple[str, str]] = set()
    inside_functions: set[tuple[str, str]] = set()
    for path in core_files:
        current = module_name(path)
        for target, _name, where in imports_of(path, current):
            if not target.startswith("oriflamme"):
                continue
            if target == CORE or target.startswith(CORE + "."):
                edges[current].add(target)
                if where != "top":
                    inside_functions.add((current, target))
            else:
                above.add((current, target))
    print(f"core imports from above it: {len(above)}")
    for pair in sorted(above):
        print("   ", *pair)
    print(f"core imports inside functions or TYPE_CHECKING: {len(inside_functions)}")
    found = circles(edges)
    print(f"circles in core: {len(found)}" + "".join(f"\n    {' '.join(c)}" for c in found))

    private_names: set[tuple[str, str]] = set()
    files: set[Path] = set()
    private_modules: set[str] = set()
    outside = [p for p in SRC.rglob("*.py") if CORE.replace(".", "/") not in str(p)]
    outside += [
        p for folder in ("tests", "examples", "benchmarks") for p in (ROOT / folder).rglob("*.py")
    ]
    for path in outside:
        current = module_name(path) if SRC in path.parents else path.stem
        for target, name, _where in imports_of(path, current):
            if target == CORE or target.startswith(CORE + "."):
                files.add(path)
                private_modules.add(target)
                if name not in public:
                    private_names.add((target, name))
    by_kind: dict[str, int] = defaultdict(int)
    for path in files:
        by_kind["tests" if "tests" in path.parts else "wings and the rest"] += 1
    print(
        f"imports of oriflamme.core from outside it: {len(files)} files "
        f"({dict(sorted(by_kind.items()))}), {len(private_modules)} core modules, "
        f"{len(private_names)} names not exported by oriflamme"
    )


if __name__ == "__main__":
    main()
