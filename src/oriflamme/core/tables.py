"""Collecting what plugins provide into tables keyed by name, once per registry.

Each plugin's contribution (card sets, abilities, variants, decision kinds) is read on
its own, through pluggy (a hook caller that leaves the other plugins out), so pluggy's
tracing sees every call: a plugin whose hook fails or whose card YAML is malformed is
left out and reported, and the others still load. Two plugins that claim the same
card set, card key, ability, variant or decision kind are an error naming both:
neither can be chosen silently. Everything is ordered by plugin name, never by
registration.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import CodeType
from typing import Any

import attrs
import pluggy

from .ability import Ability
from .cardsets import CardDef, CardSet
from .errors import OriflammeError, PluginError
from .events import EVENT_TYPES
from .events import HOOKS as EVENT_HOOKS
from .kinds import BUILTIN_KINDS, DecisionKind
from .variants import Variant, VariantValue


@attrs.frozen
class Contribution:
    """What one plugin provides, and which hooks it implements."""

    plugin: str
    sets: tuple[CardSet, ...] = ()
    abilities: Mapping[str, Ability] = attrs.field(factory=dict)
    variants: tuple[Variant, ...] = ()
    kinds: tuple[DecisionKind, ...] = ()
    hooks: tuple[str, ...] = ()


@attrs.frozen
class Tables:
    sets: Mapping[str, CardSet]
    cards: Mapping[str, CardDef]
    abilities: Mapping[str, Ability]
    ability_plugins: Mapping[str, str]  # card key -> the plugin that implements it
    variants: Mapping[str, Variant]
    kinds: Mapping[str, DecisionKind]
    observers: Mapping[type[Any], Any]  # event type -> pluggy hook caller of its observers
    hook_plugins: Mapping[CodeType, str]  # event hook implementation's code -> plugin
    observing: frozenset[str]  # plugins that implement an event hook
    contributions: Mapping[str, Contribution]
    left_out: Mapping[str, str]  # plugin -> why it was left out

    @classmethod
    def collect(cls, manager: pluggy.PluginManager) -> Tables:
        names = sorted(name for name, plugin in manager.list_name_plugin() if plugin is not None)
        contributions: dict[str, Contribution] = {}
        left_out: dict[str, str] = {}
        for name in names:
            try:
                contributions[name] = _contribution(manager, name, names)
            except OriflammeError as exc:
                left_out[name] = f"plugin {name!r} was left out: {exc}"
        for name in left_out:
            manager.unregister(name=name)  # its event hooks must not run either
        sets: dict[str, CardSet] = {}
        cards: dict[str, CardDef] = {}
        abilities: dict[str, Ability] = {}
        ability_plugins: dict[str, str] = {}
        variants: dict[str, Variant] = {}
        kinds: dict[str, DecisionKind] = {kind.name: kind for kind in BUILTIN_KINDS}
        kind_plugins: dict[str, str] = dict.fromkeys(kinds, "oriflamme")
        for name, part in contributions.items():
            for card_set in part.sets:
                if card_set.name in sets:
                    raise PluginError(
                        f"card set {card_set.name!r} is provided by both plugin "
                        f"{sets[card_set.name].plugin!r} and {name!r}"
                    )
                sets[card_set.name] = card_set
                for card in card_set.cards:
                    if card.key in cards:
                        other = sets[cards[card.key].set]
                        raise PluginError(
                            f"card {card.key!r} is provided by both set {other.name!r} "
                            f"(plugin {other.plugin!r}) and set {card_set.name!r} "
                            f"(plugin {name!r})"
                        )
                    cards[card.key] = card
            for key, ability in part.abilities.items():
                if key in abilities:
                    raise PluginError(
                        f"the ability of card {key!r} is provided by both plugin "
                        f"{ability_plugins[key]!r} and {name!r}; a plugin that changes "
                        "another's card implements replace_abilities"
                    )
                abilities[key] = ability
                ability_plugins[key] = name
            for variant in part.variants:
                if variant.name in variants:
                    raise PluginError(
                        f"variant {variant.name!r} is declared by both plugin "
                        f"{variants[variant.name].plugin!r} and {name!r}"
                    )
                variants[variant.name] = variant
            for asked in part.kinds:
                if asked.name in kinds:
                    raise PluginError(
                        f"decision kind {asked.name!r} is provided by both "
                        f"{kind_plugins[asked.name]!r} and plugin {name!r}"
                    )
                kinds[asked.name] = asked
                kind_plugins[asked.name] = name
        observers: dict[type[Any], Any] = {}
        hook_plugins: dict[CodeType, str] = {}
        observing: set[str] = set()
        for kind, hook in EVENT_HOOKS.items():
            caller = getattr(manager.hook, hook)
            impls = caller.get_hookimpls()
            if impls:
                observers[EVENT_TYPES[kind]] = caller
                for impl in impls:
                    observing.add(impl.plugin_name)
                    code = getattr(impl.function, "__code__", None)
                    if code is not None:
                        hook_plugins[code] = impl.plugin_name
        return cls(
            sets=sets,
            cards=cards,
            abilities=abilities,
            ability_plugins=ability_plugins,
            variants=variants,
            kinds=kinds,
            observers=observers,
            hook_plugins=hook_plugins,
            observing=frozenset(observing),
            contributions=contributions,
            left_out=left_out,
        )

    def replacements(
        self, manager: pluggy.PluginManager, variants: Mapping[str, VariantValue]
    ) -> dict[str, tuple[str, Ability]]:
        """The abilities plugins replace for a game with ``variants``: key -> (plugin, ability)."""
        replaced: dict[str, tuple[str, Ability]] = {}
        for name in self.contributions:
            if "replace_abilities" not in self.contributions[name].hooks:
                continue
            given = _call(manager, name, "replace_abilities", variants=dict(variants)) or {}
            if not isinstance(given, Mapping):
                raise PluginError(f"plugin {name!r}: replace_abilities must return a mapping")
            for key, ability in given.items():
                if key not in self.abilities:
                    raise PluginError(
                        f"plugin {name!r} replaces the ability of {key!r}, which no plugin provides"
                    )
                if key in replaced:
                    raise PluginError(
                        f"the ability of {key!r} is replaced by both plugin "
                        f"{replaced[key][0]!r} and {name!r}"
                    )
                if not isinstance(ability, Ability):
                    raise PluginError(
                        f"plugin {name!r}: the replacement ability of {key!r} "
                        "must be an oriflamme.Ability"
                    )
                replaced[key] = (name, ability)
        return replaced


def _implemented(manager: pluggy.PluginManager, name: str) -> tuple[str, ...]:
    plugin = manager.get_plugin(name)
    return tuple(sorted(caller.name for caller in manager.get_hookcallers(plugin) or ()))


def _contribution(manager: pluggy.PluginManager, name: str, names: list[str]) -> Contribution:
    hooks = _implemented(manager, name)
    sets = tuple(
        _read_set(path, name) for path in _sequence(manager, name, "register_card_sets", hooks)
    )
    abilities: dict[str, Ability] = {}
    if "register_abilities" in hooks:
        given = _call(manager, name, "register_abilities") or {}
        if not isinstance(given, Mapping):
            raise PluginError(
                f"register_abilities must return a mapping of card key to Ability, "
                f"not {type(given).__name__}"
            )
        abilities = dict(given)
    for key, ability in abilities.items():
        if not isinstance(ability, Ability):
            raise PluginError(
                f"the ability of {key!r} must be an oriflamme.Ability, not {type(ability).__name__}"
            )
    variants = []
    for variant in _sequence(manager, name, "register_variants", hooks):
        if not isinstance(variant, Variant):
            raise PluginError(f"register_variants must return Variants, not {variant!r}")
        variants.append(attrs.evolve(variant, plugin=name))
    kinds = []
    for kind in _sequence(manager, name, "register_decision_kinds", hooks):
        if not isinstance(kind, DecisionKind) or not kind.name:
            raise PluginError(
                f"register_decision_kinds must return named DecisionKind objects, not {kind!r}"
            )
        kinds.append(kind)
    return Contribution(
        plugin=name,
        sets=sets,
        abilities=abilities,
        variants=tuple(variants),
        kinds=tuple(kinds),
        hooks=hooks,
    )


def _sequence(
    manager: pluggy.PluginManager, name: str, hook: str, hooks: tuple[str, ...]
) -> tuple[Any, ...]:
    if hook not in hooks:
        return ()
    given = _call(manager, name, hook) or ()
    if isinstance(given, str | bytes) or not hasattr(given, "__iter__"):
        raise PluginError(f"{hook} must return a list, not {type(given).__name__}")
    return tuple(given)


def _call(manager: pluggy.PluginManager, name: str, hook: str, **arguments: Any) -> Any:
    """Call one plugin's implementation of ``hook``, through pluggy."""
    others = [p for n, p in manager.list_name_plugin() if n != name and p is not None]
    caller = manager.subset_hook_caller(hook, remove_plugins=others)
    try:
        results = caller(**arguments)
    except OriflammeError as exc:
        raise PluginError(f"hook {hook}: {exc}") from None
    except Exception as exc:
        raise PluginError(f"failed in hook {hook}: {type(exc).__name__}: {exc}") from exc
    return results[0] if results else None


def _read_set(path: Any, plugin: str) -> CardSet:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, AttributeError, UnicodeDecodeError) as exc:
        raise PluginError(f"cannot read card set {path}: {exc}") from None
    try:
        return CardSet.from_yaml(text, path=str(path), plugin=plugin)
    except OriflammeError as exc:
        raise PluginError(str(exc)) from None
