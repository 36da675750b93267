"""The documentation's code runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


def test_the_readme_api_example_runs(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for number, block in enumerate(blocks):
        script = tmp_path / f"readme_{number}.py"
        script.write_text(block, encoding="utf-8")
        run = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
        )
        assert run.returncode == 0, run.stderr


def test_the_research_training_loop_runs_and_learns(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    script = tmp_path / "training.py"
    script.write_text(blocks[0], encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-W", "error", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rates = dict(line.rsplit(" ", 1) for line in run.stdout.splitlines())
    # The page quotes these figures: it must say what the code prints.
    for said, rate in rates.items():
        assert f"`{said} {rate}`" in text
    assert float(rates["trained red wins"]) > float(rates["random red wins"])


def test_docs_web_names_every_limit_its_option_and_its_default() -> None:
    from oriflamme.web.limits import Limits, fields, option  # noqa: PLC0415 - the web extra

    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(--[a-z-]+)` \| ([^|]+) \|", text, flags=re.M))
    defaults = Limits()
    for field in fields():
        name = option(field.name)
        assert name in rows, f"docs/web.md has no row for {name}"
        value = getattr(defaults, field.name)
        if field.name == "bot_workers":
            assert "cores" in rows[name]
        elif field.name == "allowed_hosts":
            assert rows[name].strip() == "none"
        else:
            shown = str(value) if not isinstance(value, float) else f"{value:g}"
            assert rows[name].strip() == shown, (name, rows[name], shown)
    assert set(rows) == {option(field.name) for field in fields()}


def user_docs() -> list[Path]:
    """What a user or a plugin author reads: the README, docs/, the example's README."""
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        ROOT / "examples" / "house-rules" / "README.md",
    ]


def test_the_docs_need_nothing_outside_the_project() -> None:
    """A clone or an installed package is all a reader has: no page sends them to a
    folder beside the checkout, and every link to a page of the project leads to one."""
    problems = []
    for page in user_docs():
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT)
        for number, line in enumerate(text.splitlines(), 1):
            if "../shared" in line or re.search(r"\b(FORMAT|RULINGS)\.md\b", line):
                problems.append(f"{name}:{number}: {line.strip()}")
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", text):
            if not (page.parent / target).is_file():
                problems.append(f"{name}: a link to {target}, which is not a page here")
    assert not problems, "\n".join(problems)
