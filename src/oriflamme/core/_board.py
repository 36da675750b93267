"""The table as abilities read it, and the Influence Queue's changes of shape.

Read-only questions: who owns a card, its face and tokens, each family's zones and
Influence, the queue's positions in resolution order (each a stack of cards). And
the three changes of the queue's shape. Every change goes through
:meth:`Board._insert_position`, :meth:`Board._stack_on` and :meth:`Board._remove_top`,
which keep the walk of the resolution phase pointing at the right position (RULINGS
R8): while a card acts, ``walk`` is its position; between turns it is the next
position to resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ._decisions import FIRST, LAST, At
from ._identity import NO_CARD, CardId
from ._rules import GameRules
from ._state import RESOLUTION, State
from ._variants import VariantValue


class Board:
    """The board: read-only questions about the table, and the queue's changes of shape."""

    _state: State
    rules: GameRules
    _emitting: bool
    _observing: str

    @property
    def families(self) -> tuple[str, ...]:
        """The families in seat order, clockwise."""
        return self._state.families

    @property
    def cards(self) -> tuple[str, ...]:
        """The game's card list: the keys every family holds (RULINGS G1)."""
        return self._state.cards

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        """``placement``, ``resolution`` or ``end``."""
        return self._state.phase

    @property
    def queue(self) -> tuple[tuple[CardId, ...], ...]:
        """The positions in resolution order, each a stack of cards, bottom first."""
        return self._state.queue

    # Who and what.

    def colour(self, card: CardId) -> str:
        """The family printed on ``card``: its original owner (its back shows it)."""
        return self._state.identity.colours[card]

    def owner(self, card: CardId) -> str:
        """The family that owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        return self._state.owner(card)

    def key(self, card: CardId) -> str:
        """The card key (its name) of ``card``."""
        return self._state.identity.keys[card]

    def is_up(self, card: CardId) -> bool:
        """Whether ``card`` is face up in the queue."""
        return bool(self._state.up >> card & 1)

    def is_character(self, card: CardId) -> bool:
        return self._state.identity.keys[card] in self.rules.characters

    def tokens_on(self, card: CardId) -> int:
        """The Influence tokens on ``card`` (only a face-down queue card has any)."""
        return self._state.tokens_on(card)

    @property
    def tokens(self) -> Mapping[CardId, int]:
        """The cards with tokens on them, and how many."""
        return MappingProxyType(dict(self._state.tokens))

    @property
    def influence(self) -> Mapping[str, int]:
        """Each family's Influence."""
        s = self._state
        return MappingProxyType(s.by_family(s.influence))

    def influence_of(self, family: str) -> int:
        s = self._state
        return s.influence[s.seat[family]]

    def pile(self, zone: str) -> Mapping[str, tuple[CardId, ...]]:
        """A per-family zone by name: ``hands``, ``set_aside``, ``reserve``, ``discarded``
        or ``eliminated``; each family's cards, in order."""
        s = self._state
        return MappingProxyType(s.by_family(s.zone(zone)))

    @property
    def hands(self) -> Mapping[str, tuple[CardId, ...]]:
        return self.pile("hands")

    @property
    def set_aside(self) -> Mapping[str, tuple[CardId, ...]]:
        return self.pile("set_aside")

    @property
    def reserve(self) -> Mapping[str, tuple[CardId, ...]]:
        return self.pile("reserve")

    @property
    def discarded(self) -> Mapping[str, tuple[CardId, ...]]:
        return self.pile("discarded")

    @property
    def eliminated(self) -> Mapping[str, tuple[CardId, ...]]:
        return self.pile("eliminated")

    def variant(self, name: str) -> VariantValue:
        """The value of rules variant ``name`` in this game."""
        return self.rules.variants[name]

    def revealed_now(self, card: CardId) -> bool:
        """Whether ``card`` was revealed by its owner this turn (not already face up)."""
        return self._state.revealing == card

    def top(self, position: int) -> CardId:
        """The top card of the position at ``position`` (RULINGS R6: the only one in play)."""
        return self._state.queue[position][-1]

    def tops(self) -> tuple[CardId, ...]:
        """The top card of every position, in resolution order."""
        return tuple([stack[-1] for stack in self._state.queue])

    def position(self, card: CardId) -> int | None:
        """The index of the position whose TOP card is ``card``; None if it is not a top card."""
        s = self._state
        walk = s.walk
        queue = s.queue
        if card == s.acting and walk < len(queue) and queue[walk][-1] == card:
            return walk  # the common case: the acting card asks where it is
        for index, stack in enumerate(queue):
            if stack[-1] == card:
                return index
        return None

    def index(self, card: CardId) -> int:
        """The index of the position ``card`` is the top of; an error if it is not a top card."""
        position = self.position(card)
        if position is None:
            raise ValueError(f"card {card} is not the top card of a position in the queue")
        return position

    def location(self, card: CardId) -> tuple[int, int] | None:
        """(position index, height in its stack, 0 = bottom) of ``card`` anywhere in the queue."""
        for index, stack in enumerate(self._state.queue):
            if card in stack:
                return index, stack.index(card)
        return None

    def adjacent(self, position: int) -> tuple[int, ...]:
        """The positions next to ``position`` (RULINGS R7: their top cards are adjacent)."""
        last = len(self._state.queue) - 1
        if position == 0:
            return (1,) if last >= 1 else ()
        if position == last:
            return (position - 1,)
        return (position - 1, position + 1)

    def ends(self) -> tuple[int, ...]:
        """The first and last positions (one index if the queue has one position)."""
        last = len(self._state.queue) - 1
        if last < 0:
            return ()
        return (0,) if last == 0 else (0, last)

    def spots(self, family: str, *, stacking: bool | None = None) -> tuple[At, ...]:
        """Where ``family`` may put a card: the ends, and (from round 2) its own top cards.

        ``stacking`` says whether stacking is allowed (default: from round 2, RULINGS
        G4); in an empty queue the only spot is ``first`` (FORMAT: first and last are
        one answer there).
        """
        s = self._state
        queue = s.queue
        if not queue:
            return (FIRST,)
        if stacking is None:
            stacking = s.round >= 2
        if not stacking:
            return (FIRST, LAST)
        found: list[At] = [FIRST, LAST]
        if s.bribes:
            for i, stack in enumerate(queue):
                if s.owner(stack[-1]) == family:
                    found.append(i)
        else:  # no Bribery token: each owner is its colour (State.owner), read without a call
            colours = s.identity.colours
            for i, stack in enumerate(queue):
                if colours[stack[-1]] == family:
                    found.append(i)
        return tuple(found)

    def placeable(self, family: str, at: At) -> bool:
        """Whether ``family`` may put a card at ``at`` now: one of :meth:`spots`."""
        s = self._state
        if at == FIRST:
            return True
        if at == LAST:
            return bool(s.queue)  # FORMAT: in an empty queue only "first" is offered
        queue = s.queue
        return (
            type(at) is int
            and s.round >= 2  # RULINGS G4: stacking from round 2 on
            and 0 <= at < len(queue)
            and s.owner(queue[at][-1]) == family
        )

    # The three changes of shape. Keep the walk right (RULINGS R8).

    def _insert_position(self, index: int, card: CardId) -> None:
        """Make ``card`` a new position at ``index``."""
        s = self._state
        queue = s.queue
        s.queue = queue[:index] + ((card,),) + queue[index:]
        # While a card acts, a position inserted at or before it is behind the walk;
        # between turns (or once the acting position is gone) one inserted at the
        # next index is ahead, and will be reached.
        if s.phase == RESOLUTION:
            acting_here = s.acting != NO_CARD and not s.acting_gone
            if index < s.walk or (index == s.walk and acting_here):
                s.walk += 1

    def _stack_on(self, index: int, card: CardId) -> None:
        s = self._state
        queue = s.queue
        s.queue = queue[:index] + (queue[index] + (card,),) + queue[index + 1 :]

    def _remove_top(self, index: int) -> CardId:
        """Take the top card off the position at ``index``; an emptied position leaves."""
        s = self._state
        queue = s.queue
        stack = queue[index]
        card = stack[-1]
        if len(stack) > 1:
            s.queue = queue[:index] + (stack[:-1],) + queue[index + 1 :]
            return card
        s.queue = queue[:index] + queue[index + 1 :]
        if s.phase == RESOLUTION:
            if index < s.walk:
                s.walk -= 1
            elif index == s.walk and s.acting != NO_CARD:
                # The acting position is gone: the walk goes on with the one that
                # followed it, which now has its index.
                s.acting_gone = True
        return card
