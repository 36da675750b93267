"""The plugin layer: tables keyed by name, duplicates refused, order never decides a rule."""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import (
    Ability,
    ConfigError,
    Effects,
    Game,
    GameConfig,
    PluginError,
    Registry,
    hookimpl,
)
from oriflamme.bots import play_out
from oriflamme.core import hookspecs
from oriflamme.core.events import Eliminated, Placed, Revealed
from oriflamme.expansions import base

from .helpers import one_card_set, random_bots


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
