"""Bot levels: ``beginner``, ``easy``, ``medium``, ``hard`` name bot kinds with settings,
are taken wherever a bot kind is, are listed first by ``oriflamme bots`` and said in
every language the terminal speaks."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator

import pytest

from oriflamme import ConfigError, Registry
from oriflamme.arguments import build_parser
from oriflamme.bots import IsmctsBot, make_bot, parse_bot
from oriflamme.bots.kinds import parse_bots
from oriflamme.bots.levels import DEFAULT_LEVEL, LEVELS, Level, levels
from oriflamme.cli import main
from oriflamme.terminal import play_command
from oriflamme.text import terminal_text

NAMES = ["beginner", "easy", "medium", "hard"]


def test_the_levels_are_named_weakest_first_each_a_bot_choice() -> None:
    assert [level.name for level in LEVELS] == NAMES
    assert list(levels()) == NAMES
    assert DEFAULT_LEVEL in levels()
    for level in LEVELS:
        assert level.help
        choice = parse_bot(level.choice)  # each level's choice is a good one
        assert choice.level is None
        assert choice.text == level.choice


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_a_level_resolves_to_its_choice(level: Level, registry: Registry) -> None:
    name, written = level.name, level.choice
    plain = parse_bot(written, registry)
    named = parse_bot(f" {name} ", registry)
    assert named.level == name
    assert (named.kind, dict(named.settings)) == (plain.kind, dict(plain.settings))
    # Written by its name wherever a choice is shown, its choice one step away.
    assert (named.text, named.written) == (name, written)
    assert parse_bot(named.text, registry) == named
    # The same bot, seed for seed.
    by_level = named.make(random.Random(3), registry)
    by_kind = plain.make(random.Random(3), registry)
    assert type(by_level) is type(by_kind)
    if isinstance(by_level, IsmctsBot):
        assert isinstance(by_kind, IsmctsBot)
        assert (by_level.iterations, by_level.seconds, by_level.playout) == (
            by_kind.iterations,
            by_kind.seconds,
            by_kind.playout,
        )


def test_the_stronger_levels_search_more() -> None:
    searched = [make_bot(name, registry=Registry(entry_points=False), seed=1) for name in NAMES]
    counts = [bot.iterations or 0 for bot in searched if isinstance(bot, IsmctsBot)]
    assert len(counts) >= 2
    assert counts == sorted(counts)
    assert len(set(counts)) == len(counts)


def test_levels_mix_with_kinds_one_per_seat() -> None:
    chosen = parse_bots("hard,random", 2)
    assert [c.text for c in chosen] == ["hard", "random"]
    assert [c.text for c in parse_bots("easy", 3)] == ["easy"] * 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hard:iterations=5", "bot level 'hard' takes no settings: it is 'ismcts:iterations="),
        ("genius", "unknown bot 'genius' (known bots: random, heuristic, learned, ismcts)"),
        ("genius", "; levels: beginner, easy, medium, hard"),
    ],
)
def test_a_bad_level_says_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_bot(text)
    assert message in str(refused.value)


def test_bots_lists_the_levels_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--no-plugins"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Levels, weakest first (--bots LEVEL):"
    for line, level in zip(lines[1:5], LEVELS, strict=True):
        assert line.split()[:3] == [level.name, "=", f"{level.choice}:"]
        assert line.endswith(f": {level.help}")
    assert lines[5].startswith("Bot kinds")
    assert lines[6].startswith("random: ")
    assert main(["bots", "--no-plugins", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["levels"] == [
        {"name": level.name, "bot": level.choice, "help": level.help} for level in LEVELS
    ]


def _answers(*typed: str) -> Iterator[str]:
    yield from typed
    while True:
        yield "q"


@pytest.mark.parametrize(
    ("language", "bots", "levels_said"),
    [
        ("en", "Bots: blue (hard), green (hard)", "hard: thinks ahead"),
        ("fr", "Bots : Bleu (difficile), Vert (difficile)", "difficile : réfléchit"),
        ("pl", "Boty: Niebieski (trudny), Zielony (trudny)", "trudny: myśli naprzód"),
    ],
)
def test_play_takes_a_level_and_says_what_it_is(
    registry: Registry, language: str, bots: str, levels_said: str
) -> None:
    args = build_parser().parse_args(
        ["play", "--bots", "hard", "--seed", "4", "--language", language]
    )
    out = io.StringIO()
    typed = _answers("1", "1")
    assert play_command(args, registry, read=lambda _p: next(typed), out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1] == bots
    assert lines[2].startswith(levels_said)
    assert lines[2].endswith(".")
    # Then every level, as --bots takes it (with its name in the player's language),
    # so the player learns of the others and what to type.
    typed_names = [
        name if language == "en" else f"{name} ({terminal_text(language, f'bot.{name}')})"
        for name in NAMES
    ]
    assert lines[3] == terminal_text(language, "levels", levels=", ".join(typed_names))
    assert all(name in lines[3] for name in NAMES)


def test_play_defaults_to_a_level(registry: Registry) -> None:
    args = build_parser().parse_args(["play", "--seed", "4"])
    assert args.bots == (DEFAULT_LEVEL,)
    out = io.StringIO()
    assert play_command(args, registry, read=lambda _p: "q", out=out) == 0
    said = terminal_text("en", f"level.{DEFAULT_LEVEL}")
    assert f"{DEFAULT_LEVEL}: {said}." in out.getvalue()
    assert "Levels, weakest first, chosen with --bots: beginner, easy, medium, hard." in (
        out.getvalue()
    )


def test_play_against_kinds_alone_says_nothing_of_levels(registry: Registry) -> None:
    args = build_parser().parse_args(["play", "--seed", "4", "--bots", "heuristic,random"])
    out = io.StringIO()
    assert play_command(args, registry, read=lambda _p: "q", out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1] == "Bots: blue (heuristic), green (random)"
    assert "Levels" not in out.getvalue()
    assert not lines[2].startswith(("heuristic:", "random:"))


def test_play_s_help_offers_the_levels_first(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--bots LEVEL[,LEVEL...]" in text
    assert "a level, weakest first beginner, easy, medium, hard (default medium:" in text


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_every_level_is_named_and_described_in_every_language(language: str) -> None:
    names = set()
    for level in LEVELS:
        name = terminal_text(language, f"bot.{level.name}")
        described = terminal_text(language, f"level.{level.name}")
        assert name
        assert described
        names.add(name)
        if language == "en":
            # The terminal says in English what `oriflamme bots` says.
            assert (name, described) == (level.name, level.help)
        else:
            assert described != level.help
    assert len(names) == len(LEVELS)


def test_a_ladder_of_levels_names_them_and_plays_as_their_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ["--games", "6", "--seed", "3", "--jobs", "1", "--no-plugins", "--json"]
    assert main(["ladder", "--bots", "beginner,medium", *common]) == 0
    by_level = json.loads(capsys.readouterr().out)
    assert main(["ladder", "--bots", "random,heuristic", *common]) == 0
    by_kind = json.loads(capsys.readouterr().out)
    (row,) = by_level["matches"]
    assert (row["challenger"], row["field"]) == ("medium", "beginner")
    (same,) = by_kind["matches"]
    assert (same["challenger"], same["field"]) == ("heuristic", "random")
    for key in ("games", "wins", "shared_wins", "win_rate"):
        assert row[key] == same[key], key


@pytest.mark.parametrize("command", ["play", "simulate", "ladder"])
@pytest.mark.parametrize("typed", ["", ",", " , "])
def test_no_bot_named_is_refused_as_such(
    capsys: pytest.CaptureFixture[str], command: str, typed: str
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--bots", typed])
    assert "name at least one bot, a level or a kind" in capsys.readouterr().err
