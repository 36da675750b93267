"""A game's rules table: built once when a game is created, shared by its clones.

It holds what the game's cards are and do (definitions and abilities keyed by
card key), who observes which event, and the value of every variant. Nothing in
it changes during a game, so cloning a game never copies it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .ability import Ability, reacts_to_elimination
from .cardsets import CardDef
from .tables import Observer
from .variants import VariantValue

if TYPE_CHECKING:
    pass


#: The ability of a card that no plugin implements: it does nothing.
INERT = Ability()


@attrs.frozen
class GameRules:
    """The card list, definitions, abilities, observers and variant values of one game.

    ``cards`` is the game's card list: the keys every family holds one copy of
    (RULINGS G1). ``definitions`` covers every key a game may meet, which for a
    scenario can be more than the list.
    """

    cards: tuple[str, ...]
    sets: tuple[str, ...]
    definitions: Mapping[str, CardDef]
    abilities: Mapping[str, Ability]
    observers: Mapping[str, tuple[Observer, ...]]
    variants: Mapping[str, VariantValue]
    plugins: tuple[tuple[str, str, str], ...] = ()  # (plugin, distribution, version)
    # Which plugin implements each ability (after replacements): to name the
    # plugin when an ability raises.
    ability_plugins: Mapping[str, str] = attrs.field(factory=dict)
    # Whether answers are taken back when a plugin raises (see Game.answer): true
    # as soon as code from outside the built-in sets runs in the game.
    guarded: bool = False
    # Derived tables for the hot path: which ability reacts to its elimination,
    # and which key an ability object answers to (to store a continuation by name).
    # Computed when not given, and carried over by attrs.evolve (a new card list).
    reactions: Mapping[str, Ability] = attrs.field()
    discard_after_use: frozenset[str] = attrs.field()
    ability_keys: Mapping[int, str] = attrs.field()
    # Which card ids each seating of families gets, worked out once (see Game.new).
    casts: dict[tuple[str, ...], Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    @reactions.default
    def _reactions(self) -> Mapping[str, Ability]:
        return {key: a for key, a in self.abilities.items() if reacts_to_elimination(a)}

    @discard_after_use.default
    def _discard_after_use(self) -> frozenset[str]:
        return frozenset(k for k, d in self.definitions.items() if d.discard_after_use)

    @ability_keys.default
    def _ability_keys(self) -> Mapping[int, str]:
        keys: dict[int, str] = {}
        for key, ability in sorted(self.abilities.items()):
            keys.setdefault(id(ability), key)
        return keys

    def ability(self, key: str) -> Ability:
        """The ability of card ``key`` (a card nobody implements does nothing)."""
        return self.abilities.get(key, INERT)

    def definition(self, key: str) -> CardDef:
        return self.definitions[key]
