"""What happens in a game, as typed values: the event log, and what plugins observe.

Every event is an immutable named tuple whose last field is its ``kind``. The engine
emits each one in one place (:meth:`Effects._emit`): it goes into the game's log (when
the game keeps one) and, through pluggy, to every plugin that implements its hook
(:data:`HOOKS`). The log keeps each event as its type and fields, and makes the typed
event when the log is read: a game whose log nobody reads pays almost nothing for it.
Cards are named by their ids, which tell nothing about a hidden card, so every event
may be shown to every family: an observation says which keys a family knows (see
:mod:`.observation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

from .identity import CardId

# Each event's ``kind`` is its last field, with its one value as default: events of
# two kinds never compare equal, and the kind travels with the event's fields.


class GameStarted(NamedTuple):
    """A new game was set up: hands dealt, ``first_player`` chosen; ``cards`` is its card list."""

    first_player: str
    cards: tuple[str, ...]
    kind: Literal["game_started"] = "game_started"


class RoundStarted(NamedTuple):
    """Round ``round`` (1 to 6) begins; its placement phase is next."""

    round: int
    first_player: str
    kind: Literal["round_started"] = "round_started"


class Placed(NamedTuple):
    """``family`` put ``card`` into the queue at index ``position``.

    ``on`` is the card it now covers (a stack), or None for a new position;
    ``face_up`` is False for a placement from hand, True for a card put in face up
    (a Twin, an Impersonation's replacement).
    """

    family: str
    card: CardId
    position: int
    on: CardId | None
    face_up: bool
    kind: Literal["placed"] = "placed"


class TokenAdded(NamedTuple):
    """The owner of face-down ``card`` did not reveal it: it now carries ``tokens``."""

    card: CardId
    family: str
    position: int
    tokens: int
    kind: Literal["token_added"] = "token_added"


class Revealed(NamedTuple):
    """``family`` revealed ``card``; ``tokens`` were on it and ``gained`` came from them."""

    card: CardId
    family: str
    tokens: int
    gained: int
    kind: Literal["revealed"] = "revealed"


class Eliminated(NamedTuple):
    """``card`` was eliminated by card ``by`` (None: by no card).

    ``owner`` owned it then; ``tokens`` were on it and went back to the supply;
    ``face_down`` says whether it was face down (it is turned face up, RULINGS R5).
    """

    card: CardId
    by: CardId | None
    owner: str
    tokens: int
    face_down: bool
    kind: Literal["eliminated"] = "eliminated"


class Discarded(NamedTuple):
    """``card`` left the queue into a pile (``pile``: ``discarded`` or ``eliminated``)."""

    card: CardId
    owner: str
    pile: str
    kind: Literal["discarded"] = "discarded"


class Moved(NamedTuple):
    """``card`` moved from queue index ``source`` to index ``to`` (its index once moved)."""

    card: CardId
    source: int
    to: int
    face_up: bool
    kind: Literal["moved"] = "moved"


class Gained(NamedTuple):
    """``family`` gained ``amount`` Influence because of ``card`` (None: no card)."""

    family: str
    amount: int
    card: CardId | None
    kind: Literal["gained"] = "gained"


class Lost(NamedTuple):
    """``family`` lost ``amount`` Influence to the supply because of ``card``."""

    family: str
    amount: int
    card: CardId | None
    kind: Literal["lost"] = "lost"


class Stolen(NamedTuple):
    """``thief`` took ``amount`` Influence from ``victim`` with ``card``."""

    thief: str
    victim: str
    amount: int
    card: CardId | None
    kind: Literal["stolen"] = "stolen"


class Bribed(NamedTuple):
    """``family``'s Bribery token was put on ``card``, which that family now owns."""

    card: CardId
    family: str
    kind: Literal["bribed"] = "bribed"


class RoundEnded(NamedTuple):
    """The resolution phase of round ``round`` is over."""

    round: int
    kind: Literal["round_ended"] = "round_ended"


class GameEnded(NamedTuple):
    """The game is over: final ``scores`` (Influence, seat order) and the ``winners``."""

    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    kind: Literal["game_ended"] = "game_ended"


Event = (
    GameStarted
    | RoundStarted
    | Placed
    | TokenAdded
    | Revealed
    | Eliminated
    | Discarded
    | Moved
    | Gained
    | Lost
    | Stolen
    | Bribed
    | RoundEnded
    | GameEnded
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls._field_defaults["kind"]: cls
    for cls in (
        GameStarted,
        RoundStarted,
        Placed,
        TokenAdded,
        Revealed,
        Eliminated,
        Discarded,
        Moved,
        Gained,
        Lost,
        Stolen,
        Bribed,
        RoundEnded,
        GameEnded,
    )
}

#: Each kind of event's type, and back.
EVENT_KINDS: dict[type[Any], str] = {cls: kind for kind, cls in EVENT_TYPES.items()}

#: The plugin hook that observes each kind of event (see :mod:`.hookspecs`).
HOOKS: dict[str, str] = {
    "game_started": "game_started",
    "round_started": "round_started",
    "placed": "card_placed",
    "token_added": "token_added",
    "revealed": "card_revealed",
    "eliminated": "card_eliminated",
    "discarded": "card_discarded",
    "moved": "card_moved",
    "gained": "influence_gained",
    "lost": "influence_lost",
    "stolen": "influence_stolen",
    "bribed": "card_bribed",
    "round_ended": "round_ended",
    "game_ended": "game_ended",
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data: its kind, then its fields by name."""
    data: dict[str, Any] = {"kind": event.kind}
    for name, value in zip(event._fields[:-1], event[:-1], strict=True):
        data[name] = _listed(value)
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event :func:`event_to_dict` wrote; a ``KeyError`` or ``TypeError`` if malformed."""
    cls = EVENT_TYPES[data["kind"]]
    fields = cls._fields[:-1]
    unknown = set(data) - {"kind", *fields}
    if unknown:
        raise TypeError(f"event {data['kind']!r} has no field {sorted(unknown)[0]!r}")
    event: Event = cls(*(_tupled(data[name]) for name in fields))
    return event


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(item) for item in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(item) for item in value)
    return value
