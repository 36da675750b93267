"""Collecting what plugins provide, by name, once per registry.

Each plugin's contribution (card sets, abilities, variants, decision kinds) is read on
its own, through pluggy (a hook caller that leaves the other plugins out), so pluggy's
tracing sees every call: a plugin whose hook fails, returns a value of the wrong type
(checked type by type, with the bounds below) or gives a card file that cannot be read
is left out and reported, and the others still load. Two plugins that claim the same
card set, card key, ability, variant or decision kind are an error naming both:
neither can be chosen silently. Everything is ordered by plugin name, never by
registration.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import CodeType, MappingProxyType
from typing import Any

import attrs
import pluggy

from ._ability import Ability
from ._botkinds import BotKind, check_bot_kind
from ._bounds import MAX_INT
from ._cardsets import KEY_RULE, CardDef, CardSet, is_key
from ._errors import OriflammeError, PluginError
from ._events import EVENT_TYPES
from ._events import HOOKS as EVENT_HOOKS
from ._kinds import BUILTIN_KINDS, DecisionKind
from ._variants import Variant, VariantValue
from ._yamlfile import show

#: The most card-set files one plugin may provide: each is read and checked in full.
MAX_CARD_SETS = 64

#: The largest integer a variant may take, either side of 0: a variant's value is
#: saved with the game, so its bound is that of every whole number a game holds.
MAX_VARIANT_INT = MAX_INT

#: The longest text value of a variant: a word typed on the command line.
MAX_VARIANT_TEXT = 100


def _left_out(name: str, exc: Exception) -> str:
    if isinstance(exc, OriflammeError):
        return f"plugin {name!r} was left out: {exc}"
    # Whatever a plugin's own objects raise when they are looked at (a property, a
    # mapping whose items fail): still only that plugin's problem.
    return f"plugin {name!r} was left out: {type(exc).__name__}: {exc}"


def _read_only(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only view of a copy of ``mapping``: a registry hands its tables to every
    bot and caller, and a change made through one would change every later game."""
    return MappingProxyType(dict(mapping))


@attrs.frozen
class Contribution:
    """What one plugin provides, and which hooks it implements."""

    plugin: str
    sets: tuple[CardSet, ...] = ()
    abilities: Mapping[str, Ability] = attrs.field(factory=dict, converter=_read_only)
    variants: tuple[Variant, ...] = ()
    kinds: tuple[DecisionKind, ...] = ()
    bot_kinds: tuple[BotKind, ...] = ()
    hooks: tuple[str, ...] = ()


@attrs.frozen
class Provided:
    """What every plugin provides, by name; ``left_out`` says why a plugin is not in it.

    Its mappings are read-only copies (see :func:`_read_only`)."""

    sets: Mapping[str, CardSet] = attrs.field(converter=_read_only)
    cards: Mapping[str, CardDef] = attrs.field(converter=_read_only)
    abilities: Mapping[str, Ability] = attrs.field(converter=_read_only)
    # card key -> the plugin that implements it
    ability_plugins: Mapping[str, str] = attrs.field(converter=_read_only)
    variants: Mapping[str, Variant] = attrs.field(converter=_read_only)
    kinds: Mapping[str, DecisionKind] = attrs.field(converter=_read_only)
    # the plugins' bot kinds (the built-in ones apart)
    bot_kinds: Mapping[str, BotKind] = attrs.field(converter=_read_only)
    # event type -> pluggy hook caller of its observers
    observers: Mapping[type[Any], Any] = attrs.field(converter=_read_only)
    # event hook implementation's code -> plugin
    hook_plugins: Mapping[CodeType, str] = attrs.field(converter=_read_only)
    observing: frozenset[str]  # plugins that implement an event hook
    contributions: Mapping[str, Contribution] = attrs.field(converter=_read_only)
    left_out: Mapping[str, str] = attrs.field(converter=_read_only)  # plugin -> why it was left out

    @classmethod
    def collect(cls, manager: pluggy.PluginManager) -> Provided:
        names = sorted(name for name, plugin in manager.list_name_plugin() if plugin is not None)
        contributions: dict[str, Contribution] = {}
        left_out: dict[str, str] = {}
        for name in names:
            try:
                contributions[name] = _contribution(manager, name)
            except Exception as exc:
                left_out[name] = _left_out(name, exc)
        for name in [n for n, part in contributions.items() if "replace_abilities" in part.hooks]:
            try:
                _check_replacements(manager, name, contributions)
            except Exception as exc:
                left_out[name] = _left_out(name, exc)
                del contributions[name]
        for name in left_out:
            manager.unregister(name=name)  # its event hooks must not run either
        sets: dict[str, CardSet] = {}
        set_plugins: dict[str, str] = {}
        cards: dict[str, CardDef] = {}
        card_sets: dict[str, str] = {}  # card key -> its set and plugin, as a message names them
        abilities: dict[str, Ability] = {}
        ability_plugins: dict[str, str] = {}
        variants: dict[str, Variant] = {}
        variant_plugins: dict[str, str] = {}
        kinds: dict[str, DecisionKind] = {kind.name: kind for kind in BUILTIN_KINDS}
        kind_plugins: dict[str, str] = dict.fromkeys(kinds, "oriflamme")
        for name, part in contributions.items():
            for card_set in part.sets:
                _claim(set_plugins, card_set.name, name, _TWO_SETS)
                sets[card_set.name] = card_set
                for card in card_set.cards:
                    _claim(card_sets, card.key, f"{card_set.name!r} (plugin {name!r})", _TWO_CARDS)
                    cards[card.key] = card
            for key, ability in part.abilities.items():
                _claim(ability_plugins, key, name, _TWO_ABILITIES)
                abilities[key] = ability
            for variant in part.variants:
                _claim(variant_plugins, variant.name, name, _TWO_VARIANTS)
                variants[variant.name] = variant
            for asked in part.kinds:
                _claim(kind_plugins, asked.name, name, _TWO_KINDS)
                kinds[asked.name] = asked
        # Bot kinds once the rest are in: a clash in the rules' own tables is named first.
        bot_kinds: dict[str, BotKind] = {}
        bot_plugins: dict[str, str] = {}
        for name, part in contributions.items():
            for bot in part.bot_kinds:
                _claim(bot_plugins, bot.name, name, _TWO_BOT_KINDS)
                bot_kinds[bot.name] = bot
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
            bot_kinds=bot_kinds,
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
        replacing: dict[str, str] = {}  # card key -> the plugin that replaces its ability
        for name in self.contributions:
            if "replace_abilities" not in self.contributions[name].hooks:
                continue
            try:
                given = _abilities(
                    _call(manager, name, "replace_abilities", variants=dict(variants)),
                    "replace_abilities",
                )
            except OriflammeError as exc:
                raise PluginError(f"plugin {name!r}: {exc}") from None
            except Exception as exc:  # the plugin's own mapping failed as it was read
                raise PluginError(
                    f"plugin {name!r}: replace_abilities: {type(exc).__name__}: {exc}"
                ) from None
            for key, ability in given.items():
                if key not in self.abilities:
                    raise PluginError(
                        f"plugin {name!r} replaces the ability of {key!r}, which no plugin provides"
                    )
                _claim(replacing, key, name, _TWO_REPLACEMENTS)
                replaced[key] = (name, ability)
        return replaced


def _implemented(manager: pluggy.PluginManager, name: str) -> tuple[str, ...]:
    plugin = manager.get_plugin(name)
    return tuple(sorted(caller.name for caller in manager.get_hookcallers(plugin) or ()))


def _contribution(manager: pluggy.PluginManager, name: str) -> Contribution:
    """What plugin ``name`` provides, every value checked: a value of the wrong type
    raises :class:`PluginError` naming the hook and what it must return."""
    hooks = _implemented(manager, name)
    paths = _sequence(manager, name, "register_card_sets", hooks, "card-set files")
    if len(paths) > MAX_CARD_SETS:
        raise PluginError(
            f"register_card_sets returned {len(paths)} files (at most {MAX_CARD_SETS})"
        )
    sets = tuple(CardSet.read(path, plugin=name) for path in paths)
    _unique([s.name for s in sets], "register_card_sets: card set")
    _unique([key for s in sets for key in s.keys], "register_card_sets: card")
    abilities: dict[str, Ability] = {}
    if "register_abilities" in hooks:
        abilities = _abilities(_call(manager, name, "register_abilities"), "register_abilities")
    variants = tuple(
        _variant(given, name)
        for given in _sequence(manager, name, "register_variants", hooks, "Variant objects")
    )
    _unique([v.name for v in variants], "register_variants: variant")
    kinds = tuple(
        _kind(given)
        for given in _sequence(
            manager, name, "register_decision_kinds", hooks, "DecisionKind objects"
        )
    )
    _unique([k.name for k in kinds], "register_decision_kinds: decision kind")
    bots = tuple(
        check_bot_kind(given, name)
        for given in _sequence(manager, name, "register_bot_kinds", hooks, "BotKind objects")
    )
    _unique([b.name for b in bots], "register_bot_kinds: bot kind")
    return Contribution(
        plugin=name,
        sets=sets,
        abilities=abilities,
        variants=variants,
        kinds=kinds,
        bot_kinds=bots,
        hooks=hooks,
    )


def _check_replacements(
    manager: pluggy.PluginManager, name: str, contributions: Mapping[str, Contribution]
) -> None:
    """Call ``replace_abilities`` once with every variant at its default, so that a
    plugin whose hook fails or returns the wrong type is left out at once, not found
    out by every game."""
    defaults = {v.name: v.default for part in contributions.values() for v in part.variants}
    _abilities(_call(manager, name, "replace_abilities", variants=defaults), "replace_abilities")


# What two plugins claiming one name are told (see :func:`_claim`).
_TWO_SETS = "card set {key!r} is provided by both plugin {first!r} and {second!r}"
_TWO_CARDS = "card {key!r} is provided by both set {first} and set {second}"
_TWO_ABILITIES = (
    "the ability of card {key!r} is provided by both plugin {first!r} and {second!r}; "
    "a plugin that changes another's card implements replace_abilities"
)
_TWO_VARIANTS = "variant {key!r} is declared by both plugin {first!r} and {second!r}"
_TWO_KINDS = "decision kind {key!r} is provided by both {first!r} and plugin {second!r}"
_TWO_BOT_KINDS = "bot kind {key!r} is provided by both plugin {first!r} and {second!r}"
_TWO_REPLACEMENTS = "the ability of {key!r} is replaced by both plugin {first!r} and {second!r}"


def _claim(owners: dict[str, str], key: str, owner: str, conflict: str) -> None:
    """Give ``key`` to ``owner`` in ``owners``; a key another owner already has is a
    :class:`PluginError` naming both, ``conflict`` filled in with ``key``, ``first``
    (who has it) and ``second`` (``owner``): neither can be chosen silently."""
    if key in owners:
        raise PluginError(conflict.format(key=key, first=owners[key], second=owner))
    owners[key] = owner


def _unique(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for each in names:
        if each in seen:
            raise PluginError(f"{what} {each!r} is given twice")
        seen.add(each)


def _sequence(
    manager: pluggy.PluginManager, name: str, hook: str, hooks: tuple[str, ...], what: str
) -> tuple[Any, ...]:
    if hook not in hooks:
        return ()
    given = _call(manager, name, hook)
    if given is None:
        return ()
    # Only a list or a tuple: any other iterable may never end (a generator, a range).
    if not isinstance(given, list | tuple):
        raise PluginError(f"{hook} must return a list of {what}, not {show(given)}")
    return tuple(given)


def _abilities(given: object, hook: str) -> dict[str, Ability]:
    """The mapping a hook returned, checked: card keys to :class:`Ability` objects."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise PluginError(f"{hook} must return a mapping of card key to Ability, not {show(given)}")
    abilities: dict[str, Ability] = {}
    for key, ability in dict(given).items():
        if not is_key(key):
            raise PluginError(f"{hook}: a card key must be {KEY_RULE}, not {show(key)}")
        if not isinstance(ability, Ability):
            raise PluginError(
                f"{hook}: the ability of {key!r} must be an oriflamme.Ability, not {show(ability)}"
            )
        abilities[key] = ability
    return abilities


def _variant(given: object, plugin: str) -> Variant:
    if not isinstance(given, Variant):
        raise PluginError(f"register_variants must return Variant objects, not {show(given)}")
    name = given.name
    if not is_key(name):
        raise PluginError(
            f"register_variants: a variant's name must be {KEY_RULE}, not {show(name)}"
        )
    values = given.values
    if not isinstance(values, list | tuple) or not values:
        raise PluginError(
            f"register_variants: variant {name!r}: 'values' must be a non-empty tuple, "
            f"not {show(values)}"
        )
    for value in values:
        if not _is_variant_value(value):
            raise PluginError(
                f"register_variants: variant {name!r}: a value must be true, false, an "
                f"integer of at most {MAX_VARIANT_INT} in size or a short word of at most "
                f"{MAX_VARIANT_TEXT} characters, not {show(value)}"
            )
    default = given.default
    if not any(type(default) is type(value) and default == value for value in values):
        raise PluginError(
            f"register_variants: variant {name!r}: the default {show(default)} "
            f"is not one of its values {show(list(values))}"
        )
    if type(given.help) is not str:
        raise PluginError(
            f"register_variants: variant {name!r}: 'help' must be a string, not {show(given.help)}"
        )
    return attrs.evolve(given, values=tuple(values), plugin=plugin)


def _is_variant_value(value: object) -> bool:
    if type(value) is bool:
        return True
    if type(value) is int:
        return abs(value) <= MAX_VARIANT_INT
    return (
        type(value) is str
        and 0 < len(value) <= MAX_VARIANT_TEXT
        and value.isprintable()
        and value == value.strip()
    )


def _kind(given: object) -> DecisionKind:
    if not isinstance(given, DecisionKind):
        raise PluginError(
            "register_decision_kinds must return DecisionKind objects (instances of "
            f"DecisionKind subclasses), not {show(given)}"
        )
    name = given.name
    if not is_key(name):
        raise PluginError(
            f"register_decision_kinds: a kind's name must be {KEY_RULE}, not {show(name)}"
        )
    if name in _BUILTIN_KIND_NAMES:
        raise PluginError(
            f"register_decision_kinds: decision kind {name!r} is built in; "
            "a plugin's kind needs a name of its own"
        )
    if type(given.help) is not str:
        raise PluginError(
            f"register_decision_kinds: kind {name!r}: 'help' must be a string, "
            f"not {show(given.help)}"
        )
    if type(given.private_options) is not bool:
        raise PluginError(
            f"register_decision_kinds: kind {name!r}: 'private_options' must be True or "
            f"False, not {show(given.private_options)}"
        )
    return given


_BUILTIN_KIND_NAMES = frozenset(kind.name for kind in BUILTIN_KINDS)


def _call(manager: pluggy.PluginManager, name: str, hook: str, **arguments: Any) -> Any:
    """Call one plugin's implementation of ``hook``, through pluggy."""
    others = [p for n, p in manager.list_name_plugin() if n != name and p is not None]
    caller = manager.subset_hook_caller(hook, remove_plugins=others)
    try:
        results = caller(**arguments)
    except OriflammeError as exc:
        raise PluginError(f"hook {hook}: {exc}") from None
    # sys.exit() in a hook is a plugin's failure too: it must not end the command.
    except (Exception, SystemExit) as exc:
        raise PluginError(f"failed in hook {hook}: {type(exc).__name__}: {exc}") from exc
    return results[0] if results else None
