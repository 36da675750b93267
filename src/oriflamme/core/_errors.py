"""The errors the engine raises. Each names what was wrong and what was expected."""

from __future__ import annotations


class OriflammeError(Exception):
    """Base class of every error the engine raises on purpose."""


class CardDataError(OriflammeError):
    """A card YAML file is malformed or inconsistent (the message names file and line)."""


class PluginError(OriflammeError):
    """A plugin failed to load, or two plugins claim the same set, card or variant."""


class AbilityError(PluginError):
    """A plugin's code raised while an answer was applied; the answer was taken back."""


class ConfigError(OriflammeError):
    """A game configuration cannot make a game (unknown set, wrong number of families...)."""


class IllegalAnswer(OriflammeError):
    """An answer the pending decision does not allow; the game is left as it was."""


class PositionError(OriflammeError):
    """A position (a scenario's `state`) that breaks a rule of the game."""


class SaveError(OriflammeError):
    """A saved game that cannot be loaded."""
