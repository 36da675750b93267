"""Bot kinds by name: the built-in ones and those plugins register, and bots built from
a choice written as text, ``kind`` or ``kind:setting=value:setting=value``.

This is what ``--bots`` on the command line, ``oriflamme bots`` and a lobby's bot seats
use: :func:`bot_kinds` lists the kinds, :func:`parse_bot` reads a choice (refusing a
bad one with a :class:`~oriflamme.ConfigError` that says what is expected), and
:func:`make_bot` builds a bot from one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from oriflamme import (
    Answer,
    BotKind,
    BotSetting,
    ConfigError,
    Observation,
    PluginError,
    Registry,
    SettingValue,
)

from .heuristic import HeuristicBot
from .ismcts import EXPLORATION, ITERATIONS, PLAYOUTS, IsmctsBot
from .learned import LearnedBot
from .levels import levels
from .play import Bot
from .random import RandomBot

#: The built-in kinds that answer in microseconds, with no search: a simulation or a
#: ladder hands them out many games at a time, and a web table never queues a person
#: behind them.
QUICK_KINDS = frozenset({"random", "heuristic", "learned"})

#: The most characters of a bot choice (``ismcts:iterations=2000``).
MAX_CHOICE = 200


def _random(rng: random.Random, registry: Registry) -> Bot:
    return RandomBot(rng)


def _heuristic(rng: random.Random, registry: Registry) -> Bot:
    return HeuristicBot(rng)


def _learned(rng: random.Random, registry: Registry) -> Bot:
    return LearnedBot(rng)


def _ismcts(
    rng: random.Random,
    registry: Registry,
    *,
    iterations: int | None,
    seconds: float | None,
    playout: str,
    exploration: float,
) -> Bot:
    # A time budget alone bounds the search by time only; neither: the default count.
    if iterations is None and seconds is None:
        iterations = ITERATIONS
    return IsmctsBot(
        rng,
        registry=registry,
        iterations=iterations,
        seconds=seconds,
        playout=playout,
        exploration=exploration,
    )


BUILTIN: tuple[BotKind, ...] = (
    BotKind("random", "plays any legal answer, uniformly at random", _random),
    BotKind(
        "heuristic",
        "plays by a good player's rules of thumb for every base and Ablaze card",
        _heuristic,
    ),
    BotKind(
        "learned",
        "plays by the heuristic bot's scores, corrected by weights learned in games against it",
        _learned,
    ),
    BotKind(
        "ismcts",
        "searches: information-set Monte Carlo tree search over games dealt to fit "
        "what it has seen",
        _ismcts,
        (
            BotSetting(
                "iterations",
                int,
                None,
                f"games searched per decision (default {ITERATIONS}; none with seconds alone)",
                low=1,
                high=10_000_000,
            ),
            BotSetting(
                "seconds",
                float,
                None,
                "time budget per decision, in seconds (default none; not reproducible)",
                low=0.001,
                high=3600,
            ),
            BotSetting(
                "playout",
                str,
                "heuristic",
                "how searched games are played out past the tree",
                choices=PLAYOUTS,
            ),
            BotSetting(
                "exploration",
                float,
                EXPLORATION,
                "UCB's exploration constant",
                low=0,
                high=100,
            ),
        ),
    ),
)


# The built-in kinds whose bot is made by its class from the generator alone: a
# simulation, which makes one for every seat of every game, calls the class itself.
_BY_CLASS: dict[Callable[..., Any], Callable[[random.Random], Bot]] = {
    _random: RandomBot,
    _heuristic: HeuristicBot,
    _learned: LearnedBot,
}


def bot_kinds(registry: Registry | None = None) -> dict[str, BotKind]:
    """Every bot kind, by name: the built-in ones, then those of ``registry``'s plugins
    (a plugin whose hook fails is left out and named in ``registry.problems``)."""
    found = {kind.name: kind for kind in BUILTIN}
    if registry is not None:
        found.update(registry.bot_kinds)
    return found


@attrs.frozen
class BotChoice:
    """A bot kind and the settings chosen for it (the others at their defaults)."""

    kind: BotKind
    settings: Mapping[str, SettingValue] = attrs.field(factory=dict)
    #: The level (see :mod:`.levels`) this choice was named by, if it was: ``hard``.
    level: str | None = None

    @property
    def text(self) -> str:
        """The choice as it is written: ``ismcts:iterations=2000``, or its level's name."""
        if self.level is not None:
            return self.level
        return self.written

    @property
    def written(self) -> str:
        """The kind and settings, whatever level named them: ``ismcts:iterations=2000``."""
        chosen = "".join(f":{name}={_shown(value)}" for name, value in self.settings.items())
        return self.kind.name + chosen

    def make(self, rng: random.Random, registry: Registry) -> Bot:
        """One bot of this choice, its choices flowing from ``rng``.

        A plugin's bot that fails, as it is made or as it chooses, raises a
        :class:`~oriflamme.PluginError` naming the plugin and the bot kind."""
        settings: dict[str, Any] = {**self.kind.defaults(), **self.settings}
        kind = self.kind
        if not kind.plugin:
            built: Bot = kind.make(rng, registry, **settings)
            return built
        try:
            made = kind.make(rng, registry, **settings)
        except Exception as exc:
            raise _failed(kind, "making a bot", exc) from exc
        if not callable(getattr(made, "choose", None)):
            raise PluginError(
                f"bot kind {kind.name!r} of plugin {kind.plugin!r} made "
                f"{type(made).__name__!r}, which has no choose(observation) method"
            )
        return _Guarded(made, kind)

    def maker(self, registry: Registry) -> Callable[[random.Random], Bot]:
        """What makes this choice's bots: ``maker(rng)`` is ``make(rng, registry)``.

        A simulation makes a bot for every seat of every game: the settings are read
        once here rather than at each bot, and a built-in bot that needs nothing but the
        generator is made by its class alone."""
        kind = self.kind
        if kind.plugin:
            return functools.partial(self.make, registry=registry)
        by_class = _BY_CLASS.get(kind.make)
        if by_class is not None and not self.settings:
            return by_class
        settings: dict[str, Any] = {**kind.defaults(), **self.settings}
        return functools.partial(kind.make, registry=registry, **settings)


def parse_bot(text: str, registry: Registry | None = None) -> BotChoice:
    """The bot ``text`` names: ``kind``, ``kind:name=value:name=value`` or a level's
    name (``hard``, see :mod:`.levels`), which stands for its choice."""
    if len(text) > MAX_CHOICE:
        raise ConfigError(f"a bot choice is at most {MAX_CHOICE} characters, not {len(text)}")
    name, *parts = text.strip().split(":")
    level = levels().get(name.strip())
    if level is not None:
        if parts:
            raise ConfigError(
                f"bot level {level.name!r} takes no settings: it is {level.choice!r}, "
                "name that kind with settings instead"
            )
        return attrs.evolve(parse_bot(level.choice, registry), level=level.name)
    kinds = bot_kinds(registry)
    kind = kinds.get(name.strip())
    if kind is None:
        known = ", ".join(kinds)
        named = ", ".join(levels())
        raise ConfigError(
            f"unknown bot {_quote(name.strip())} (known bots: {known}); levels: {named}"
        )
    settings: dict[str, SettingValue] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep:
            raise ConfigError(
                f"bot {kind.name!r}: expected a setting as name=value, not {_quote(part)}"
            )
        setting = kind.setting(key.strip())
        if setting.name in settings:
            raise ConfigError(f"bot {kind.name!r}: setting {setting.name!r} is chosen twice")
        settings[setting.name] = setting.parse(value, kind.name)
    return BotChoice(kind, settings)


def parse_bots(
    texts: str | Sequence[str],
    count: int,
    registry: Registry | None = None,
    *,
    seats: str = "seats",
) -> tuple[BotChoice, ...]:
    """One bot choice for each of ``count`` seats from ``texts`` (a list of choices, or
    one text of them separated by commas, as ``--bots`` takes them): one for every
    seat, or one each (``seats`` names them in a refusal)."""
    if isinstance(texts, str):
        texts = texts.split(",")
    choices = tuple(parse_bot(text, registry) for text in texts)
    if len(choices) == 1:
        return choices * count
    if len(choices) != count:
        raise ConfigError(
            f"--bots names {len(choices)} bots for {count} {seats}: name 1 or {count}"
        )
    return choices


def make_bot(text: str, *, registry: Registry, seed: int | random.Random | None = None) -> Bot:
    """A bot of the choice ``text`` (see :func:`parse_bot`), its choices flowing from
    ``seed`` (or the generator given), for games of ``registry``'s rules."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    return parse_bot(text, registry).make(rng, registry)


class _Guarded:
    """A plugin's bot: whatever its ``choose`` raises is that plugin's failure, named."""

    def __init__(self, bot: Any, kind: BotKind) -> None:
        self._choose = bot.choose
        self._kind = kind

    def choose(self, observation: Observation) -> Answer:
        try:
            answer: Answer = self._choose(observation)
        except Exception as exc:
            raise _failed(self._kind, "choosing an answer", exc) from exc
        return answer


def _failed(kind: BotKind, doing: str, exc: Exception) -> PluginError:
    return PluginError(
        f"bot kind {kind.name!r} of plugin {kind.plugin!r} failed {doing}: "
        f"{type(exc).__name__}: {exc}"
    )


def _shown(value: SettingValue) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _quote(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
