"""``oriflamme conformance --export DIR``: the conformance suite as a product of its own.

An engine written in another language needs the scenarios, the perft positions and
their counts, and the pages that define them, and none of this project's source. The
export writes them into DIR, in the same layout as in this project (so that every
path the pages give still holds), with a manifest that says which versions they are:
the project's, the scenario format's and the engine protocol's, and each file's
SHA-256.

Every install carries the suite (:func:`oriflamme.installed.suite_root`). A page's
link to a page the export does not hold becomes plain text naming it, so that every
link in the export resolves inside it.
"""

from __future__ import annotations

import argparse
import hashlib
import posixpath
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from oriflamme import OriflammeError
from oriflamme.installed import suite_files, suite_root, version
from oriflamme.text import quote

from .protocol import PROTOCOL_VERSION

#: The version of the scenario format (docs/scenarios.md) the exported files are
#: written in: raised when a file valid before would mean something else, or be refused.
FORMAT_VERSION = 1

#: The manifest's own version: how to read MANIFEST.yaml.
MANIFEST_VERSION = 1

#: The manifest's file name, at the top of the export.
MANIFEST = "MANIFEST.yaml"


INTO_A_NEW_ONE = "the export writes into a new one, or an empty one"


class ExportError(OriflammeError):
    """The suite cannot be exported: its files are missing, or DIR is not empty."""


def installed_suite() -> Path:
    """The folder of this install's suite, laid out as the project's root."""
    root = suite_root()
    if root is None:
        raise ExportError(
            "this install carries no conformance suite (a build that left it out): "
            "install oriflamme again from its source (docs/engine-protocol.md)"
        )
    return root


#: A Markdown link: its text, and its target up to an optional ``#anchor``.
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s#]+)(#[^)\s]*)?\)")


def _local_links(name: str, text: str, held: set[str]) -> str:
    """``text`` of page ``name`` with each relative link to what the export does not
    hold (``held``: its files and folders) written as plain text that names it."""
    folder = posixpath.dirname(name)

    def local(link: re.Match[str]) -> str:
        label, target = link.group(1), link.group(2)
        if "://" in target or target.startswith("mailto:"):
            return link.group(0)
        path = posixpath.normpath(posixpath.join(folder, target))
        if path in held:
            return link.group(0)
        if label.strip("`") in (target, path):
            return f"{path} (in oriflamme's source)"
        return f"{label} ({path}, in oriflamme's source)"

    return _LINK.sub(local, text)


def export_suite(directory: str | Path, root: Path | None = None) -> dict[str, Any]:
    """Write the suite under ``directory`` (which must not exist, or be empty) and
    return its manifest.

    The files are written into a new folder beside ``directory``, renamed to it once
    complete: an export that fails (a full disk, say) leaves nothing behind, and the
    same command can be run again."""
    source = installed_suite() if root is None else root
    if not str(directory).strip():
        raise ExportError("--export needs a folder to write the suite into, not ''")
    target = Path(directory)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise ExportError(f"{_named(target)}: not a folder; the export writes into a new one")
    above = next((folder for folder in target.parents if folder.exists()), None)
    if above is not None and not above.is_dir():
        raise ExportError(f"{_named(target)}: {_named(above)} is not a folder; {INTO_A_NEW_ONE}")
    if target.exists() and any(target.iterdir()):
        raise ExportError(
            f"{_named(target)}: not an empty folder; the export writes into a new one"
        )
    try:
        files = suite_files(source)
    except FileNotFoundError as missing:
        raise ExportError(f"{missing}: this install's suite is incomplete") from None
    try:
        return _write(source, files, target)
    except OSError as failed:
        raise ExportError(
            f"{_named(target)}: cannot export the suite there: {failed.strerror or failed}; "
            "nothing was left behind"
        ) from None


def _named(path: Path) -> str:
    """``path`` quoted, whole but for a hostile length, control characters escaped."""
    return quote(str(path), 500)


def _write(source: Path, files: list[str], target: Path) -> dict[str, Any]:
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        held = set(files) | {
            str(folder) for name in files for folder in PurePosixPath(name).parents
        }
        written: dict[str, str] = {}
        for name in files:
            data = (source / name).read_bytes()
            if name.endswith(".md"):
                data = _local_links(name, data.decode("utf-8"), held).encode("utf-8")
            destination = work / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(data)
            written[name] = hashlib.sha256(data).hexdigest()
        manifest = _manifest(written)
        text = "# The conformance suite of oriflamme, exported: see README.md.\n"
        text += yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True)
        (work / MANIFEST).write_text(text, encoding="utf-8")
        (work / "README.md").write_text(_readme(manifest), encoding="utf-8")
        work.chmod(0o755)  # mkdtemp's folder is private; an export is for everyone
        if target.exists():
            target.rmdir()  # empty, as checked: the complete export takes its place
        work.rename(target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return manifest


def _manifest(files: dict[str, str]) -> dict[str, Any]:
    scenarios = [name for name in files if _under(name, "tests/conformance", ".yaml")]
    positions = [name for name in files if _under(name, "tests/perft/positions", ".yaml")]
    return {
        "manifest": MANIFEST_VERSION,
        "suite": "oriflamme conformance suite",
        "oriflamme": version(),
        "format": FORMAT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "scenarios": {"folder": "tests/conformance", "count": len(scenarios)},
        "perft": {
            "positions": {"folder": "tests/perft/positions", "count": len(positions)},
            "counts": "tests/perft/counts.yaml",
            "random": "tests/perft/random.yaml",
        },
        "docs": {
            "format": "docs/scenarios.md",
            "protocol": "docs/engine-protocol.md",
            "perft": "docs/perft.md",
            "rulings": "docs/rulings.md",
            "limits": "docs/limits.md",
            "plugins": "docs/plugins.md",
        },
        "files": [{"path": name, "sha256": digest} for name, digest in files.items()],
    }


def _under(name: str, folder: str, suffix: str) -> bool:
    return name.startswith(folder + "/") and name.endswith(suffix)


def _readme(manifest: dict[str, Any]) -> str:
    return f"""# The oriflamme conformance suite

Exported from oriflamme {manifest["oriflamme"]}: scenario format version
{manifest["format"]}, engine protocol version {manifest["protocol"]}. {MANIFEST} lists
every file of the suite with its SHA-256 (all but this README).

- `tests/conformance`: {manifest["scenarios"]["count"]} scenarios, in the format of
  docs/scenarios.md. Run them against any engine that speaks docs/engine-protocol.md,
  from this folder:

      oriflamme conformance --engine "node my-engine.js" tests/conformance

  The runner is the `oriflamme` command. No release of it is published yet: install
  it from its source into a virtual environment, with `pip install .` in the folder
  of a clone of the project, or `pip install oriflamme-{manifest["oriflamme"]}.tar.gz`
  from its source distribution. The engine under test may be written in any language.
- `tests/conformance/placement`: the placement phase alone, a first target for a new
  engine (`oriflamme conformance --engine CMD tests/conformance/placement`).
- `tests/perft/positions` and `tests/perft/counts.yaml`: {manifest["perft"]["positions"]["count"]}
  perft positions and their reference counts, defined in docs/perft.md;
  `tests/perft/random.yaml`: more than a thousand positions reached by seeded random
  play, each with its counts (docs/perft.md, "The random set").
- `tests/engines`: a toy engine in Node.js, a starting point that speaks the
  protocol and passes the placement scenarios:

      oriflamme conformance --engine "node tests/engines/toy_engine.js" tests/conformance/placement

- `docs`: the format, the protocol, perft, and the rulings every engine follows.
"""


def check_export(directory: str | Path) -> Iterator[str]:
    """The problems of an export: a file of the manifest missing or changed."""
    target = Path(directory)
    manifest = yaml.safe_load((target / MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        path = target / entry["path"]
        if not path.is_file():
            yield f"{entry['path']}: missing"
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            yield f"{entry['path']}: changed since the export"


def add_export(parser: argparse.ArgumentParser) -> None:
    """The ``--export DIR`` option of the ``conformance`` command."""
    parser.add_argument(
        "--export",
        default=None,
        metavar="DIR",
        help="write the suite (scenarios, perft positions and counts, the format and "
        "protocol pages, a versioned manifest) into DIR, a new or empty folder, for "
        "an engine in another language; runs nothing",
    )


def export_command(args: argparse.Namespace) -> int:
    """``oriflamme conformance --export DIR``: 0 once written; an :class:`ExportError`
    (one line, status 2) if it cannot be."""
    manifest = export_suite(args.export)
    print(
        f"exported {manifest['scenarios']['count']} scenarios and "
        f"{manifest['perft']['positions']['count']} perft positions to {_named(Path(args.export))} "
        f"(oriflamme {manifest['oriflamme']}, format {manifest['format']}, "
        f"protocol {manifest['protocol']})"
    )
    return 0
