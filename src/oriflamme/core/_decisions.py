"""Decisions: who must answer what, and the legal answers.

The pending decision is an immutable value. Its ``options`` are its legal answers, in
a form that never names another family's hidden card: a card in the queue is named by
the index of its position (docs/rulings.md P1: only top cards are ever chosen,
RULINGS R6), a card in hand by its id (only its family is asked about it). Each kind
of decision is described by a :class:`~oriflamme.DecisionKind`.

**Option numbers.** Option ``i`` of a decision is ``decision.options[i]``; the same
position always numbers its options the same way. For a placement, option ``i`` puts
card ``hand[i // len(spots)]`` at ``spots[i % len(spots)]``, the hand in its order and
the spots as ``first``, ``last``, then the positions the family may stack on, in queue
order. :meth:`Game.answer_option` answers by number.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, NamedTuple, NoReturn, cast

from ._identity import CardId

FIRST: Final = "first"
LAST: Final = "last"
At = str | int  # "first", "last", or the index of a position to stack on


class Placement(NamedTuple):
    """A placement answer: put ``card`` from hand ``at`` an end or on a position."""

    card: CardId
    at: At


Answer = bool | int | str | Placement


class Placements:
    """The legal placements: every card in hand at every legal spot, computed on demand.

    A hand of 7 and 4 spots make 28 answers; a random bot needs only one of them, so
    they are indexed arithmetically instead of built. It reads like a tuple of
    :class:`Placement` (``len``, indexing, iteration, ``in``). The engine never trusts
    it: a placement is checked against the game's own hand and spots.
    """

    cards: tuple[CardId, ...]  # the cards in hand, in the hand's order
    ats: tuple[At, ...]  # the legal spots: first, last, then positions to stack on

    def __init__(self, cards: tuple[CardId, ...], ats: tuple[At, ...]) -> None:
        # Set through object: to everyone else the attributes are read-only.
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "ats", ats)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("the options of a decision cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("the options of a decision cannot be changed")

    def __len__(self) -> int:
        return len(self.cards) * len(self.ats)

    def __getitem__(self, index: int) -> Placement:
        width = len(self.ats)
        size = len(self.cards) * width
        if index < 0:
            index += size
        if not 0 <= index < size:
            held = "option 0" if size == 1 else f"options 0 to {size - 1}"
            raise IndexError(f"option {index} does not exist ({held})")
        card = index // width  # compiled, native arithmetic (divmod is a call)
        placed: Any = self.cards[card]
        at: Any = self.ats[index - card * width]
        if type(placed) is not int or (type(at) is not int and type(at) is not str):
            return _new(Placement, (placed, at))  # not a placement the engine makes
        # Typed Any: compiled, the pair is made once, not taken apart and made anew.
        pair: Any = (placed, at)
        found = _PLACEMENTS.get(pair)
        if found is None:
            if len(_PLACEMENTS) >= _CACHED:
                _PLACEMENTS.clear()
            found = _PLACEMENTS[pair] = _new(Placement, pair)
        return found

    def __iter__(self) -> Iterator[Placement]:
        for card in self.cards:
            for at in self.ats:
                yield _new(Placement, (card, at))

    def __contains__(self, answer: object) -> bool:
        if type(answer) is not Placement:
            return False
        card, at = cast("tuple[object, object]", answer)  # it may hold anything
        # Exact types first: a caller's object that equals everything is no option.
        return (
            type(card) is int
            and (type(at) is str or type(at) is int)
            and card in self.cards
            and at in self.ats
        )

    def index(self, answer: Placement) -> int:
        """The option number of ``answer`` (a ``ValueError`` if it is not an option)."""
        if answer not in self:
            raise ValueError("the placement is not one of the options")
        return self.cards.index(answer.card) * len(self.ats) + self.ats.index(answer.at)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self.cards == other.cards and self.ats == other.ats
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.cards, self.ats))

    def __repr__(self) -> str:
        return f"Placements(cards={self.cards!r}, ats={self.ats!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its arguments: compiled, the class is made through __init__ only.
        return (Placements, (self.cards, self.ats))


Options = tuple[Answer, ...] | Placements


class Decision(NamedTuple):
    """The question a game waits on.

    ``family`` must answer a decision of ``kind``; ``options`` are the legal answers;
    ``card`` is the card it is about (the acting card, or the face-down card to
    reveal), None in the placement phase. ``question`` and ``labels`` are the words a
    plugin gave for its question and for each option (None: the kind's own words).
    ``ability`` is the key of the ability that asks: the acting card's, or for a
    Shapeshifter the key of the card it copies (None: the engine's own ``place`` and
    ``reveal``). ``subject`` is the other card the question is about, if the asker
    named one (the card a Royal Decree moves). Both are public at the table: the
    acting card is face up, and everyone saw the other card chosen.
    """

    family: str
    kind: str
    options: Options
    card: CardId | None = None
    question: str | None = None
    labels: tuple[str, ...] | None = None
    ability: str | None = None
    subject: CardId | None = None

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data. An option taken from here and sent back is accepted."""
        return {
            "family": self.family,
            "kind": self.kind,
            "card": self.card,
            "options": [list(o) if isinstance(o, Placement) else o for o in self.options],
            "question": self.question,
            "labels": list(self.labels) if self.labels is not None else None,
            "ability": self.ability,
            "subject": self.subject,
        }


#: How an ability goes on: (ability key, method name, acting card, arguments). The
#: ability key None names one of the engine's own steps.
Continuation = tuple[str | None, str, CardId, tuple[Any, ...]]

REVEAL_OPTIONS: Final[tuple[Answer, ...]] = (True, False)

#: The kinds of question the engine asks itself (the placement phase, a face-down
#: card's turn), answered by the engine's own steps: an ability never asks them.
ENGINE_KINDS = frozenset({"place", "reveal"})

# Building a named tuple from its values directly skips its argument-by-argument
# __new__: the engine makes one per question and option.
_new: Final = tuple.__new__


def new_decision(
    family: str,
    kind: str,
    options: Options,
    card: CardId | None = None,
    *,
    ability: str | None = None,
    subject: CardId | None = None,
) -> Decision:
    """A decision asked with the kind's own words (no plugin words)."""
    return _new(Decision, (family, kind, options, card, None, None, ability, subject))


#: The placements handed out so far (see Placements.__getitem__): each is an immutable
#: value, and making a named tuple costs many times finding it. Emptied when full.
_PLACEMENTS: Final[dict[Any, Placement]] = {}
_CACHED: Final = 4096
