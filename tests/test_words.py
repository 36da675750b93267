"""Words are data: a character a terminal would obey (ESC, NUL, a C1 control, a bidi
override) is refused where words enter a game (card files, a plugin's questions and
labels) and written out, never sent raw, wherever the terminal prints words that came
from a plugin, a save or a person: the table, the story, the question and its answers,
the cards' texts, the command's header and its error lines.

The checks of the output use their own list of characters, not the engine's.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oriflamme import (
    Ability,
    AbilityError,
    CardDataError,
    CardSet,
    Game,
    GameConfig,
    PluginError,
    Registry,
    hookimpl,
)
from oriflamme.bots import RandomBot
from oriflamme.cli import main
from oriflamme.conformance import ScenarioError
from oriflamme.conformance.scenario import parse_scenario
from oriflamme.core import _yamlfile as yamlfile
from oriflamme.terminal import TerminalGame
from oriflamme.testing import registry_with
from oriflamme.text import control_problem, escaped, table

from .fuzzing import FUZZ
from .test_failures import fake_distribution
from .test_questions import Asker, asking, revealing_with

#: What no output may hold raw: C0 but the newline, DEL, C1, line and paragraph
#: separators, bidi embeddings, overrides and isolates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

#: Words that clear the screen, set the window's title, colour the text, reverse it.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x00\x9b31m\u202eevil\u2066\x7f"


def clean(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"a raw {found.group()!r} at {found.start()}: {text[:200]!r}"


# The check and the escape.

REFUSED = [
    "\x00",
    "\x07",
    "\t",
    "\r",
    "\x1b",
    "\x1f",
    "\x7f",
    "\x85",
    "\x9b",
    "\x9f",
    "\u2028",
    "\u2029",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\ud800",
]


@pytest.mark.parametrize("char", REFUSED)
def test_a_control_character_is_refused_and_escaped(char: str) -> None:
    text = f"Arch{char}er"
    problem = control_problem(text, newlines=True)
    assert problem is not None
    assert f"U+{ord(char):04X}" in problem
    assert problem.endswith("at character 5")
    shown = escaped(text)
    clean(shown)
    assert shown == f"Arch{repr(char)[1:-1]}er"


@pytest.mark.parametrize(
    "text",
    [
        "Éliminez la première\u00a0carte",  # a no-break space, as French writes it
        "Zlikwiduj sąsiadującą kartę",
        "Łucznik 🏹",
        "a\u200db",  # a zero-width joiner: emoji are made of them
        "שלום",
        "backslash \\x1b, written out",
    ],
)
def test_printable_words_pass_unchanged(text: str) -> None:
    assert control_problem(text) is None
    assert escaped(text) is text


def test_a_newline_only_where_it_is_allowed() -> None:
    assert control_problem("two\nlines") == "holds newline (U+000A) at character 4"
    assert control_problem("two\nlines", newlines=True) is None
    assert escaped("two\nlines") == "two\\nlines"
    assert escaped("two\nlines", newlines=True) == "two\nlines"


@FUZZ
@given(st.text())
def test_whatever_is_escaped_prints_as_it_reads(text: str) -> None:
    shown = escaped(text)
    clean(shown)
    assert control_problem(shown) is None
    assert escaped(shown) == shown  # once is enough: escaping again changes nothing
    if control_problem(text) is None:
        assert shown == text


# Card files.

CARD = """\
set: test
title: Test
cards:
  - key: knight
    name: {name}
    type: character
    text: {text}
    names: {{fr: {fr}}}
    texts: {{fr: {fr_text}}}
    idle: {idle}
"""

FINE = {
    "name": "Knight",
    "text": "Gain 1.",
    "fr": "Chevalier",
    "fr_text": "Gagnez 1.",
    "idle": "gains nothing",
}


def card_file(**changes: str) -> str:
    return CARD.format(**(FINE | changes))


@pytest.mark.parametrize(
    ("escape", "named"),
    [
        ("\\e", "ESC (U+001B)"),
        ("\\0", "NUL (U+0000)"),
        ("\\x9b", "CSI (U+009B)"),
        ("\\u202e", "RIGHT-TO-LEFT OVERRIDE (U+202E)"),
        ("\\u2066", "LEFT-TO-RIGHT ISOLATE (U+2066)"),
        ("\\a", "BEL (U+0007)"),
        ("\\t", "TAB (U+0009)"),
    ],
)
@pytest.mark.parametrize(
    ("field", "line", "where"),
    [
        ("name", 5, "'name'"),
        ("text", 7, "'text'"),
        ("fr", 8, "'names.fr'"),
        ("fr_text", 9, "'texts.fr'"),
        ("idle", 10, "'idle'"),
    ],
)
def test_a_card_file_with_a_control_character_is_refused(
    escape: str, named: str, field: str, line: int, where: str
) -> None:
    # Written as an escape in a double-quoted string: the raw character would be
    # refused by the YAML reader itself.
    text = card_file(**{field: f'"Bad{escape}word"'})
    with pytest.raises(CardDataError) as error:
        CardSet.from_yaml(text, path="test.yaml")
    message = str(error.value)
    assert message.startswith(f"test.yaml:{line}: card 'knight': {where} holds {named}"), message
    assert "printable text" in message
    clean(message)


def test_a_newline_is_allowed_in_a_text_but_not_in_a_name() -> None:
    card = CardSet.from_yaml(card_file(text='"Gain 1.\\nThen gain 1."'), path="t.yaml").cards[0]
    assert card.text == "Gain 1. Then gain 1."
    with pytest.raises(CardDataError, match=r"^t\.yaml:5: card 'knight': 'name' holds newline"):
        CardSet.from_yaml(card_file(name='"Kni\\nght"'), path="t.yaml")
    with pytest.raises(CardDataError, match=r"^t\.yaml:2: 'title' holds LINE SEPARATOR"):
        CardSet.from_yaml(card_file().replace("title: Test", 'title: "Te\\Lst"'), path="t.yaml")


def test_a_key_with_a_control_character_is_refused() -> None:
    text = card_file().replace("    type: character", '    "ty\\epe": character')
    with pytest.raises(CardDataError) as error:
        CardSet.from_yaml(text, path="test.yaml")
    assert str(error.value).startswith(
        "test.yaml:6: card 'knight': the key 'ty\\x1bpe' holds ESC (U+001B) at character 3: "
        "a key must be one line of printable text"
    ), str(error.value)


def test_a_plugin_card_file_with_a_control_character_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text(card_file(name='"\\e]0;pwned\\a"'), encoding="utf-8")
    with pytest.raises(PluginError) as error:
        CardSet.read(path, plugin="evil")
    assert str(error.value).startswith(f"{path}:5: card 'knight': 'name' holds ESC")


def test_a_scenario_with_a_control_character_is_refused() -> None:
    text = 'name: "Evil \\e[2J"\nsets: [base]\nplayers: [red, blue, green]\nstate: {}\n'
    with pytest.raises(ScenarioError, match=r"^s\.yaml:1: 'name' holds ESC \(U\+001B\)"):
        parse_scenario(text, "s.yaml")


# A plugin's questions and labels.

WORDS: dict[str, tuple[dict[str, Any], str]] = {
    "a question with ESC": (
        {"question": "\x1b[2JWhich one?"},
        "worded its question (its choose question about card 1) in words that holds ESC "
        "(U+001B) at character 1: words are one line of printable text",
    ),
    "a question on two lines": (
        {"question": "Which one?\n  1) all of them"},
        "worded its question (its choose question about card 1) in words that holds newline",
    ),
    "a label with a bidi override": (
        {"labels": {"a": "A\u202e", "b": "B"}},
        "worded an option (an option of its choose question about card 1) in words that "
        "holds RIGHT-TO-LEFT OVERRIDE",
    ),
    "a label with a C1 control": (
        {"labels": {"a": "\x9b31mA"}},
        "worded an option (an option of its choose question about card 1) in words that holds CSI",
    ),
    "an option without words that holds NUL": (
        {"labels": {"a": "A"}},
        "worded an option (an option of its choose question about card 1) in words that holds NUL",
    ),
    "a label that is no text": (
        {"labels": {"a": 3}},
        "labelled an option of its choose question about card 1 with 3: words (a str)",
    ),
}


@pytest.mark.parametrize("case", WORDS)
def test_a_question_or_label_a_game_could_not_print_is_refused(tmp_path: Path, case: str) -> None:
    words, message = WORDS[case]
    options = ("a", "b\x00") if "NUL" in case else ("a", "b")
    game = revealing_with(tmp_path, Asker(asking(options, **words)))
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    text = str(error.value)
    assert text.startswith("plugin 'probes': the ability of 'probe' (red's 'probe' acting) "), text
    assert message in text, text
    assert game.snapshot() == before
    clean(text)


# What the terminal prints.


class HostileCards:
    """Plugin 'hostile': a card whose name, texts and idle phrase hold control
    characters (read with the card files' check switched off: words from some other
    way in)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [self.path]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"knight": Ability()}  # a card no plugin gives an ability is refused


def hostile_registry(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    path = folder / "hostile.yaml"
    words = json.dumps(HOSTILE)  # a JSON string is a YAML double-quoted string
    path.write_text(
        card_file(
            name=json.dumps(f"Knight{HOSTILE}"),
            text=json.dumps(f"Gain 1.{HOSTILE}"),
            fr=words,
            fr_text=words,
            idle=json.dumps(f"idles{HOSTILE}"),
        ).replace("set: test", "set: hostile"),
        encoding="utf-8",
    )
    with monkeypatch.context() as patched:
        patched.setattr(yamlfile, "control_problem", lambda text, newlines=False: None)
        registry = registry_with({"hostile": HostileCards(path)})
        assert registry.problems == []  # the plugins are read here, while the check is off
    return registry


CARDS = ("knight", "archer", "soldier", "spy", "heir", "lord", "royal_decree", "ambush")


def typed(lines: list[str]) -> Any:
    queue = iter(lines)

    def read(_prompt: str) -> str:
        return next(queue, "1")

    return read


def terminal(game: Game, read: Any, language: str = "en") -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    bots = {f: (lambda g, s=seat: RandomBot(s)) for seat, f in enumerate(game.families)}
    return TerminalGame(game, "red", bots, read, out, language=language), out


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_plugin_card_s_words_are_printed_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    registry = hostile_registry(tmp_path, monkeypatch)
    seed = 5
    print(f"seed {seed}")
    config = GameConfig(seed=seed, sets=("base", "hostile"), cards=CARDS, first_player="red")
    game = Game.new(config, registry=registry)
    # Every print path: the table, the story (the Knight's idle turns), questions and
    # answers, the card texts (c, c N, by name), and the person's own words quoted.
    read = typed(["c", "c 1", f"c Knight{HOSTILE}", f"c {HOSTILE}", HOSTILE, "knight"])
    player, out = terminal(game, read, language)
    assert player.run() == 0
    printed = out.getvalue()
    clean(printed)
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\x00\\x9b31m\\u202eevil\\u2066\\x7f" in printed
    assert {"en": "The game is over: ", "fr": "La partie est terminée : "}[language] in printed


def hostile_target(registry: Registry) -> Game:
    """A game whose pending decision is red's target decision, with a plugin's words
    no check let through (as a save or a network message might carry them)."""
    rng = random.Random(0)
    for seed in range(200):
        game = Game.new(GameConfig(seed=seed, first_player="red"), registry=registry)
        while (decision := game.decision) is not None:
            if decision.kind == "target" and decision.family == "red":
                print(f"seed {seed}")
                labels = tuple(f"{HOSTILE}{option}" for option in decision.options)
                game._state.pending = decision._replace(question=HOSTILE, labels=labels)
                return game
            game.answer_option(rng.randrange(len(decision.options)))
    raise AssertionError("no target decision for red in 200 games")


def test_a_question_and_labels_from_outside_are_printed_escaped(registry: Registry) -> None:
    game = hostile_target(registry)
    player, out = terminal(game, typed([]))
    assert player.run(resumed=True) == 0
    printed = out.getvalue()
    clean(printed)
    assert f"{escaped(HOSTILE)}\n  1) {escaped(HOSTILE)}" in printed
    # The table as text (text.table) shows the same question, escaped.
    hostile = hostile_target(registry)
    text = table(hostile.observe("red"), hostile.rules)
    clean(text)
    assert escaped(HOSTILE) in text


def test_play_load_of_a_save_with_hostile_words_prints_no_control_character(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = json.loads(hostile_target(registry).to_json())
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert data["pending"]["question"] == HOSTILE
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    status = main(["play", "--no-plugins", "--load", str(path), "--bots", "random"])
    printed = capsys.readouterr()
    clean(printed.out)
    clean(printed.err)
    # Refused by the loader: one line that names the file and the character.
    assert status == 2
    assert printed.err.startswith(f"oriflamme: error: --load {path}")
    assert "ESC (U+001B)" in printed.err


def test_an_error_line_is_printed_escaped(capsys: Any) -> None:
    path = f"/no/such/{HOSTILE.replace(chr(0), '')}.json"  # no NUL: argv cannot hold one
    assert main(["play", "--no-plugins", "--load", path]) == 2
    printed = capsys.readouterr()
    clean(printed.err)
    assert printed.err == f"oriflamme: error: --load {escaped(path)}: no such file\n"


def test_a_plugin_s_failure_is_warned_of_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    fake_distribution(
        tmp_path,
        "evil-rules",
        "1.0",
        entry="evil",
        module="evil_rules",
        source=f"raise ImportError({HOSTILE!r})\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["cards"]) == 0
    printed = capsys.readouterr()
    clean(printed.err)
    clean(printed.out)
    assert f"plugin 'evil' (evil_rules) failed to load: ImportError: {escaped(HOSTILE)}" in (
        printed.err
    )
    # The listings print the failure too: escaped there as well.
    for command in (["plugins"], ["bots"]):
        assert main(command) == 0
        printed = capsys.readouterr()
        clean(printed.out)
        clean(printed.err)
    assert main(["plugins"]) == 0
    assert escaped(HOSTILE) in capsys.readouterr().out
