"""Bots: players that answer decisions from their own family's observation only.

A bot is any object with ``choose(observation) -> answer``. It receives the
:class:`~oriflamme.Observation` of its family (plain data, no link to the game), whose
``decision`` is the one it must answer; one of ``decision.options`` is what it returns.

The kinds of bot (``random``, ``heuristic``, ``ismcts`` and those plugins register) are
listed by :func:`bot_kinds` and built from a ``"kind:setting=value"`` text by
:func:`make_bot`; docs/bots.md describes each.
"""

from typing import TYPE_CHECKING

from oriflamme import BotKind, BotSetting

from .advice import CardAdvice
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .kinds import BotChoice, bot_kinds, make_bot, parse_bot, parse_bots
from .play import Bot, Totals, bot_seed, play_games, play_out
from .random import RandomBot, random_bots
from .reading import Reading

__all__ = [
    "Bot",
    "BotChoice",
    "BotKind",
    "BotSetting",
    "CardAdvice",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "Reading",
    "Totals",
    "bot_kinds",
    "bot_seed",
    "make_bot",
    "parse_bot",
    "parse_bots",
    "play_games",
    "play_out",
    "random_bots",
]


# Hidden from type checkers: to them the module has its names only, and a misspelt
# one stays an error they report.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """An old name is refused with where it went (docs/migration.md lists them all)."""
        if name == "Table":
            raise AttributeError(
                "oriflamme.bots.Table is now oriflamme.bots.Reading (see docs/migration.md)"
            )
        raise AttributeError(f"module 'oriflamme.bots' has no attribute {name!r}")
