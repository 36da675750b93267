"""The suite an install carries: run with no PATH, and ``--export DIR``.

The export is run into a temporary folder; the scenarios and perft positions found
there give the same results as from the source tree, and every link of its pages
resolves inside it. Run on the compiled wheel too (`make compiled`), where the suite
comes from the package's data. No randomness: nothing to seed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from oriflamme import Registry
from oriflamme.cli import main
from oriflamme.conformance.export import (
    FORMAT_VERSION,
    MANIFEST,
    ExportError,
    check_export,
    export_suite,
)
from oriflamme.conformance.protocol import PROTOCOL_VERSION
from oriflamme.conformance.scenario import load_scenario
from oriflamme.installed import version
from oriflamme.perft import perft, position_after_play

from .conftest import ROOT
from .helpers import dead_links


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "suite"
    assert main(["conformance", "--export", str(folder)]) == 0
    return folder


def test_the_manifest_names_the_versions_and_every_file(exported: Path) -> None:
    manifest = yaml.safe_load((exported / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["oriflamme"] == version() != "unknown"
    assert manifest["format"] == FORMAT_VERSION
    assert manifest["protocol"] == PROTOCOL_VERSION
    scenarios = sorted((ROOT / "tests" / "conformance").rglob("*.yaml"))
    assert manifest["scenarios"]["count"] == len(scenarios) > 200
    positions = sorted((ROOT / "tests" / "perft" / "positions").glob("*.yaml"))
    assert manifest["perft"]["positions"]["count"] == len(positions)
    for page in manifest["docs"].values():
        assert (exported / page).is_file(), page
    # Pages are copied as they are, but for links to pages the export leaves out.
    page = "docs/scenarios.md"
    assert (exported / page).read_bytes() == (ROOT / page).read_bytes()
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


def test_every_link_of_an_exported_page_resolves_inside_the_export(exported: Path) -> None:
    pages = sorted(exported.rglob("*.md"))
    assert len(pages) >= 7  # the six pages and the README
    dead = {page.name: dead_links(page, exported) for page in pages}
    assert {name: links for name, links in dead.items() if links} == {}
    plugins = (exported / "docs/plugins.md").read_text(encoding="utf-8")
    # A link to a page left out names it instead, as text.
    assert "docs/migration.md (in oriflamme's source)" in plugins
    assert "](migration.md" not in plugins


def test_the_link_check_finds_a_dead_link_and_a_wrong_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "# Top\n\n## A section, with words\n\n[ok](b.md#the-end) [self](#top) "
        "[gone](c.md) [anchor](b.md#nowhere) [also ok](#a-section-with-words)\n",
        encoding="utf-8",
    )
    (tmp_path / "b.md").write_text("# The end\n", encoding="utf-8")
    assert dead_links(tmp_path / "a.md", tmp_path) == ["c.md", "b.md#nowhere"]


def test_the_exported_perft_counts_hold_from_the_exported_positions(
    exported: Path, registry: Registry
) -> None:
    counts = yaml.safe_load((exported / "tests/perft/counts.yaml").read_text(encoding="utf-8"))
    positions = sorted((exported / "tests/perft/positions").glob("*.yaml"))
    assert sorted(counts) == [path.stem for path in positions]
    for path in positions:
        game = position_after_play(load_scenario(path), registry)
        assert perft(game, 3) == counts[path.stem][3], path.name


def test_with_no_path_the_installed_suite_runs(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = run(["conformance", "--no-plugins", "--quiet"], capsys)
    scenarios = sorted((ROOT / "tests" / "conformance").rglob("*.yaml"))
    assert (status, lines) == (0, [f"{len(scenarios)} passed, 0 failed"])
    status, lines = run(["conformance", "--no-plugins", "--subset", "format"], capsys)
    assert status == 0
    chosen = sorted((ROOT / "tests" / "conformance" / "format").rglob("*.yaml"))
    assert len(lines) == len(chosen) + 1
    assert all("/tests/conformance/format/" in line for line in lines[:-1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["conformance", "--export", "FULL"], "not an empty folder"),
        (["conformance", "--export", "FILE"], "mine.txt': not a folder; the export writes"),
        (["conformance", "--export", "FILE/sub"], "mine.txt' is not a folder; the export writes"),
        (["conformance", "--export", ""], "--export needs a folder to write the suite into"),
        (["conformance", "--export", "NEW", "tests/conformance"], "runs nothing: give no PATH"),
        (["conformance", "--export", "NEW", "--subset", "base"], "runs nothing"),
        (["conformance", "--subset", "nope"], "no such part of the suite; its parts: ablaze, "),
        (["conformance", "--subset", "base", "tests/conformance"], "give no PATH with it"),
    ],
)
def test_a_mistake_of_the_suite_options_is_one_line_with_status_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep me\n", encoding="utf-8")
    mine = tmp_path / "full" / "mine.txt"
    places = {"FULL": str(tmp_path / "full"), "NEW": str(tmp_path / "new"), "FILE": str(mine)}
    assert main([places.get(arg, arg).replace("FILE", str(mine)) for arg in argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert (tmp_path / "full" / "mine.txt").read_text(encoding="utf-8") == "keep me\n"
    assert not (tmp_path / "new").exists()
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["full", "mine.txt"]


def test_an_export_that_fails_halfway_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk, say: the export fails, naming the folder, and the same command can
    be run again once there is room."""
    write = Path.write_bytes
    room = [40]  # files that fit

    def full(path: Path, data: bytes) -> int:
        room[0] -= 1
        if room[0] < 0:
            raise OSError(28, "No space left on device")
        return write(path, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    (tmp_path / "out").mkdir()
    with pytest.raises(ExportError, match="out': cannot export the suite there: No space left"):
        export_suite(tmp_path / "out")
    assert [path.name for path in tmp_path.iterdir()] == ["out"]
    assert list((tmp_path / "out").iterdir()) == []
    monkeypatch.setattr(Path, "write_bytes", write)
    export_suite(tmp_path / "out")
    assert list(check_export(tmp_path / "out")) == []


def test_an_incomplete_suite_is_named(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="tests/conformance: not found: this install's suite"):
        export_suite(tmp_path / "out", root=tmp_path)
