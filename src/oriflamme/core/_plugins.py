"""The registry: one pluggy plugin manager and the card sets, abilities and variants
its plugins provide.

There is no global plugin manager. A :class:`Registry` is created explicitly,
loads the built-in sets and (unless told not to) the third-party plugins found
under the entry-point group ``oriflamme``, and hands each game it creates a
:class:`~oriflamme.core._rules.GameRules` table built from them once. Whatever
order plugins are registered in, what they provide comes out the same: keys are unique
(a duplicate is an error) and observers are called in the order of plugin names.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

# The module itself: pluggy reads the hook specifications from it.
import oriflamme.core._hookspecs as hookspecs

from ._ability import INERT, Ability, reacts_to_elimination
from ._botkinds import BotKind
from ._cardlist import card_list
from ._cardsets import CardDef, CardSet
from ._config import GameConfig
from ._errors import ConfigError, PluginError
from ._provided import Provided
from ._rules import GameRules
from ._variants import Variant, resolve_variants
from ._yamlfile import show

ENTRY_POINT_GROUP = "oriflamme"
_RULES_CACHE_SIZE = 256


@attrs.frozen
class PluginInfo:
    """One registered plugin: its name and, if it came from a package, which and what version."""

    name: str
    distribution: str
    version: str
    builtin: bool = False  # one of the sets that ship with oriflamme


#: The sets that ship with ``oriflamme``: plugins like any other, which the registry
#: loads by module name as it loads an installed plugin by its entry point. The engine
#: imports no plugin: the built-in sets import the public ``oriflamme`` package, as a
#: third-party plugin does, so they load after it.
BUILTIN_SETS: tuple[tuple[str, str], ...] = (
    ("ablaze", "oriflamme.expansions.ablaze"),
    ("base", "oriflamme.expansions.base"),
)


def builtin_plugins() -> list[tuple[str, object]]:
    """The sets that ship with ``oriflamme``, as (name, module)."""
    return [(name, importlib.import_module(module)) for name, module in BUILTIN_SETS]


def plugin_names() -> tuple[str, ...]:
    """The names of every plugin there is: built in, and installed (under the
    entry-point group ``oriflamme``, whether it loads or not), sorted."""
    installed = {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return tuple(sorted(installed | {name for name, _ in builtin_plugins()}))


def check_plugin_names(names: Iterable[str]) -> None:
    """Raise :class:`PluginError` for the first of ``names`` that is no plugin (see
    :func:`plugin_names`), naming the plugins there are: leaving out a plugin that
    does not exist is a mistake (a typo), not a choice to pass over in silence."""
    known = plugin_names()
    for name in names:
        if name not in known:
            raise PluginError(
                f"cannot leave out plugin {show(name)}: no plugin of that name "
                f"(plugins: {', '.join(known)})"
            )


class Registry:
    """The installed card sets, abilities and variants, from one plugin manager.

    ``entry_points=False`` leaves third-party plugins out (tests and benchmarks use it
    for a known set of rules); ``exclude`` leaves out plugins by name, each of which
    must be a plugin there is, built in or installed, or one registered by hand later
    with :meth:`register`: else the first use of the registry (its sets, cards,
    plugins, problems...) raises :class:`PluginError` naming it and the plugins there
    are. To refuse an unknown name at once, call :func:`check_plugin_names` first.
    Plugins that fail to load, or whose hooks fail or return what they must not (see
    :mod:`.hookspecs`), are left out and reported in :attr:`problems`, not raised, so
    one broken package does not stop the others.

    Plugins are registered with pluggy in reverse order of their names, so that pluggy
    (which calls the last registered first) calls event hooks in the order of plugin
    names whatever order they were registered in; ``tryfirst`` and ``trylast`` still
    apply.
    """

    def __init__(
        self, *, builtins: bool = True, entry_points: bool = True, exclude: Iterable[str] = ()
    ) -> None:
        self._load_problems: list[str] = []
        self._info: dict[str, PluginInfo] = {}
        self._plugins: dict[str, object] = {}
        self.manager = self._manager()
        self._provided: Provided | None = None
        self._rules_cache: dict[tuple[Any, ...], GameRules] = {}
        self._last: tuple[GameConfig, frozenset[str], GameRules] | None = None
        self._lists: dict[tuple[Any, ...], tuple[str, ...]] = {}
        excluded = set(exclude)
        # Checked when what they provide is first read, not here: a test may leave out a
        # name and then register its own plugin under it (oriflamme.testing does).
        self._unknown_excluded = sorted(set(excluded) - set(plugin_names())) if excluded else []
        if builtins:
            version = _own_version()
            for name, plugin in builtin_plugins():
                if name not in excluded:
                    self.register(
                        plugin, name, distribution="oriflamme", version=version, builtin=True
                    )
        if entry_points:
            self._load_entry_points(excluded)

    @staticmethod
    def _manager() -> pluggy.PluginManager:
        manager = pluggy.PluginManager(hookspecs.PROJECT)
        manager.add_hookspecs(hookspecs)
        return manager

    def register(
        self,
        plugin: object,
        name: str,
        *,
        distribution: str = "",
        version: str = "",
        builtin: bool = False,
    ) -> None:
        """Register ``plugin`` (a module or object with hook implementations) as ``name``."""
        if name in self._plugins:
            raise PluginError(f"plugin {name!r} cannot be registered: the name is taken")
        if getattr(plugin, "__hash__", None) is None:
            plugin = _Hashable(plugin)
        manager = self._manager()
        _check_hook_names(manager, plugin, name)
        plugins = {**self._plugins, name: plugin}
        try:
            for each in sorted(plugins, reverse=True):
                manager.register(plugins[each], name=each)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"plugin {name!r} cannot be registered: {exc}") from None
        self._plugins = plugins
        self.manager = manager
        self._info[name] = PluginInfo(name, distribution, version, builtin)
        self._provided = None
        self._last = None
        self._rules_cache.clear()
        self._lists.clear()

    def _load_entry_points(self, excluded: set[str]) -> None:
        for ep in sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name
        ):
            if ep.name in excluded or ep.name in self._plugins:
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
            # A broken plugin is reported, never fatal; even one that calls sys.exit()
            # while it is imported.
            except (Exception, SystemExit) as exc:
                why = f"{type(exc).__name__}: {exc}"
                own = f"plugin {ep.name!r}: "
                if isinstance(exc, PluginError) and str(exc).startswith(own):
                    why = str(exc)[len(own) :]  # the engine's own words, naming the plugin
                self._load_problems.append(f"plugin {ep.name!r} ({ep.value}) failed to load: {why}")

    @property
    def plugins(self) -> tuple[PluginInfo, ...]:
        """The plugins in play, by name (those left out for a problem are not)."""
        provided = self._collected()
        return tuple(self._info[n] for n in sorted(self._info) if n in provided.contributions)

    @property
    def loadable(self) -> frozenset[str]:
        """The plugins that declare, with the ``loadable_saves`` hook, that a saved game
        waiting on their work may be loaded (see ``oriflamme.saves``). Anything but ``True``
        declares nothing, and so does a hook that raises (or exits)."""
        self._collected()  # a plugin left out is unregistered: it declares nothing
        manager = self.manager
        declared = set()
        for impl in manager.hook.loadable_saves.get_hookimpls():
            others = [
                p for n, p in manager.list_name_plugin() if n != impl.plugin_name and p is not None
            ]
            caller = manager.subset_hook_caller("loadable_saves", remove_plugins=others)
            try:
                answers = caller()
            except (Exception, SystemExit):
                continue  # a declaration that fails declares nothing
            if answers and answers[0] is True:
                declared.add(impl.plugin_name)
        return frozenset(declared)

    @property
    def problems(self) -> list[str]:
        """Plugins that failed to load or were left out, each with its reason."""
        return [*self._load_problems, *self._collected().left_out.values()]

    def describe(self) -> list[dict[str, Any]]:
        """Each registered plugin as plain data: where it comes from, what it provides,
        the hooks it implements, and why it was left out if it was."""
        provided = self._collected()
        found = []
        for name in sorted(self._info):
            info = self._info[name]
            part = provided.contributions.get(name)
            hooks = list(part.hooks) if part else self._hooks_of(name)
            found.append(
                {
                    "name": name,
                    "distribution": info.distribution,
                    "version": info.version,
                    "builtin": info.builtin,
                    "sets": [s.name for s in part.sets] if part else [],
                    "cards": [k for s in part.sets for k in s.keys] if part else [],
                    "abilities": sorted(part.abilities) if part else [],
                    "bots": [b.name for b in part.bot_kinds] if part else [],
                    "variants": [
                        {
                            "name": v.name,
                            "values": list(v.values),
                            "default": v.default,
                            "help": v.help,
                        }
                        for v in part.variants
                    ]
                    if part
                    else [],
                    "hooks": hooks,
                    "problem": provided.left_out.get(name),
                }
            )
        return found

    def _hooks_of(self, name: str) -> list[str]:
        """The hooks plugin ``name`` implements (also one left out of what is provided)."""
        manager = self._manager()
        plugin = self._plugins[name]
        manager.register(plugin, name=name)
        return sorted(caller.name for caller in manager.get_hookcallers(plugin) or ())

    # Only for a name not found: an old one is refused with where it went. Hidden from
    # type checkers, to which a misspelt name stays an error.
    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> object:
            if name == "tables":
                raise AttributeError(
                    "Registry.tables is now Registry.provided (see docs/migration.md)"
                )
            raise AttributeError(f"'Registry' object has no attribute {name!r}")

    @property
    def provided(self) -> Provided:
        """What each plugin provides, collected once (see :mod:`._provided`)."""
        return self._collected()

    def _collected(self) -> Provided:
        if self._provided is None:
            unknown = [name for name in self._unknown_excluded if name not in self._plugins]
            if unknown:
                check_plugin_names(unknown)
            self._provided = Provided.collect(self.manager)
        return self._provided

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
    def bot_kinds(self) -> Mapping[str, BotKind]:
        """The bot kinds plugins register, by name (the built-in kinds are in
        :func:`oriflamme.bots.bot_kinds`, which lists them all)."""
        return self._collected().bot_kinds

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
                problems = "".join(f"; {p}" for p in self.problems)
                raise ConfigError(f"unknown card set {name!r} (installed sets: {known}){problems}")
            keys.extend(card_set.keys)
        return tuple(keys)

    def card_list(self, config: GameConfig, rng: random.Random) -> tuple[str, ...]:
        """The card list of a new game from ``config``; a mix is drawn with ``rng``."""
        drawn = config.cards is None and (len(config.sets) > 1 or config.size is not None)
        key = (config.sets, config.cards)
        if not drawn and key in self._lists:
            return self._lists[key]  # a set or an explicit list: the same every game
        self.set_cards(config.sets)  # an unknown set is named here
        chosen = card_list(
            self.sets, self.cards, config.sets, config.cards, size=config.size, rng=rng
        )
        if not drawn:
            self._lists[key] = chosen
        return chosen

    def rules(
        self,
        sets: Sequence[str],
        variants: Mapping[str, object],
        *,
        extra: Sequence[str] = (),
    ) -> GameRules:
        """The rules table for a game of ``sets`` with ``variants`` chosen.

        It covers every card of the sets, and the keys in ``extra`` from other sets
        (an explicit card list may name any installed card). Provided are cached:
        games made with the same choices share one, whatever card list each draws.
        """
        chosen = tuple(sorted(variants.items()))
        cache_key = (tuple(sets), tuple(extra), chosen)
        cached = self._rules_cache.get(cache_key)
        if cached is None:
            set_keys = set(self.set_cards(sets))
            outside = tuple(sorted(set(extra) - set_keys))
            wider = (tuple(sets), outside, chosen)
            cached = self._rules_cache.get(wider)
            if cached is None:
                cached = self._build(set_keys | set(outside), tuple(sets), variants)
                self._remember(wider, cached)
            self._remember(cache_key, cached)
        return cached

    def rules_for(self, config: GameConfig, cards: Sequence[str]) -> GameRules:
        """The rules table for a game of ``config`` whose card list is ``cards``.

        Remembers the last one: the games of one simulation share a configuration.
        """
        last = self._last
        if last is not None and last[0] is config and last[1].issuperset(cards):
            return last[2]
        rules = self.rules(config.sets, dict(config.variants), extra=cards)
        self._last = (config, frozenset(rules.definitions), rules)
        return rules

    def _remember(self, key: tuple[Any, ...], rules: GameRules) -> None:
        if len(self._rules_cache) >= _RULES_CACHE_SIZE:
            self._rules_cache.pop(next(iter(self._rules_cache)))  # keep it bounded
        self._rules_cache[key] = rules

    def _build(
        self, keys: set[str], sets: tuple[str, ...], variants: Mapping[str, object]
    ) -> GameRules:
        provided = self._collected()
        unknown = sorted(keys - set(provided.cards))
        if unknown:
            raise ConfigError(f"unknown card {unknown[0]!r} (no installed set provides it)")
        _check_abilities(provided, keys)
        values = resolve_variants(provided.variants, variants)
        abilities = {k: provided.abilities[k] for k in sorted(keys) if k in provided.abilities}
        providers = {k: provided.ability_plugins[k] for k in abilities}
        for key, (plugin, ability) in provided.replacements(self.manager, values).items():
            if key in abilities:
                abilities[key] = ability
                providers[key] = plugin
        # The plugins this game's rules come from: they are recorded in its saves.
        in_play = set(providers.values()) | set(provided.observing)
        in_play |= {provided.sets[provided.cards[key].set].plugin for key in keys}
        in_play |= {
            provided.variants[name].plugin
            for name, value in values.items()
            if value != provided.variants[name].default
        }
        in_play |= {
            name for name, part in provided.contributions.items() if part.kinds and name in in_play
        }
        return GameRules(
            sets=sets,
            definitions={key: provided.cards[key] for key in sorted(keys)},
            abilities=abilities,
            inert=INERT,
            reacting=[key for key, ability in abilities.items() if reacts_to_elimination(ability)],
            kinds=provided.kinds,
            variants=values,
            observers=provided.observers,
            hook_plugins=provided.hook_plugins,
            plugins=tuple(
                (p.name, p.distribution, p.version) for p in self.plugins if p.name in in_play
            ),
            ability_plugins=providers,
        )


def _check_abilities(provided: Provided, keys: set[str]) -> None:
    """Raise :class:`PluginError` for the first of ``keys`` no plugin gives an ability,
    naming its plugin and file: dealt, it would do nothing, in silence (a misspelt key
    in ``register_abilities``, say), where a card that does nothing says so with an
    ``Ability()`` of its own."""
    missing = sorted(keys - set(provided.abilities))
    if not missing:
        return
    card = provided.cards[missing[0]]
    plugin = provided.sets[card.set].plugin
    # An ability given for no card is the likely misspelling of this card's key.
    spare = sorted(set(provided.abilities) - set(provided.cards))
    close = difflib.get_close_matches(card.key, spare, n=1)
    hint = (
        f" (an ability is given for {close[0]!r}, which no set has: a misspelling?)"
        if close
        else ""
    )
    raise PluginError(
        f"plugin {plugin!r}: {card.source}: card {card.key!r} has no ability: no plugin's "
        f"register_abilities gives one for {card.key!r}{hint}; a card "
        "that does nothing is given an oriflamme.Ability() all the same"
    )


#: The hooks a plugin may implement: every hook specification of :mod:`._hookspecs`.
HOOK_NAMES: tuple[str, ...] = tuple(
    sorted(
        each
        for each in dir(hookspecs)
        if hasattr(getattr(hookspecs, each), f"{hookspecs.PROJECT}_spec")
    )
)


def _check_hook_names(manager: pluggy.PluginManager, plugin: object, name: str) -> None:
    """Raise :class:`PluginError` if ``plugin`` marks with ``oriflamme.hookimpl`` a
    function that is no hook: pluggy would keep it, and never call it, so that a
    misspelt ``register_ability`` deals cards that do nothing, in silence."""
    for attribute in dir(plugin):
        if attribute.startswith("_"):
            continue
        try:
            options = manager.parse_hookimpl_opts(plugin, attribute)
        except Exception:  # an attribute that fails to be read is no hook
            continue
        if options is None:
            continue
        hook = options.get("specname") or attribute
        if hook in HOOK_NAMES:
            continue
        close = difflib.get_close_matches(hook, HOOK_NAMES, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"the hooks: {', '.join(HOOK_NAMES)}"
        function = getattr(plugin, attribute, None)
        code = getattr(function, "__code__", None)
        where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
        raise PluginError(
            f"plugin {name!r}: {hook!r}{where} is marked with oriflamme.hookimpl but is no "
            f"hook of oriflamme; {hint}"
        )


class _Hashable:
    """An unhashable plugin object (a ``SimpleNamespace``, say) as pluggy sees it: pluggy
    keeps plugins in sets when it calls one plugin's hook alone (see :mod:`._provided`).
    Its public attributes are copied over, where pluggy looks for hook implementations."""

    def __init__(self, plugin: object) -> None:
        for name in dir(plugin):
            if not name.startswith("_"):
                setattr(self, name, getattr(plugin, name))


def _own_version() -> str:
    try:
        return importlib.metadata.version("oriflamme")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"
