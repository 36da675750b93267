"""The border between the engine and the rest, as pyproject.toml's import contracts
draw it (`make lint` runs them with import-linter): the contracts must name every
part of the package, so that a module added later is held by them too."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "oriflamme"


def contracts() -> dict[str, dict[str, object]]:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["name"]: c for c in settings["tool"]["importlinter"]["contracts"]}


def siblings_of_core() -> set[str]:
    """Every module and package beside ``oriflamme.core``."""
    found = set()
    for path in PACKAGE.iterdir():
        if path.name in ("core", "__init__.py", "__pycache__") or path.name.endswith(".egg-info"):
            continue
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            found.add(f"oriflamme.{path.stem}")
    return found


def test_core_is_forbidden_every_module_above_it() -> None:
    forbidden = set(contracts()["Core imports nothing above it"]["forbidden_modules"])  # type: ignore[call-overload]
    assert forbidden == siblings_of_core(), (
        "pyproject.toml's 'Core imports nothing above it' must list exactly the modules "
        f"beside core: missing {sorted(siblings_of_core() - forbidden)}, "
        f"no longer there {sorted(forbidden - siblings_of_core())}"
    )


def test_only_core_and_saves_reach_core_modules() -> None:
    contract = contracts()["Only core itself and saves import core's private modules"]
    assert contract["type"] == "protected"
    assert contract["protected_modules"] == ["oriflamme.core.*"]
    assert contract["allowed_importers"] == ["oriflamme.core", "oriflamme.saves"]


def test_core_modules_are_private() -> None:
    """Every module of core is named `_name`: its package's namespace is the one door."""
    public = [
        path.name
        for path in (PACKAGE / "core").glob("*.py")
        if path.name != "__init__.py" and not path.name.startswith("_")
    ]
    assert public == []


def test_no_circle_in_core_type_checking_imports_included() -> None:
    contract = contracts()["No circle in core"]
    assert contract["type"] == "acyclic_siblings"
    assert contract["ancestors"] == ["oriflamme.core"]
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert not settings["tool"]["importlinter"].get("exclude_type_checking_imports", False)


#: The packages built on the public modules, which know no card set's module.
WINGS = {"bots", "conformance", "rl", "study", "text", "web"}


def test_no_wing_imports_a_card_set() -> None:
    contract = contracts()[
        "The wings know the card sets only through the public surface, never their modules"
    ]
    assert contract["type"] == "forbidden"
    assert contract["forbidden_modules"] == ["oriflamme.expansions"]
    assert set(contract["source_modules"]) == {f"oriflamme.{wing}" for wing in WINGS}  # type: ignore[call-overload]
    assert all((PACKAGE / wing / "__init__.py").exists() for wing in WINGS)


#: What core may import beside the standard library (pyproject's core dependencies).
CORE_DEPENDENCIES = {"attrs", "pluggy", "yaml", "oriflamme"}


def _imports(path: Path) -> list[tuple[int, str, bool]]:
    """Each import of ``path``: its line, its top-level package (None: relative), and
    whether it is at the module's top level (not in a function or a class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[0], id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            name = "" if node.level else (node.module or "").split(".")[0]
            found.append((node.lineno, name, id(node) in top))
    return found


def test_core_imports_the_standard_library_attrs_pluggy_and_yaml_only() -> None:
    # _compiling's mypy_extensions is the compiled build's own, tried and not needed.
    allowed = set(sys.stdlib_module_names) | CORE_DEPENDENCIES | {""}
    outside = [
        f"{path.name}:{line}: {name}"
        for path in sorted((PACKAGE / "core").glob("*.py"))
        for line, name, _ in _imports(path)
        if name not in allowed and not (path.name == "_compiling.py" and name == "mypy_extensions")
    ]
    assert outside == []


def test_core_imports_only_at_the_top_of_its_modules() -> None:
    # Guarded imports at the top (try/except, if TYPE_CHECKING) are at module level too:
    # what is not is an import inside a function or a class, a hidden edge.
    inside = []
    for path in sorted((PACKAGE / "core").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for scope in ast.walk(tree):
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inside += [
                    f"{path.name}:{node.lineno}"
                    for node in ast.walk(scope)
                    if isinstance(node, ast.Import | ast.ImportFrom)
                ]
    assert inside == []
