"""``oriflamme conformance --export DIR``: the conformance suite as a product of its own.

An engine written in another language needs the scenarios, the perft positions and
their counts, and the pages that define them, and none of this project's source. The
export writes them into DIR, in the same layout as in this project (so that every
path the pages give still holds), with a manifest that says which versions they are:
the project's, the scenario format's and the engine protocol's, and each file's
SHA-256.

The files are read from the project's source tree (a checkout or the source
distribution, which carry ``tests`` and ``docs``); an installed wheel does not carry
them, and exporting from one is a clear error.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from oriflamme import OriflammeError

from .protocol import PROTOCOL_VERSION

#: The version of the scenario format (docs/scenarios.md) the exported files are
#: written in: raised when a file valid before would mean something else, or be refused.
FORMAT_VERSION = 1

#: The manifest's own version: how to read MANIFEST.yaml.
MANIFEST_VERSION = 1

#: The manifest's file name, at the top of the export.
MANIFEST = "MANIFEST.yaml"

#: What the export holds, relative to the project's root: folders (every file under
#: them, but Python's caches) and single files.
CONTENTS = (
    "tests/conformance",
    "tests/perft/positions",
    "tests/perft/counts.yaml",
    "tests/engines",
    "docs/scenarios.md",
    "docs/engine-protocol.md",
    "docs/perft.md",
    "docs/rulings.md",
    "docs/limits.md",
    "docs/plugins.md",  # linked from the format's page: an export has no dead link
)


class ExportError(OriflammeError):
    """The suite cannot be exported: its files are missing, or DIR is not empty."""


def project_root() -> Path:
    """The source tree this package was loaded from (``src/oriflamme/..``)."""
    return Path(__file__).resolve().parents[3]


def project_version() -> str:
    try:
        return importlib.metadata.version("oriflamme")
    except importlib.metadata.PackageNotFoundError:  # run from a tree that is not installed
        return "unknown"


def suite_files(root: Path) -> list[str]:
    """Every file the export copies, as paths relative to ``root``, sorted."""
    found: list[str] = []
    for entry in CONTENTS:
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
            raise ExportError(
                f"{path}: not found. The suite's files come with the project's source (a "
                "checkout, or the source distribution), not with an installed wheel: export "
                "from there"
            )
    return sorted(found)


def export_suite(directory: str | Path, root: Path | None = None) -> dict[str, Any]:
    """Write the suite under ``directory`` (which must not exist, or be empty) and
    return its manifest."""
    source = project_root() if root is None else root
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ExportError(f"{target}: not an empty folder; the export writes into a new one")
    files = suite_files(source)
    written: dict[str, str] = {}
    for name in files:
        data = (source / name).read_bytes()
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
        written[name] = hashlib.sha256(data).hexdigest()
    manifest = _manifest(written)
    text = "# The conformance suite of oriflamme, exported: see README.md.\n" + yaml.safe_dump(
        manifest, sort_keys=False, allow_unicode=True
    )
    (target / MANIFEST).write_text(text, encoding="utf-8")
    (target / "README.md").write_text(_readme(manifest), encoding="utf-8")
    return manifest


def _manifest(files: dict[str, str]) -> dict[str, Any]:
    scenarios = [name for name in files if _under(name, "tests/conformance", ".yaml")]
    positions = [name for name in files if _under(name, "tests/perft/positions", ".yaml")]
    return {
        "manifest": MANIFEST_VERSION,
        "suite": "oriflamme conformance suite",
        "oriflamme": project_version(),
        "format": FORMAT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "scenarios": {"folder": "tests/conformance", "count": len(scenarios)},
        "perft": {
            "positions": {"folder": "tests/perft/positions", "count": len(positions)},
            "counts": "tests/perft/counts.yaml",
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
every file with its SHA-256.

- `tests/conformance`: {manifest["scenarios"]["count"]} scenarios, in the format of
  docs/scenarios.md. Run them against any engine that speaks docs/engine-protocol.md:

      oriflamme conformance --engine "node my-engine.js" tests/conformance

  (`pip install oriflamme` gives the runner; the engine under test may be written in
  any language.)
- `tests/perft/positions` and `tests/perft/counts.yaml`: {manifest["perft"]["positions"]["count"]}
  perft positions and their reference counts, defined in docs/perft.md.
- `tests/engines`: a toy engine in Node.js, a starting point that speaks the protocol.
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
        f"{manifest['perft']['positions']['count']} perft positions to {args.export} "
        f"(oriflamme {manifest['oriflamme']}, format {manifest['format']}, "
        f"protocol {manifest['protocol']})"
    )
    return 0
