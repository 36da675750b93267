"""The registry: one pluggy plugin manager and the card sets, abilities and variants
its plugins provide.

There is no global plugin manager. A :class:`Registry` is created explicitly,
loads the built-in sets and (unless told not to) the third-party plugins found
under the entry-point group ``oriflamme``, and hands each game it creates a
:class:`~oriflamme.core.rules.GameRules` table built from them once. Whatever
order plugins are registered in, the tables come out the same: keys are unique
(a duplicate is an error) and observers are called in the order of plugin names.
"""

from __future__ import annotations

import importlib.metadata
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from . import hookspecs
from .ability import Ability
from .cardlist import card_list
from .cardsets import CardDef, CardSet
from .config import GameConfig
from .errors import ConfigError, OriflammeError, PluginError
from .rules import GameRules, Observer
from .variants import Variant, resolve_variants

ENTRY_POINT_GROUP = "oriflamme"
_RULES_CACHE_SIZE = 256


@attrs.frozen
class PluginInfo:
    """One registered plugin: its name and, if it came from a package, which and what version."""

    name: str
    distribution: str
    version: str


def builtin_plugins() -> list[tuple[str, object]]:
    """The sets that ship with ``oriflamme``, registered explicitly by name."""
    # Imported here: the built-in sets import the public `oriflamme` package,
    # exactly as a third-party plugin does, so they load after it.
    from ..expansions import ablaze, base  # noqa: PLC0415

    return [("ablaze", ablaze), ("base", base)]


class Registry:
    """The installed card sets, abilities and variants, from one plugin manager.

    ``entry_points=False`` leaves third-party plugins out (tests and benchmarks
    use it for a known set of rules); ``exclude`` leaves out plugins by name.
    Plugins that fail to load are reported in :attr:`problems`, not raised, so one
    broken package does not stop the others.
    """

    def __init__(
        self, *, builtins: bool = True, entry_points: bool = True, exclude: Iterable[str] = ()
    ) -> None:
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.problems: list[str] = []
        self._info: dict[str, PluginInfo] = {}
        self._tables: _Tables | None = None
        self._rules_cache: dict[tuple[Any, ...], GameRules] = {}
        self._shared: dict[tuple[Any, ...], GameRules] = {}
        excluded = set(exclude)
        if builtins:
            version = _own_version()
            for name, plugin in builtin_plugins():
                if name not in excluded:
                    self.register(plugin, name, distribution="oriflamme", version=version)
        if entry_points:
            self._load_entry_points(excluded)

    def register(
        self, plugin: object, name: str, *, distribution: str = "", version: str = ""
    ) -> None:
        """Register ``plugin`` (a module or object with hook implementations) as ``name``."""
        try:
            self.manager.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"plugin {name!r} cannot be registered: {exc}") from None
        self._info[name] = PluginInfo(name, distribution, version)
        self._tables = None
        self._rules_cache.clear()
        self._shared.clear()

    def _load_entry_points(self, excluded: set[str]) -> None:
        for ep in sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name
        ):
            if ep.name in excluded or self.manager.has_plugin(ep.name):
                continue
            dist = ep.dist
            try:
                plugin = ep.load()
                self.register(
                    plugin,
                    ep.name,
                    distribution=dist.name if dist else "",
                    version=dist.version if dist else "",
                )
            except Exception as exc:  # a broken plugin is reported, never fatal
                self.problems.append(
                    f"plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
                )

    @property
    def plugins(self) -> tuple[PluginInfo, ...]:
        """The registered plugins, by name."""
        return tuple(self._info[name] for name in sorted(self._info))

    def _collected(self) -> _Tables:
        if self._tables is None:
            self._tables = _Tables.collect(self.manager)
        return self._tables

    @property
    def sets(self) -> Mapping[str, CardSet]:
        """Every card set the plugins provide, by name."""
        return self._collected().sets

    @property
    def cards(self) -> Mapping[str, CardDef]:
        """Every card of every set, by key."""
        return self._collected().cards

    @property
    def abilities(self) -> Mapping[str, Ability]:
        """Every implemented ability, by card key."""
        return self._collected().abilities

    @property
    def variants(self) -> Mapping[str, Variant]:
        """Every declared rules variant, by name."""
        return self._collected().variants

    def set_cards(self, sets: Sequence[str]) -> tuple[str, ...]:
        """The keys of the cards of ``sets``, in set order; an unknown set is an error."""
        keys: list[str] = []
        for name in sets:
            card_set = self.sets.get(name)
            if card_set is None:
                known = ", ".join(sorted(self.sets)) or "none"
                raise ConfigError(f"unknown card set {name!r} (installed sets: {known})")
            keys.extend(card_set.keys)
        return tuple(keys)

    def card_list(self, config: GameConfig, rng: random.Random) -> tuple[str, ...]:
        """The card list of a new game from ``config``; a mix is drawn with ``rng``."""
        self.set_cards(config.sets)  # an unknown set is named here
        return card_list(
            self.sets, self.cards, config.sets, config.cards, size=config.size, rng=rng
        )

    def rules(
        self, cards: Sequence[str], sets: Sequence[str], variants: Mapping[str, object]
    ) -> GameRules:
        """The rules table for a game with card list ``cards`` from ``sets``.

        Tables are cached: games created with the same choices share one.
        """
        chosen = tuple(sorted(variants.items()))
        cache_key = (tuple(cards), tuple(sets), chosen)
        cached = self._rules_cache.get(cache_key)
        if cached is None:
            set_keys = set(self.set_cards(sets))
            extra = tuple(sorted(set(cards) - set_keys))
            # What does not depend on the card list is built once per choice of
            # sets and variants: a mix draws a new list for every game.
            shared_key = (tuple(sets), extra, chosen)
            shared = self._shared.get(shared_key)
            if shared is None:
                shared = self._shared[shared_key] = self._build(
                    set_keys | set(extra), sets, variants
                )
            cached = attrs.evolve(shared, cards=tuple(cards))
            if len(self._rules_cache) >= _RULES_CACHE_SIZE:
                # Keep the cache bounded: mixes draw many lists.
                self._rules_cache.pop(next(iter(self._rules_cache)))
            self._rules_cache[cache_key] = cached
        return cached

    def _build(
        self, keys: set[str], sets: Sequence[str], variants: Mapping[str, object]
    ) -> GameRules:
        tables = self._collected()
        unknown = sorted(keys - set(tables.cards))
        if unknown:
            raise ConfigError(f"unknown card {unknown[0]!r} (no installed set provides it)")
        return GameRules(
            cards=(),
            sets=tuple(sets),
            definitions={key: tables.cards[key] for key in sorted(keys)},
            abilities={
                key: tables.abilities[key] for key in sorted(keys) if key in tables.abilities
            },
            observers=tables.observers,
            variants=resolve_variants(tables.variants, variants),
            plugins=tuple((p.name, p.distribution, p.version) for p in self.plugins),
        )


def _own_version() -> str:
    try:
        return importlib.metadata.version("oriflamme")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def _impls(manager: pluggy.PluginManager, hook: str) -> list[Any]:
    # Sorted by plugin name: the tables, and the order observers run in, must not
    # depend on the order plugins were registered (pluggy calls last-registered first).
    caller = getattr(manager.hook, hook)
    return sorted(caller.get_hookimpls(), key=lambda impl: impl.plugin_name)


def _call(impl: Any, hook: str) -> Any:
    try:
        return impl.function()
    except OriflammeError as exc:
        raise PluginError(f"plugin {impl.plugin_name!r}, hook {hook}: {exc}") from None
    except Exception as exc:
        raise PluginError(
            f"plugin {impl.plugin_name!r} failed in hook {hook}: {type(exc).__name__}: {exc}"
        ) from exc


@attrs.frozen
class _Tables:
    sets: Mapping[str, CardSet]
    cards: Mapping[str, CardDef]
    abilities: Mapping[str, Ability]
    variants: Mapping[str, Variant]
    observers: Mapping[str, tuple[Observer, ...]]

    @classmethod
    def collect(cls, manager: pluggy.PluginManager) -> _Tables:
        sets: dict[str, CardSet] = {}
        cards: dict[str, CardDef] = {}
        for impl in _impls(manager, "register_card_sets"):
            for path in _call(impl, "register_card_sets") or ():
                card_set = _read_set(path, impl.plugin_name)
                if card_set.name in sets:
                    raise PluginError(
                        f"card set {card_set.name!r} is provided by both plugin "
                        f"{sets[card_set.name].plugin!r} and {impl.plugin_name!r}"
                    )
                sets[card_set.name] = card_set
                for card in card_set.cards:
                    if card.key in cards:
                        other = sets[cards[card.key].set]
                        raise PluginError(
                            f"card {card.key!r} is provided by both set {other.name!r} "
                            f"(plugin {other.plugin!r}) and set {card_set.name!r} "
                            f"(plugin {impl.plugin_name!r})"
                        )
                    cards[card.key] = card
        abilities: dict[str, Ability] = {}
        owners: dict[str, str] = {}
        for impl in _impls(manager, "register_abilities"):
            provided = _call(impl, "register_abilities") or {}
            for key, ability in provided.items():
                if key in abilities:
                    raise PluginError(
                        f"the ability of card {key!r} is provided by both plugin "
                        f"{owners[key]!r} and {impl.plugin_name!r}"
                    )
                if not isinstance(ability, Ability):
                    raise PluginError(
                        f"plugin {impl.plugin_name!r}: the ability of {key!r} "
                        "must be an oriflamme.Ability"
                    )
                abilities[key] = ability
                owners[key] = impl.plugin_name
        variants: dict[str, Variant] = {}
        for impl in _impls(manager, "register_variants"):
            for variant in _call(impl, "register_variants") or ():
                if variant.name in variants:
                    raise PluginError(
                        f"variant {variant.name!r} is declared by both plugin "
                        f"{variants[variant.name].plugin!r} and "
                        f"{impl.plugin_name!r}"
                    )
                variants[variant.name] = attrs.evolve(variant, plugin=impl.plugin_name)
        observers: dict[str, tuple[Observer, ...]] = {}
        for kind, hook in hookspecs.EVENT_HOOKS.items():
            found = tuple(_observer(impl, hook) for impl in _impls(manager, hook))
            if found:
                observers[kind] = found
        return cls(
            sets=sets, cards=cards, abilities=abilities, variants=variants, observers=observers
        )


def _observer(impl: Any, hook: str) -> Observer:
    if impl.hookwrapper or impl.wrapper:
        raise PluginError(
            f"plugin {impl.plugin_name!r}: hook {hook} cannot be a wrapper "
            "(event hooks run in the order of plugin names)"
        )
    function = impl.function
    names = tuple(impl.argnames)
    if names == ("game", "event"):
        return function  # type: ignore[no-any-return]

    # pluggy lets an implementation take a subset of the arguments, by name.
    def call(game: Any, event: Any) -> Any:
        values = {"game": game, "event": event}
        return function(**{name: values[name] for name in names})

    return call


def _read_set(path: Any, plugin: str) -> CardSet:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, AttributeError) as exc:
        raise PluginError(f"plugin {plugin!r}: cannot read card set {path}: {exc}") from None
    return CardSet.from_yaml(text, path=str(path), plugin=plugin)
