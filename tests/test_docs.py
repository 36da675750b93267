"""The documentation's code runs as written."""

from __future__ import annotations

import re

from .conftest import ROOT


def test_the_readme_api_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own docs
