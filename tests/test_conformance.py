"""The conformance suite as pytest tests (one per file), and the runner's own behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from oriflamme import Registry
from oriflamme.conformance import find_scenarios, load_scenario, run_file

from .conftest import ROOT, SHARED

SUITE = ROOT / "tests" / "conformance"
EXAMPLES = SHARED / "conformance" / "examples"
FILES = find_scenarios([SUITE]) + (find_scenarios([EXAMPLES]) if EXAMPLES.is_dir() else [])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_scenario(registry: Registry, path: Path) -> None:
    result = run_file(path, registry)
    assert result.passed, result.report()


def test_every_suite_scenario_cites_its_source() -> None:
    for path in find_scenarios([SUITE]):
        scenario = load_scenario(path)
        assert scenario.source, f"{path}: no source"


BASE = """\
name: A small scenario
source: test
sets: [base]
players: [red, blue, green]
state:
  round: 2
  phase: resolution
  queue:
    - blue.spy
    - {card: red.soldier, up: true}
  hands: {red: [red.heir], blue: [blue.heir], green: [green.heir]}
expect:
  influence: {red: 1}
  next: {blue: reveal}
"""


def run_text(tmp_path: Path, registry: Registry, text: str) -> tuple[bool, str]:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_file(path, registry)
    return result.passed, result.report()


def test_a_passing_scenario(tmp_path: Path, registry: Registry) -> None:
    passed, report = run_text(tmp_path, registry, BASE)
    assert passed, report


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("influence: {red: 1}", "influence: {red: 3}"),
            "influence: expected {'red': 3}, actual {'red': 1}",
        ),
        (("next: {blue: reveal}", "next: end"), "next: expected 'end', actual {'blue': 'reveal'}"),
        (("source: test", "source: test\nextra: 1"), "scenario.yaml:3: unknown key 'extra'"),
        (("phase: resolution", "phase: night"), "scenario.yaml:7: 'phase' must be placement"),
        (("- blue.spy", "- blue.spy\n    - blue.spy"), "scenario.yaml:10: blue.spy is already at"),
        (("- blue.spy", "- [blue.spy]"), "scenario.yaml:9: a stack is a list of two or more"),
        (
            ("- blue.spy", "- {card: blue.ambush, up: true}"),
            "blue.ambush cannot be face up in the queue",
        ),
        (
            ("- {card: red.soldier, up: true}", "- {card: red.soldier, up: true, tokens: 2}"),
            "red.soldier is face up and cannot carry tokens",
        ),
        (("- blue.spy", "- blue.prince"), "no card 'prince' in the sets base"),
        (("- blue.spy", "- pink.spy"), "pink.spy belongs to 'pink', not one of the players"),
        (
            ("hands: {red: [red.heir]", "hands: {red: [blue.lord]"),
            "blue.lord cannot be in red's hands: every zone holds the cards of its own family",
        ),
        (
            ("players: [red, blue, green]", "players: [red, blue]"),
            "unknown key 'green' in 'hands' (expected: blue, red)",
        ),
        (("name: A small scenario", "name: [broken"), "scenario.yaml:2: not valid YAML"),
        (
            ("expect:", "play:\n  - blue: {target: red.soldier}\nexpect:"),
            "expected {blue: target} to be asked, but the game asks {'blue': 'reveal'}",
        ),
        (
            ("expect:", "play:\n  - blue: {reveal: maybe}\nexpect:"),
            "scenario.yaml:13: 'reveal' must be true or false",
        ),
    ],
)
def test_a_broken_or_failing_scenario_says_where_and_why(
    tmp_path: Path, registry: Registry, change: tuple[str, str], message: str
) -> None:
    passed, report = run_text(tmp_path, registry, BASE.replace(*change))
    assert not passed
    assert message in report, report


def test_a_step_asked_of_the_wrong_family_fails_with_the_step(
    tmp_path: Path, registry: Registry
) -> None:
    text = BASE.replace("expect:", "play:\n  - red: {reveal: true}\nexpect:")
    passed, report = run_text(tmp_path, registry, text)
    assert not passed
    assert "step 1 (" in report
    assert "scenario.yaml:13)" in report
    assert "expected {red: reveal} to be asked, but the game asks {'blue': 'reveal'}" in report


def test_two_families_are_refused(tmp_path: Path, registry: Registry) -> None:
    text = BASE.replace("players: [red, blue, green]", "players: [red, blue]").replace(
        ", green: [green.heir]", ""
    )
    passed, report = run_text(tmp_path, registry, text)
    assert not passed
    assert "a game needs 3 to 5 families, not 2 (RULINGS G1)" in report


def test_an_accepted_answer_marked_as_an_error_fails(tmp_path: Path, registry: Registry) -> None:
    text = BASE.replace("expect:", "play:\n  - blue: {reveal: true, error: true}\nexpect:")
    passed, report = run_text(tmp_path, registry, text)
    assert not passed
    assert "should have been refused, but the engine accepted it" in report


def test_zones_are_compared_as_collections(tmp_path: Path, registry: Registry) -> None:
    # docs/rulings.md P9: the order of a hand or a pile is not a rule.
    text = BASE.replace(
        "hands: {red: [red.heir], blue: [blue.heir], green: [green.heir]}",
        "hands: {red: [red.heir, red.lord], blue: [blue.heir], green: [green.heir]}",
    )
    passed, report = run_text(tmp_path, registry, text + "  hands: {red: [red.lord, red.heir]}\n")
    assert passed, report
    passed, report = run_text(tmp_path, registry, text + "  hands: {red: [red.lord]}\n")
    assert not passed
    assert (
        "hands: expected {'red': ['red.lord']}, actual {'red': ['red.heir', 'red.lord']}" in report
    )
