"""A spot the heuristic bot may place a card at, read once for every card of its hand:
its neighbours, its dangers, the card it would cover (see :meth:`CardAdvice.fit`)."""

from __future__ import annotations

from oriflamme import FIRST, LAST, At

from .advice import advice_of, horizon, stake, worth
from .reading import Reading


class Spot:
    """A spot to place a card at, read once for every card of the hand."""

    __slots__ = (
        "copy",
        "cover_cost",
        "covers",
        "danger",
        "ours",
        "paying",
        "rich",
        "stacks",
        "their_bait",
        "their_stake",
        "theirs",
    )

    def __init__(
        self, table: Reading, neighbours: list[int], end: bool, covers: int | None
    ) -> None:
        #: The position of our card it would cover, if it is one.
        self.covers = covers
        #: How likely an opponent's face-up card is to eliminate a card put there.
        self.danger = table.spot_threat(neighbours, end, table.me)
        theirs = [i for i in neighbours if not table.mine(i)]
        #: How many of its neighbours are an opponent's, how many ours.
        self.theirs = len(theirs)
        self.ours = len(neighbours) - len(theirs)
        # The largest of each, 0.0 for none, as max(..., default=0.0) finds it (the first
        # of equals): compiled, a loop, where max() of a generator is a call.
        their_stake = 0.0
        for n, i in enumerate(theirs):
            value = stake(table, i)
            if n == 0 or value > their_stake:
                their_stake = value
        #: The most an opponent's neighbour stands to lose, and the likeliest to bite.
        self.their_stake = their_stake
        their_bait = 0.0
        for n, i in enumerate(theirs):
            value = table.bait_chance(i)
            if n == 0 or value > their_bait:
                their_bait = value
        self.their_bait = their_bait
        #: Whether an opponent's neighbour's family has Influence.
        self.rich = any(table.influence[table.owners[i]] > 0 for i in theirs)
        #: Whether a neighbour is a stack.
        self.stacks = any(table.heights[i] > 1 for i in neighbours)
        copy = 0.0
        found = False
        for i in neighbours:
            key = table.keys[i]
            if table.up[i]:
                told = advice_of(table, key)
                if not told.intrigue and told.copyable:
                    value = told.worth
                    if not found or value > copy:
                        copy = value
                    found = True
        #: The worth of the best face-up neighbour a Shapeshifter could copy.
        self.copy = copy
        # Covering our own card there: what it would stop paying, and for a face-down
        # one its turns lost; less what shielding it from a threat is worth.
        self.paying = 0.0
        self.cover_cost = 0.0
        if covers is not None:
            under = table.keys[covers]
            if table.up[covers]:
                if not advice_of(table, under).intrigue:
                    self.paying = worth(table, under) * min(horizon(table), 2)
            else:
                self.cover_cost = 0.5 + 0.3 * table.tokens(covers)
            self.cover_cost -= 0.7 * table.threat(covers) * stake(table, covers)


def spot(table: Reading, at: At) -> Spot:
    """What a spot offers whatever card goes there."""
    if at == FIRST:
        return Spot(table, [0] if table.size else [], True, None)
    if at == LAST:
        return Spot(table, [table.size - 1] if table.size else [], True, None)
    if isinstance(at, int):
        return Spot(table, table.adjacent(at), at in table.ends(), at)
    return Spot(table, [], False, None)
