"""The plugin layer: tables keyed by name, duplicates refused, order never decides a rule."""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from oriflamme import (
    Ability,
    ConfigError,
    DecisionKind,
    Effects,
    Game,
    GameConfig,
    PluginError,
    Registry,
    Variant,
    hookimpl,
)
from oriflamme.bots import play_out
from oriflamme.core import _hookspecs as hookspecs
from oriflamme.core._kinds import PlaceKind
from oriflamme.core._plugins import check_plugin_names
from oriflamme.events import Eliminated, Placed, Revealed
from oriflamme.expansions import base

from .helpers import one_card_set, random_bots
from .test_failures import fake_distribution


class Tax:
    """An observer whose effect depends on when it runs: halves the revealer's Influence."""

    @hookimpl
    def card_revealed(self, game: Effects, event: Revealed) -> None:
        game.lose(event.family, game.influence[event.family] // 2)


class Bounty:
    """Another observer: each elimination pays its victim's family 3."""

    @hookimpl
    def card_revealed(self, event: Revealed, game: Effects) -> None:
        game.gain(event.family, 3)

    @hookimpl
    def card_eliminated(self, event: Eliminated, game: Effects) -> None:
        game.gain(event.owner, 3)


def registry_in_order(order: Sequence[str]) -> Registry:
    plugins = {"base": base, "tax": Tax(), "bounty": Bounty()}
    registry = Registry(builtins=False, entry_points=False)
    for name in order:
        registry.register(plugins[name], name)
    return registry


def test_registration_order_never_changes_a_game() -> None:
    seed = 20261122
    print(f"seed={seed}")
    orders = [["base", "tax", "bounty"], ["bounty", "tax", "base"], ["tax", "base", "bounty"]]
    rng = random.Random(seed)
    for _ in range(3):
        orders.append(rng.sample(["base", "tax", "bounty"], 3))
    games = []
    for order in orders:
        game = Game.new(GameConfig(seed=seed), registry=registry_in_order(order))
        play_out(game, random_bots(game, seed))
        games.append(game.snapshot())
    for order, snapshot in zip(orders[1:], games[1:], strict=True):
        assert snapshot["log"] == games[0]["log"], f"order {order} played differently"
        assert snapshot["influence"] == games[0]["influence"]


def watcher(label: str, calls: list[str], *, order: str | None = None) -> object:
    """An observer that records ``label`` each time a card is placed; ``order``
    (``first`` or ``last``) is pluggy's ``tryfirst`` or ``trylast`` marker."""
    marker = hookimpl(tryfirst=order == "first", trylast=order == "last")
    return SimpleNamespace(card_placed=marker(lambda event: calls.append(label)))


def place_one(game: Game) -> Game:
    """``game`` once its next placement is made (the first option)."""
    decision = game.decision
    assert decision is not None
    assert decision.kind == "place"
    game.answer(decision.options[0])
    return game


def new(registry: Registry) -> Game:
    seed = 1
    print(f"seed={seed}")
    return Game.new(GameConfig(seed=seed), registry=registry)


def test_observers_run_in_plugin_name_order() -> None:
    calls: list[str] = []
    reg = Registry(entry_points=False)
    for name in ("zeta", "alpha", "mid"):
        reg.register(watcher(name, calls), name)
    place_one(new(reg))
    assert calls == ["alpha", "mid", "zeta"]


def test_pluggy_tryfirst_and_trylast_are_honoured() -> None:
    calls: list[str] = []
    reg = Registry(entry_points=False)
    reg.register(watcher("alpha", calls, order="last"), "alpha")
    reg.register(watcher("zeta", calls, order="first"), "zeta")
    reg.register(watcher("mid", calls), "mid")
    place_one(new(reg))
    assert calls == ["zeta", "mid", "alpha"]


class Wraps:
    """A hook wrapper around the other observers of a placement."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(wrapper=True)
    def card_placed(self, game: Effects, event: Placed) -> Generator[None, list[None], list[None]]:
        self.calls.append(f"before, {len(game.queue)} in the queue")
        results = yield
        self.calls.append("after")
        return results


def test_a_wrapper_on_an_event_hook_wraps_the_observers() -> None:
    calls: list[str] = []
    reg = Registry(entry_points=False)
    reg.register(watcher("alpha", calls), "alpha")
    reg.register(Wraps(calls), "wraps")
    game = place_one(new(reg))
    assert calls == ["before, 1 in the queue", "alpha", "after"]
    assert len(game.observe().queue) == 1


def test_pluggy_tracing_sees_the_event_hooks() -> None:
    calls: list[str] = []
    reg = Registry(entry_points=False)
    reg.register(watcher("alpha", calls), "alpha")
    traced: list[str] = []
    reg.manager.trace.root.setwriter(traced.append)
    undo = reg.manager.enable_tracing()
    try:
        game = place_one(new(reg))
    finally:
        undo()
    assert calls == ["alpha"]
    placed = [line for line in traced if line.lstrip().startswith("card_placed")]
    assert placed, traced
    assert "event: Placed(" in placed[0]
    # The registry's own calls, collecting what each plugin provides, are traced too.
    assert any(line.lstrip().startswith("register_abilities") for line in traced)
    # Once tracing is undone, the next placement is not traced.
    seen = len(traced)
    place_one(game)
    assert calls == ["alpha", "alpha"]
    assert len(traced) == seen


def test_a_card_set_provided_twice_is_an_error() -> None:
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_card_sets=hookimpl(base.register_card_sets)), "copy")
    with pytest.raises(PluginError, match="card set 'base' is provided by both plugin"):
        _ = reg.sets


def test_a_card_key_in_two_sets_is_an_error(tmp_path: Path) -> None:
    other = one_card_set(tmp_path, "other", "spy")
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_card_sets=hookimpl(lambda: [other])), "other")
    with pytest.raises(PluginError, match="card 'spy' is provided by both set 'base'"):
        _ = reg.cards


def test_an_ability_provided_twice_is_an_error() -> None:
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_abilities=hookimpl(lambda: {"heir": Ability()})), "rival")
    with pytest.raises(
        PluginError, match="ability of card 'heir' is provided by both plugin 'base' and 'rival'"
    ):
        _ = reg.abilities


def test_a_plugin_that_raises_in_a_hook_is_left_out_and_named() -> None:
    def broken() -> Mapping[str, Ability]:
        raise RuntimeError("boom")

    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_abilities=hookimpl(broken)), "broken")
    assert reg.problems == [
        "plugin 'broken' was left out: failed in hook register_abilities: RuntimeError: boom"
    ]
    assert "broken" not in {p.name for p in reg.plugins}
    assert "heir" in reg.abilities  # the other plugins still load


def test_malformed_card_yaml_names_the_plugin_the_file_and_the_line(tmp_path: Path) -> None:
    bad = one_card_set(tmp_path, "bad", "imp", card_type="goblin")
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_card_sets=hookimpl(lambda: [bad])), "imps")
    assert reg.problems == [
        f"plugin 'imps' was left out: {bad}:6: card 'imp': type 'goblin' "
        "is not one of: character, intrigue"
    ]
    with pytest.raises(ConfigError, match=r"unknown card set 'bad' .*plugin 'imps' was left"):
        Game.new(GameConfig(sets=("bad",)), registry=reg)


def test_abilities_are_looked_up_in_a_table_built_once(registry: Registry) -> None:
    game = Game.new(GameConfig(seed=3), registry=registry)
    other = Game.new(GameConfig(seed=4), registry=registry)
    assert game.rules is other.rules  # one table for every game of the same choices
    assert set(game.rules.abilities) == set(registry.sets["base"].keys)
    assert game.clone().rules is game.rules


def test_every_hook_is_typed_and_documented() -> None:
    hooks = [name for name in dir(hookspecs) if hasattr(getattr(hookspecs, name), "oriflamme_spec")]
    assert sorted(hooks) == sorted(hookspecs.HOOKS)
    for name in hooks:
        function = getattr(hookspecs, name)
        assert function.__doc__, name
        assert len(function.__doc__.strip()) > 40, name
        assert "return" in function.__annotations__, name


class Asks(DecisionKind):
    name = "asks"


class MisnamedKind(DecisionKind):
    name = 7  # type: ignore[assignment]


class LoudKind(DecisionKind):
    name = "loud"
    private_options = "yes"  # type: ignore[assignment]


class Exploding:
    """A mapping-looking object that fails when it is read."""

    def __bool__(self) -> bool:
        raise ValueError("truth of an exploding value")


WRONG_RETURNS = [
    ("register_abilities", ["heir"], "register_abilities must return a mapping of card key"),
    (
        "register_abilities",
        {"heir": "strong"},
        "the ability of 'heir' must be an oriflamme.Ability",
    ),
    ("register_abilities", {3: Ability()}, "a card key must be lowercase snake_case"),
    ("register_abilities", {"heir\n": Ability()}, "a card key must be lowercase snake_case"),
    ("register_abilities", Exploding(), "must return a mapping of card key to Ability"),
    ("register_card_sets", 3, "register_card_sets must return a list of card-set files, not 3"),
    ("register_card_sets", "base.yaml", "must return a list of card-set files, not 'base.yaml'"),
    ("register_card_sets", ["base.yaml"], "must return paths to card-set files"),
    ("register_card_sets", [None], "must return paths to card-set files"),
    ("register_card_sets", iter([]), "must return a list of card-set files"),
    ("register_variants", {"a": 1}, "register_variants must return a list of Variant objects"),
    ("register_variants", ["loud"], "register_variants must return Variant objects, not 'loud'"),
    (
        "register_variants",
        [Variant("Loud", (True, False), True, "Shout.")],
        "a variant's name must be lowercase snake_case",
    ),
    (
        "register_variants",
        [Variant("loud", (1.5, 2.5), 1.5, "Shout.")],  # type: ignore[arg-type]
        "a value must be true, false, an integer",
    ),
    (
        "register_variants",
        [Variant("loud", (True, 1), 1, "Shout.")],
        None,  # 1 is one of the values, of its type: accepted
    ),
    (
        "register_variants",
        [Variant("loud", (False, True), False, None)],  # type: ignore[arg-type]
        "'help' must be a string, not null",
    ),
    (
        "register_variants",
        [Variant("loud", (10**30, 0), 0, "Shout.")],
        "a value must be true, false, an integer of at most",
    ),
    (
        "register_variants",
        [Variant("loud", (False, True), False, "a"), Variant("loud", (1, 2), 1, "b")],
        "variant 'loud' is given twice",
    ),
    ("register_decision_kinds", ["asks"], "must return DecisionKind objects"),
    ("register_decision_kinds", [Asks], "must return DecisionKind objects"),
    ("register_decision_kinds", [MisnamedKind()], "a kind's name must be lowercase snake_case"),
    ("register_decision_kinds", [LoudKind()], "'private_options' must be True or False"),
    ("register_decision_kinds", [Asks(), Asks()], "decision kind 'asks' is given twice"),
    ("register_decision_kinds", [PlaceKind()], "decision kind 'place' is built in"),
    ("register_bot_kinds", ["echo"], "must return BotKind objects, not 'echo'"),
    ("register_bot_kinds", "echo", "must return a list of BotKind objects"),
    ("replace_abilities", ["spy"], "replace_abilities must return a mapping of card key"),
    ("replace_abilities", {"spy": None}, "the ability of 'spy' must be an oriflamme.Ability"),
]


@pytest.mark.parametrize(("hook", "value", "message"), WRONG_RETURNS)
def test_a_hook_that_returns_the_wrong_type_leaves_its_plugin_out(
    hook: str, value: object, message: str | None
) -> None:
    def returns(**arguments: object) -> object:
        return value

    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(**{hook: hookimpl(specname=hook)(returns)}), "odd")
    reg.register(SimpleNamespace(register_variants=hookimpl(lambda: [FINE])), "fine")
    problems = reg.problems
    names = {p.name for p in reg.plugins}
    if message is None:
        assert problems == []
        assert "odd" in names
        return
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"plugin 'odd' was left out: {hook}"), problems[0]
    assert message in problems[0], problems[0]
    assert "odd" not in names
    assert {"base", "ablaze", "fine"} <= names  # the others go on
    assert reg.variants["fine_option"].plugin == "fine"
    game = Game.new(GameConfig(seed=2, variants={"fine_option": True}), registry=reg)
    assert game.rules.variants["fine_option"] is True
    assert game.rules.abilities["spy"] is reg.abilities["spy"]  # nothing replaced it


FINE = Variant("fine_option", (False, True), False, "A harmless option.")


def test_a_replacement_of_the_wrong_type_for_a_variant_refuses_the_game_naming_the_plugin() -> None:
    def replace(variants: Mapping[str, object]) -> object:
        return {"spy": Ability()} if variants["fine_option"] is False else ["spy"]

    reg = Registry(entry_points=False)
    reg.register(
        SimpleNamespace(
            register_variants=hookimpl(lambda: [FINE]), replace_abilities=hookimpl(replace)
        ),
        "fickle",
    )
    assert reg.problems == []
    Game.new(GameConfig(seed=1), registry=reg)
    with pytest.raises(PluginError, match="plugin 'fickle': replace_abilities must return"):
        Game.new(GameConfig(seed=1, variants={"fine_option": True}), registry=reg)


def test_a_hook_that_calls_sys_exit_leaves_its_plugin_out() -> None:
    def quits() -> Mapping[str, Ability]:
        raise SystemExit(3)

    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_abilities=hookimpl(quits)), "quits")
    assert reg.problems == [
        "plugin 'quits' was left out: failed in hook register_abilities: SystemExit: 3"
    ]
    assert "heir" in reg.abilities


class FailsWhenRead(dict[str, Ability]):
    """A mapping whose items cannot be read."""

    def __iter__(self) -> Any:
        raise RuntimeError("no keys today")

    def keys(self) -> Any:
        raise RuntimeError("no keys today")


def test_a_replacement_that_fails_when_read_refuses_the_game_naming_the_plugin() -> None:
    def replace(variants: Mapping[str, object]) -> object:
        return {} if variants["fine_option"] is False else FailsWhenRead(spy=Ability())

    reg = Registry(entry_points=False)
    reg.register(
        SimpleNamespace(
            register_variants=hookimpl(lambda: [FINE]), replace_abilities=hookimpl(replace)
        ),
        "fickle",
    )
    assert reg.problems == []
    with pytest.raises(
        PluginError, match="plugin 'fickle': replace_abilities: RuntimeError: no keys today"
    ):
        Game.new(GameConfig(seed=1, variants={"fine_option": True}), registry=reg)
    Game.new(GameConfig(seed=1), registry=reg)  # the registry goes on


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"set: bad\ncards:\n  - key: caf\xe9\n", ":3: not UTF-8 text: byte 0xe9 at column 13"),
        (b"set: bad\ntitle: " + b"x" * 5000 + b"\n", ":2: line too long: 5007 characters"),
        (b"x" * (300 * 1024), ": too big: more than 262144 bytes"),
        (b"a: " + b"[" * 200 + b"]" * 200 + b"\n", ":1: nested too deeply"),
        (b"r: &r [*r]\n", ":1: this value contains itself through an alias"),
        (b"set: bad\ntitle: [x\n", ":3: not valid YAML"),
        (b"set: bad\ntitle: 3\ncards: [{key: a}]\n", ":2: 'title' must be a non-empty string"),
    ],
)
def test_a_card_file_that_cannot_be_read_leaves_its_plugin_out_naming_the_file(
    tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(content)
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_card_sets=hookimpl(lambda: [bad])), "bad")
    assert len(reg.problems) == 1, reg.problems
    assert reg.problems[0].startswith(f"plugin 'bad' was left out: {bad}{message}"), reg.problems
    assert "bad" not in reg.sets
    described = {plugin["name"]: plugin for plugin in reg.describe()}
    assert described["bad"]["problem"] == reg.problems[0]
    assert {"archer", "prince"} <= set(reg.cards)


def test_one_plugin_may_not_give_the_same_card_set_twice(tmp_path: Path) -> None:
    path = one_card_set(tmp_path, "twice", "imp")
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(register_card_sets=hookimpl(lambda: [path, path])), "twice")
    assert reg.problems == [
        "plugin 'twice' was left out: register_card_sets: card set 'twice' is given twice"
    ]


def test_a_plugin_that_exits_while_it_is_imported_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(
        tmp_path, "quits", "1.0", entry="quits", module="quits", source="raise SystemExit(3)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    assert "plugin 'quits' (quits) failed to load: SystemExit: 3" in registry.problems


def test_leaving_out_a_plugin_there_is_not_is_an_error_naming_the_plugins() -> None:
    with pytest.raises(PluginError) as error:
        check_plugin_names(["base", "nope"])
    assert str(error.value).startswith(
        "cannot leave out plugin 'nope': no plugin of that name (plugins: ablaze, base"
    )
    check_plugin_names(["base", "ablaze"])
    reg = Registry(exclude=["nope"])
    with pytest.raises(PluginError, match="cannot leave out plugin 'nope'"):
        _ = reg.problems
    with pytest.raises(PluginError, match="cannot leave out plugin 'nope'"):
        Game.new(GameConfig(seed=1), registry=reg)
    # A name left out and then registered by hand is no mistake.
    reg = Registry(entry_points=False, exclude=["mine"])
    reg.register(SimpleNamespace(register_variants=hookimpl(lambda: [FINE])), "mine")
    assert reg.problems == []
    assert "fine_option" in reg.variants
    assert "ablaze" not in {p.name for p in Registry(exclude=["ablaze"]).plugins}
