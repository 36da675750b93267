"""Decisions: who must answer what, and the legal answers.

The pending decision is an immutable value. Its ``options`` are its legal answers, in
a form that never names another family's hidden card: a card in the queue is named by
the index of its position (docs/rulings.md P1: only top cards are ever chosen,
RULINGS R6), a card in hand by its id (only its family is asked about it). Each kind
of decision is described by a :class:`~oriflamme.core.kinds.DecisionKind`.

**Option numbers.** Option ``i`` of a decision is ``decision.options[i]``; the same
position always numbers its options the same way. For a placement, option ``i`` puts
card ``hand[i // len(spots)]`` at ``spots[i % len(spots)]``, the hand in its order and
the spots as ``first``, ``last``, then the positions the family may stack on, in queue
order. :meth:`Game.answer_option` answers by number.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple, NoReturn, overload

from .identity import CardId

FIRST: Final = "first"
LAST: Final = "last"
At = str | int  # "first", "last", or the index of a position to stack on


class Placement(NamedTuple):
    """A placement answer: put ``card`` from hand ``at`` an end or on a position."""

    card: CardId
    at: At


Answer = bool | int | str | Placement


class Placements(Sequence[Placement]):
    """The legal placements: every card in hand at every legal spot, computed on demand.

    A hand of 7 and 4 spots make 28 answers; a random bot needs only one of them,
    so they are indexed arithmetically instead of built. It cannot be changed.
    """

    __slots__ = ("_ats", "_cards", "_size", "_width")

    _cards: tuple[CardId, ...]
    _ats: tuple[At, ...]
    _width: int
    _size: int

    def __init__(self, cards: tuple[CardId, ...], ats: tuple[At, ...]) -> None:
        # Set through object: the attributes are read-only to everyone else.
        object.__setattr__(self, "_cards", cards)
        object.__setattr__(self, "_ats", ats)
        object.__setattr__(self, "_width", len(ats))
        object.__setattr__(self, "_size", len(cards) * len(ats))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("the options of a decision cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("the options of a decision cannot be changed")

    @property
    def cards(self) -> tuple[CardId, ...]:
        """The cards in hand, in the hand's order."""
        return self._cards

    @property
    def ats(self) -> tuple[At, ...]:
        """The legal spots: ``first``, ``last``, then positions to stack on."""
        return self._ats

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Placement: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Placement]: ...
    def __getitem__(self, index: int | slice) -> Placement | Sequence[Placement]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if not 0 <= index < self._size:
            return tuple(self)[index]  # negative indices, and IndexError past the end
        card, at = divmod(index, self._width)
        return Placement(self._cards[card], self._ats[at])

    def __iter__(self) -> Iterator[Placement]:
        for card in self._cards:
            for at in self._ats:
                yield Placement(card, at)

    def __contains__(self, answer: object) -> bool:
        return (
            isinstance(answer, Placement) and answer.card in self._cards and answer.at in self._ats
        )

    def index_of(self, answer: Placement) -> int:
        """The option number of ``answer`` (a ``ValueError`` if it is not an option)."""
        return self._cards.index(answer.card) * self._width + self._ats.index(answer.at)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self._cards == other._cards and self._ats == other._ats
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._cards, self._ats))

    def __repr__(self) -> str:
        return f"Placements(cards={self._cards!r}, ats={self._ats!r})"


Options = tuple[Answer, ...] | Placements


class Decision(NamedTuple):
    """The question a game waits on.

    ``family`` must answer a decision of ``kind``; ``options`` are the legal answers;
    ``card`` is the card it is about (the acting card, or the face-down card to
    reveal), None in the placement phase. ``question`` and ``labels`` are the words a
    plugin gave for its question and for each option (None: the kind's own words).
    """

    family: str
    kind: str
    options: Options
    card: CardId | None = None
    question: str | None = None
    labels: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data. An option taken from here and sent back is accepted."""
        return {
            "family": self.family,
            "kind": self.kind,
            "card": self.card,
            "options": [list(o) if isinstance(o, Placement) else o for o in self.options],
            "question": self.question,
            "labels": list(self.labels) if self.labels is not None else None,
        }


#: How an ability goes on: (ability key, method name, acting card, arguments). The
#: ability key None names one of the engine's own steps.
Continuation = tuple[str | None, str, CardId, tuple[Any, ...]]

REVEAL_OPTIONS: tuple[Answer, ...] = (True, False)
