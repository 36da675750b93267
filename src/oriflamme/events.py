"""The events a game records and plugins observe (each through its hook, named in
:data:`HOOKS`: ``card_placed`` for ``placed``, ``game_started``...; see
docs/plugins.md), the table of their types by name, and their JSON form."""

from .core import (
    EVENT_TYPES,
    HOOKS,
    Activated,
    Applied,
    Bribed,
    Discarded,
    Eliminated,
    Event,
    Gained,
    GameEnded,
    GameStarted,
    Lost,
    Moved,
    Placed,
    Revealed,
    RoundEnded,
    RoundStarted,
    Stolen,
    TokenAdded,
    event_to_dict,
)

__all__ = [
    "EVENT_TYPES",
    "HOOKS",
    "Activated",
    "Applied",
    "Bribed",
    "Discarded",
    "Eliminated",
    "Event",
    "Gained",
    "GameEnded",
    "GameStarted",
    "Lost",
    "Moved",
    "Placed",
    "Revealed",
    "RoundEnded",
    "RoundStarted",
    "Stolen",
    "TokenAdded",
    "event_to_dict",
]
