"""Builds oriflamme: its hot modules compiled ahead of time with mypyc when possible.

The engine, the built-in card abilities, observations and the bots are compiled to C
extension modules (about twice as fast). They install as pure Python, unchanged in
behaviour, when compiling is not possible (no C compiler, mypyc missing) or not
wanted: set ORIFLAMME_PURE=1. An editable install is always pure Python, so that an
edit to a source file takes effect at once. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent

# The modules on the hot path of a game. The modules that hold pluggy hook
# implementations (expansions/*/__init__.py) stay interpreted: pluggy marks their
# functions, and a compiled function cannot carry a mark.
CORE = (
    "ability",
    "deal",
    "decisions",
    "determinise",
    "effects",
    "engine",
    "game",
    "identity",
    "kinds",
    "observation",
    "queue",
    "rules",
    "saveable",
    "scoring",
    "state",
)

# The bots a search plays thousands of games with (not the package's __init__, which
# only gathers their names, nor kinds, ladder, rating and plot, which run once a command).
BOTS = ("advice", "heuristic", "ismcts", "moves", "play", "random", "reading")


def hot_modules() -> list[str]:
    package = HERE / "src" / "oriflamme"
    found = [f"src/oriflamme/core/{name}.py" for name in CORE]
    found += [f"src/oriflamme/bots/{name}.py" for name in BOTS]
    for expansion in ("base", "ablaze"):
        found += sorted(
            str(path.relative_to(HERE))
            for path in (package / "expansions" / expansion).glob("*.py")
            if path.name != "__init__.py"
        )
    return found


def compiled() -> list[Extension]:
    """The extension modules to build, or none for a pure-Python install."""
    if os.environ.get("ORIFLAMME_PURE") == "1":
        return []
    if any(command.startswith("editable") for command in sys.argv[1:]):
        return []  # edits must take effect: never shadow the sources with binaries
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - only where mypyc is installed
    except ImportError:
        print("oriflamme: mypyc is not available; installing pure Python", file=sys.stderr)
        return []
    try:
        extensions: list[Extension] = mypycify(
            hot_modules(), opt_level="3", group_name="oriflamme", verbose=False
        )
    except (Exception, SystemExit) as exc:  # mypyc reports some failures by exiting
        print(f"oriflamme: cannot compile ({exc}); installing pure Python", file=sys.stderr)
        return []
    return extensions


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them: a failed compile (no C compiler,
    say) leaves a pure-Python install, which behaves the same, only slower."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any failure: fall back, never half-compiled
            for extension in self.extensions:
                built = Path(self.get_ext_fullpath(extension.name))
                built.unlink(missing_ok=True)
            self.extensions = []
            print(f"oriflamme: compiling failed ({exc}); installing pure Python", file=sys.stderr)


setup(ext_modules=compiled(), cmdclass={"build_ext": OptionalBuildExt})
