"""The Influence Queue: positions in resolution order, each a stack of cards.

Every change of the queue goes through the three methods at the bottom, which
keep the walk of the resolution phase pointing at the right position (RULINGS R8):
while a card acts, ``walk`` is its position; between turns it is the next
position to resolve.
"""

from __future__ import annotations

from .state import RESOLUTION, State


class Queue(State):
    __slots__ = ()

    def top(self, position: int) -> str:
        """The top card of the position at ``position`` (RULINGS R6: the only one in play)."""
        return self.queue[position][-1]

    def tops(self) -> list[str]:
        return [stack[-1] for stack in self.queue]

    def position(self, card: str) -> int | None:
        """The index of the position whose TOP card is ``card``; None if it is not a top card."""
        walk = self.walk
        queue = self.queue
        if card == self.acting and walk < len(queue) and queue[walk][-1] == card:
            return walk  # the common case: the acting card asks where it is
        for index, stack in enumerate(queue):
            if stack[-1] == card:
                return index
        return None

    def index(self, card: str) -> int:
        """The index of the position ``card`` is the top of; an error if it is not a top card."""
        position = self.position(card)
        if position is None:
            raise ValueError(f"{card} is not the top card of a position in the queue")
        return position

    def location(self, card: str) -> tuple[int, int] | None:
        """(position index, height in its stack, 0 = bottom) of ``card`` anywhere in the queue."""
        for index, stack in enumerate(self.queue):
            if card in stack:
                return index, stack.index(card)
        return None

    def adjacent(self, position: int) -> tuple[int, ...]:
        """The positions next to ``position`` (RULINGS R7: their top cards are adjacent)."""
        last = len(self.queue) - 1
        if position == 0:
            return (1,) if last >= 1 else ()
        if position == last:
            return (position - 1,)
        return (position - 1, position + 1)

    def ends(self) -> tuple[int, ...]:
        """The first and last positions (one index if the queue has one position)."""
        last = len(self.queue) - 1
        if last < 0:
            return ()
        return (0,) if last == 0 else (0, last)

    # The three changes of shape. Keep the walk right (RULINGS R8).

    def _insert_position(self, index: int, card: str) -> None:
        """Make ``card`` a new position at ``index``."""
        self.queue.insert(index, (card,))
        # While a card acts, a position inserted at or before it is behind the
        # walk; between turns (or once the acting position is gone) one inserted
        # at the next index is ahead, and will be reached.
        acting_here = self.acting is not None and not self.acting_gone
        if self.phase == RESOLUTION and (index < self.walk or (index == self.walk and acting_here)):
            self.walk += 1

    def _stack_on(self, index: int, card: str) -> None:
        self.queue[index] = (*self.queue[index], card)

    def _remove_top(self, index: int) -> str:
        """Take the top card off the position at ``index``; an emptied position leaves."""
        stack = self.queue[index]
        card = stack[-1]
        if len(stack) > 1:
            self.queue[index] = stack[:-1]
            return card
        del self.queue[index]
        if self.phase == RESOLUTION:
            if index < self.walk:
                self.walk -= 1
            elif index == self.walk and self.acting is not None:
                # The acting position is gone: the walk goes on with the one that
                # followed it, which now has its index.
                self.acting_gone = True
        return card
