"""The release files as a user gets them, before any release is published: an sdist and a
wheel built with ``python -m build`` pass ``twine check``, and the sdist installed in a
fresh virtual environment runs the conformance suite it carries from an empty folder,
in-process and through the engine protocol, and exports it whole.

The build starts from a copy of the checkout's files (those git would commit), as a
clean clone has them. Pure Python (ORIFLAMME_PURE=1): compiling is tested by
`make compiled`. No randomness: nothing to seed.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT
from .helpers import dead_links, pure_build, venv_with

pytestmark = pytest.mark.slow


def checkout_copy(target: Path) -> Path:
    """The checkout's files as a clone has them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is left out
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


def test_the_sdist_installs_and_runs_the_suite_it_carries(tmp_path: Path) -> None:
    source = checkout_copy(tmp_path / "clone")
    dist = tmp_path / "dist"
    pure_build([sys.executable, "-m", "build", "--outdir", str(dist), str(source)])
    sdist, wheel = next(dist.glob("*.tar.gz")), next(dist.glob("*.whl"))
    twine = [sys.executable, "-m", "twine", "check", "--strict"]
    checked = run([*twine, str(sdist), str(wheel)], dist)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout

    scenarios = sorted(
        path.relative_to(ROOT).as_posix() for path in (ROOT / "tests/conformance").rglob("*.yaml")
    )
    carried = sorted(
        name.removeprefix("oriflamme/suite/")
        for name in zipfile.ZipFile(wheel).namelist()
        if name.startswith("oriflamme/suite/tests/conformance/")
    )
    assert carried == scenarios
    with tarfile.open(sdist) as archive:
        assert any(name.endswith("/docs/engine-protocol.md") for name in archive.getnames())

    venv = venv_with(tmp_path / "venv", sdist)
    oriflamme = str(venv / "bin" / "oriflamme")
    empty = tmp_path / "empty"
    empty.mkdir()
    closing = f"{len(scenarios)} passed, 0 failed"

    alone = run([oriflamme, "conformance", "--quiet"], empty)
    assert (alone.returncode, alone.stdout.strip()) == (0, closing), alone.stderr
    engine = f"{shlex.quote(oriflamme)} engine"
    remote = run([oriflamme, "conformance", "--quiet", "--engine", engine], empty)
    assert (remote.returncode, remote.stdout.strip()) == (0, closing), remote.stderr

    exported = run([oriflamme, "conformance", "--export", "suite"], empty)
    assert exported.returncode == 0, exported.stderr
    suite = empty / "suite"
    from_export = run(
        [oriflamme, "conformance", "--quiet", "--engine", engine, "tests/conformance"], suite
    )
    assert (from_export.returncode, from_export.stdout.strip()) == (0, closing)
    pages = sorted(suite.rglob("*.md"))
    dead = {page.name: dead_links(page, suite) for page in pages}
    assert {name: links for name, links in dead.items() if links} == {}
