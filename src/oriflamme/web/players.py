"""Who plays a seat: a person (with a secret link), a bot level (``hard``, which stands
for a bot kind with settings) or one of the installed bot kinds (those `oriflamme bots`
lists, a plugin's included), with its settings: ``ismcts:iterations=2000``.

A server bounds what its bots may be asked to do (``serve --bot-iterations`` and
``--bot-seconds``): a setting named ``iterations`` or ``seconds``, of any kind, over
the server's cap is refused, saying the cap. A kind with an ``iterations`` setting
always has a count of games to search, within the cap: a choice with ``seconds``
alone, or whose default count is over the cap, is stored with the cap written in
(``ismcts:seconds=1:iterations=2000``), so each of its decisions is bounded by a
count, and a restarted server plays it as the first did.
"""

from __future__ import annotations

import random

from oriflamme import ConfigError, OriflammeError, Registry, SettingValue

from ..bots import Bot, BotChoice, parse_bot
from ..bots import bot_kinds as kinds
from ..bots import make_bot as make
from ..bots.ismcts import ITERATIONS
from ..bots.kinds import MAX_CHOICE
from ..bots.levels import LEVELS
from .limits import Limits, option

PERSON = "person"
#: The limits of a server started with no options.
DEFAULT_LIMITS = Limits()


def bot_kinds(registry: Registry) -> list[str]:
    """The bot kinds a seat may be given."""
    return sorted(kinds(registry))


def bot_levels(registry: Registry, limits: Limits = DEFAULT_LIMITS) -> list[dict[str, str]]:
    """The bot levels a seat may be given, weakest first, with the bot each one is: those
    within the server's ``limits`` (all of them unless its caps are lowered)."""
    offered = []
    for level in LEVELS:
        try:
            check_bot(level.name, "", registry, limits=limits)
        except ConfigError:
            continue
        offered.append({"name": level.name, "bot": level.choice, "help": level.help})
    return offered


def check_bot(
    text: object, family: str, registry: Registry, *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The bot ``text`` names, as the game stores it, if it names a bot kind with
    settings it accepts within the server's ``limits``, else a :class:`ConfigError`
    that says what is wrong (see the module's text for the caps)."""
    if type(text) is not str:
        raise ConfigError(f"bots.{family}: a bot kind is a text such as 'random', not {text!r:.40}")
    try:
        choice = parse_bot(text, registry)
    except OriflammeError as exc:
        raise ConfigError(f"bots.{family}: {exc}") from exc
    caps = {"iterations": limits.bot_iterations, "seconds": limits.bot_seconds}
    kind = choice.kind
    offered = {setting.name: setting for setting in kind.settings}
    for name, cap in caps.items():
        value = choice.settings.get(name)
        if isinstance(value, int | float) and name in offered and value > cap:
            level = "" if choice.level is None else f"level {choice.level} is {choice.written}: "
            raise ConfigError(
                f"bots.{family}: {level}{kind.name} {name} at most {_number(cap)} on this "
                f"server, not {_number(value)} (serve {option('bot_' + name)} raises it)"
            )
    added: dict[str, SettingValue] = {}
    for name, cap in caps.items():
        setting = offered.get(name)
        if setting is None or name in choice.settings or setting.type not in (int, float):
            continue
        default = setting.default
        if name == "iterations" and default is None and kind.name == "ismcts" and not kind.plugin:
            default = ITERATIONS  # what the built-in search runs with no budget chosen
        seconds_alone = name == "iterations" and "seconds" in choice.settings
        if seconds_alone or (isinstance(default, int | float) and default > cap):
            added[name] = setting.type(cap)
    if not added:
        return text
    # A level takes no settings: the cap is written into the choice it stands for.
    written = text if choice.level is None else choice.written
    return _written(written, choice, added, family, registry)


def _written(
    text: str,
    choice: BotChoice,
    added: dict[str, SettingValue],
    family: str,
    registry: Registry,
) -> str:
    """``text`` with the settings ``added`` written in (as the person wrote the rest)."""
    written = text.strip() + "".join(f":{name}={_number(value)}" for name, value in added.items())
    if len(written) > MAX_CHOICE:
        written = BotChoice(choice.kind, {**choice.settings, **added}).text
    try:
        parse_bot(written, registry)  # a kind whose bounds leave out the cap
    except OriflammeError as exc:
        raise ConfigError(
            f"bots.{family}: {choice.kind.name} cannot be bounded by this server's caps: {exc}"
        ) from exc
    return written


def make_bot(text: str, registry: Registry, rng: random.Random) -> Bot:
    """A bot of the choice ``text`` for games of ``registry``, its choices flowing from
    ``rng``: the server seeds it from the game's seed, the family and the step."""
    return make(text, registry=registry, seed=rng)


def _number(value: SettingValue) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
