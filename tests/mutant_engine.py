"""An engine with one deliberate rule mistake, speaking the engine protocol.

``python tests/mutant_engine.py NAME [OPTION...]`` applies the mutation ``NAME`` of
tests/rule_mutations.py (one ruling read wrongly), then serves docs/engine-protocol.md
on stdin and stdout exactly as ``oriflamme engine [OPTION...]`` does: the other
engine ``oriflamme conformance --compare`` and ``oriflamme perft --engine`` are
tested against. The mistake patches Python methods, which a compiled engine does not
call: run it on the pure Python install.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python tests/mutant_engine.py NAME [OPTION...]", file=sys.stderr)
        return 2
    # Run as a script, the project's root is not on the path: the mutations are
    # tests.rule_mutations.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import pytest  # noqa: PLC0415

    from oriflamme.cli import main as oriflamme  # noqa: PLC0415
    from tests.rule_mutations import MUTATIONS  # noqa: PLC0415

    named = {mutation.name: mutation for mutation in MUTATIONS}
    name, *options = argv
    if name not in named:
        print(f"no mutation {name!r}: one of {', '.join(sorted(named))}", file=sys.stderr)
        return 2
    patch = pytest.MonkeyPatch()
    try:
        named[name].apply(patch)
        return oriflamme(["engine", *options])
    finally:
        patch.undo()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
