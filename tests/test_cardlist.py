"""Choosing the card list when a game is created: a set, a mix of sets, or a list."""

from __future__ import annotations

import pytest

from oriflamme import ConfigError, Game, GameConfig, Registry
from oriflamme.saves import load

from .helpers import card_id, new_game

ABLAZE = (
    "prince",
    "twin",
    "queen",
    "cutthroat",
    "apothecary",
    "felon",
    "schemer",
    "impersonation",
    "plot",
    "trap",
    "bribery",
)


def test_a_named_set_is_its_whole_family(registry: Registry) -> None:
    assert new_game(registry, 1, sets=("base",)).cards == registry.sets["base"].keys
    game = new_game(registry, 1, sets=("ablaze",))
    assert game.cards == ABLAZE
    position = game.position()
    seen = game.observe("red")
    for family in game.families:
        # RULINGS G2: the Twin is not shuffled in: 10 cards, 3 aside, 7 in hand.
        assert position.reserve[family] == (f"{family}.twin",)
        assert len(position.hands[family]) == 7
        assert len(position.set_aside[family]) == 3
        # Red sees the Twin waiting in every reserve, but not another family's hand.
        twin = card_id(game, f"{family}.twin")
        assert seen.reserve[family] == (twin,)
        assert seen.key(twin) == "twin"
        assert seen.hand_sizes[family] == 7
        held = [card_id(game, card) for card in position.hands[family]]
        assert all(seen.knows(card) == (family == "red") for card in held)


def test_a_mix_draws_ten_types_from_the_seed(registry: Registry) -> None:
    print("seeds=0..29")
    lists = {new_game(registry, seed, sets=("base", "ablaze")).cards for seed in range(30)}
    assert len(lists) > 20  # the seed decides
    pool = set(registry.sets["base"].keys) | set(ABLAZE)
    for cards in lists:
        drawn = [key for key in cards if key != "twin"]
        assert len(drawn) == 10
        assert set(drawn) <= pool - {"twin"}
        assert ("twin" in cards) == ("prince" in cards)  # the Twin comes with its Prince
    same = new_game(registry, 4, sets=("base", "ablaze")).cards
    assert new_game(registry, 4, sets=("base", "ablaze")).cards == same


def test_the_size_of_a_mix_can_change(registry: Registry) -> None:
    for seed in range(10):
        print(f"seed={seed}")
        cards = new_game(registry, seed, sets=("base", "ablaze"), size=7).cards
        assert len([k for k in cards if k != "twin"]) == 7


def test_an_explicit_list_and_its_twin(registry: Registry) -> None:
    cards = ("archer", "queen", "trap", "spy", "heir", "lord", "prince")
    game = new_game(registry, 2, cards=cards)
    assert game.cards == (*cards, "twin")
    position = game.position()
    assert position.reserve["red"] == ("red.twin",)
    assert set(position.hands["red"]) == {f"red.{k}" for k in cards}
    assert position.set_aside["red"] == ()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"cards": ("twin", "archer", "queen", "trap", "spy", "heir", "lord", "soldier")},
            "card 'twin' needs 'prince' in the card list",
        ),
        (
            {"cards": ("archer", "queen", "trap", "spy", "heir", "lord")},
            "a card list needs at least 7 cards to shuffle and deal, not 6",
        ),
        (
            {"cards": ("archer", "queen", "trap", "spy", "heir", "lord", "unicorn")},
            "unknown card 'unicorn'",
        ),
        ({"sets": ("base", "ablaze"), "size": 6}, "a card list needs at least 7 card types"),
        (
            {"sets": ("base", "ablaze"), "size": 21},
            "the sets base, ablaze have 20 card types to draw from, fewer than 21",
        ),
        (
            {"sets": ("base", "dragons")},
            "unknown card set 'dragons' (installed sets: ablaze, base)",
        ),
    ],
)
def test_a_bad_choice_is_refused_with_a_reason(
    registry: Registry, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as error:
        Game.new(GameConfig(**options), registry=registry)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_the_card_list_is_recorded_in_the_save(registry: Registry) -> None:
    game = new_game(registry, 9, sets=("base", "ablaze"))
    loaded = load(game.to_json(), registry=registry)
    assert loaded.cards == game.cards
    assert loaded.snapshot()["cards"] == list(game.cards)
    assert loaded.position() == game.position()
