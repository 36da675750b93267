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
    core_modules = [p for p in core_files if p.name != "__init__.py"]
    print(f"core: {len(core_modules)} modules, {core_lines:,} lines")

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

    # Who reaches past the door: an import of a module inside oriflamme.core (not of
    # the package itself), by group. The door's own modules re-export core's names.
    groups: dict[str, tuple[set[Path], set[str], set[tuple[str, str]]]] = {}
    outside = [p for p in SRC.rglob("*.py") if "oriflamme/core" not in p.as_posix()]
    outside += [
        p for folder in ("tests", "examples", "benchmarks") for p in (ROOT / folder).rglob("*.py")
    ]
    for path in outside:
        current = module_name(path) if SRC in path.parents else path.stem
        group = group_of(path, current)
        for imported, name, _where in imports_of(path, current):
            # `from oriflamme.core import _budget` reaches a module as much as a dotted import
            private = imported == CORE and name.startswith("_")
            target = f"{CORE}.{name}" if private else imported
            if target.startswith(CORE + "."):
                paths, modules, names = groups.setdefault(group, (set(), set(), set()))
                paths.add(path)
                modules.add(target)
                if name not in public:
                    names.add((target, name))
    for group in ("wings", "saves", "public modules", "tests", "examples and benchmarks"):
        paths, modules, names = groups.get(group, (set(), set(), set()))
        print(
            f"{group} importing core's modules: {len(paths)} files, {len(modules)} modules, "
            f"{len(names)} names not exported by oriflamme"
        )


DOOR = {
    "oriflamme",
    "oriflamme.events",
    "oriflamme.limits",
    "oriflamme.text",
    "oriflamme.saves",
    "oriflamme.yamlfile",
    "oriflamme.compiling",
}


def group_of(path: Path, current: str) -> str:
    if SRC not in path.parents:
        return "tests" if "tests" in path.parts else "examples and benchmarks"
    if current in DOOR:
        return "public modules"
    if current.startswith("oriflamme.saves."):
        return "saves"
    return "wings"


if __name__ == "__main__":
    main()
