"""The documentation's code runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
