"""How this copy of oriflamme is installed: its version, and whether the modules on the
hot path of a game run compiled (mypyc, about twice as fast) or as pure Python.

setup.py reads :data:`HOT_MODULES` from this file to know what to compile, so this
module imports nothing of the package: it is the one list of both.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
from pathlib import Path

# The modules on the hot path of a game, by the source file's path under src/. The
# modules that hold pluggy hook implementations (expansions/*/__init__.py) stay
# interpreted: pluggy marks their functions, and a compiled function cannot carry a
# mark. The bots are those a search plays thousands of games with (not the package's
# __init__, which only gathers their names, nor kinds, ladder, rating and plot, which
# run once a command).
CORE = (
    "ability",
    "board",
    "deal",
    "decisions",
    "determinise",
    "effects",
    "engine",
    "game",
    "identity",
    "kinds",
    "observation",
    "rules",
    "saveable",
    "scoring",
    "state",
)
BOTS = (
    "advice",
    "cards",
    "heuristic",
    "ismcts",
    "learned",
    "moves",
    "play",
    "random",
    "reading",
    "spots",
)
#: The card sets whose ability modules (all but the package's __init__) are compiled.
EXPANSIONS = ("base", "ablaze")

PACKAGE = Path(__file__).resolve().parent

#: The conformance suite, as every install carries it and ``conformance --export``
#: writes it: paths relative to the project's root, folders standing for every file
#: under them. setup.py copies them into the package's :data:`SUITE_FOLDER` when it
#: builds, in this same layout, so that every path the pages give holds there too.
SUITE = (
    "tests/conformance",
    "tests/perft/positions",
    "tests/perft/counts.yaml",
    "tests/perft/random.yaml",
    "tests/engines",
    "docs/scenarios.md",
    "docs/engine-protocol.md",
    "docs/perft.md",
    "docs/rulings.md",
    "docs/limits.md",
    "docs/plugins.md",  # linked from the format's page
)
#: Where a built package keeps :data:`SUITE`, under the package's folder.
SUITE_FOLDER = "suite"


def suite_files(root: Path) -> list[str]:
    """Every file of :data:`SUITE` under ``root``, relative to it, sorted. A part that
    is missing raises :class:`FileNotFoundError`, naming it."""
    found: list[str] = []
    for entry in SUITE:
        path = root / entry
        if path.is_file():
            found.append(entry)
        elif path.is_dir():
            found.extend(
                file.relative_to(root).as_posix()
                for file in path.rglob("*")
                if file.is_file() and "__pycache__" not in file.parts
            )
        else:
            raise FileNotFoundError(f"{path}: not found")
    return sorted(found)


def suite_root() -> Path | None:
    """Where this install's suite is: in the package (a wheel, an sdist built), or in the
    source tree of an editable install; None if neither holds it."""
    for root in (PACKAGE / SUITE_FOLDER, PACKAGE.parents[1]):
        if (root / SUITE[0]).is_dir():
            return root
    return None


def hot_modules(package: Path = PACKAGE) -> list[str]:
    """The dotted names of the compiled modules, as found beside ``package``'s sources."""
    found = [f"oriflamme.core._{name}" for name in CORE]
    found += [f"oriflamme.bots.{name}" for name in BOTS]
    for expansion in EXPANSIONS:
        # A compiled module is a file like ``plot.cpython-311-x86_64-linux-gnu.so``.
        found += (
            f"oriflamme.expansions.{expansion}.{path.name.split('.')[0]}"
            for path in (package / "expansions" / expansion).iterdir()
            if path.suffix in (".py", ".so", ".pyd") and not path.name.startswith("__init__.")
        )
    return sorted(set(found))


def interpreted() -> list[str]:
    """The hot modules this install runs as pure Python: none when it is compiled."""
    return [
        name
        for name in hot_modules()
        if str(getattr(importlib.import_module(name), "__file__", "")).endswith(".py")
    ]


def form() -> str:
    """``compiled``, ``pure Python`` or ``partly compiled``: how the hot modules run."""
    slow = interpreted()
    if not slow:
        return "compiled"
    return "pure Python" if len(slow) == len(hot_modules()) else "partly compiled"


def version() -> str:
    try:
        return importlib.metadata.version("oriflamme")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree, uninstalled
        return "unknown"


def editable() -> bool:
    """Whether this is an editable install (``pip install -e``): pure Python by design, so
    that an edit to a source file takes effect at once."""
    try:
        text = importlib.metadata.distribution("oriflamme").read_text("direct_url.json")
        return bool(json.loads(text or "{}").get("dir_info", {}).get("editable", False))
    except (importlib.metadata.PackageNotFoundError, ValueError, AttributeError):
        return False


def extra(name: str) -> str:
    """How to install the optional extra ``name`` into this install: its packages, as
    its metadata lists them (no release of oriflamme is published, so
    ``pip install 'oriflamme[name]'`` would find nothing)."""
    try:
        listed = importlib.metadata.requires("oriflamme") or []
    except importlib.metadata.PackageNotFoundError:  # a source tree, not installed
        listed = []
    wanted = [
        requirement.strip()
        for requirement, _, marker in (line.partition(";") for line in listed)
        if marker.replace("'", '"').split() == ["extra", "==", f'"{name}"']
    ]
    if not wanted:
        return f"install oriflamme's {name} extra (pip install '.[{name}]' in its source)"
    return "pip install " + " ".join(f"'{requirement}'" for requirement in wanted)


def version_line() -> str:
    """What ``oriflamme --version`` prints: the version and the form, and for a slow form
    what to do about it."""
    line = f"oriflamme {version()} ({form()})"
    if editable():
        line += ", an editable install: edits to the sources take effect at once"
    elif form() != "compiled":
        line += (
            ": the compiled form is about twice as fast; installing builds it where a C "
            "compiler and Python's headers are found (`pip install -v` shows why it did not)"
        )
    return line
