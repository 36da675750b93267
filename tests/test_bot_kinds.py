"""Bot kinds: listed by name, chosen as "kind:setting=value", and registered by plugins
through the ``register_bot_kinds`` hook; every mistake is one clear line."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from oriflamme import (
    BotKind,
    BotSetting,
    ConfigError,
    Game,
    GameConfig,
    Observation,
    PluginError,
    Registry,
    hookimpl,
)
from oriflamme.bots import HeuristicBot, IsmctsBot, RandomBot, bot_kinds, make_bot, parse_bot
from oriflamme.bots.kinds import parse_bots
from oriflamme.bots.learned import LearnedBot
from oriflamme.cli import main
from oriflamme.simulate import simulate


def test_the_built_in_kinds_come_first_with_their_settings() -> None:
    kinds = bot_kinds()
    assert list(kinds) == ["random", "heuristic", "learned", "ismcts"]
    assert [s.name for s in kinds["ismcts"].settings] == [
        "iterations",
        "seconds",
        "playout",
        "exploration",
    ]
    assert all(kind.plugin == "" and kind.help for kind in kinds.values())


def test_a_choice_builds_its_bot_with_its_settings(registry: Registry) -> None:
    assert isinstance(make_bot("random", registry=registry, seed=1), RandomBot)
    assert isinstance(make_bot("heuristic", registry=registry, seed=1), HeuristicBot)
    assert isinstance(make_bot("learned", registry=registry, seed=1), LearnedBot)
    bot = make_bot("ismcts:iterations=2000:playout=random", registry=registry, seed=1)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds, bot.playout) == (2000, None, "random")
    timed = make_bot("ismcts:seconds=0.5", registry=registry, seed=1)
    assert isinstance(timed, IsmctsBot)
    assert (timed.iterations, timed.seconds) == (None, 0.5)  # time alone bounds it
    both = make_bot(" ismcts : iterations = 7 : seconds=2 ", registry=registry)
    assert isinstance(both, IsmctsBot)
    assert (both.iterations, both.seconds) == (7, 2.0)
    default = make_bot("ismcts", registry=registry)
    assert isinstance(default, IsmctsBot)
    assert default.iterations is not None
    assert default.seconds is None
    assert parse_bot("ismcts:exploration=1.5:iterations=30").text == (
        "ismcts:exploration=1.5:iterations=30"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("genius", "unknown bot 'genius' (known bots: random, heuristic, learned, ismcts)"),
        ("", "unknown bot '' (known bots:"),
        ("ismcts:depth=3", "bot 'ismcts' has no setting 'depth' (settings: iterations, seconds"),
        ("random:iterations=3", "bot 'random' has no setting 'iterations' (settings: none)"),
        ("ismcts:iterations", "bot 'ismcts': expected a setting as name=value, not 'iterations'"),
        ("ismcts:iterations=lots", "setting 'iterations' is a whole number, not 'lots'"),
        ("ismcts:iterations=0", "setting 'iterations' is from 1 to 10000000, not 0"),
        ("ismcts:iterations=1.5", "setting 'iterations' is a whole number, not '1.5'"),
        ("ismcts:iterations=٣", "setting 'iterations' is a whole number, not '٣'"),
        ("ismcts:iterations=" + "9" * 100, "is a whole number, not '99999"),
        ("ismcts:seconds=nan", "setting 'seconds' is a number, not 'nan'"),
        ("ismcts:seconds=-1", "setting 'seconds' is from 0.001 to 3600, not -1"),
        (
            "ismcts:playout=clever",
            "setting 'playout' is one of heuristic, learned, random, not 'clever'",
        ),
        ("ismcts:iterations=3:iterations=4", "setting 'iterations' is chosen twice"),
        ("x" * 300, "a bot choice is at most 200 characters, not 300"),
    ],
)
def test_a_bad_choice_says_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_bot(text)
    assert message in str(refused.value)
    assert len(str(refused.value)) < 300


def test_bots_are_one_per_seat_or_one_for_all() -> None:
    assert [c.text for c in parse_bots("heuristic", 3)] == ["heuristic"] * 3
    assert [c.text for c in parse_bots(["random", "ismcts", "heuristic"], 3)] == [
        "random",
        "ismcts",
        "heuristic",
    ]
    with pytest.raises(ConfigError, match="--bots names 2 bots for 3 other seats: name 1 or 3"):
        parse_bots("random,heuristic", 3, seats="other seats")


class Echo:
    """A plugin's bot: the first option, always."""

    def choose(self, observation: Observation) -> object:
        assert observation.decision is not None
        return observation.decision.options[0]


def echo(rng: random.Random, registry: Registry, *, loud: int, mood: str) -> Echo:
    return Echo()


ECHO = BotKind(
    "echo",
    "answers with the first option",
    echo,
    (
        BotSetting("loud", int, 1, "how loud", low=0, high=3),
        BotSetting("mood", str, "calm", "its mood", choices=("calm", "cross")),
    ),
)


def with_plugin(hook: Callable[[], object], name: str = "echoes") -> Registry:
    registry = Registry(entry_points=False)
    registry.register(SimpleNamespace(register_bot_kinds=hookimpl(hook)), name)
    return registry


def test_a_plugin_registers_a_bot_kind_that_plays(capsys: pytest.CaptureFixture[str]) -> None:
    registry = with_plugin(lambda: [ECHO])
    assert registry.problems == []
    kinds = bot_kinds(registry)
    assert list(kinds) == ["random", "heuristic", "learned", "ismcts", "echo"]
    assert kinds["echo"].plugin == "echoes"
    assert parse_bot("echo:loud=2:mood=cross", registry).text == "echo:loud=2:mood=cross"
    summary = simulate(GameConfig(seed=3), 5, registry, bots=["echo:mood=cross"])
    assert summary.games == 5
    assert summary.bots == ("echo:mood=cross",) * 3
    described = {p["name"]: p for p in registry.describe()}["echoes"]
    assert described["bots"] == ["echo"]
    assert "register_bot_kinds" in described["hooks"]


class Wrong:
    pass


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        ("echo", "register_bot_kinds must return a list of BotKind objects"),
        (["echo"], "register_bot_kinds must return BotKind objects, not 'echo'"),
        ([BotKind("Echo", "x", echo)], "a bot kind's name must be lowercase snake_case"),
        ([BotKind("ismcts", "x", echo)], "bot kind 'ismcts' is built in"),
        ([BotKind("learned", "x", echo)], "bot kind 'learned' is built in"),
        ([BotKind("echo", None, echo)], "'help' must be a string, not null"),  # type: ignore[arg-type]
        ([BotKind("echo", "x", "echo")], "'make' must be callable"),  # type: ignore[arg-type]
        ([ECHO, ECHO], "register_bot_kinds: bot kind 'echo' is given twice"),
        ([BotKind("echo", "x", echo, ("loud",))], "a setting must be a BotSetting"),  # type: ignore[arg-type]
        (
            [BotKind("echo", "x", echo, (BotSetting("loud", list, [], "x"),))],  # type: ignore[arg-type]
            "'type' must be int, float or str",
        ),
        (
            [BotKind("echo", "x", echo, (BotSetting("loud", int, "high", "x"),))],
            "the default 'high' is not a value it takes",
        ),
        (
            [BotKind("echo", "x", echo, (BotSetting("mood", str, "sad", "x", ("calm",)),))],
            "the default 'sad' is not a value it takes",
        ),
        (
            [
                BotKind(
                    "echo", "x", echo, (BotSetting("a", int, 1, "x"), BotSetting("a", int, 2, "y"))
                )
            ],
            "setting 'a' is given twice",
        ),
    ],
)
def test_a_broken_bot_kind_leaves_its_plugin_out(returned: object, message: str) -> None:
    registry = with_plugin(lambda: returned)
    problems = registry.problems
    assert len(problems) == 1, problems
    assert problems[0].startswith("plugin 'echoes' was left out: "), problems[0]
    assert message in problems[0], problems[0]
    assert list(bot_kinds(registry)) == ["random", "heuristic", "learned", "ismcts"]


def test_a_hook_that_raises_leaves_its_plugin_out_and_every_command_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> list[BotKind]:
        raise RuntimeError("no bots today")

    registry = with_plugin(broken)
    assert registry.problems == [
        "plugin 'echoes' was left out: failed in hook register_bot_kinds: "
        "RuntimeError: no bots today"
    ]
    monkeypatch.setattr("oriflamme.cli._registry", lambda args: registry)
    assert main(["bots"]) == 0
    captured = capsys.readouterr()
    assert "warning: plugin 'echoes' was left out" in captured.err
    assert "Traceback" not in captured.err
    assert "\nrandom: " in captured.out


def test_two_plugins_with_one_bot_kind_name_are_an_error_naming_both() -> None:
    registry = with_plugin(lambda: [ECHO], "first")
    registry.register(SimpleNamespace(register_bot_kinds=hookimpl(lambda: [ECHO])), "second")
    with pytest.raises(
        PluginError, match="bot kind 'echo' is provided by both plugin 'first' and 'second'"
    ):
        bot_kinds(registry)


def failing(rng: random.Random, registry: Registry) -> object:
    raise ValueError("cannot make it")


class Confused:
    def choose(self, observation: Observation) -> object:
        raise KeyError("lost")


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        (
            BotKind("broken", "x", failing),
            "bot kind 'broken' of plugin 'echoes' failed making a bot: ValueError: cannot make it",
        ),
        (
            BotKind("broken", "x", lambda rng, registry: Wrong()),
            "made 'Wrong', which has no choose(observation) method",
        ),
        (
            BotKind("broken", "x", lambda rng, registry: Confused()),
            "failed choosing an answer: KeyError: 'lost'",
        ),
    ],
)
def test_a_plugin_bot_that_fails_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: BotKind, message: str
) -> None:
    registry = with_plugin(lambda: [kind])
    monkeypatch.setattr("oriflamme.cli._registry", lambda args: registry)
    status = main(
        ["simulate", "--games", "2", "--bots", "broken", "--jobs", "1", "--progress", "never"]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("oriflamme: error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def test_bots_lists_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--no-plugins"]) == 0
    out = capsys.readouterr().out
    kinds = out.splitlines().index("Bot kinds, with their settings (--bots KIND):")
    assert out.splitlines()[kinds + 1].startswith("random: plays any legal answer")
    assert "  ismcts:iterations=... from 1 to 10000000: games searched per decision" in out
    assert "  ismcts:playout=... one of heuristic, learned, random:" in out
    assert main(["bots", "--no-plugins", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [b["name"] for b in listed["bots"]] == ["random", "heuristic", "learned", "ismcts"]
    seconds = {s["name"]: s for s in listed["bots"][3]["settings"]}["seconds"]
    assert seconds == {
        "name": "seconds",
        "type": "float",
        "default": None,
        "values": "from 0.001 to 3600",
        "help": seconds["help"],
    }


def test_a_game_played_by_each_kind_ends(registry: Registry) -> None:
    for text in ("random", "heuristic", "learned", "ismcts:iterations=5"):
        game = Game.new(GameConfig(seed=11), registry=registry, record=False)
        bot = make_bot(text, registry=registry, seed=11)
        while game.decision is not None:
            game.answer(bot.choose(game.observe(game.decision.family)))
        assert game.over
