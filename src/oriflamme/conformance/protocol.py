"""The engine protocol (docs/engine-protocol.md): its messages, shared by both ends.

A runner drives an engine by requests, one JSON object a line, each answered by one
reply line. Everything a message holds is in the scenario notation of docs/scenarios.md
(families, card ids, queues, answers), so that an engine written in any language
needs only those two pages. This module encodes and decodes the lines, and reads a
position back from an engine (:class:`Table`) with every value's type checked: an
engine's reply is input like any other, never trusted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any, NoReturn

import attrs

from oriflamme import OriflammeError, Position
from oriflamme.yamlfile import show

from .model import ANSWER_FORMS, ZONES, CardEntry
from .scenario import SHAPES

#: The version of the protocol this module speaks (the ``hello`` request names it).
PROTOCOL_VERSION = 1

#: The longest line either end accepts, in bytes, newline included (1 MiB): a full
#: game's state is about 2 KB.
MAX_LINE = 1 << 20

#: How long the runner waits for each reply, in seconds.
TIMEOUT = 10.0

# The error codes of a reply (docs/engine-protocol.md, "Errors").
BAD_REQUEST = "bad_request"  # not JSON, an unknown field value, no hello, no position
VERSION = "version"  # hello: a protocol version the engine does not speak
UNSUPPORTED = "unsupported"  # an op, a set or a variant the engine does not have
UNKNOWN_CARD = "unknown_card"  # a card id that names no card of the game
ILLEGAL_POSITION = "illegal_position"  # load: a position the rules cannot reach
ILLEGAL_ANSWER = "illegal_answer"  # answer: refused by the rules, the game unchanged
ENGINE_ERROR = "engine_error"  # the engine failed; the game is as it was
#: Every code a reply may give; an engine's reply with another is a :class:`ProtocolError`.
CODES = (
    BAD_REQUEST,
    VERSION,
    UNSUPPORTED,
    UNKNOWN_CARD,
    ILLEGAL_POSITION,
    ILLEGAL_ANSWER,
    ENGINE_ERROR,
)
#: The codes that refuse an answer: the game must be unchanged, and asks again.
REFUSALS = frozenset({ILLEGAL_ANSWER, UNKNOWN_CARD})

#: What an engine names as the next decision: ``"end"``, or ``{family: kind}``.
Next = str | dict[str, str]


class ProtocolError(OriflammeError):
    """A message that breaks the protocol: not JSON, not an object, a field of the
    wrong type. Its text says what was expected."""


class EngineRefused(OriflammeError):
    """An engine's error reply: its ``code`` (one of :data:`CODES`) and ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def encode(message: Mapping[str, Any]) -> bytes:
    """One line: compact JSON in ASCII (any byte-safe transport carries it), newline."""
    return json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def read_line(stream: IO[bytes], max_line: int = MAX_LINE, *, skip: bool = False) -> bytes | None:
    """The next line of ``stream``, newline included: ``b""`` at its end, None if it is
    longer than ``max_line`` bytes (newline included). With ``skip``, the rest of a
    line too long is read and dropped, so that the next call reads the next line."""
    line = stream.readline(max_line + 1)
    if len(line) <= max_line:
        return line
    while skip and line and not line.endswith(b"\n"):
        line = stream.readline(max_line)
    return None


def _not_json(constant: str) -> NoReturn:
    raise ValueError(f"{constant} is not JSON")


def decode(line: bytes, *, strict: bool = False) -> dict[str, Any]:
    """The JSON object on ``line``, or :class:`ProtocolError` saying what it is instead.
    With ``strict`` (an engine's reply), ``NaN`` and ``Infinity``, which Python's
    reader takes, are refused: they are not JSON."""
    try:
        text = line.decode("utf-8")
        data = json.loads(text, parse_constant=_not_json) if strict else json.loads(text)
    except UnicodeDecodeError:
        raise ProtocolError(f"not UTF-8 text: {_quoted(line)}") from None
    except (ValueError, RecursionError):  # RecursionError: nested too deeply to read
        raise ProtocolError(f"not JSON: {_quoted(line)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"not a JSON object: {_quoted(line)}")
    return data


def _quoted(line: bytes) -> str:
    """A line an engine sent, for a message: not :func:`oriflamme.text.quote`, which
    quotes by ``repr``; bytes that are not UTF-8 and characters that are not printable
    are written as escapes, and the cut falls inside the quotes."""
    text = printable(line.rstrip(b"\r\n").decode("utf-8", "backslashreplace"))
    return f"'{text}'" if len(text) <= 60 else f"'{text[:57]}'..."


def printable(text: str) -> str:
    """``text`` safe to print: each character that is not printable (a control
    character like ESC, a bidi override like U+202E) escaped as ``repr`` would."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def error_reply(ident: object, code: str, message: str) -> dict[str, Any]:
    return {"id": ident, "ok": False, "error": {"code": code, "message": message}}


def check_reply(reply: Mapping[str, Any], ident: int) -> None:
    """A reply must answer request ``ident``; an error reply raises :class:`EngineRefused`."""
    if reply.get("id") != ident or type(reply.get("id")) is not int:
        raise ProtocolError(f"its reply has id {show(reply.get('id'))}, not {ident}")
    ok = reply.get("ok")
    if type(ok) is not bool:
        raise ProtocolError(f"its reply's 'ok' must be true or false, not {show(ok)}")
    if ok:
        return
    error = reply.get("error")
    if not isinstance(error, Mapping):
        raise ProtocolError(f"its error reply's 'error' must be an object, not {show(error)}")
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, str) or not isinstance(message, str):
        raise ProtocolError("its error reply must give a 'code' and a 'message', both text")
    if code not in CODES:
        raise ProtocolError(f"its error reply's code {show(code)} is none of {', '.join(CODES)}")
    raise EngineRefused(code, message)


@attrs.frozen
class Table:
    """A position as the scenario notation reads it back: what ``expect`` checks.

    ``zones`` maps each of the zones of docs/scenarios.md to its families' cards; ``winners`` is
    None while the game goes on."""

    round: int
    phase: str
    influence: Mapping[str, int]
    queue: tuple[tuple[CardEntry, ...], ...]
    zones: Mapping[str, Mapping[str, tuple[str, ...]]]
    winners: tuple[str, ...] | None = None


def queue_json(queue: tuple[tuple[CardEntry, ...], ...]) -> list[Any]:
    """A queue in the scenario notation: bare ids, mappings, and lists for stacks."""
    out: list[Any] = []
    for stack in queue:
        cards = [_card_json(entry) for entry in stack]
        out.append(cards[0] if len(cards) == 1 else cards)
    return out


def _card_json(entry: CardEntry) -> Any:
    if not entry.up and not entry.tokens and entry.owner is None:
        return entry.card
    data: dict[str, Any] = {"card": entry.card}
    if entry.up:
        data["up"] = True
    if entry.tokens:
        data["tokens"] = entry.tokens
    if entry.owner is not None:
        data["owner"] = entry.owner
    return data


def entries(position: Position) -> tuple[tuple[CardEntry, ...], ...]:
    """The queue of ``position`` as scenario cards."""
    return tuple(
        tuple(CardEntry(c.card, c.up, c.tokens, c.owner) for c in stack) for stack in position.queue
    )


def load_state(position: Position, players: tuple[str, ...], first_player: str) -> dict[str, Any]:
    """The ``state`` of a ``load`` request: ``position`` with every key and family
    given, so that an engine need not know the defaults of docs/scenarios.md."""
    state: dict[str, Any] = {
        "round": position.round,
        "phase": position.phase,
        "first_player": first_player,
        "influence": {f: position.influence.get(f, 1) for f in players},
        "queue": queue_json(entries(position)),
    }
    for zone in ZONES:
        given = position.zone(zone)
        state[zone] = {f: list(given.get(f, ())) for f in players}
    if position.phase == "resolution":
        state["resolving"] = position.resolving
    return state


def table_json(table: Table) -> dict[str, Any]:
    """The ``state`` of a ``state`` reply."""
    data: dict[str, Any] = {
        "round": table.round,
        "phase": table.phase,
        "influence": dict(table.influence),
        "queue": queue_json(table.queue),
    }
    for zone in ZONES:
        data[zone] = {f: list(cards) for f, cards in table.zones[zone].items()}
    if table.winners is not None:
        data["winner"] = list(table.winners)
    return data


def read_table(data: object) -> Table:
    """The :class:`Table` of a ``state`` reply; a value of the wrong type is a
    :class:`ProtocolError` naming its key. Keys not known are ignored."""
    if not isinstance(data, Mapping):
        raise ProtocolError(f"'state' must be an object, not {show(data)}")
    for key in ("round", "phase", "influence", "queue", *ZONES):
        if key not in data:
            raise ProtocolError(f"the state has no {key!r}")
    round_, phase = data["round"], data["phase"]
    if type(round_) is not int:
        raise ProtocolError(f"state 'round' must be an integer, not {show(round_)}")
    if not isinstance(phase, str):
        raise ProtocolError(f"state 'phase' must be text, not {show(phase)}")
    influence = _families(data["influence"], "influence")
    for family, amount in influence.items():
        if type(amount) is not int:
            raise ProtocolError(
                f"state 'influence' of {family} must be an integer, not {show(amount)}"
            )
    zones = {zone: _zone(data[zone], zone) for zone in ZONES}
    winners: tuple[str, ...] | None = None
    if data.get("winner") is not None:
        winner = data["winner"]
        if not isinstance(winner, list) or not all(isinstance(w, str) for w in winner):
            raise ProtocolError(f"state 'winner' must be a list of families, not {show(winner)}")
        winners = tuple(winner)
    return Table(round_, phase, influence, _queue(data["queue"]), zones, winners)


def _families(value: object, key: str) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(f, str) for f in value):
        raise ProtocolError(f"state {key!r} must map families to values, not {show(value)}")
    return dict(value)


def _zone(value: object, zone: str) -> dict[str, tuple[str, ...]]:
    given = _families(value, zone)
    for family, cards in given.items():
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ProtocolError(f"state {zone!r} of {family} must be a list of card ids")
    return {family: tuple(cards) for family, cards in given.items()}


def _queue(value: object) -> tuple[tuple[CardEntry, ...], ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"state 'queue' must be a list, not {show(value)}")
    return tuple(
        tuple(_card(c) for c in entry) if isinstance(entry, list) else (_card(entry),)
        for entry in value
    )


def _card(value: object) -> CardEntry:
    if isinstance(value, str):
        return CardEntry(value)
    if not isinstance(value, Mapping) or not isinstance(value.get("card"), str):
        raise ProtocolError(
            f"a queue card must be a card id or an object with 'card', not {show(value)}"
        )
    up, tokens, owner = value.get("up", False), value.get("tokens", 0), value.get("owner")
    if (
        type(up) is not bool
        or type(tokens) is not int
        or not (owner is None or isinstance(owner, str))
    ):
        raise ProtocolError(
            f"queue card {value['card']}: 'up' must be true or false, 'tokens' an integer, "
            "'owner' a family or null"
        )
    return CardEntry(value["card"], up, tokens, owner)


def read_next(value: object) -> Next:
    """The ``next`` of a ``decision`` reply: ``"end"`` or ``{family: kind}``."""
    if value == "end":
        return "end"
    if isinstance(value, Mapping) and len(value) == 1:
        family, kind = next(iter(value.items()))
        if isinstance(family, str) and isinstance(kind, str):
            return {family: kind}
    raise ProtocolError(
        f"'next' must be \"end\" or one family and a decision kind, not {show(value)}"
    )


def read_options(value: object) -> tuple[dict[str, Any], ...]:
    """The ``options`` of an ``options`` reply: a list of answers, each one answer form
    of the scenario notation with each value of its JSON type (``true`` is no ``to``)."""
    if not isinstance(value, list):
        raise ProtocolError(f"'options' must be a list of answers, not {show(value)}")
    found = []
    for index, answer in enumerate(value):
        if (
            not isinstance(answer, Mapping)
            or not all(isinstance(key, str) for key in answer)
            or frozenset(answer) not in ANSWER_FORMS
            or any(
                type(answer[key]) is not int
                if key == "to"
                else not isinstance(answer[key], SHAPES[key][0])
                for key in answer
            )
        ):
            raise ProtocolError(
                f"options[{index}] is not an answer of the notation, like "
                f'{{"reveal": true}} or {{"place": "red.spy", "at": "first"}}: {show(answer)}'
            )
        found.append(dict(answer))
    return tuple(found)
