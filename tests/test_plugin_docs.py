"""docs/plugins.md: every hook is documented, and the tutorial works word for word."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from oriflamme import Registry

from .conftest import ROOT

DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:] if end < 0 else DOC[start:end]


def hooks() -> list[str]:
    """Every hook a plugin may implement, as pluggy knows them: its specifications."""
    manager = Registry(builtins=False, entry_points=False).manager
    return [
        name
        for name, caller in vars(manager.hook).items()
        if not name.startswith("_") and caller.spec is not None
    ]


def test_every_hook_is_documented_and_every_documented_hook_exists() -> None:
    documented = re.findall(r"^### `(\w+)\(", section("Hook reference"), flags=re.M)
    assert len(hooks()) > 20
    assert sorted(documented) == sorted(hooks())


def tutorial_script() -> str:
    """The tutorial as one shell script: its files written, its commands run, in order."""
    lines = ["set -euo pipefail"]
    for language, body in re.findall(r"```(\w+)\n(.*?)```", section("Tutorial"), flags=re.S):
        first, _, rest = body.partition("\n")
        if first.startswith("# file: "):
            path = first.removeprefix("# file: ").strip()
            lines += [f"cat > {path} <<'TUTORIAL_EOF'", rest.rstrip("\n"), "TUTORIAL_EOF"]
        else:
            assert language == "sh", f"a {language} block that is not a file: {first}"
            lines.append(body)
    return "\n".join(lines)


@pytest.mark.slow
def test_the_tutorial_works_when_followed_word_for_word(tmp_path: Path) -> None:
    # Pure Python: the tutorial's install of oriflamme is not what it checks.
    env = {**os.environ, "ORIFLAMME": str(ROOT), "ORIFLAMME_PURE": "1"}
    env.pop("VIRTUAL_ENV", None)
    run = subprocess.run(
        ["bash", "-c", tutorial_script()],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = run.stdout
    assert "heralds (oriflamme-heralds 0.1.0)" in out
    assert "herald         Herald" in out
    assert "1 passed, 0 failed" in out
    assert re.search(r"\b1 passed\b", out)  # pytest
    assert "200 games, 3 families, sets base,heralds" in out
