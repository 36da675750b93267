"""What the heuristic bot knows of a card comes from its CardAdvice: a plugin's advice
steers the bot's answers to its card's questions, and advice given for a built-in card
replaces the built-in card's own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from oriflamme import Ability, Answer, CardId, Decision, DecisionKind, Effects, Game, hookimpl
from oriflamme.bots import CardAdvice, HeuristicBot, Reading
from oriflamme.bots.cards import BUILTIN_ADVICE
from oriflamme.testing import game_at, registry_with

from .conftest import ROOT
from .helpers import one_card_set
from .test_decisions import ROADS, PickKind
from .test_heuristic import asked, at


class Pointer(Ability):
    """Points at any other card of the queue (the answer changes nothing)."""

    def activate(self, game: Effects, card: CardId) -> None:
        own = game.index(card)
        game.ask_target(card, [i for i in range(len(game.queue)) if i != own], self.pointed)

    def pointed(self, game: Effects, card: CardId, position: int) -> None:
        game.gain(game.owner(card), 1, card)


class Picker(Ability):
    """Picks a road (a question of the plugin's own kind)."""

    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(game.owner(card), "pick", ROADS, self.picked, card)

    def picked(self, game: Effects, card: CardId, road: str) -> None:
        game.gain(game.owner(card), 1, card)


class Banner(Ability):
    """Asks to raise or lower it (the card of docs/plugins.md's advice example)."""

    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(game.owner(card), "pick", ("raise", "lower"), self.picked, card)

    def picked(self, game: Effects, card: CardId, way: str) -> None:
        game.gain(game.owner(card), 1, card)


class Signs:
    """The test plugin: a Pointer, a Picker and a Banner, each a set of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [
            one_card_set(self.folder, "pointers", "pointer"),
            one_card_set(self.folder, "pickers", "picker"),
            one_card_set(self.folder, "banners", "banner"),
        ]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"pointer": Pointer(), "picker": Picker(), "banner": Banner()}

    @hookimpl
    def register_decision_kinds(self) -> list[DecisionKind]:
        return [PickKind()]


def signs_at(folder: Path, queue: list[Any], **state: Any) -> Game:
    """Red's face-down card first in ``queue``, about to be revealed, in round 3."""
    return game_at(
        {
            "round": 3,
            "phase": "resolution",
            "queue": queue,
            "hands": {family: [f"{family}.spy"] for family in ("red", "blue", "green")},
            **state,
        },
        sets=["base", "pointers", "pickers", "banners"],
        plugins={"signs": Signs(folder)},
    )


class Homely(CardAdvice):
    """Points at its own family's cards, and takes the last road."""

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return 1.0 if table.mine(position) else 0.0

    def answer(self, table: Reading, decision: Decision, option: Answer) -> float:
        return 1.0 if option == decision.options[-1] else 0.0


def test_a_plugin_cards_advice_steers_the_target_it_chooses(tmp_path: Path) -> None:
    game = signs_at(
        tmp_path,
        ["red.pointer", {"card": "red.heir", "up": True}, {"card": "blue.lord", "up": True}],
    )
    game.answer(True)
    decision = asked(game, "target")
    assert set(decision.options) == {1, 2}
    seen = game.observe("red")
    # Untaught, the bot points at an opponent's face-up card, never at its own.
    assert HeuristicBot(0).choose(seen) == 2
    assert HeuristicBot(0, advice={"pointer": Homely()}).choose(seen) == 1


def test_a_plugin_cards_advice_steers_its_own_kind_of_question(tmp_path: Path) -> None:
    game = signs_at(tmp_path, ["red.picker", {"card": "blue.lord", "up": True}])
    game.answer(True)
    decision = asked(game, "pick")
    assert decision.options == ROADS
    seen = game.observe("red")
    assert HeuristicBot(0).choose(seen) == ROADS[0]  # untaught: the first option
    assert HeuristicBot(0, advice={"picker": Homely()}).choose(seen) == ROADS[-1]


class Rightwards(CardAdvice):
    """A Soldier that hits the later of its neighbours."""

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return float(position)


def test_advice_given_for_a_built_in_card_replaces_its_own() -> None:
    game = at(
        [
            {"card": "red.heir", "up": True},
            {"card": "blue.soldier", "up": True},
            {"card": "green.heir", "up": True},
        ],
        influence={"red": 2, "blue": 1, "green": 1},
    )
    asked(game, "target", "blue")
    seen = game.observe("blue")
    assert HeuristicBot(0).choose(seen) == 0  # the leader's Heir (see test_heuristic)
    assert HeuristicBot(0, advice={"soldier": Rightwards()}).choose(seen) == 2
    # An Ambush stays face down before the last round; taught as an unknown card, it
    # is revealed like one.
    ambush = at(["red.ambush", {"card": "blue.soldier", "up": True}], 3)
    asked(ambush, "reveal")
    seen = ambush.observe("red")
    assert HeuristicBot(0).choose(seen) is False
    assert HeuristicBot(0, advice={"ambush": CardAdvice()}).choose(seen) is True
    # The built-in advice itself is untouched, and read-only.
    assert type(BUILTIN_ADVICE["ambush"]) is not CardAdvice
    with pytest.raises(TypeError):
        BUILTIN_ADVICE["ambush"] = CardAdvice()  # type: ignore[index]


def test_every_built_in_card_has_its_advice() -> None:
    assert set(BUILTIN_ADVICE) == set(registry_with().cards)
    for key, advice in BUILTIN_ADVICE.items():
        assert isinstance(advice, CardAdvice), key


def test_the_advice_example_of_the_plugin_guide_steers_the_bot(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "def answer" in b]
    assert len(blocks) == 1
    found: dict[str, Any] = {}
    exec(compile(blocks[0], "plugins.md", "exec"), found)  # the guide's own code
    advice = found["BannerAdvice"]()
    for influence, way in (({"red": 1, "blue": 3, "green": 1}, "raise"), ({"red": 3}, "lower")):
        game = signs_at(tmp_path, ["red.banner", "blue.lord"], influence=influence)
        game.answer(True)
        asked(game, "pick")
        assert HeuristicBot(0, advice={"banner": advice}).choose(game.observe("red")) == way
