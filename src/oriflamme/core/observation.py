"""What one family may see of a game, or a spectator: an :class:`Observation`.

An observation is plain data with no link to the game: immutable values and read-only
mappings that the game never changes, holding nothing a family may not see. A bot, the
terminal, a web page and a learning agent all decide from one.

A family sees everything public (the queue's cards by id and colour, faces, tokens,
Bribery tokens, Influence, the reserves and piles, the log), its own hand and
set-aside cards, and the key of every card it owns or that has been face up for all to
see. It never sees the key of another family's hidden card (in hand, set aside, face
down in the queue), nor which ids another family holds in hand: only how many. A
spectator sees only what is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from .decisions import Continuation, Decision
from .events import Event, event_to_dict
from .identity import NO_CARD, CardId
from .scoring import rank
from .state import END, Log, State, log_events

_NOTHING: Mapping[Any, Any] = MappingProxyType({})


class Observation(NamedTuple):
    """One family's view of a game at one moment (``family`` None: a spectator's).

    An immutable tuple: every field is a value or a read-only mapping.
    """

    family: str | None
    families: tuple[str, ...]
    cards: tuple[str, ...]  # the card list every family holds
    sets: tuple[str, ...]
    variants: Mapping[str, Any]
    direction: str
    round: int
    phase: str
    first_player: str
    colours: tuple[str, ...]  # every card id's colour: the backs of the cards show it
    queue: tuple[tuple[CardId, ...], ...]  # resolution order, each stack bottom first
    up_mask: int  # bit ``card`` set: that card is face up in the queue (see is_up)
    tokens: Mapping[CardId, int]
    bribes: Mapping[CardId, str]
    influence: Mapping[str, int]
    hand: tuple[CardId, ...]  # this family's own
    set_aside: tuple[CardId, ...]  # this family's own
    hand_counts: tuple[int, ...]  # each family's hand size, by seat
    set_aside_counts: tuple[int, ...]
    reserve: Mapping[str, tuple[CardId, ...]]
    discarded: Mapping[str, tuple[CardId, ...]]
    eliminated: Mapping[str, tuple[CardId, ...]]
    public_keys: Mapping[CardId, str]  # the key of every card all families have seen
    own_keys: Mapping[CardId, str]  # the keys of this family's own cards
    decision: Decision | None  # another family's shows who is asked and what, not its options
    # Where the rules are: public, as at the table (whose turn, what happens next).
    placed: int
    walk: int
    acting: CardId | None
    acting_gone: bool
    revealing: CardId | None
    resume: Continuation | None
    tasks: tuple[Continuation, ...]
    log: Log  # the events, newest first: read them with ``events``

    # Reading it.

    def key(self, card: CardId) -> str | None:
        """The key of ``card`` if this family may know it, else None."""
        found = self.public_keys.get(card)
        return found if found is not None else self.own_keys.get(card)

    def knows(self, card: CardId) -> bool:
        return card in self.public_keys or card in self.own_keys

    def colour(self, card: CardId) -> str:
        """The family printed on ``card`` (its original owner)."""
        return self.colours[card]

    def owner(self, card: CardId) -> str:
        """Who owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        return self.bribes.get(card) or self.colours[card]

    def is_up(self, card: CardId) -> bool:
        return bool(self.up_mask >> card & 1)

    def tokens_on(self, card: CardId) -> int:
        return self.tokens.get(card, 0)

    def top(self, position: int) -> CardId:
        return self.queue[position][-1]

    def tops(self) -> tuple[CardId, ...]:
        return tuple(stack[-1] for stack in self.queue)

    @property
    def hand_sizes(self) -> Mapping[str, int]:
        return MappingProxyType(dict(zip(self.families, self.hand_counts, strict=True)))

    @property
    def set_aside_sizes(self) -> Mapping[str, int]:
        return MappingProxyType(dict(zip(self.families, self.set_aside_counts, strict=True)))

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, oldest first (cards by id: see :meth:`key`)."""
        return log_events(self.log)

    @property
    def over(self) -> bool:
        return self.phase == END

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning families once the game is over (RULINGS G6; several: a shared win)."""
        if not self.over:
            raise ValueError("the game is not over yet")
        return rank(self.families, self.influence, self.queue, self.owner)

    @property
    def asked(self) -> bool:
        """Whether this family must answer the pending decision."""
        return self.decision is not None and self.decision.family == self.family

    def __eq__(self, other: object) -> bool:
        # Never equal to a plain tuple of the same values: an observation is not one.
        if type(other) is not Observation:
            return False
        # Field by field; the log by its events (a long log nests deeply).
        last = len(self._fields) - 1
        return all(self[i] == other[i] for i in range(last)) and self.events == other.events

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        raise TypeError("an observation is compared by value, not hashed")

    def __repr__(self) -> str:
        who = self.family or "a spectator"
        return f"<Observation for {who}: round {self.round} {self.phase}>"

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data: what a server sends this family."""
        decision = self.decision
        return {
            "family": self.family,
            "families": list(self.families),
            "cards": list(self.cards),
            "sets": list(self.sets),
            "variants": dict(self.variants),
            "round": self.round,
            "phase": self.phase,
            "first_player": self.first_player,
            "direction": self.direction,
            "influence": dict(self.influence),
            "queue": [[_queue_card(self, c) for c in stack] for stack in self.queue],
            "acting": self.acting,
            "hand": [_card(self, c) for c in self.hand],
            "set_aside": [_card(self, c) for c in self.set_aside],
            "hand_sizes": dict(self.hand_sizes),
            "set_aside_sizes": dict(self.set_aside_sizes),
            "reserve": _zone(self, self.reserve),
            "discarded": _zone(self, self.discarded),
            "eliminated": _zone(self, self.eliminated),
            "decision": decision.to_dict() if decision is not None else None,
            "events": [event_to_dict(event) for event in self.events],
        }


def _card(seen: Observation, card: CardId) -> dict[str, Any]:
    return {"id": card, "colour": seen.colours[card], "key": seen.key(card)}


def _queue_card(seen: Observation, card: CardId) -> dict[str, Any]:
    return {
        **_card(seen, card),
        "owner": seen.owner(card),
        "up": seen.is_up(card),
        "tokens": seen.tokens_on(card),
    }


def _zone(
    seen: Observation, zone: Mapping[str, tuple[CardId, ...]]
) -> dict[str, list[dict[str, Any]]]:
    return {family: [_card(seen, c) for c in cards] for family, cards in zone.items()}


def observe(state: State, family: str | None) -> Observation:
    """``family``'s observation of ``state`` (None: a spectator's)."""
    families = state.families
    if family is None:
        hand: tuple[CardId, ...] = ()
        set_aside: tuple[CardId, ...] = ()
        own: Mapping[CardId, str] = _NOTHING
    elif family in state.hands:
        hand = state.hands[family]
        set_aside = state.set_aside[family]
        own = state.identity.own(family)
    else:
        raise ValueError(f"{family!r} is not a family of this game ({', '.join(families)})")
    decision = state.pending
    if (
        decision is not None
        and decision.family != family
        and decision.options
        and state.rules.kinds[decision.kind].private_options
    ):
        # Another family's hand, say: only who is asked and what kind of question.
        decision = Decision(decision.family, decision.kind, (), decision.card)
    acting = state.acting
    revealing = state.revealing
    return _new(
        Observation,
        (
            family,
            families,
            state.cards,
            state.rules.sets,
            state.rules.variants,
            state.direction,
            state.round,
            state.phase,
            families[state.first],
            state.identity.colours,
            state.queue,
            state.up,
            state.tokens,
            state.bribes,
            state.influence,
            hand,
            set_aside,
            state.hand_counts,
            state.set_aside_counts,
            state.reserve,
            state.discarded,
            state.eliminated,
            state.public,
            own,
            decision,
            state.placed,
            state.walk,
            None if acting == NO_CARD else acting,
            state.acting_gone,
            None if revealing == NO_CARD else revealing,
            state.resume,
            state.tasks,
            state.log,
        ),
    )


# Building the tuple directly skips the named tuple's argument-by-argument __new__.
_new = tuple.__new__
