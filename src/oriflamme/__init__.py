"""oriflamme: a rules engine for the card game Oriflamme and its expansion Ablaze.

The public API lives here; everything else is implementation.

>>> from oriflamme import Game, GameConfig, Registry
>>> game = Game.new(GameConfig(families=("red", "blue", "green"), seed=7),
...                 registry=Registry(entry_points=False))
>>> game.decision.family, game.decision.kind
('blue', 'place')
"""

from .core.ability import Ability
from .core.cardsets import CardDef, CardSet, CardType
from .core.config import GameConfig
from .core.decisions import Answer, Decision, Placement
from .core.errors import (
    AbilityError,
    CardDataError,
    ConfigError,
    IllegalAnswer,
    OriflammeError,
    PluginError,
    PositionError,
    SaveError,
)
from .core.events import Event
from .core.game import Game
from .core.hookspecs import hookimpl, hookspec
from .core.plugins import Registry
from .core.variants import Variant
from .core.views import CardView, View

__all__ = [
    "Ability",
    "AbilityError",
    "Answer",
    "CardDataError",
    "CardDef",
    "CardSet",
    "CardType",
    "CardView",
    "ConfigError",
    "Decision",
    "Event",
    "Game",
    "GameConfig",
    "IllegalAnswer",
    "OriflammeError",
    "Placement",
    "PluginError",
    "PositionError",
    "Registry",
    "SaveError",
    "Variant",
    "View",
    "hookimpl",
    "hookspec",
]
