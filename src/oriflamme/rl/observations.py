"""A fixed-length vector of numbers made from one family's own observation.

Learning agents want the same numbered slots at every step. An :class:`Encoding` is
made for a card list and numbers, from one family's :class:`~oriflamme.Observation`
only, so it holds nothing that family may not see. Seats are counted from the agent:
seat 0 is the agent, seat 1 the next family in seat order, and so on to
:data:`SEATS` - 1 (slots of seats a smaller game lacks stay 0). ``K`` is the number of
distinct card types of the list; a card whose type the agent does not know counts in
an extra ``unknown`` slot after the ``K`` types. :meth:`Encoding.names` names every
slot, in order (``queue[3].key=soldier``); the blocks are:

=========  ====================  ===================================================
block      slots                 meaning
=========  ====================  ===================================================
round      6                     1 in the slot of the round (1 to 6)
phase      3                     placement, resolution, end
seats      5                     1 for each seat this game has
first      5                     the seat of the First Player
asked      5                     the seat that must answer now
question   7                     the kind of question asked: place, reveal, target,
                                 move, twin, choose, another kind
seat[s]    6 per seat            Influence, hand size, set-aside size, and the number
                                 of cards in its reserve, discard and eliminated piles
hand       K                     the agent's cards in hand, by type
set_aside  K                     the agent's set-aside cards, by type
piles      3 per seat * (K+1)    reserve, discarded, eliminated, by type
queue[i]   40 * (K + 18)         position ``i`` (resolution order): occupied; its top
                                 card's owner (5, by seat) and printed colour (5);
                                 face up; type (K+1); tokens on it; cards under it;
                                 whether it is acting, being revealed, or the card
                                 the question is about
=========  ====================  ===================================================

Numbers are counts (Influence, tokens, sizes) or 0/1 flags, never negative. Most are
0 (a game's few dozen cards in a thousand slots and more): :meth:`Encoding.nonzero`
gives the others by index, made from what the observation holds, and
:meth:`Encoding.array` writes them into a zeroed NumPy array, the tensor learning
libraries read; :meth:`Encoding.encode` is the same vector as a list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from oriflamme import PHASES, CardId, Observation
from oriflamme.installed import extra
from oriflamme.limits import MAX_FAMILIES

from .actions import POSITIONS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Seats a vector has room for (the most families a game may have).
SEATS = MAX_FAMILIES
ROUNDS = 6
#: The kinds of question named apart; any other kind counts as ``other``.
QUESTIONS = ("place", "reveal", "target", "move", "twin", "choose", "other")
SEAT_FIELDS = ("influence", "hand", "set_aside", "reserve", "discarded", "eliminated")
PILES = ("reserve", "discarded", "eliminated")
QUEUE_FLAGS = ("tokens", "under", "acting", "revealing", "asked_about")

# Where the first blocks of the vector start (the module's table), up to the seats'.
_PHASE = ROUNDS
_PRESENT = _PHASE + len(PHASES)
_FIRST = _PRESENT + SEATS
_ASKED = _FIRST + SEATS
_QUESTION = _ASKED + SEATS
_SEAT_FIELDS = _QUESTION + len(QUESTIONS)


class Encoding:
    """The observation vectors of games of one card list (see the module's table)."""

    def __init__(self, cards: Sequence[str]) -> None:
        self.cards = tuple(dict.fromkeys(cards))
        # None (a card the agent does not know) is in no card list: its type is unknown.
        self._type: dict[str | None, int] = {key: i for i, key in enumerate(self.cards)}
        self.types = len(self.cards) + 1  # the last is "unknown"
        self._names = _names(self.cards)
        self.size = len(self._names)
        self.per_position = 1 + 2 * SEATS + 1 + self.types + len(QUEUE_FLAGS)
        self.queue_start = self.size - POSITIONS * self.per_position
        self._hand = _SEAT_FIELDS + SEATS * len(SEAT_FIELDS)

    def names(self) -> tuple[str, ...]:
        """What every slot holds, in order."""
        return self._names

    def type_of(self, seen: Observation, card: CardId) -> int:
        """The slot of ``card``'s type among the ``K + 1``, as ``seen`` knows it."""
        return self._type.get(seen.key(card), self.types - 1)

    def encode(self, seen: Observation) -> list[float]:
        """The vector of ``seen``, one family's observation (not a spectator's)."""
        out = [0.0] * self.size
        for slot, value in self.nonzero(seen).items():
            out[slot] = value
        return out

    def array(
        self, seen: Observation, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The vector of ``seen`` as a NumPy array of ``float32`` (NumPy comes with the
        ``rl`` extra; the rest of this module needs none): ``out``, zeroed then filled,
        or a new one. Only the slots of :meth:`nonzero` are written."""
        try:
            import numpy as np  # noqa: PLC0415 - the rl extra's: only a caller of this needs it
        except ImportError as exc:
            raise ImportError(f"Encoding.array needs NumPy, the rl extra: {extra('rl')}") from exc

        found = self.nonzero(seen)
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        slots = np.fromiter(found.keys(), np.intp, len(found))
        out[slots] = np.fromiter(found.values(), np.float32, len(found))
        return out

    def nonzero(self, seen: Observation) -> dict[int, float]:
        """The slots of :meth:`encode`'s vector that are not 0, by index (in no set
        order). It is made from what the observation holds (its seats, cards and queue
        positions), never by a pass over every slot: most of a vector is 0, and a
        tensor library writes these few values into a zeroed array at once."""
        family = seen.family
        if family is None:
            raise ValueError("a vector is made from one family's own observation")
        families = seen.families
        count = len(families)
        me = families.index(family)
        # Each seat's place counted from the agent, by seat and by family.
        rel = [(seat - me) % count for seat in range(count)]
        by_family = dict(zip(families, rel, strict=True))
        found: dict[int, float] = {}
        if 1 <= seen.round <= ROUNDS:
            found[seen.round - 1] = 1.0
        found[_PHASE + PHASES.index(seen.phase)] = 1.0
        for seat in range(count):
            found[_PRESENT + seat] = 1.0
        found[_FIRST + by_family[seen.first_player]] = 1.0
        decision = seen.decision
        if decision is not None:
            found[_ASKED + by_family[decision.family]] = 1.0
            kind = decision.kind if decision.kind in QUESTIONS else "other"
            found[_QUESTION + QUESTIONS.index(kind)] = 1.0
        width = len(SEAT_FIELDS)
        piles = (seen.reserve, seen.discarded, seen.eliminated)
        sizes = (
            seen.influence.values(),
            seen.hand_sizes.values(),
            seen.set_aside_sizes.values(),
            *(map(len, pile.values()) for pile in piles),
        )
        for field, values in enumerate(sizes):
            for seat, value in enumerate(values):
                if value:
                    found[_SEAT_FIELDS + rel[seat] * width + field] = float(value)
        types = self._type
        unknown = self.types - 1
        key = seen.key
        at = self._hand
        for zone in (seen.hand, seen.set_aside):
            for card in zone:
                slot = at + types.get(key(card), unknown)
                found[slot] = found.get(slot, 0.0) + 1.0
            at += len(self.cards)
        per_seat = len(PILES) * self.types
        for pile, by_owner in enumerate(piles):
            for seat, cards in enumerate(by_owner.values()):
                base = at + rel[seat] * per_seat + pile * self.types
                for card in cards:
                    slot = base + types.get(key(card), unknown)
                    found[slot] = found.get(slot, 0.0) + 1.0
        self._queue(found, seen, by_family)
        return found

    def _queue(self, found: dict[int, float], seen: Observation, by_family: dict[str, int]) -> None:
        decision = seen.decision
        tokens = seen.tokens
        about = decision.card if decision is not None else None
        acting, revealing = seen.acting, seen.revealing
        colours = seen.colours
        types = self._type
        unknown = self.types - 1
        step = self.per_position
        flags = 2 + 2 * SEATS + self.types
        base = self.queue_start
        for stack in seen.queue[:POSITIONS]:
            card = stack[-1]
            found[base] = 1.0
            found[base + 1 + by_family[seen.owner(card)]] = 1.0
            found[base + 1 + SEATS + by_family[colours[card]]] = 1.0
            if seen.is_up(card):
                found[base + 1 + 2 * SEATS] = 1.0
            found[base + 2 + 2 * SEATS + types.get(seen.key(card), unknown)] = 1.0
            on = tokens.get(card, 0)
            if on:
                found[base + flags] = float(on)
            if len(stack) > 1:
                found[base + flags + 1] = float(len(stack) - 1)
            if card == acting:
                found[base + flags + 2] = 1.0
            if card == revealing:
                found[base + flags + 3] = 1.0
            if card == about:
                found[base + flags + 4] = 1.0
            base += step


def _names(cards: tuple[str, ...]) -> tuple[str, ...]:
    types = (*cards, "unknown")
    names = [f"round={number}" for number in range(1, ROUNDS + 1)]
    names += [f"phase={phase}" for phase in PHASES]
    names += [f"seat[{seat}].present" for seat in range(SEATS)]
    names += [f"first=seat[{seat}]" for seat in range(SEATS)]
    names += [f"asked=seat[{seat}]" for seat in range(SEATS)]
    names += [f"question={kind}" for kind in QUESTIONS]
    names += [f"seat[{s}].{field}" for s in range(SEATS) for field in SEAT_FIELDS]
    names += [f"hand.{key}" for key in cards]
    names += [f"set_aside.{key}" for key in cards]
    names += [f"seat[{s}].{pile}.{key}" for s in range(SEATS) for pile in PILES for key in types]
    for position in range(POSITIONS):
        slot = f"queue[{position}]"
        names.append(f"{slot}.occupied")
        names += [f"{slot}.owner=seat[{s}]" for s in range(SEATS)]
        names += [f"{slot}.colour=seat[{s}]" for s in range(SEATS)]
        names.append(f"{slot}.face_up")
        names += [f"{slot}.key={key}" for key in types]
        names += [f"{slot}.{flag}" for flag in QUEUE_FLAGS]
    return tuple(names)
