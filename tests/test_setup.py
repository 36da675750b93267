"""Creating a game: the configuration is checked, and setup follows the rulebook (G1, G2)."""

from __future__ import annotations

import pytest

from oriflamme import ConfigError, Game, GameConfig, Registry

from .helpers import all_cards, card_id, new_game


@pytest.mark.parametrize("families", [3, 4, 5])
def test_setup_deals_seven_sets_aside_three_and_gives_one_influence(
    registry: Registry, families: int
) -> None:
    seed = 11 * families
    print(f"seed={seed}")
    game = new_game(registry, seed, families)
    position = game.position()
    for family in game.families:
        assert len(position.hands[family]) == 7
        assert len(position.set_aside[family]) == 3
        assert position.influence[family] == 1
        own = set(position.hands[family]) | set(position.set_aside[family])
        assert own == {f"{family}.{key}" for key in registry.sets["base"].keys}
        # A family's own observation holds the same cards, by id.
        seen = game.observe(family)
        assert seen.hand == tuple(card_id(game, c) for c in position.hands[family])
        assert seen.set_aside == tuple(card_id(game, c) for c in position.set_aside[family])
    assert position.queue == ()
    assert (game.round, game.phase) == (1, "placement")
    assert game.decision is not None
    assert game.decision.family == game.observe().first_player
    assert sorted(all_cards(game)) == sorted(set(all_cards(game)))
    assert len(all_cards(game)) == 10 * families


def test_the_seed_decides_the_deal_the_first_player_and_the_direction(registry: Registry) -> None:
    print("seeds=0..39")
    first = [new_game(registry, seed) for seed in range(40)]
    again = [new_game(registry, seed) for seed in range(40)]
    assert [g.snapshot() for g in first] == [g.snapshot() for g in again]
    tables = [g.observe() for g in first]
    assert len({t.first_player for t in tables}) == 3
    assert {t.direction for t in tables} == {"rightward", "leftward"}
    assert len({g.position().hands["red"] for g in first}) > 10


def test_first_player_and_direction_can_be_given(registry: Registry) -> None:
    game = new_game(registry, 5, first_player="green", direction="leftward")
    table = game.observe()
    assert (table.first_player, table.direction) == ("green", "leftward")
    decision = game.decision
    assert decision is not None
    assert decision.family == "green"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"families": ("red", "blue")}, "a game needs 3 to 5 families, not 2 (RULINGS G1)"),
        ({"families": ("a", "b", "c", "d", "e", "f")}, "3 to 5 families, not 6"),
        ({"families": ("red", "Blue", "green")}, "family name 'Blue' must be a lowercase word"),
        ({"families": ("red", "red", "green")}, "family names must differ"),
        ({"first_player": "pink"}, "first player 'pink' is not one of the families"),
        ({"direction": "up"}, "direction 'up' must be one of rightward, leftward"),
        ({"sets": ("nope",)}, "unknown card set 'nope' (installed sets: "),
        ({"variants": {"nope": 1}}, "unknown variant 'nope' (known variants: "),
        (
            {"variants": {"ambush_own_elimination": "third"}},
            "variant 'ambush_own_elimination' cannot be 'third': expected one of "
            "first_edition, revised",
        ),
        (
            {"cards": ("archer", "spy")},
            "a card list needs at least 7 cards to shuffle and deal, not 2",
        ),
        ({"cards": ("archer", "dragon")}, "unknown card 'dragon'"),
    ],
)
def test_a_bad_configuration_is_refused_with_a_reason(
    registry: Registry, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as error:
        Game.new(GameConfig(**options), registry=registry)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_variants_are_recorded_in_the_game(registry: Registry) -> None:
    game = new_game(registry, 1, variants={"ambush_own_elimination": "revised"})
    assert game.rules.variants["ambush_own_elimination"] == "revised"
    assert game.observe("red").variants["ambush_own_elimination"] == "revised"
    plain = new_game(registry, 1)
    assert plain.rules.variants["ambush_own_elimination"] == "first_edition"
    assert game.snapshot()["rules"]["variants"] == {"ambush_own_elimination": "revised"}


def test_an_explicit_card_list_deals_those_cards(registry: Registry) -> None:
    cards = ("archer", "soldier", "spy", "heir", "lord", "ambush", "conspiracy", "soldier")
    game = new_game(registry, 2, cards=cards)
    position = game.position()
    held = set(position.hands["red"]) | set(position.set_aside["red"])
    assert held == {f"red.{key}" for key in cards} | {"red.soldier.2"}
    assert len(position.set_aside["red"]) == 1
    # Two Soldiers: two cards of one key, each with its own id.
    assert card_id(game, "red.soldier") != card_id(game, "red.soldier.2")
