"""A whole table as a referee sees it: every card named by its label (``red.soldier``),
wherever it is, face up or down.

:func:`position_of` reads one from a game; ``oriflamme.saves.state_from_position``
sets a game up at one (a conformance scenario's starting position, a test's). It is omniscient: it
is for the referee, the conformance runner and tests, never for a family (a family
gets an :class:`~oriflamme.Observation`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from ._bounds import MAX_TOKENS
from ._errors import PositionError
from ._identity import CardId
from ._shown import short
from ._state import PILES, State

#: A card label: ``<family>.<key>``, or ``<family>.<key>.<n>`` for copies after the first.
LABEL = re.compile(r"^([a-z][a-z0-9_-]*)\.([a-z][a-z0-9_]*)(?:\.([1-9][0-9]*))?\Z")


def _shown(value: object) -> str:
    """``value`` for a message about a position: shorter than a save's, and a list, a
    tuple or a mapping only named."""
    return short(value, 40, named=(Mapping, list, tuple))


def _label(value: object, where: str) -> None:
    if type(value) is not str or LABEL.match(value) is None:
        raise PositionError(f"{where} holds {_shown(value)}, not a card label like 'red.soldier'")


@attrs.frozen
class QueueCard:
    """A card in the queue: its label, face, tokens and Bribery owner (None: no token).

    Each field is of its exact type (a :class:`PositionError` otherwise)."""

    card: str
    up: bool = False
    tokens: int = 0
    owner: str | None = None

    def __attrs_post_init__(self) -> None:
        _label(self.card, "the queue")
        if type(self.up) is not bool:
            raise PositionError(f"{self.card}: up is true or false, not {_shown(self.up)}")
        if type(self.tokens) is not int or not 0 <= self.tokens <= MAX_TOKENS:
            raise PositionError(
                f"{self.card}: tokens are a whole number from 0 to {MAX_TOKENS}, "
                f"not {_shown(self.tokens)}"
            )
        if self.owner is not None and type(self.owner) is not str:
            raise PositionError(f"{self.card}: owner is a family, not {_shown(self.owner)}")


def _zones(value: object) -> Mapping[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise PositionError(f"a zone maps families to their cards, not {_shown(value)}")
    zones: dict[str, tuple[str, ...]] = {}
    for family, cards in value.items():
        if type(family) is not str or not isinstance(cards, tuple | list):
            raise PositionError(f"a zone maps families to lists of cards, not {_shown(value)}")
        for card in cards:
            _label(card, f"{family}'s zone")
        zones[family] = tuple(cards)
    return zones


@attrs.frozen
class Position:
    """Everything on the table, cards by label. Zones map a family to its cards."""

    queue: tuple[tuple[QueueCard, ...], ...] = ()
    hands: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_zones)
    set_aside: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_zones)
    reserve: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_zones)
    discarded: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_zones)
    eliminated: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_zones)
    influence: Mapping[str, int] = attrs.field(factory=dict)
    round: int = 1
    phase: str = "placement"
    resolving: int = 0  # resolution phase: the index of the position to resolve next
    #: Each label's card id in the game (read from a game; ignored when setting one up).
    ids: Mapping[str, CardId] = attrs.field(factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        """Each field of its exact type, or a :class:`PositionError` naming it."""
        if not isinstance(self.queue, tuple | list) or not all(
            isinstance(stack, tuple | list) and all(type(e) is QueueCard for e in stack)
            for stack in self.queue
        ):
            raise PositionError("the queue is a list of positions, each a list of QueueCards")
        influence = self.influence
        if not isinstance(influence, Mapping) or not all(
            type(family) is str and type(value) is int for family, value in influence.items()
        ):
            raise PositionError(f"Influence maps families to whole numbers, not {influence!r:.60}")
        for name in ("round", "resolving"):
            if type(getattr(self, name)) is not int:
                raise PositionError(f"{name} is a whole number, not {_shown(getattr(self, name))}")
        if type(self.phase) is not str:
            raise PositionError(f"the phase is a word, not {_shown(self.phase)}")

    def zone(self, name: str) -> Mapping[str, tuple[str, ...]]:
        if name not in PILES:
            raise KeyError(name)
        value: Mapping[str, tuple[str, ...]] = getattr(self, name)
        return value

    def cards(self) -> list[str]:
        """Every card's label, once for each place it is in (a card is in one place)."""
        found = [entry.card for stack in self.queue for entry in stack]
        for name in PILES:
            for cards in self.zone(name).values():
                found.extend(cards)
        return found


def position_of(state: State) -> Position:
    """The table of ``state``, cards by label."""
    labels = state.identity.labels

    def named(zone: tuple[tuple[CardId, ...], ...]) -> dict[str, tuple[str, ...]]:
        return state.by_family(tuple(tuple(labels[c] for c in cards) for cards in zone))

    return Position(
        queue=tuple(
            tuple(
                QueueCard(
                    labels[card],
                    bool(state.up >> card & 1),
                    state.tokens_on(card),
                    state.bribes[card] or None if state.bribes else None,
                )
                for card in stack
            )
            for stack in state.queue
        ),
        hands=named(state.hands),
        set_aside=named(state.set_aside),
        reserve=named(state.reserve),
        discarded=named(state.discarded),
        eliminated=named(state.eliminated),
        influence=state.by_family(state.influence),
        round=state.round,
        phase=state.phase,
        resolving=state.walk,
        ids={label: card for card, label in enumerate(labels)},
    )
