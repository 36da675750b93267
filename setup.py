"""Builds oriflamme: its hot modules compiled ahead of time with mypyc when possible.

The engine, the built-in card abilities, observations and the bots are compiled to C
extension modules (about twice as fast). They install as pure Python, unchanged in
behaviour, when compiling is not possible (no C compiler, mypyc missing) or not
wanted: set ORIFLAMME_PURE=1. An editable install is always pure Python, so that an
edit to a source file takes effect at once. `oriflamme --version` says which form
is installed. The list of hot modules is kept in src/oriflamme/installed.py; everything
else is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def installed() -> Any:
    """src/oriflamme/installed.py, which keeps the lists this build needs (read from the
    file, since the package cannot be imported before it is built)."""
    spec = importlib.util.spec_from_file_location(
        "oriflamme_installed", HERE / "src" / "oriflamme" / "installed.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hot_modules() -> list[str]:
    """The source files to compile."""
    package = HERE / "src" / "oriflamme"
    return ["src/" + name.replace(".", "/") + ".py" for name in installed().hot_modules(package)]


#: The commands that build the extension modules.
BUILDS = {"build", "build_ext", "bdist_wheel", "install"}


def cores() -> int:
    """The cores this build may use (those it is allowed to run on), at most 8."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, min(len(os.sched_getaffinity(0)), 8))
    return max(1, min(os.cpu_count() or 1, 8))


def compiled() -> list[Extension]:
    """The extension modules to build, or none for a pure-Python install."""
    if os.environ.get("ORIFLAMME_PURE") == "1":
        return []
    if any(command.startswith("editable") for command in sys.argv[1:]):
        return []  # edits must take effect: never shadow the sources with binaries
    if not BUILDS.intersection(sys.argv[1:]):
        # pip runs this file for the build's requirements and metadata too: compiling
        # (a few seconds of mypyc) is for the commands that build.
        return []
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - only where mypyc is installed
    except ImportError:
        print("oriflamme: mypyc is not available; installing pure Python", file=sys.stderr)
        return []
    try:
        extensions: list[Extension] = mypycify(
            hot_modules(),
            opt_level="3",
            group_name="oriflamme",
            multi_file=True,  # C files that compile in parallel (see OptionalBuildExt)
            verbose=False,
        )
    except (Exception, SystemExit) as exc:  # mypyc reports some failures by exiting
        print(f"oriflamme: cannot compile ({exc}); installing pure Python", file=sys.stderr)
        return []
    return extensions


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them: a failed compile (no C compiler,
    say) leaves a pure-Python install, which behaves the same, only slower."""

    def build_extensions(self) -> None:
        # mypyc puts most of the code in one extension of many C files (multi_file),
        # which setuptools would compile one after the other: they compile here one
        # per core, the biggest first, so that the build takes about its longest file
        # (about half the time on two cores). The extensions build in parallel too (the
        # small ones mypyc adds, one per module), all through this one compiler.
        compiler = self.compiler
        one_by_one = compiler.compile
        jobs = cores()

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs < 2 or len(sources) < 2:
                return list(one_by_one(sources, *args, **kwargs))
            order = sorted(range(len(sources)), key=lambda i: -os.path.getsize(sources[i]))
            with ThreadPoolExecutor(jobs) as pool:
                objects = pool.map(lambda i: one_by_one([sources[i]], *args, **kwargs), order)
                done = dict(zip(order, objects, strict=True))
            return [name for i in range(len(sources)) for name in done[i]]

        compiler.compile = compile_all
        self.parallel = jobs
        try:
            super().build_extensions()
        finally:
            del compiler.compile  # the class's own again

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any failure: fall back, never half-compiled
            for extension in self.extensions:
                built = Path(self.get_ext_fullpath(extension.name))
                built.unlink(missing_ok=True)
            self.extensions = []
            print(f"oriflamme: compiling failed ({exc}); installing pure Python", file=sys.stderr)


class BuildPy(build_py):
    """Copies the conformance suite (scenarios, perft positions and counts, the toy
    engine, the pages that define them) into the package, so that every install can run
    and export it. They live in tests/ and docs/, where the project's own tests and
    readers find them; an editable install reads them there."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        listing = installed()
        target = Path(self.build_lib) / "oriflamme" / listing.SUITE_FOLDER
        for name in listing.suite_files(HERE):
            self.mkpath(str((target / name).parent))
            self.copy_file(str(HERE / name), str(target / name))


setup(
    ext_modules=compiled(),
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy},
)
