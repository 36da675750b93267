"""The fixed action space: every option of every decision, in seeded games of every
kind, has its own action, reads back as itself, and only legal actions are masked in."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

import pytest

from oriflamme import Ability, Game, GameConfig, Placement, Registry, hookimpl
from oriflamme.rl.actions import (
    POSITIONS,
    WORDS,
    ActionError,
    ActionSpace,
    card_names,
    choice_words,
)
from oriflamme.testing import registry_with

from .helpers import one_card_set

CONFIGS = [
    GameConfig(families=("red", "blue", "green"), sets=("base",)),
    GameConfig(families=("red", "blue", "green", "yellow"), sets=("ablaze",)),
    GameConfig(families=tuple("abcde"), sets=("base", "ablaze"), size=12),
    GameConfig(cards=("soldier", "archer", "lord", "heir") * 2 + ("spy", "plot")),
]


@pytest.mark.parametrize("number", range(12))
def test_every_option_has_its_own_action_and_reads_back(number: int) -> None:
    seed = 900 + number
    print(f"seed {seed}")
    registry = Registry(entry_points=False)
    config = CONFIGS[number % len(CONFIGS)]
    game = Game.new(config, registry=registry, seed=seed)
    space = ActionSpace(game.cards)
    rng = random.Random(seed)
    kinds = set()
    while not game.over:
        decision = game.decision
        assert decision is not None
        seen = game.observe(decision.family)
        options = list(decision.options)
        actions = [space.encode(seen, option) for option in options]
        assert all(0 <= action < space.size for action in actions)
        mask = space.mask(seen)
        assert {i for i, legal in enumerate(mask) if legal} == set(actions)
        assert space.legal(seen) == sorted(set(actions))
        for option, action in zip(options, actions, strict=True):
            answer = space.decode(seen, action)
            assert space.encode(seen, answer) == action
            if answer != option:
                # Only two copies of one card type, at one spot, share an action.
                assert isinstance(option, Placement)
                assert isinstance(answer, Placement)
                assert answer.at == option.at
                assert seen.key(answer.card) == seen.key(option.card)
        illegal = next(i for i, legal in enumerate(mask) if not legal)
        with pytest.raises(ActionError, match=f"action {illegal} is not legal now"):
            space.decode(seen, illegal)
        for other in game.families:
            if other != decision.family:
                assert not any(space.mask(game.observe(other)))
                assert space.legal(game.observe(other)) == []
        kinds.add(decision.kind)
        game.answer(space.decode(seen, rng.choice(actions)))
    assert {"place", "reveal"} <= kinds


def test_the_blocks_are_described_in_words() -> None:
    space = ActionSpace(["soldier", "royal_decree"])
    assert space.size == 2 * (2 + POSITIONS) + 2 + 2 * POSITIONS + (2 + POSITIONS) + 2 + 16
    # Cards by the names the rules print, positions from 1 as the view numbers the queue.
    assert space.describe(0) == "place Soldier at the first end"
    assert space.describe(2 + POSITIONS + 1) == "place Royal Decree at the last end"
    assert space.describe(2 + POSITIONS + 2) == "place Royal Decree on position 1"
    assert space.describe(2 + POSITIONS + 4) == "place Royal Decree on position 3"
    assert space.describe(space.reveal) == "reveal"
    assert space.describe(space.reveal + 1) == "keep face down"
    assert space.describe(space.target) == "target position 1"
    assert space.describe(space.move + 4) == "move to position 5"
    last = f"place the Twin on position {POSITIONS}"
    assert space.describe(space.twin + 2 + POSITIONS - 1) == last
    assert space.describe(space.choose + 1) == "choose repeat"
    assert space.describe(space.other) == "option 1 of another question"
    with pytest.raises(ActionError, match="not one of 0 to"):
        space.describe(space.size)
    texts = [space.describe(action) for action in range(space.size)]
    assert len(set(texts)) == space.size  # OpenSpiel reads an action back from its text


class Crossroads(Ability):
    """A plugin's card that would ask which way to go (it declares the words only)."""

    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"went": ("choose", "left", "gain", "right")}
    )


class Ways:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "ways", "crossroads")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"crossroads": Crossroads()}


def test_the_named_choices_are_those_the_built_in_cards_declare(tmp_path: Path) -> None:
    # The Plot's, as its ability declares them; every space numbers them.
    assert WORDS == ("gain", "repeat")
    assert ActionSpace(["soldier"]).words == WORDS
    # A plugin's declared words are read too, each once, card by card in key order;
    # the default spaces keep the built-in words alone.
    with_ways = registry_with({"ways": Ways(tmp_path)})
    assert choice_words(with_ways) == ("left", "gain", "right", "repeat")
    assert ActionSpace(["crossroads"]).words == WORDS


class Lookalike:
    """A plugin's card the card data names Soldier, as the base set's is named."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        path = self.folder / "lookalike.yaml"
        path.write_text(
            "set: lookalike\ntitle: Lookalike\ncards:\n  - key: guard\n"
            "    name: Soldier\n    type: character\n    text: Does something.\n",
            encoding="utf-8",
        )
        return [path]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"guard": Crossroads()}


def test_cards_are_named_by_their_card_data_and_two_of_one_name_by_their_keys(
    tmp_path: Path,
) -> None:
    registry = registry_with({"lookalike": Lookalike(tmp_path)})
    assert card_names(["archer", "royal_decree", "nameless"], registry) == {
        "archer": "Archer",
        "royal_decree": "Royal Decree",
        "nameless": "nameless",  # a key the registry lacks: its key
    }
    assert card_names(["soldier", "guard", "spy"], registry) == {
        "soldier": "Soldier (soldier)",
        "guard": "Soldier (guard)",
        "spy": "Spy",
    }
    space = ActionSpace(["soldier", "guard"], registry=registry)
    assert space.describe(0) == "place Soldier (soldier) at the first end"
    assert space.describe(2 + POSITIONS) == "place Soldier (guard) at the first end"
    # Without a registry, the built-in cards' names; a plugin's card by its key.
    assert ActionSpace(["guard"]).describe(2) == "place guard on position 1"
