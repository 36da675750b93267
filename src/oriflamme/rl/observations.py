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

Numbers are counts (Influence, tokens, sizes) or 0/1 flags, never negative.
"""

from __future__ import annotations

from collections.abc import Sequence

from oriflamme import PHASES, CardId, Observation
from oriflamme.limits import MAX_FAMILIES

from .actions import POSITIONS

#: Seats a vector has room for (the most families a game may have).
SEATS = MAX_FAMILIES
ROUNDS = 6
#: The kinds of question named apart; any other kind counts as ``other``.
QUESTIONS = ("place", "reveal", "target", "move", "twin", "choose", "other")
SEAT_FIELDS = ("influence", "hand", "set_aside", "reserve", "discarded", "eliminated")
PILES = ("reserve", "discarded", "eliminated")
QUEUE_FLAGS = ("tokens", "under", "acting", "revealing", "asked_about")


class Encoding:
    """The observation vectors of games of one card list (see the module's table)."""

    def __init__(self, cards: Sequence[str]) -> None:
        self.cards = tuple(dict.fromkeys(cards))
        self._type = {key: index for index, key in enumerate(self.cards)}
        self.types = len(self.cards) + 1  # the last is "unknown"
        self._names = _names(self.cards)
        self.size = len(self._names)
        self.per_position = 1 + 2 * SEATS + 1 + self.types + len(QUEUE_FLAGS)
        self.queue_start = self.size - POSITIONS * self.per_position

    def names(self) -> tuple[str, ...]:
        """What every slot holds, in order."""
        return self._names

    def type_of(self, seen: Observation, card: CardId) -> int:
        """The slot of ``card``'s type among the ``K + 1``, as ``seen`` knows it."""
        key = seen.key(card)
        return self._type.get(key, self.types - 1) if key is not None else self.types - 1

    def encode(self, seen: Observation) -> list[float]:
        """The vector of ``seen``, one family's observation (not a spectator's)."""
        family = seen.family
        if family is None:
            raise ValueError("a vector is made from one family's own observation")
        count = len(seen.families)
        me = seen.families.index(family)

        def rel(seat: int) -> int:
            return (seat - me) % count

        by_family = {name: rel(seat) for seat, name in enumerate(seen.families)}
        out = [0.0] * self.size
        at = 0
        if 1 <= seen.round <= ROUNDS:
            out[seen.round - 1] = 1.0
        at += ROUNDS
        out[at + PHASES.index(seen.phase)] = 1.0
        at += len(PHASES)
        for seat in range(count):
            out[at + seat] = 1.0
        at += SEATS
        out[at + by_family[seen.first_player]] = 1.0
        at += SEATS
        decision = seen.decision
        if decision is not None:
            out[at + by_family[decision.family]] = 1.0
            kind = decision.kind if decision.kind in QUESTIONS else "other"
            out[at + SEATS + QUESTIONS.index(kind)] = 1.0
        at += SEATS + len(QUESTIONS)
        sizes = (
            tuple(seen.influence.values()),
            tuple(seen.hand_sizes.values()),
            tuple(seen.set_aside_sizes.values()),
            tuple(map(len, seen.reserve.values())),
            tuple(map(len, seen.discarded.values())),
            tuple(map(len, seen.eliminated.values())),
        )
        width = len(SEAT_FIELDS)
        for field, values in enumerate(sizes):
            for seat, value in enumerate(values):
                out[at + rel(seat) * width + field] = float(value)
        at += SEATS * width
        for zone in (seen.hand, seen.set_aside):
            for card in zone:
                out[at + self.type_of(seen, card)] += 1.0
            at += len(self.cards)
        piles = (seen.reserve, seen.discarded, seen.eliminated)
        for pile, by_owner in enumerate(piles):
            for seat, cards in enumerate(by_owner.values()):
                base = at + (rel(seat) * len(PILES) + pile) * self.types
                for card in cards:
                    out[base + self.type_of(seen, card)] += 1.0
        at += SEATS * len(PILES) * self.types
        assert at == self.queue_start
        self._queue(out, seen, by_family)
        return out

    def _queue(self, out: list[float], seen: Observation, by_family: dict[str, int]) -> None:
        decision = seen.decision
        tokens = seen.tokens
        about = decision.card if decision is not None else None
        for position, stack in enumerate(seen.queue[:POSITIONS]):
            base = self.queue_start + position * self.per_position
            card = stack[-1]
            out[base] = 1.0
            out[base + 1 + by_family[seen.owner(card)]] = 1.0
            out[base + 1 + SEATS + by_family[seen.colours[card]]] = 1.0
            out[base + 1 + 2 * SEATS] = float(seen.is_up(card))
            flags = base + 2 + 2 * SEATS
            out[flags + self.type_of(seen, card)] = 1.0
            flags += self.types
            out[flags] = float(tokens.get(card, 0))
            out[flags + 1] = float(len(stack) - 1)
            out[flags + 2] = float(card == seen.acting)
            out[flags + 3] = float(card == seen.revealing)
            out[flags + 4] = float(card == about)


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
