"""The documentation's code runs as written."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from oriflamme.installed import extra

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


@pytest.mark.slow
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


#: An install from a package index, by name: none works until a release is published.
FROM_AN_INDEX = re.compile(r"pip install (-\S+ )*['\"]?oriflamme(\[[\w,]*\])?['\"]?(\s|$|`)")


def test_no_page_or_message_promises_an_install_from_an_index() -> None:
    """No release is published: every page and every message of the code says how to
    install from a clone or a source distribution instead."""
    sources = [*user_docs(), *sorted((ROOT / "src").rglob("*.py"))]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sources
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FROM_AN_INDEX.search(line)
    ]
    # Only the lines that say it fails today, and what it will do once a release exists.
    said = re.compile(r"finds$|fails;|would find nothing|release exists, .* will do the same")
    assert [line for line in found if not said.search(line)] == []
    assert len(found) == 4, found
    for line in (
        "pip install oriflamme",
        "pip install 'oriflamme[rl]'",
        "pip install -q oriflamme",
    ):
        assert FROM_AN_INDEX.search(line), line
    for line in ("pip install ./oriflamme", "pip install 'oriflamme-0.1.0.tar.gz[web]'"):
        assert not FROM_AN_INDEX.search(line), line


def test_a_missing_extra_is_named_by_its_packages() -> None:
    assert extra("postgres") == "pip install 'psycopg[binary]>=3.2' 'psycopg-pool>=3.2'"
    assert extra("web").startswith("pip install 'starlette>=")
    assert extra("nothing") == (
        "install oriflamme's nothing extra (pip install '.[nothing]' in its source)"
    )


#: The migration note: the one page that names what is inside ``oriflamme.core``, in
#: its tables of old names beside their new imports.
MIGRATION = ROOT / "docs" / "migration.md"

#: An import of core, or of a module inside it, written on one line anywhere.
IMPORTS_CORE = re.compile(
    r"\bfrom\s+oriflamme\.core\b[\w.]*\s+import\b"
    r"|\bimport\s+oriflamme\.core\b"
    r"|\bfrom\s+oriflamme\s+import\s+[^#\n]*\bcore\b"
)
#: A module or a name inside core, written out dotted (`oriflamme.core._budget.Budget`).
INTO_CORE = re.compile(r"\boriflamme\.core\.\w[\w.]*")


def fenced(text: str) -> list[tuple[str, str]]:
    """Every fenced code block of a page: (its language, its text)."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)


def core_imports(code: str) -> list[str]:
    """The imports of core or of a module inside it in a block of Python, if it parses."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if re.match(r"oriflamme\.core\b", a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if re.match(r"oriflamme\.core\b", node.module):
                found.append(node.module)
            elif node.module == "oriflamme" and any(a.name == "core" for a in node.names):
                found.append("oriflamme.core")
    return found


def test_no_page_tells_a_reader_to_import_core() -> None:
    """``oriflamme.core`` and its ``_`` modules are private: no page's code uses them, no
    page's line imports them, and no page but the migration note names a module or a
    name inside them (a page may say that core is private). The note's tables list the
    old names in their first column; what they give as the new import is public."""
    problems = []
    for page in user_docs():
        text = page.read_text(encoding="utf-8")
        name = str(page.relative_to(ROOT))
        for language, code in fenced(text):
            if "oriflamme.core" in code or core_imports(code):
                problems.append(f"{name}: a {language or 'plain'} block uses oriflamme.core")
        for number, line in enumerate(text.splitlines(), 1):
            where = f"{name}:{number}: {line.strip()}"
            if IMPORTS_CORE.search(line):
                problems.append(where)
            elif page == MIGRATION:
                cells = line.split("|")
                if line.startswith("|") and len(cells) > 3 and "oriflamme.core" in cells[2]:
                    problems.append(f"{where} (a new import inside core)")
            elif INTO_CORE.search(line):
                problems.append(where)
    assert not problems, "\n".join(problems)


def test_the_check_finds_core_however_it_is_written() -> None:
    for line in (
        "from oriflamme.core._budget import Budget",
        "from oriflamme.core import Budget",
        "import oriflamme.core._bounds as bounds",
        "from oriflamme import Game, core",
        "    from oriflamme.core.events import Eliminated  # noqa",
    ):
        assert IMPORTS_CORE.search(line), line
        assert core_imports(line.strip()), line
    for line in ("from oriflamme import Budget", "from oriflamme.limits import MAX_SEED"):
        assert not IMPORTS_CORE.search(line), line
        assert not core_imports(line), line
    said = "a bound of `oriflamme.core._bounds.MAX_TEXT`, the type `oriflamme.core.budget.Budget`"
    assert INTO_CORE.findall(said) == [
        "oriflamme.core._bounds.MAX_TEXT",
        "oriflamme.core.budget.Budget",
    ]
    assert not INTO_CORE.findall("`oriflamme.core` is private, as `oriflamme.core.<module>` was")


def test_every_new_import_of_the_migration_note_imports() -> None:
    """Each ``from MODULE import NAMES`` the migration note gives is a public name of a
    public module (in its ``__all__``), not something reached past it."""
    text = MIGRATION.read_text(encoding="utf-8")
    given = re.findall(r"`from (oriflamme[\w.]*) import ([\w, .]+)`", text)
    assert len(given) > 30
    missing = []
    for module, names in given:
        public = importlib.import_module(module).__all__
        missing += [
            f"{module}.{name}"
            for name in (part.strip() for part in names.split(","))
            if name != "..." and name not in public
        ]
    assert not missing, f"docs/migration.md gives imports that are not public: {missing}"
