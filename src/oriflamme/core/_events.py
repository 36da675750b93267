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

from ._errors import SaveError
from ._identity import CardId
from ._shown import short

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


class Activated(NamedTuple):
    """Face-up ``card``, owned by ``family``, is taking its turn in the resolution phase:
    its ability applies next (RULINGS R1; just after its :class:`Revealed` if it was
    revealed now).

    The events that follow, up to the next card's turn or the round's end, are what
    its turn did: none at all means its ability did nothing. A card applying another's
    ability (a Shapeshifter, a Plot) is still this card's turn.
    """

    card: CardId
    family: str
    kind: Literal["activated"] = "activated"


class Applied(NamedTuple):
    """Face-up ``card`` applies the ability of ``source``, a card in the queue, because
    the card whose turn it is says so: a Shapeshifter copying an adjacent card
    (``card`` is the Shapeshifter), a Plot activating a Character of its family
    (``card`` and ``source`` are that Character). The events that follow, up to the
    next :class:`Applied` or the end of the turn, are what that ability did.
    """

    card: CardId
    source: CardId
    kind: Literal["applied"] = "applied"


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
    | Activated
    | Applied
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
        Activated,
        Applied,
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
    "activated": "card_activated",
    "applied": "ability_applied",
    "round_ended": "round_ended",
    "game_ended": "game_ended",
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data: its kind, then its fields by name."""
    data: dict[str, Any] = {"kind": event.kind}
    for name, value in zip(event._fields[:-1], event[:-1], strict=True):
        data[name] = _listed(value)
    return data


#: The fields that name a family; the largest whole number and the longest text or
#: list an event read from outside may hold (a game's are far smaller).
FAMILY_FIELDS = frozenset({"family", "owner", "thief", "victim", "first_player"})
MAX_NUMBER = 10**6
MAX_TEXT = 1_000
MAX_ITEMS = 100


def event_from_dict(
    data: Mapping[str, Any],
    *,
    cards: int = MAX_NUMBER,
    families: tuple[str, ...] | None = None,
    where: str = "an event",
) -> Event:
    """The event :func:`event_to_dict` wrote, each field read by its exact type.

    Card ids must be below ``cards``; family names among ``families`` (when given);
    whole numbers from 0 to :data:`MAX_NUMBER`, texts and lists bounded. Anything
    else raises :class:`SaveError` naming the field of ``where`` (``log[3].card``).
    """
    if not isinstance(data, Mapping):
        raise SaveError(f"{where} must be an object, not a {type(data).__name__}")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if type(kind) is str else None
    if cls is None:
        raise SaveError(f"{where}.kind is {_short(kind)}, which is no kind of event")
    fields = cls._fields[:-1]
    for name in data:
        if name != "kind" and name not in fields:
            raise SaveError(f"{where} ({kind}) has no field {_short(name)}")
    values = []
    for name in fields:
        if name not in data:
            raise SaveError(f"{where} ({kind}) has no {name!r}")
        # As written (``from __future__ import annotations``): a string, or a
        # forward reference to one.
        annotation = cls.__annotations__[name]
        wanted = str(getattr(annotation, "__forward_arg__", annotation))
        values.append(
            _field(
                data[name], wanted, name, cards=cards, families=families, where=f"{where}.{name}"
            )
        )
    event: Event = cls(*values)
    return event


def _field(
    value: Any, wanted: str, name: str, *, cards: int, families: tuple[str, ...] | None, where: str
) -> Any:
    """One field of an event, of the type its annotation ``wanted`` names."""
    if wanted == "CardId | None" and value is None:
        return None
    if wanted in ("CardId", "CardId | None"):
        if type(value) is not int or not 0 <= value < cards:
            raise SaveError(f"{where} must be a card id from 0 to {cards - 1}, not {_short(value)}")
        return value
    if wanted == "int":
        return _number(value, where)
    if wanted == "bool":
        if type(value) is not bool:
            raise SaveError(f"{where} must be true or false, not {_short(value)}")
        return value
    if wanted == "str":
        if name == "pile" and value not in ("discarded", "eliminated"):
            raise SaveError(f"{where} must be discarded or eliminated, not {_short(value)}")
        return _text(value, where, families if name in FAMILY_FIELDS else None)
    if type(value) is not list or len(value) > MAX_ITEMS:
        raise SaveError(f"{where} must be a list of at most {MAX_ITEMS}, not {_short(value)}")
    if wanted == "tuple[str, ...]":
        named = families if name == "winners" else None
        return tuple(_text(item, f"{where}[{i}]", named) for i, item in enumerate(value))
    if wanted != "tuple[tuple[str, int], ...]":
        raise SaveError(f"{where} is of a type no event is read with ({wanted})")
    pairs = []
    for i, pair in enumerate(value):
        if type(pair) is not list or len(pair) != 2:
            raise SaveError(f"{where}[{i}] must be [family, Influence], not {_short(pair)}")
        pairs.append((_text(pair[0], f"{where}[{i}][0]", families), _number(pair[1], where)))
    return tuple(pairs)


def _number(value: object, where: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise SaveError(
            f"{where} must be a whole number from 0 to {MAX_NUMBER}, not {_short(value)}"
        )
    return value


def _text(value: object, where: str, families: tuple[str, ...] | None) -> str:
    if type(value) is not str or len(value) > MAX_TEXT:
        raise SaveError(f"{where} must be a short string, not {_short(value)}")
    if families is not None and value not in families:
        raise SaveError(f"{where} is {value!r}, not one of the families {', '.join(families)}")
    return value


def _short(value: object) -> str:
    """``value`` for a message about a save's event: a list or an object only named."""
    return short(value, named=(Mapping, list))


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(item) for item in value]
    return value
