"""A game's rules table: what its cards are and do, built once per choice of sets and
variants by the :class:`~oriflamme.Registry`, and shared, read-only, by every game
made with that choice and by their clones.

It holds the card definitions and abilities keyed by card key, the kinds of
decision, the pluggy hook caller for each kind of event some plugin observes, and the
value of every variant. Nothing in it changes during a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import CodeType, MappingProxyType
from typing import Any, NoReturn, Protocol, TypeAlias

from ._cardsets import CardDef, RevealTokens, Setup
from ._identity import CardId
from ._variants import VariantValue


class CardAbility(Protocol):
    """A card's ability as a rules table holds it: an :class:`~oriflamme.Ability` (the
    registry takes nothing else). The class is defined above these rules, beside the
    :class:`~oriflamme.Effects` its methods are handed, which hold these rules: here
    the game it is handed is any object."""

    def activate(self, game: Any, card: CardId) -> None: ...

    def eliminated(self, game: Any, card: CardId, by: CardId | None, owner: str) -> None: ...


#: A kind of decision as a rules table holds it: a :class:`~oriflamme.DecisionKind`
#: (the registry takes nothing else). Its ``check`` is handed the game's
#: :class:`~oriflamme.Effects`, which hold these rules: the class is defined above
#: them, and what reads a kind from the rules (to word its question, to check an
#: answer) takes it as the DecisionKind it is.
Kind: TypeAlias = Any

#: A pluggy hook caller: called with keyword arguments ``game`` and ``event``.
HookCall = Callable[..., Any]


class GameRules:
    """The definitions, abilities, kinds, observers and variant values of a game.

    Immutable: its attributes cannot be set or deleted, its mappings are read-only
    views of dicts only it holds, the rest are tuples, frozen sets and frozen values
    (a :class:`~oriflamme.core._cardsets.CardDef` is frozen). Bots (through an
    observation) and abilities (through ``game.rules``) read this very object.
    """

    __slots__ = (
        "abilities",
        "ability_keys",
        "ability_plugins",
        "characters",
        "definitions",
        "discard_after_use",
        "hook_plugins",
        "inert",
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
    abilities: Mapping[str, CardAbility]
    inert: CardAbility  # the ability of a card no plugin implements: it does nothing
    kinds: Mapping[str, Kind]
    observers: Mapping[type[Any], HookCall]  # event type -> the hook caller of its observers
    hook_plugins: Mapping[CodeType, str]  # an event hook's code -> its plugin
    variants: Mapping[str, VariantValue]
    plugins: tuple[tuple[str, str, str], ...]  # (plugin, distribution, version) in play
    ability_plugins: Mapping[str, str]  # card key -> the plugin implementing its ability
    # Derived for the hot path.
    reactions: Mapping[str, CardAbility]  # abilities that react to their own elimination
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
        abilities: Mapping[str, CardAbility],
        inert: CardAbility,
        reacting: Iterable[str],
        kinds: Mapping[str, Kind],
        variants: Mapping[str, VariantValue],
        observers: Mapping[type[Any], HookCall] | None = None,
        hook_plugins: Mapping[CodeType, str] | None = None,
        plugins: tuple[tuple[str, str, str], ...] = (),
        ability_plugins: Mapping[str, str] | None = None,
        ability_keys: Mapping[int, str] | None = None,
    ) -> None:
        """``inert`` is the ability of a card no plugin implements; ``reacting`` the keys
        of ``abilities`` that react to their own elimination (the registry knows an
        :class:`~oriflamme.Ability` that does). ``ability_keys`` None: found from
        ``abilities`` (a copy whose abilities are wrapped gives those of the rules it
        copies: continuations name the originals)."""
        # Every mapping is copied into a dict only this table holds, behind a read-only
        # view: what a caller passed in and goes on changing is not these rules. Set
        # through object (compiled, a direct store): to everyone else the attributes are
        # read-only.
        object.__setattr__(self, "sets", tuple(sets))
        object.__setattr__(self, "definitions", MappingProxyType(dict(definitions)))
        object.__setattr__(self, "abilities", MappingProxyType(dict(abilities)))
        object.__setattr__(self, "inert", inert)
        object.__setattr__(self, "kinds", MappingProxyType(dict(kinds)))
        object.__setattr__(self, "variants", MappingProxyType(dict(variants)))
        object.__setattr__(self, "observers", MappingProxyType(dict(observers or {})))
        object.__setattr__(self, "hook_plugins", MappingProxyType(dict(hook_plugins or {})))
        object.__setattr__(self, "plugins", tuple(plugins))
        object.__setattr__(self, "ability_plugins", MappingProxyType(dict(ability_plugins or {})))
        object.__setattr__(
            self,
            "reactions",
            MappingProxyType({key: abilities[key] for key in sorted(reacting)}),
        )
        object.__setattr__(
            self,
            "discard_after_use",
            frozenset(k for k, d in definitions.items() if d.discard_after_use),
        )
        object.__setattr__(
            self, "characters", frozenset(k for k, d in definitions.items() if d.is_character)
        )
        modes = MappingProxyType({k: d.reveal_tokens for k, d in definitions.items()})
        object.__setattr__(self, "reveal_tokens", modes)
        object.__setattr__(
            self,
            "shuffled",
            frozenset(k for k, d in definitions.items() if d.setup is Setup.SHUFFLED),
        )
        object.__setattr__(
            self, "tokens_gained", frozenset(k for k, m in modes.items() if m is RevealTokens.GAIN)
        )
        object.__setattr__(
            self,
            "tokens_doubled",
            frozenset(k for k, m in modes.items() if m is RevealTokens.DOUBLE),
        )
        object.__setattr__(
            self, "tokens_kept", frozenset(k for k, m in modes.items() if m is RevealTokens.ABILITY)
        )
        if ability_keys is None:
            keys: dict[int, str] = {}
            for key, ability in sorted(abilities.items()):
                keys.setdefault(id(ability), key)
            ability_keys = keys
        object.__setattr__(self, "ability_keys", MappingProxyType(dict(ability_keys)))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        # One table serves every game of its registry, and their bots and abilities:
        # a change made through any of them would change all the others' rules.
        raise AttributeError(f"a game's rules cannot be changed (GameRules.{name})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a game's rules cannot be changed (GameRules.{name})")

    def __reduce__(self) -> NoReturn:
        # Its abilities, kinds and hook callers are the plugins' own code and objects.
        raise TypeError(
            "a game's rules do not pickle: name them by their sets, variants and cards, "
            "and make them again from a registry of the same plugins (Registry.rules)"
        )

    def ability(self, key: str) -> CardAbility:
        """The ability of card ``key`` (a card nobody implements does nothing)."""
        abilities = self.abilities
        # Compiled, a read-only view's get is a method call; `in` and [] are not.
        return abilities[key] if key in abilities else self.inert  # noqa: SIM401

    def hook_plugin(self, error: BaseException) -> str:
        """The plugin whose event hook raised ``error``, from its traceback ('?' if none)."""
        found = "?"
        trace = error.__traceback__
        while trace is not None:
            found = self.hook_plugins.get(trace.tb_frame.f_code, found)
            trace = trace.tb_next
        return found
