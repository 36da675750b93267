"""Collecting what plugins provide into tables keyed by name, once per registry.

Each plugin's contribution (card sets, abilities, variants, observers) is read on
its own: a plugin whose hook fails or whose card YAML is malformed is left out
and reported, and the others still load. Two plugins that claim the same card
set, card key, ability or variant are an error naming both: neither can be
chosen silently. Everything is ordered by plugin name, never by registration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import pluggy

from . import hookspecs
from .ability import Ability
from .cardsets import CardDef, CardSet
from .errors import OriflammeError, PluginError
from .variants import Variant, VariantValue

#: An observer: (plugin name, hook name, function taking game and event).
Observer = tuple[str, str, Callable[[Any, Any], Any]]


@attrs.frozen
class Contribution:
    """What one plugin provides, and which hooks it implements."""

    plugin: str
    sets: tuple[CardSet, ...] = ()
    abilities: Mapping[str, Ability] = attrs.field(factory=dict)
    variants: tuple[Variant, ...] = ()
    hooks: tuple[str, ...] = ()


@attrs.frozen
class Tables:
    sets: Mapping[str, CardSet]
    cards: Mapping[str, CardDef]
    abilities: Mapping[str, Ability]
    ability_plugins: Mapping[str, str]  # card key -> the plugin that implements it
    variants: Mapping[str, Variant]
    observers: Mapping[str, tuple[Observer, ...]]  # event kind -> observers
    replacers: tuple[tuple[str, Any], ...]  # (plugin, replace_abilities implementation)
    contributions: Mapping[str, Contribution]
    left_out: Mapping[str, str]  # plugin -> why it was left out

    @classmethod
    def collect(cls, manager: pluggy.PluginManager) -> Tables:
        impls = _impls_by_plugin(manager)
        contributions: dict[str, Contribution] = {}
        left_out: dict[str, str] = {}
        for name in sorted(impls):
            try:
                contributions[name] = _contribution(name, impls[name])
            except OriflammeError as exc:
                left_out[name] = f"plugin {name!r} was left out: {exc}"
        sets: dict[str, CardSet] = {}
        cards: dict[str, CardDef] = {}
        abilities: dict[str, Ability] = {}
        ability_plugins: dict[str, str] = {}
        variants: dict[str, Variant] = {}
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
        observers: dict[str, tuple[Observer, ...]] = {}
        for kind, hook in hookspecs.EVENT_HOOKS.items():
            found = tuple(
                _observer(name, hook, impls[name][hook])
                for name in contributions
                if hook in impls[name]
            )
            if found:
                observers[kind] = found
        replacers = tuple(
            (name, impls[name]["replace_abilities"])
            for name in contributions
            if "replace_abilities" in impls[name]
        )
        return cls(
            sets=sets,
            cards=cards,
            abilities=abilities,
            ability_plugins=ability_plugins,
            variants=variants,
            observers=observers,
            replacers=replacers,
            contributions=contributions,
            left_out=left_out,
        )

    def replacements(self, variants: Mapping[str, VariantValue]) -> dict[str, tuple[str, Ability]]:
        """The abilities plugins replace for a game with ``variants``: key -> (plugin, ability)."""
        replaced: dict[str, tuple[str, Ability]] = {}
        for name, impl in self.replacers:
            given = _call(impl, "replace_abilities", variants=dict(variants)) or {}
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


def _impls_by_plugin(manager: pluggy.PluginManager) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {
        name: {} for name, plugin in manager.list_name_plugin() if plugin is not None
    }
    for hook in hookspecs.HOOKS:
        for impl in getattr(manager.hook, hook).get_hookimpls():
            found[impl.plugin_name][hook] = impl
    return found


def _contribution(name: str, impls: Mapping[str, Any]) -> Contribution:
    sets = tuple(
        _read_set(path, name)
        for path in _call(impls.get("register_card_sets"), "register_card_sets") or ()
    )
    abilities = dict(_call(impls.get("register_abilities"), "register_abilities") or {})
    for key, ability in abilities.items():
        if not isinstance(ability, Ability):
            raise PluginError(
                f"plugin {name!r}: the ability of {key!r} must be an "
                f"oriflamme.Ability, not {type(ability).__name__}"
            )
    variants = tuple(
        attrs.evolve(v, plugin=name)
        for v in _call(impls.get("register_variants"), "register_variants") or ()
    )
    return Contribution(
        plugin=name, sets=sets, abilities=abilities, variants=variants, hooks=tuple(sorted(impls))
    )


def _call(impl: Any, hook: str, **arguments: Any) -> Any:
    if impl is None:
        return None
    try:
        # pluggy lets an implementation take a subset of the arguments, by name.
        return impl.function(**{name: arguments[name] for name in impl.argnames})
    except OriflammeError as exc:
        raise PluginError(f"plugin {impl.plugin_name!r}, hook {hook}: {exc}") from None
    except Exception as exc:
        raise PluginError(
            f"plugin {impl.plugin_name!r} failed in hook {hook}: {type(exc).__name__}: {exc}"
        ) from exc


def _observer(plugin: str, hook: str, impl: Any) -> Observer:
    if impl.hookwrapper or impl.wrapper:
        raise PluginError(
            f"plugin {plugin!r}: hook {hook} cannot be a wrapper "
            "(event hooks run in the order of plugin names)"
        )
    function = impl.function
    names = tuple(impl.argnames)
    if names == ("game", "event"):
        return plugin, hook, function

    def call(game: Any, event: Any) -> Any:
        values = {"game": game, "event": event}
        return function(**{name: values[name] for name in names})

    return plugin, hook, call


def _read_set(path: Any, plugin: str) -> CardSet:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, AttributeError) as exc:
        raise PluginError(f"plugin {plugin!r}: cannot read card set {path}: {exc}") from None
    try:
        return CardSet.from_yaml(text, path=str(path), plugin=plugin)
    except OriflammeError as exc:
        raise PluginError(f"plugin {plugin!r}: {exc}") from None
