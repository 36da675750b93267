"""Card 0 is a card like any other: no code tests a card id for truth.

A card id is a whole number from 0 (``CardId``), so ``if card:`` or ``and event.by``
skips card 0 (the example plugin's bounty once went unpaid when the eliminating card
had id 0). An id that may be missing is tested ``is not None``. This reads every test of
truth (``if``, ``while``, ``and``/``or``, ``not``, a conditional expression, an
``assert``, a comprehension's ``if``, ``bool()``) in the package, the example plugin
and the documents' Python blocks, and refuses one whose operand has a card id's name.
The few that test something else of such a name are listed with what they test.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .conftest import ROOT

#: The names a card id goes by in the code (an attribute or a variable).
CARD_NAME = re.compile(
    r"^(card|by|acting|revealing|target|victim|subject|top|copied|twin|moved|source|"
    r"about|eliminator)$|_card$"
)

#: Tests of truth on such a name that are not of a card id: (file, test) -> what it is.
NOT_CARD_IDS = {
    ("src/oriflamme/saves/_trial.py", "top"): "a module's top-level package name",
    ("src/oriflamme/core/_yamlfile.py", "place.card"): "a card key in a YAML location",
    ("src/oriflamme/study/report.py", "card"): "a card definition, or None",
}


def _tested(node: ast.AST) -> Iterator[ast.expr]:
    if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
        yield node.test
    elif isinstance(node, ast.BoolOp):
        yield from node.values
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node.operand
    elif isinstance(node, ast.comprehension):
        yield from node.ifs
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool":
        yield from node.args[:1]


def _name(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return None


def _sources() -> Iterator[tuple[str, str]]:
    for folder in ("src/oriflamme", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for page in sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]):
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            yield f"{page.relative_to(ROOT).as_posix()} block {number}", block


def card_truth_tests() -> list[str]:
    found = []
    for where, source in _sources():
        for node in ast.walk(ast.parse(source)):
            for expr in _tested(node):
                name = _name(expr)
                if name is None or not CARD_NAME.search(name):
                    continue
                text = ast.unparse(expr)
                if (where, text) not in NOT_CARD_IDS:
                    found.append(f"{where}:{expr.lineno}: {text} (in {ast.unparse(node)[:80]})")
    return found


def test_no_card_id_is_tested_for_truth() -> None:
    assert card_truth_tests() == []


def test_the_scan_finds_the_bounty_as_it_was_written() -> None:
    # The example plugin's bounty before it was fixed: the scan must see it.
    old = (
        "def card_eliminated(game, event):\n"
        "    if event.by and event.by != event.card:\n"
        "        pay(event.by)\n"
    )
    tests = [
        ast.unparse(expr)
        for node in ast.walk(ast.parse(old))
        for expr in _tested(node)
        if (name := _name(expr)) is not None and CARD_NAME.search(name)
    ]
    assert tests == ["event.by"]


def test_every_exception_is_still_there() -> None:
    # An entry for a test that is gone would let a new one of that name through.
    seen = set()
    for where, source in _sources():
        for node in ast.walk(ast.parse(source)):
            for expr in _tested(node):
                seen.add((where, ast.unparse(expr)))
    assert set(NOT_CARD_IDS) <= seen
