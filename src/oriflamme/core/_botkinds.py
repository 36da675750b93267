"""Kinds of bot: what the ``register_bot_kinds`` hook returns, and how a setting's
value is read from text.

A bot kind has a name (``heuristic``), one line of help, the settings it takes (each
with a type, a default, bounds and help) and ``make``, called as ``make(rng,
registry, **settings)`` to build one bot: ``rng`` is the :class:`random.Random` its
choices must flow from (shared with the game's deal in a simulation, so each game
replays from its seed), ``registry`` the game's :class:`~oriflamme.Registry`, and
every setting is given, at its default where the person chose none. A bot is any
object with ``choose(observation) -> answer`` (see :mod:`oriflamme.bots`).

The built-in kinds live in :mod:`oriflamme.bots.kinds`; this module only holds the
values plugins build, so that the core does not depend on the bots.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from ._bounds import MAX_INT
from ._cardsets import KEY_RULE, is_key
from ._errors import ConfigError, PluginError
from ._shown import quote
from ._yamlfile import show

SettingValue = int | float | str
#: The bot kinds that ship with oriflamme: no plugin may take their names.
BUILTIN_BOT_KINDS = ("random", "heuristic", "learned", "ismcts")
#: The most settings one bot kind may take.
MAX_SETTINGS = 32
#: The most characters a word setting's value may have.
MAX_WORD = 100
#: The largest bound a number setting may have, either side of 0: that of every
#: whole number the engine keeps.
MAX_BOUND = MAX_INT


@attrs.frozen
class BotSetting:
    """One setting of a bot kind: ``name=value`` after the kind's name.

    ``type`` is ``int``, ``float`` or ``str``; a number lies between ``low`` and
    ``high`` (inclusive, None: unbounded); a ``str`` is one of ``choices`` if any are
    given. ``default`` is of ``type``, or None for a setting that is off unless chosen.
    """

    name: str
    type: type[Any]
    default: SettingValue | None
    help: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None

    def parse(self, text: str, kind: str) -> SettingValue:
        """The value ``text`` stands for, or :class:`ConfigError` saying what is expected."""
        written = text.strip()
        where = f"bot {kind!r}: setting {self.name!r}"
        if self.type is str:
            if self.choices and written not in self.choices:
                raise ConfigError(
                    f"{where} is one of {', '.join(self.choices)}, not {quote(written)}"
                )
            if not written or len(written) > MAX_WORD or not written.isprintable():
                raise ConfigError(f"{where} is a word of 1 to {MAX_WORD} characters")
            return written
        value: int | float
        try:
            if self.type is int:
                if not (written.isascii() and written.lstrip("+-").isdigit()) or len(written) > 20:
                    raise ValueError(written)
                value = int(written)
            else:
                if not written.isascii() or len(written) > 30:
                    raise ValueError(written)
                value = float(written)
                if not math.isfinite(value):
                    raise ValueError(written)
        except ValueError:
            what = "a whole number" if self.type is int else "a number"
            raise ConfigError(f"{where} is {what}, not {quote(written)}") from None
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise ConfigError(f"{where} is {self.bounds()}, not {written}")
        return value

    def bounds(self) -> str:
        """The values it takes, in words."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        low = "" if self.low is None else _number(self.low, self.type)
        high = "" if self.high is None else _number(self.high, self.type)
        if low and high:
            return f"from {low} to {high}"
        if low:
            return f"at least {low}"
        if high:
            return f"at most {high}"
        return "any number" if self.type is not str else "a word"


@attrs.frozen
class BotKind:
    """A kind of bot a person may choose: ``--bots NAME`` (see the module's text)."""

    name: str
    help: str
    make: Callable[..., Any]
    settings: tuple[BotSetting, ...] = ()
    plugin: str = ""  # the plugin that registered it ("" for a built-in kind)

    def setting(self, name: str) -> BotSetting:
        for setting in self.settings:
            if setting.name == name:
                return setting
        known = ", ".join(s.name for s in self.settings) or "none"
        raise ConfigError(f"bot {self.name!r} has no setting {quote(name)} (settings: {known})")

    def defaults(self) -> dict[str, SettingValue | None]:
        return {setting.name: setting.default for setting in self.settings}


def check_bot_kind(given: object, plugin: str) -> BotKind:
    """``given``, returned by ``plugin``'s ``register_bot_kinds``, checked field by field:
    a :class:`PluginError` says what is wrong (the plugin is then left out)."""
    if not isinstance(given, BotKind):
        raise PluginError(f"register_bot_kinds must return BotKind objects, not {show(given)}")
    name = given.name
    if not is_key(name):
        raise PluginError(
            f"register_bot_kinds: a bot kind's name must be {KEY_RULE}, not {show(name)}"
        )
    where = f"register_bot_kinds: bot kind {name!r}"
    if name in BUILTIN_BOT_KINDS:
        raise PluginError(f"{where} is built in; a plugin's bot kind needs a name of its own")
    if type(given.help) is not str:
        raise PluginError(f"{where}: 'help' must be a string, not {show(given.help)}")
    if not callable(given.make):
        raise PluginError(f"{where}: 'make' must be callable, not {show(given.make)}")
    settings = given.settings
    if not isinstance(settings, list | tuple) or len(settings) > MAX_SETTINGS:
        raise PluginError(
            f"{where}: 'settings' must be a list of at most {MAX_SETTINGS} BotSetting "
            f"objects, not {show(settings)}"
        )
    checked = tuple(_bot_setting(setting, where) for setting in settings)
    names = [s.name for s in checked]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PluginError(f"{where}: setting {twice[0]!r} is given twice")
    return attrs.evolve(given, settings=checked, plugin=plugin)


def _bot_setting(given: object, where: str) -> BotSetting:
    if not isinstance(given, BotSetting):
        raise PluginError(f"{where}: a setting must be a BotSetting, not {show(given)}")
    name = given.name
    if not is_key(name):
        raise PluginError(f"{where}: a setting's name must be {KEY_RULE}, not {show(name)}")
    kind = given.type
    if kind not in (int, float, str):
        raise PluginError(f"{where}: setting {name!r}: 'type' must be int, float or str")
    if type(given.help) is not str:
        raise PluginError(f"{where}: setting {name!r}: 'help' must be a string")
    choices = given.choices
    if not isinstance(choices, tuple) or not all(type(c) is str and c for c in choices):
        raise PluginError(f"{where}: setting {name!r}: 'choices' must be a tuple of words")
    for bound in (given.low, given.high):
        if bound is not None and (type(bound) not in (int, float) or abs(bound) > MAX_BOUND):
            raise PluginError(f"{where}: setting {name!r}: a bound must be a number or None")
    default = given.default
    if default is not None:
        ok = type(default) is kind or (kind is float and type(default) is int)
        if not ok or (choices and default not in choices):
            raise PluginError(
                f"{where}: setting {name!r}: the default {show(default)} is not a value it takes"
            )
    return given


def _number(value: float, kind: type[Any]) -> str:
    return str(int(value)) if kind is int or value == int(value) else str(value)
