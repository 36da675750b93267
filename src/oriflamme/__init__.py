"""oriflamme: a rules engine for the card game Oriflamme and its expansion Ablaze.

The public API lives here; everything else is implementation.

>>> from oriflamme import Game, GameConfig, Registry
>>> game = Game.new(GameConfig(families=("red", "blue", "green"), seed=7),
...                 registry=Registry(entry_points=False))
>>> game.decision.family, game.decision.kind
('blue', 'place')
"""

from .core.ability import Ability
from .core.botkinds import BotKind, BotSetting
from .core.cardsets import CardDef, CardSet, CardType
from .core.config import GameConfig
from .core.decisions import Answer, Decision, Placement, Placements
from .core.determinise import DeterminiseError
from .core.effects import Effects
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
from .core.identity import CardId
from .core.kinds import DecisionKind, Words
from .core.observation import Observation
from .core.plugins import Registry
from .core.position import Position, QueueCard
from .core.variants import Variant

__all__ = [
    "Ability",
    "AbilityError",
    "Answer",
    "BotKind",
    "BotSetting",
    "CardDataError",
    "CardDef",
    "CardId",
    "CardSet",
    "CardType",
    "ConfigError",
    "Decision",
    "DecisionKind",
    "DeterminiseError",
    "Effects",
    "Event",
    "Game",
    "GameConfig",
    "IllegalAnswer",
    "Observation",
    "OriflammeError",
    "Placement",
    "Placements",
    "PluginError",
    "Position",
    "PositionError",
    "QueueCard",
    "Registry",
    "SaveError",
    "Variant",
    "Words",
    "hookimpl",
    "hookspec",
]
