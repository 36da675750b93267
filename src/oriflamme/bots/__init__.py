"""Bots: players that answer decisions from their own family's observation only.

A bot is any object with ``choose(observation) -> answer``. It receives the
:class:`~oriflamme.Observation` of its family (plain data, no link to the game), whose
``decision`` is the one it must answer; one of ``decision.options`` is what it returns.
"""

from .advice import CardAdvice
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .play import Bot, Totals, bot_seed, play_games, play_out
from .random import RandomBot, random_bots
from .reading import Table

__all__ = [
    "Bot",
    "CardAdvice",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "Table",
    "Totals",
    "bot_seed",
    "play_games",
    "play_out",
    "random_bots",
]
