"""``oriflamme conformance --export DIR``: the suite, without this project's source.

The export is run into a temporary folder; the scenarios and perft positions found
there give the same results as from the source tree, run by our engine in-process and
by the toy engine in Node.js (tests/engines) from the export's own copy. No randomness:
nothing to seed.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import oriflamme
from oriflamme import Registry
from oriflamme.cli import main
from oriflamme.conformance.export import (
    FORMAT_VERSION,
    MANIFEST,
    ExportError,
    check_export,
    export_suite,
    project_version,
)
from oriflamme.conformance.protocol import PROTOCOL_VERSION
from oriflamme.conformance.scenario import load_scenario
from oriflamme.perft import perft, position_after_play

from .conftest import ROOT

# The suite is exported from the project's source tree, which an installed wheel does
# not carry (the export says so): `make compiled` runs the tests on such a wheel.
pytestmark = pytest.mark.skipif(
    not Path(oriflamme.__file__).resolve().is_relative_to(ROOT / "src"),
    reason="oriflamme is installed from a wheel, which carries no suite to export",
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "suite"
    assert main(["conformance", "--export", str(folder)]) == 0
    return folder


def test_the_manifest_names_the_versions_and_every_file(exported: Path) -> None:
    manifest = yaml.safe_load((exported / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["oriflamme"] == project_version() != "unknown"
    assert manifest["format"] == FORMAT_VERSION
    assert manifest["protocol"] == PROTOCOL_VERSION
    scenarios = sorted((ROOT / "tests" / "conformance").rglob("*.yaml"))
    assert manifest["scenarios"]["count"] == len(scenarios) > 200
    positions = sorted((ROOT / "tests" / "perft" / "positions").glob("*.yaml"))
    assert manifest["perft"]["positions"]["count"] == len(positions)
    for page in manifest["docs"].values():
        assert (exported / page).read_bytes() == (ROOT / page).read_bytes(), page
    listed = {entry["path"] for entry in manifest["files"]}
    on_disk = {
        path.relative_to(exported).as_posix()
        for path in exported.rglob("*")
        if path.is_file() and path.name not in (MANIFEST, "README.md")
    }
    assert listed == on_disk
    assert "tests/perft/counts.yaml" in listed
    assert "tests/engines/toy_engine.js" in listed
    assert list(check_export(exported)) == []


def test_a_changed_file_is_found_by_its_digest(exported: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(exported, copy)
    (copy / "tests" / "perft" / "counts.yaml").write_text("{}\n", encoding="utf-8")
    (copy / "docs" / "perft.md").unlink()
    assert list(check_export(copy)) == [
        "docs/perft.md: missing",
        "tests/perft/counts.yaml: changed since the export",
    ]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = main(argv)
    return status, capsys.readouterr().out.splitlines()


def test_our_engine_runs_the_exported_scenarios_as_it_runs_the_source(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines = run(
        ["conformance", "--no-plugins", str(exported / "tests/conformance")], capsys
    )
    source_status, source = run(
        ["conformance", "--no-plugins", str(ROOT / "tests/conformance")], capsys
    )
    assert (status, lines) == (
        source_status,
        [line.replace(str(ROOT), str(exported)) for line in source],
    )
    assert status == 0
    assert lines[-1].endswith(" passed, 0 failed")


def test_the_toy_engine_runs_from_the_export_as_from_the_source(exported: Path) -> None:
    """The toy engine, from the export's own copy, against the exported scenarios: the
    same lines as the source's toy against the source's scenarios, paths aside."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the toy engine in tests/engines is Node.js")

    def toy_run(root: Path) -> tuple[int, list[str]]:
        toy = f"{shlex.quote(node)} {shlex.quote(str(root / 'tests/engines/toy_engine.js'))}"
        argv = ["-m", "oriflamme", "conformance", "--no-plugins", "--engine", toy]
        done = subprocess.run(
            [sys.executable, *argv, str(root / "tests/conformance")],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        return done.returncode, done.stdout.replace(str(root), "ROOT").splitlines()

    from_export, from_source = toy_run(exported), toy_run(ROOT)
    assert from_export == from_source
    status, lines = from_export
    assert status == 1
    assert lines[-1].endswith(" failed")


def test_the_exported_perft_counts_hold_from_the_exported_positions(
    exported: Path, registry: Registry
) -> None:
    counts = yaml.safe_load((exported / "tests/perft/counts.yaml").read_text(encoding="utf-8"))
    positions = sorted((exported / "tests/perft/positions").glob("*.yaml"))
    assert sorted(counts) == [path.stem for path in positions]
    for path in positions:
        game = position_after_play(load_scenario(path), registry)
        assert perft(game, 3) == counts[path.stem][3], path.name


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["conformance", "--export", "FULL"], "not an empty folder"),
        (["conformance", "--export", "NEW", "tests/conformance"], "runs nothing: give no PATH"),
        (["conformance"], "give the scenario files or folders to run (PATH...), or --export DIR"),
    ],
)
def test_an_export_that_cannot_be_made_is_one_line_with_status_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep me\n", encoding="utf-8")
    places = {"FULL": str(tmp_path / "full"), "NEW": str(tmp_path / "new")}
    assert main([places.get(arg, arg) for arg in argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert (tmp_path / "full" / "mine.txt").read_text(encoding="utf-8") == "keep me\n"
    assert not (tmp_path / "new").exists()


def test_an_export_needs_the_source_tree(tmp_path: Path) -> None:
    """From a copy with no tests/ (an installed wheel), the export says where to run it."""
    with pytest.raises(ExportError, match="not with an installed wheel"):
        export_suite(tmp_path / "out", root=tmp_path)
