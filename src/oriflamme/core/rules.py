"""A game's rules table: what its cards are and do, built once per choice of sets and
variants by the :class:`~oriflamme.Registry`, and shared, read-only, by every game
made with that choice and by their clones.

It holds the card definitions and abilities keyed by card key, the kinds of
decision, the pluggy hook caller for each kind of event some plugin observes, and the
value of every variant. Nothing in it changes during a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import CodeType, MappingProxyType
from typing import Any

from .ability import Ability, reacts_to_elimination
from .cardsets import CardDef, RevealTokens, Setup
from .kinds import DecisionKind
from .variants import VariantValue

#: The ability of a card that no plugin implements: it does nothing.
INERT = Ability()

#: A pluggy hook caller: called with keyword arguments ``game`` and ``event``.
HookCall = Callable[..., Any]


class GameRules:
    """The definitions, abilities, kinds, observers and variant values of a game."""

    __slots__ = (
        "abilities",
        "ability_keys",
        "ability_plugins",
        "characters",
        "definitions",
        "discard_after_use",
        "hook_plugins",
        "kinds",
        "observers",
        "plugins",
        "reactions",
        "reveal_tokens",
        "sets",
        "shuffled",
        "tokens_doubled",
        "tokens_gained",
        "tokens_kept",
        "variants",
    )

    sets: tuple[str, ...]
    definitions: Mapping[str, CardDef]  # every key a game of these sets may meet
    abilities: Mapping[str, Ability]
    kinds: Mapping[str, DecisionKind]
    observers: Mapping[type[Any], HookCall]  # event type -> the hook caller of its observers
    hook_plugins: Mapping[CodeType, str]  # an event hook's code -> its plugin
    variants: Mapping[str, VariantValue]
    plugins: tuple[tuple[str, str, str], ...]  # (plugin, distribution, version) in play
    ability_plugins: Mapping[str, str]  # card key -> the plugin implementing its ability
    # Derived for the hot path.
    reactions: Mapping[str, Ability]  # abilities that react to their own elimination
    discard_after_use: frozenset[str]
    characters: frozenset[str]
    reveal_tokens: Mapping[str, RevealTokens]
    # The same facts as plain sets of keys: enum members are slow to read in a loop.
    shuffled: frozenset[str]  # keys dealt from the shuffled cards (the rest wait in reserve)
    tokens_gained: frozenset[str]  # revealing it gains its tokens (RULINGS R2)
    tokens_doubled: frozenset[str]  # ... twice over (Conspiracy)
    tokens_kept: frozenset[str]  # ... keeps them for its ability (Plot)
    ability_keys: Mapping[int, str]  # id of an ability object -> its card key

    def __init__(
        self,
        *,
        sets: tuple[str, ...],
        definitions: Mapping[str, CardDef],
        abilities: Mapping[str, Ability],
        kinds: Mapping[str, DecisionKind],
        variants: Mapping[str, VariantValue],
        observers: Mapping[type[Any], HookCall] | None = None,
        hook_plugins: Mapping[CodeType, str] | None = None,
        plugins: tuple[tuple[str, str, str], ...] = (),
        ability_plugins: Mapping[str, str] | None = None,
    ) -> None:
        self.sets = sets
        self.definitions = MappingProxyType(dict(definitions))
        self.abilities = MappingProxyType(dict(abilities))
        self.kinds = MappingProxyType(dict(kinds))
        self.variants = MappingProxyType(dict(variants))
        self.observers = MappingProxyType(dict(observers or {}))
        self.hook_plugins = MappingProxyType(dict(hook_plugins or {}))
        self.plugins = plugins
        self.ability_plugins = MappingProxyType(dict(ability_plugins or {}))
        self.reactions = MappingProxyType(
            {key: a for key, a in abilities.items() if reacts_to_elimination(a)}
        )
        self.discard_after_use = frozenset(k for k, d in definitions.items() if d.discard_after_use)
        self.characters = frozenset(k for k, d in definitions.items() if d.is_character)
        self.reveal_tokens = MappingProxyType({k: d.reveal_tokens for k, d in definitions.items()})
        self.shuffled = frozenset(k for k, d in definitions.items() if d.setup is Setup.SHUFFLED)
        modes = self.reveal_tokens
        self.tokens_gained = frozenset(k for k, m in modes.items() if m is RevealTokens.GAIN)
        self.tokens_doubled = frozenset(k for k, m in modes.items() if m is RevealTokens.DOUBLE)
        self.tokens_kept = frozenset(k for k, m in modes.items() if m is RevealTokens.ABILITY)
        keys: dict[int, str] = {}
        for key, ability in sorted(abilities.items()):
            keys.setdefault(id(ability), key)
        self.ability_keys = MappingProxyType(keys)

    def ability(self, key: str) -> Ability:
        """The ability of card ``key`` (a card nobody implements does nothing)."""
        return self.abilities.get(key, INERT)

    def hook_plugin(self, error: BaseException) -> str:
        """The plugin whose event hook raised ``error``, from its traceback ('?' if none)."""
        found = "?"
        trace = error.__traceback__
        while trace is not None:
            found = self.hook_plugins.get(trace.tb_frame.f_code, found)
            trace = trace.tb_next
        return found
