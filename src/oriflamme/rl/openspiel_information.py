"""The information-state string of :mod:`.openspiel`'s game: all one player knows, short.

OpenSpiel's tabular algorithms (CFR, tabular policies) key their tables by this string,
and search asks for it at every node, so it must be a function of exactly what the
player knows (two histories it cannot tell apart give one string, two it can give two)
and it should be short. It holds what the canonical JSON of the player's
:meth:`~oriflamme.Observation.to_dict` and its own actions held (the text it replaces),
each datum written once, by position instead of by field name:

* a line per part of the table: the family and the families, round, phase,
  direction and First Player's seat; the card list, sets and variants; every card
  id's colour (its back); Influence and the hand and set-aside sizes by seat; the
  family's own hand and set-aside cards; the reserves and piles; the queue; the acting
  card; the question asked;
* ``log``: every event, oldest first, a one-letter kind (:data:`EVENT_CODES`) then its
  fields in the event's own order, ``,`` between them (the kind says which is which);
* ``actions``: the player's own actions, in order (the log records what answers did,
  not the answers).

A family is its seat (``0`` for the first), a card ``id:key`` (``?`` for a key the
player does not know), ``-`` is none, ``T`` and ``F`` are true and false; a word that
is not a plain key (a plugin's question, say) is written as JSON, quoted. Every part
reads back one way, so two informations never make one string. In seeded random games
of 3 to 5 families the strings average 1.1 to 1.6 kB, 2.9 kB at most, where the JSON
averaged 5 to 8 kB, 16 kB at most (docs/research.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from oriflamme import CardId, Decision, Event, Observation, Placement

#: The one-letter code of each kind of event in the string.
EVENT_CODES: Final[Mapping[str, str]] = {
    "game_started": "G",
    "round_started": "R",
    "placed": "P",
    "token_added": "T",
    "revealed": "V",
    "eliminated": "E",
    "discarded": "D",
    "moved": "M",
    "gained": "I",
    "lost": "L",
    "stolen": "S",
    "bribed": "B",
    "activated": "A",
    "applied": "Y",
    "round_ended": "Z",
    "game_ended": "O",
}
#: The fields of events that hold a family's name, written as its seat.
FAMILY_FIELDS: Final = frozenset({"family", "owner", "thief", "victim", "first_player"})
# A word written as it is: it cannot be read as a number, a seat, T, F, - or JSON.
_PLAIN: Final = re.compile(r"[a-z_][a-z0-9_]*")


def information_string(seen: Observation, own_actions: Sequence[int]) -> str:
    """What ``seen``'s family knows, with its own actions so far (see the module)."""
    seat = {family: str(number) for number, family in enumerate(seen.families)}
    decision = seen.decision
    variants = ",".join(f"{_value(k)}={_value(v)}" for k, v in sorted(seen.variants.items()))
    lines = [
        f"{_value(seen.family)} of {_values(seen.families)} round {seen.round}"
        f" {_value(seen.phase)} {_value(seen.direction)} first {seat[seen.first_player]}",
        f"cards {_values(seen.cards)} sets {_values(seen.sets)} variants {variants}",
        "colours " + "".join(seat[colour] for colour in seen.colours),
        "influence " + _values(seen.influence.values()),
        "hands " + _values(seen.hand_sizes.values()),
        "aside " + _values(seen.set_aside_sizes.values()),
        "hand " + _cards(seen, seen.hand),
        "set_aside " + _cards(seen, seen.set_aside),
    ]
    for name, pile in (
        ("reserve", seen.reserve),
        ("discarded", seen.discarded),
        ("eliminated", seen.eliminated),
    ):
        lines.append(name + " " + "|".join(_cards(seen, cards) for cards in pile.values()))
    lines += [
        "queue " + " ".join("/".join(_queue_card(seen, c, seat) for c in s) for s in seen.queue),
        f"acting {_value(seen.acting)}",
        "asked " + (_decision(decision, seat) if decision is not None else "-"),
        "log " + " ".join(_event(event, seat) for event in seen.events),
        "actions " + _values(own_actions),
    ]
    return "\n".join(lines)


def _value(value: object) -> str:
    if value is None:
        return "-"
    if value is True or value is False:
        return "T" if value else "F"
    if type(value) is int:
        return str(value)
    if type(value) is str and _PLAIN.fullmatch(value):
        return value
    if isinstance(value, tuple | list):
        return "[" + _values(value) + "]"
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _values(values: Iterable[object]) -> str:
    return ",".join(_value(value) for value in values)


def _cards(seen: Observation, cards: Sequence[CardId]) -> str:
    return ",".join(f"{card}:{seen.key(card) or '?'}" for card in cards)


def _queue_card(seen: Observation, card: CardId, seat: Mapping[str, str]) -> str:
    """``id:key``, then ``^`` face up, ``+n`` tokens, ``@seat`` a Bribery token's owner."""
    text = f"{card}:{seen.key(card) or '?'}"
    text += "^" if seen.is_up(card) else ""
    tokens = seen.tokens_on(card)
    text += f"+{tokens}" if tokens else ""
    owner = seen.owner(card)
    return text + (f"@{seat[owner]}" if owner != seen.colours[card] else "")


def _decision(decision: Decision, seat: Mapping[str, str]) -> str:
    return " ".join(
        (
            seat[decision.family],
            _value(decision.kind),
            _value(decision.card),
            _options(list(decision.options)),
            _value(decision.question),
            _value(decision.labels),
            _value(decision.ability),
            _value(decision.subject),
        )
    )


def _options(options: Sequence[object]) -> str:
    """The options in order; placements, every card at every spot, as ``cards*spots``."""
    if options and all(isinstance(option, Placement) for option in options):
        placements = [option for option in options if isinstance(option, Placement)]
        cards = list(dict.fromkeys(option.card for option in placements))
        ats = list(dict.fromkeys(option.at for option in placements))
        if placements == [Placement(card, at) for card in cards for at in ats]:
            return f"[{_values(cards)}]*[{_values(ats)}]"
    return "[" + _values(options) + "]"


def _event(event: Event, seat: Mapping[str, str]) -> str:
    fields = event._fields[:-1]  # the last field is the kind
    values = (
        seat.get(value, _value(value))
        if name in FAMILY_FIELDS and type(value) is str
        else _value(value)
        for name, value in zip(fields, event[:-1], strict=True)
    )
    return EVENT_CODES.get(event.kind, event.kind + ":") + ",".join(values)
