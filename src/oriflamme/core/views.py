"""What one family may see: its own hand, set-aside and face-down cards, and
everything public; never another family's hand, set-aside or face-down cards.

A :class:`View` is a window on a live game, computed when read; bots receive one
and must decide from it alone. ``to_dict`` gives its plain-data form, the one a
server would send to that family.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from .decisions import Decision
from .events import Event, Moved, Placed, TokenAdded, event_from_record

if TYPE_CHECKING:
    from .events import Record
    from .game import Game


@attrs.frozen
class CardView:
    """A card in the queue as a family sees it; ``card`` is None when hidden from it."""

    card: str | None
    family: str  # printed colour: public, the back of the card shows it
    owner: str
    up: bool
    tokens: int

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


class View:
    """``family``'s view of ``game``."""

    __slots__ = ("family", "game")

    def __init__(self, game: Game, family: str) -> None:
        if family not in game.families:
            raise ValueError(
                f"{family!r} is not a family of this game ({', '.join(game.families)})"
            )
        self.game = game
        self.family = family

    def sees(self, card: str) -> bool:
        """Whether this family may know which card ``card`` is, where it is in the queue."""
        game = self.game
        return card in game.up or game.family_of[card] == self.family

    @property
    def queue(self) -> tuple[tuple[CardView, ...], ...]:
        game = self.game
        return tuple(
            tuple(
                CardView(
                    card if self.sees(card) else None,
                    game.family_of[card],
                    game.owner(card),
                    card in game.up,
                    game.tokens.get(card, 0),
                )
                for card in stack
            )
            for stack in game.queue
        )

    @property
    def hand(self) -> tuple[str, ...]:
        return self.game.hands[self.family]

    @property
    def set_aside(self) -> tuple[str, ...]:
        return self.game.set_aside[self.family]

    @property
    def hand_sizes(self) -> dict[str, int]:
        return {f: len(cards) for f, cards in self.game.hands.items()}

    @property
    def set_aside_sizes(self) -> dict[str, int]:
        return {f: len(cards) for f, cards in self.game.set_aside.items()}

    @property
    def decision(self) -> Decision | None:
        """The pending decision; another family's shows only who is asked and what kind."""
        decision = self.game.decision
        if decision is None or decision.family == self.family:
            return decision
        card = decision.card if decision.card is not None and self.sees(decision.card) else None
        return Decision(decision.family, decision.kind, (), card)

    @property
    def events(self) -> list[Event]:
        return [event_from_record(self._mask(record)) for record in self.game.log]

    def _mask(self, record: Record) -> Record:
        """The record with every card this family may not know replaced by None."""
        kind = record[0]
        own = self.game.family_of
        if kind == Placed.kind:
            _, family, card, position, on, face_up = record
            # A card placed face down is another family's secret; so is a face-down
            # card it covers (a Twin may be put face up on one).
            hidden_card = not face_up and own[card] != self.family
            hidden_on = on is not None and not self.sees(on)
            if hidden_card or hidden_on:
                return (
                    kind,
                    family,
                    None if hidden_card else card,
                    position,
                    None if hidden_on else on,
                    face_up,
                )
        elif kind == TokenAdded.kind:
            if own[record[1]] != self.family:
                return (kind, None, *record[2:])
        elif kind == Moved.kind and not record[4] and own[record[1]] != self.family:
            return (kind, None, *record[2:])
        return record

    def to_dict(self) -> dict[str, Any]:
        game = self.game
        decision = self.decision
        return {
            "family": self.family,
            "families": list(game.families),
            "round": game.round,
            "phase": game.phase,
            "first_player": game.first_player,
            "direction": game.direction,
            "influence": dict(game.influence),
            "queue": [[c.to_dict() for c in stack] for stack in self.queue],
            "hand": list(self.hand),
            "hand_sizes": self.hand_sizes,
            "set_aside": list(self.set_aside),
            "set_aside_sizes": self.set_aside_sizes,
            "reserve": {f: list(c) for f, c in game.reserve.items()},
            "discarded": {f: list(c) for f, c in game.discarded.items()},
            "eliminated": {f: list(c) for f, c in game.eliminated.items()},
            "bribes": dict(game.bribes),
            "decision": decision.to_dict() if decision is not None else None,
            "events": [_event_dict(e) for e in self.events],
        }


def _event_dict(event: Event) -> dict[str, Any]:
    data = attrs.asdict(event, recurse=False)
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}
    return {"kind": event.kind, **data}
