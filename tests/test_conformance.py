"""The conformance suite as pytest tests (one per file), and the runner's own behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from oriflamme import Registry
from oriflamme.conformance import find_scenarios, load_scenario, run_file, run_paths, runner

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


# Values of the wrong type: one ScenarioError naming the line, never a TypeError.


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("source: test", "source: test\nvariants: [a]"),
            "scenario.yaml:3: 'variants' must be a mapping, not a list ['a']",
        ),
        (
            ("source: test", "source: test\nvariants: {ambush_own_elimination: [1]}"),
            "scenario.yaml:3: variant 'ambush_own_elimination' must be a word, true/false",
        ),
        (
            ("source: test", "source: test\nvariants: {nope: true}"),
            "scenario.yaml:3: unknown variant 'nope'",
        ),
        (("round: 2", "round: .nan"), "scenario.yaml:6: 'round' must be an integer from 1 to 6"),
        (("round: 2", "round: true"), "'round' must be an integer from 1 to 6, not true"),
        (("round: 2", "round: 2.0"), "'round' must be an integer from 1 to 6, not 2.0"),
        (("round: 2", "round: 7"), "scenario.yaml:6: 'round' must be an integer from 1 to 6"),
        (("phase: resolution", "phase: [resolution]"), "scenario.yaml:7: 'phase' must be"),
        (
            ("up: true}", "up: true, tokens: true}"),
            "scenario.yaml:10: 'tokens' must be an integer >= 0, not true",
        ),
        (("up: true}", "up: 1}"), "scenario.yaml:10: 'up' must be true or false, not 1"),
        (
            ("- blue.spy", "- {card: blue.spy, owner: [red]}"),
            "scenario.yaml:9: 'owner' must be a family, not a list ['red']",
        ),
        (("- blue.spy", '- "blue.spy\\n"'), "scenario.yaml:9: 'blue.spy\\n' is not a card id"),
        (("- blue.spy", "- blue.spy.1234"), "a copy number has at most 3 digits"),
        (("- blue.spy", "- [[blue.spy, red.spy], blue.heir]"), "a stack cannot hold a stack"),
        (
            ("players: [red, blue, green]", 'players: [red, blue, "green\\n"]'),
            "scenario.yaml:4: 'green\\n' is not a valid name in 'players'",
        ),
        (("sets: [base]", 'sets: ["base\\n"]'), "scenario.yaml:3: 'base\\n' is not a valid name"),
        (
            ("hands: {red: [red.heir]", "hands: {red: red.heir"),
            "scenario.yaml:11: red's cards must be a list of card ids, not 'red.heir'",
        ),
        (
            ("influence: {red: 1}", "influence: null"),
            "scenario.yaml:13: 'influence' must be a mapping, not null",
        ),
        (
            ("influence: {red: 1}", "influence: {red: null}"),
            "scenario.yaml:13: red's Influence must be an integer >= 0, not null",
        ),
        (
            ("influence: {red: 1}", "influence: {red: -1}"),
            "red's Influence must be an integer >= 0, not -1",
        ),
        (
            ("influence: {red: 1}", "hands: {red: null}"),
            "scenario.yaml:13: red's cards must be a list of card ids, not null",
        ),
        (("influence: {red: 1}", "queue: null"), "'queue' must be a list of cards and stacks"),
        (("influence: {red: 1}", "round: 0"), "'round' must be an integer from 1 to 6, not 0"),
        (
            ("next: {blue: reveal}", "next: {blue: [reveal]}"),
            "scenario.yaml:14: 'next' must be 'end' or one family and a decision kind",
        ),
        (("next: {blue: reveal}", "winner: [red, 1]"), "'winner' must be a family"),
        (("expect:", "play: {red: 1}\nexpect:"), "scenario.yaml:12: 'play' must be a list"),
        (("expect:", "play:\n  - 1: {reveal: true}\nexpect:"), "1 is not one of the players"),
        (
            ("expect:", "play:\n  - blue: {reveal: true, 1: 2}\nexpect:"),
            "['1', 'reveal'] is not an answer",
        ),
        (("expect:", "play:\n  - blue: {to: 1.0}\nexpect:"), "'to' (a queue index) must be"),
        (("expect:", "play:\n  - blue: {to: -1}\nexpect:"), "must be an integer >= 0, not -1"),
        (("expect:", "play:\n  - blue: {choose: 1}\nexpect:"), "'choose' must be an option name"),
        (
            ("expect:", "play:\n  - blue: {choose: yes}\nexpect:"),
            "scenario.yaml:13: 'choose' must be an option name, not true; YAML reads an "
            'unquoted yes, no, on or off as true: quote the word, as in {choose: "yes"}',
        ),
        (
            ("expect:", "play:\n  - blue: {reveal: true, error: 1}\nexpect:"),
            "'error' must be true or false",
        ),
        (("name: A small scenario", "name: {a: 1}"), "'name' must be one line of text"),
        (("source: test", "source: [test]"), "'source' must be text, not a list ['test']"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_with_its_line(
    tmp_path: Path, registry: Registry, change: tuple[str, str], message: str
) -> None:
    assert change[0] in BASE
    passed, report = run_text(tmp_path, registry, BASE.replace(*change, 1))
    assert not passed
    assert message in report, report
    assert "internal error" not in report


def test_null_in_state_is_empty_and_play_may_be_null(tmp_path: Path, registry: Registry) -> None:
    text = BASE.replace(
        "hands: {red: [red.heir]",
        "set_aside: null\n  discarded: {red: null}\n  hands: {red: [red.heir]",
    )
    passed, report = run_text(tmp_path, registry, text.replace("expect:", "play:\nexpect:"))
    assert passed, report


# Positions the rules cannot reach, refused with their line and the ruling.

ABLAZE = """\
name: An Ablaze position
source: test
sets: [base, ablaze]
players: [red, blue, green]
state:
  round: 2
  phase: resolution
  queue:
    - {card: red.prince, up: true}
    - blue.spy
  hands: {red: [red.heir], blue: [blue.heir], green: [green.heir]}
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("- blue.spy", "- [blue.spy, blue.twin]"),
            "scenario.yaml:10: blue.twin cannot be face down in the queue: it enters the queue "
            "only face up, put there by its Prince, and a covered card keeps its face "
            "(RULINGS A-Prince, A-Twin, R6)",
        ),
        (
            ("- blue.spy", "- blue.twin"),
            "scenario.yaml:10: blue.twin cannot be face down in the queue",
        ),
        (
            ("hands: {red: [red.heir]", "set_aside: {red: [red.twin]}\n  hands: {red: [red.heir]"),
            "scenario.yaml:11: red.twin cannot be in set aside: it waits in its family's reserve",
        ),
        (
            ("hands: {red: [red.heir]", "reserve: {red: [red.archer]}\n  hands: {red: [red.heir]"),
            "scenario.yaml:11: red.archer cannot be in red's reserve: only a card that starts "
            "there (the Twin) waits in a reserve (RULINGS G2)",
        ),
        (
            ("round: 2", "round: 1"),
            "",  # the plain position stays possible in round 1's resolution phase
        ),
        (
            ("round: 2\n  phase: resolution", "round: 1\n  phase: resolution"),
            "",
        ),
        (
            ("- blue.spy", "- [blue.spy, blue.heir]\n    - blue.lord"),
            "",  # a stack from round 2 on
        ),
        (
            (
                "- {card: red.prince, up: true}",
                "- [{card: red.prince, up: true}, {card: red.twin, up: true}]",
            ),
            "scenario.yaml:9: red.twin cannot be on top of red.prince: a Twin is never put on a "
            "Prince (RULINGS A-Prince)",
        ),
        (
            (
                "- blue.spy",
                "- {card: blue.queen, up: true, owner: red}\n"
                "    - {card: green.queen, up: true, owner: red}",
            ),
            "scenario.yaml:11: red's Bribery token cannot be on green.queen: it is on blue.queen, "
            "and a family has one Bribery token (RULINGS A-Bribery)",
        ),
        (
            (
                "- blue.spy",
                "- {card: blue.queen, up: true, owner: red}\n  set_aside: {red: [red.bribery]}",
            ),
            "scenario.yaml:11: red.bribery cannot be unplayed while red's Bribery token is on "
            "blue.queen: the token is put by playing it (RULINGS A-Bribery)",
        ),
    ],
)
def test_an_impossible_position_is_refused_with_its_ruling(
    tmp_path: Path, registry: Registry, change: tuple[str, str], message: str
) -> None:
    assert change[0] in ABLAZE
    passed, report = run_text(tmp_path, registry, ABLAZE.replace(*change, 1))
    if message:
        assert not passed
        assert message in report, report
    else:
        assert "cannot" not in report, report


ROUND_ONE = """\
name: Round 1, before any card has resolved
source: test
sets: [base, ablaze]
players: [red, blue, green]
state:
  queue:
    - red.spy
    - blue.spy
  hands: {red: [red.heir], blue: [blue.heir], green: [green.heir]}
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("- red.spy", "- red.spy"), ""),
        (
            ("- blue.spy", "- [blue.spy, blue.heir.2]"),
            "scenario.yaml:8: blue.heir.2 cannot cover another card in round 1: cards are "
            "stacked from round 2 on (RULINGS G4); only a Twin may be put on another card in "
            "round 1, by its Prince (A-Prince)",
        ),
        (
            ("- blue.spy", "- {card: blue.spy, up: true}"),
            "scenario.yaml:8: blue.spy cannot be face up in round 1's placement phase: "
            "no card has resolved yet (RULINGS G4, R1)",
        ),
        (
            ("- blue.spy", "- {card: blue.spy, tokens: 1}"),
            "scenario.yaml:8: blue.spy cannot carry tokens in round 1's placement phase",
        ),
        (
            ("hands: {red: [red.heir]", "discarded: {red: [red.lord]}\n  hands: {red: [red.heir]"),
            "scenario.yaml:9: red.lord cannot be discarded in round 1's placement phase",
        ),
        (
            ("hands: {red: [red.heir]", "eliminated: {red: [red.lord]}\n  hands: {red: [red.heir]"),
            "scenario.yaml:9: red.lord cannot be eliminated in round 1's placement phase",
        ),
    ],
)
def test_round_1_placement_is_before_any_resolution(
    tmp_path: Path, registry: Registry, change: tuple[str, str], message: str
) -> None:
    passed, report = run_text(tmp_path, registry, ROUND_ONE.replace(*change, 1))
    if message:
        assert not passed
        assert message in report, report
    else:
        assert "cannot" not in report, report


def test_a_twin_may_cover_a_card_in_round_1(tmp_path: Path, registry: Registry) -> None:
    # RULINGS A-Prince: a Prince may put its Twin on a stack in any round.
    text = ROUND_ONE.replace("queue:", "phase: resolution\n  queue:").replace(
        "- blue.spy", "- [red.lord, {card: red.twin, up: true}]"
    )
    _, report = run_text(tmp_path, registry, text)
    assert "cannot" not in report, report


# The runner: one bad file never stops a run, and says why in one line.


def test_a_bad_file_among_good_ones_fails_alone(tmp_path: Path, registry: Registry) -> None:
    (tmp_path / "a.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "b.yaml").write_bytes(b"name: \xff\n")
    (tmp_path / "c.yaml").write_text("r: &r [*r]\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_text("a: " + "[" * 1000 + "]" * 1000, encoding="utf-8")
    (tmp_path / "e.yaml").write_text(BASE, encoding="utf-8")
    results = list(run_paths([tmp_path], registry))
    assert [r.passed for r in results] == [True, False, False, False, True]
    reasons = [r.problems[0] for r in results if not r.passed]
    assert reasons == [
        f"{tmp_path / 'b.yaml'}:1: not UTF-8 text: byte 0xff at column 7 (byte 6 of the file)",
        f"{tmp_path / 'c.yaml'}:1: this value contains itself through an alias: a recursive "
        "alias cannot be read",
        f"{tmp_path / 'd.yaml'}:1: nested too deeply: more than 50 levels of mappings and lists",
    ]


def test_an_unforeseen_error_is_an_internal_error_of_that_file_only(
    tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(scenario: object, registry: object) -> object:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(runner, "build_game", broken)
    path = tmp_path / "a.yaml"
    path.write_text(BASE, encoding="utf-8")
    result = run_file(path, registry)
    assert not result.passed
    assert result.name == "A small scenario"
    assert result.problems == ("internal error: RuntimeError: a bug over two lines",)


def test_a_step_the_engine_applied_without_asking_says_so(
    tmp_path: Path, registry: Registry
) -> None:
    # RULINGS R4: the Soldier's only neighbour is eliminated without a question.
    text = BASE.replace(
        "    - blue.spy\n    - {card: red.soldier, up: true}",
        "    - {card: red.soldier, up: true}\n    - blue.spy",
    ).replace("expect:", "play:\n  - red: {target: blue.spy}\nexpect:")
    passed, report = run_text(tmp_path, registry, text)
    assert not passed
    assert (
        "expected {red: target} to be asked, but the game asks {'blue': 'place'}; red's target "
        "was not asked: it had one legal answer, which the engine applied without asking "
        "(red.soldier eliminated blue.spy; RULINGS R4): remove this step"
    ) in report, report


def test_a_step_asked_of_another_decision_says_nothing_of_r4(
    tmp_path: Path, registry: Registry
) -> None:
    text = BASE.replace("expect:", "play:\n  - blue: {target: red.soldier}\nexpect:")
    passed, report = run_text(tmp_path, registry, text)
    assert not passed
    assert "RULINGS R4" not in report
