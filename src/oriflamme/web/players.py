"""Who plays a seat: a person (with a secret link) or one of the installed bot kinds."""

from __future__ import annotations

import random

from ..bots import Bot
from ..core.errors import ConfigError
from ..core.plugins import Registry
from ..simulate import BOTS

PERSON = "person"


def bot_kinds(registry: Registry) -> list[str]:
    """The bot kinds a seat may be given, as `oriflamme simulate --bots` knows them."""
    return sorted(BOTS)


def check_bot(text: object, family: str, registry: Registry) -> str:
    """``text`` if it names a bot kind, else a :class:`ConfigError` saying which exist."""
    known = bot_kinds(registry)
    if type(text) is not str or text not in known:
        shown = repr(text)[:60]
        raise ConfigError(f"bots.{family}: {shown} is not a bot kind (known: {', '.join(known)})")
    return text


def make_bot(text: str, registry: Registry, rng: random.Random) -> Bot:
    return BOTS[text](rng)
