"""Who plays a seat: a person (with a secret link) or one of the installed bot kinds
(those `oriflamme bots` lists, a plugin's included), with its settings:
``ismcts:iterations=2000``."""

from __future__ import annotations

import random

from ..bots import Bot, parse_bot
from ..bots import bot_kinds as kinds
from ..bots import make_bot as make
from ..core.errors import ConfigError, OriflammeError
from ..core.plugins import Registry

PERSON = "person"


def bot_kinds(registry: Registry) -> list[str]:
    """The bot kinds a seat may be given."""
    return sorted(kinds(registry))


def check_bot(text: object, family: str, registry: Registry) -> str:
    """``text`` if it names a bot kind (with settings it accepts), else a
    :class:`ConfigError` that says what is wrong."""
    if type(text) is not str:
        raise ConfigError(f"bots.{family}: a bot kind is a text such as 'random', not {text!r:.40}")
    try:
        parse_bot(text, registry)
    except OriflammeError as exc:
        raise ConfigError(f"bots.{family}: {exc}") from exc
    return text


def make_bot(text: str, registry: Registry, rng: random.Random) -> Bot:
    return make(text, registry=registry, seed=rng)
