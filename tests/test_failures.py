"""Failing well: each way a plugin can be broken gets a message that names it, and
never corrupts a game."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import Ability, AbilityError, Game, GameConfig, Placement, Registry, hookimpl
from oriflamme.core.events import Revealed


def fake_distribution(
    root: Path, name: str, version: str, *, entry: str, module: str, source: str
) -> None:
    """A package installed in ``root``: its module and its dist-info with an entry point."""
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[oriflamme]\n{entry} = {module}\n", encoding="utf-8")


def test_a_plugin_that_fails_to_import_is_reported_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(
        tmp_path,
        "broken-rules",
        "1.0",
        entry="broken",
        module="broken_rules",
        source="raise ImportError('no module named dragons')\n",
    )
    fake_distribution(
        tmp_path,
        "fine-rules",
        "2.0",
        entry="fine",
        module="fine_rules",
        source="""\
        from oriflamme import Variant, hookimpl

        @hookimpl
        def register_variants():
            return [Variant("fine_option", (False, True), False, "A harmless option.")]
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    assert registry.problems == [
        "plugin 'broken' (broken_rules) failed to load: ImportError: no module named dragons"
    ]
    fine = {p.name: p for p in registry.plugins}["fine"]
    assert (fine.distribution, fine.version) == ("fine-rules", "2.0")
    assert registry.variants["fine_option"].plugin == "fine"
    left_out = Registry(exclude=["fine", "broken"])
    assert "fine" not in {p.name for p in left_out.plugins}
    assert left_out.problems == []


class Explodes(Ability):
    """Raises when it acts: a bug in someone's plugin."""

    def activate(self, game: Game, card: str) -> None:
        game.gain(game.owner(card), 5, card)  # a change the failure must take back
        raise RuntimeError("the jester fell over")


def test_an_ability_that_raises_leaves_the_game_as_it_was(registry: Registry) -> None:
    reg = Registry(entry_points=False)
    reg.register(
        SimpleNamespace(replace_abilities=hookimpl(lambda variants: {"spy": Explodes()})), "clumsy"
    )
    game = Game.new(
        GameConfig(
            seed=3,
            first_player="red",
            cards=("spy", "heir", "lord", "archer", "soldier", "ambush", "conspiracy"),
        ),
        registry=reg,
    )
    assert game.rules.guarded
    for family in ("red", "blue", "green"):
        game.answer(Placement(f"{family}.spy", "last"))
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)  # red reveals its Spy, whose ability raises
    assert str(error.value) == (
        "plugin 'clumsy': the ability of 'spy' (red.spy acting) raised RuntimeError: the "
        "jester fell over, answering red's reveal decision with True; the game is as it "
        "was before this answer"
    )
    assert game.snapshot() == before
    game.answer(False)  # the game goes on from where it was
    assert game.tokens["red.spy"] == 1


def test_an_observer_that_raises_leaves_the_game_as_it_was() -> None:
    def observe(game: Game, event: Revealed) -> None:
        raise KeyError("oops")

    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(card_revealed=hookimpl(observe)), "watcher")
    game = Game.new(GameConfig(seed=3, first_player="red"), registry=reg)
    for family in ("red", "blue", "green"):
        game.answer(Placement(game.hands[family][0], "last"))
    before = game.snapshot()
    with pytest.raises(
        AbilityError,
        match=r"^plugin 'watcher' failed in hook card_revealed "
        r"\(Revealed\(card='red\..*KeyError: 'oops', answering red's reveal "
        r"decision with True; the game is as it was before this answer$",
    ):
        game.answer(True)
    assert game.snapshot() == before


def test_built_in_sets_alone_need_no_guard(registry: Registry) -> None:
    assert not Game.new(GameConfig(seed=1), registry=registry).rules.guarded
