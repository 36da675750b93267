"""oriflamme: a rules engine for the card game Oriflamme and its expansion Ablaze.

The public API lives here; everything else is implementation.

>>> from oriflamme import Game, GameConfig, Registry
>>> game = Game.new(GameConfig(families=("red", "blue", "green"), seed=7),
...                 registry=Registry(entry_points=False))
>>> game.decision.family, game.decision.kind
('blue', 'place')
"""

from typing import TYPE_CHECKING

from .core import (
    COLOURS,
    ENTRY_POINT_GROUP,
    FAMILY_PATTERN,
    FIRST,
    LAST,
    PHASES,
    PILES,
    Ability,
    AbilityError,
    Answer,
    At,
    BotKind,
    BotSetting,
    Budget,
    CardDataError,
    CardDef,
    CardId,
    CardSet,
    CardType,
    ConfigError,
    Decision,
    DecisionKind,
    DeterminiseError,
    Effects,
    Event,
    Game,
    GameConfig,
    GameRules,
    IllegalAnswer,
    Observation,
    OriflammeError,
    Placement,
    Placements,
    PluginError,
    Position,
    PositionError,
    QueueCard,
    Registry,
    RevealTokens,
    SaveError,
    SettingValue,
    Setup,
    SharedKind,
    Variant,
    builtin_plugins,
    hookimpl,
    hookspec,
    languages,
)

__all__ = [
    "COLOURS",
    "ENTRY_POINT_GROUP",
    "FAMILY_PATTERN",
    "FIRST",
    "LAST",
    "PHASES",
    "PILES",
    "Ability",
    "AbilityError",
    "Answer",
    "At",
    "BotKind",
    "BotSetting",
    "Budget",
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
    "GameRules",
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
    "RevealTokens",
    "SaveError",
    "SettingValue",
    "Setup",
    "SharedKind",
    "Variant",
    "builtin_plugins",
    "hookimpl",
    "hookspec",
    "languages",
]

#: Names a program may still use from before the public surface, and where they went.
_MOVED = {
    "Words": "oriflamme.text.Naming (what a kind's words are handed) or oriflamme.text.Words",
    "describe": "oriflamme.text (view_lines, question_text, answer_text, table)",
    "story": "oriflamme.text (Story, story_lines)",
}


# Hidden from type checkers: to them the module has its names only, and a misspelt
# one stays an error they report.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """An old name is refused with where it went (docs/migration.md lists them all)."""
        if name in _MOVED:
            raise AttributeError(
                f"oriflamme.{name} is gone: use {_MOVED[name]} (see docs/migration.md)"
            )
        raise AttributeError(f"module 'oriflamme' has no attribute {name!r}")
