"""The events a game records and plugins observe (see :mod:`oriflamme.core.hookspecs`)."""

from .core.events import (
    Activated,
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
)

__all__ = [
    "Activated",
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
]
