"""What happens in a game, as records: the event log, and what observers receive.

The engine appends each event to the game's log as a plain tuple (its kind, then
its fields in order): cheap enough to keep on every game. :func:`event_from_record`
turns a record into the typed event below. Plugins observe the events named in
:mod:`oriflamme.core.hookspecs`; the others are in the log for people and views.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

Record = tuple[Any, ...]


@attrs.frozen
class Event:
    kind: ClassVar[str] = ""

    def record(self) -> Record:
        return (self.kind, *attrs.astuple(self, recurse=False))


@attrs.frozen
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    first_player: str
    cards: tuple[str, ...]


@attrs.frozen
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int
    first_player: str


@attrs.frozen
class Placed(Event):
    """``card`` was placed by ``family`` at queue index ``position``.

    ``on`` is the card it now covers (a stack), or None for a new position.
    """

    kind: ClassVar[str] = "placed"
    family: str
    card: str
    position: int
    on: str | None
    face_up: bool


@attrs.frozen
class TokenAdded(Event):
    """The owner of face-down ``card`` did not reveal it: 1 token was put on it."""

    kind: ClassVar[str] = "token_added"
    card: str
    family: str
    position: int
    tokens: int


@attrs.frozen
class Revealed(Event):
    """``family`` revealed ``card``; ``tokens`` were on it and ``gained`` came from them."""

    kind: ClassVar[str] = "revealed"
    card: str
    family: str
    tokens: int
    gained: int


@attrs.frozen
class Eliminated(Event):
    """``card`` was eliminated by card ``by`` (None: by no card).

    ``owner`` owned it when it was eliminated; ``tokens`` were on it and went back
    to the supply; ``face_down`` says whether it was face down.
    """

    kind: ClassVar[str] = "eliminated"
    card: str
    by: str | None
    owner: str
    tokens: int
    face_down: bool


@attrs.frozen
class Discarded(Event):
    """``card`` left play into a pile (``pile`` is ``discarded`` or ``eliminated``)."""

    kind: ClassVar[str] = "discarded"
    card: str
    owner: str
    pile: str


@attrs.frozen
class Moved(Event):
    """``card`` moved from queue index ``source`` to index ``to``."""

    kind: ClassVar[str] = "moved"
    card: str
    source: int
    to: int
    face_up: bool


@attrs.frozen
class Gained(Event):
    """``family`` gained ``amount`` Influence from ``card`` (None: from no card)."""

    kind: ClassVar[str] = "gained"
    family: str
    amount: int
    card: str | None


@attrs.frozen
class Lost(Event):
    """``family`` lost ``amount`` Influence to the supply because of ``card``."""

    kind: ClassVar[str] = "lost"
    family: str
    amount: int
    card: str | None


@attrs.frozen
class Stolen(Event):
    """``thief`` took ``amount`` Influence from ``victim`` with ``card``."""

    kind: ClassVar[str] = "stolen"
    thief: str
    victim: str
    amount: int
    card: str | None


@attrs.frozen
class Bribed(Event):
    """``family``'s Bribery token was put on ``card``, which it now owns."""

    kind: ClassVar[str] = "bribed"
    card: str
    family: str


@attrs.frozen
class RoundEnded(Event):
    kind: ClassVar[str] = "round_ended"
    round: int


@attrs.frozen
class GameEnded(Event):
    """The game is over: final ``scores`` (Influence) and the ``winners``."""

    kind: ClassVar[str] = "game_ended"
    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameStarted,
        RoundStarted,
        Placed,
        TokenAdded,
        Revealed,
        Eliminated,
        Discarded,
        Moved,
        Bribed,
        Gained,
        Lost,
        Stolen,
        RoundEnded,
        GameEnded,
    )
}


def event_from_record(record: Record) -> Event:
    """The typed event for one log record."""
    return EVENT_TYPES[record[0]](*record[1:])
