"""Decisions: who must answer what, and the legal answers.

The pending decision is data. Its ``options`` are its legal answers, in a form
that never names another family's hidden card: a card in the queue is named by
the index of its position (docs/rulings.md P1: only top cards are ever chosen,
RULINGS R6), a card in
hand by its id (only its family is asked about it).

=========  ==============================  ==========================================
kind       when                            an answer
=========  ==============================  ==========================================
place      placement phase                 ``Placement(card, at)``; ``at`` is
                                           ``"first"``, ``"last"`` or the index of a
                                           position to stack on
reveal     a face-down card's turn         ``True`` or ``False``
target     an ability chooses a card       the index of the chosen card's position
move       Royal Decree's destination      the index the card will have once moved
twin       a Prince places its Twin        as ``at`` in ``place``
choose     any other named choice          the option's name, e.g. ``"gain"``
=========  ==============================  ==========================================
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal, NamedTuple, overload

DecisionKind = Literal["place", "reveal", "target", "move", "twin", "choose"]
KINDS: tuple[DecisionKind, ...] = ("place", "reveal", "target", "move", "twin", "choose")
FIRST, LAST = "first", "last"
At = str | int  # "first", "last", or a position index


class Placement(NamedTuple):
    """A placement answer: put ``card`` from hand ``at`` an end or on a position."""

    card: str
    at: At


Answer = bool | int | str | Placement


class Decision(NamedTuple):
    """The question the game is waiting on (a named tuple: one is made per question).

    ``family`` must answer a decision of ``kind``; ``options`` are the legal
    answers; ``card`` is the card it is about (the acting card, or the face-down
    card to reveal), None in the placement phase.
    """

    family: str
    kind: DecisionKind
    options: Sequence[Answer]
    card: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "kind": self.kind,
            "card": self.card,
            "options": [list(o) if isinstance(o, Placement) else o for o in self.options],
        }


class Placements(Sequence[Placement]):
    """The legal placements: every card in hand at every legal spot, computed on demand.

    A hand of 7 and 4 spots make 28 answers; a random bot needs only one of them,
    so they are indexed arithmetically instead of built.
    """

    __slots__ = ("_size", "_width", "ats", "cards")

    def __init__(self, cards: tuple[str, ...], ats: tuple[At, ...]) -> None:
        self.cards = cards
        self.ats = ats
        self._width = len(ats)
        self._size = len(cards) * self._width

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
        return Placement(self.cards[card], self.ats[at])

    def __iter__(self) -> Iterator[Placement]:
        for card in self.cards:
            for at in self.ats:
                yield Placement(card, at)

    def __contains__(self, answer: object) -> bool:
        return isinstance(answer, Placement) and answer.card in self.cards and answer.at in self.ats

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self.cards == other.cards and self.ats == other.ats
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.cards, self.ats))

    def __repr__(self) -> str:
        return f"Placements(cards={self.cards!r}, ats={self.ats!r})"


#: How an ability's decision continues: (ability key, method name, acting card, extra args).
#: The ability key None means the engine's own method.
Continuation = tuple[str | None, str, str, tuple[Any, ...]]
#: Work waiting on the task stack, in the same form.
Task = Continuation


REVEAL_OPTIONS: tuple[bool, bool] = (True, False)
