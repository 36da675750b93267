"""The table as the heuristic bot reads it: one family's observation, and what it can
infer from it (never more: every figure here comes from the observation).

Positions are queue indices, 0 resolving first; only top cards are in play (RULINGS
R6). A card whose key the family may not know reads as ``""``: for those, the odds of
each key come from what its family's card list leaves once its known cards are out,
the same count determinisation deals from.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..core.identity import CardId
from ..core.observation import Observation

if TYPE_CHECKING:
    from .advice import CardAdvice

LAST_ROUND = 6

#: Cards whose ability eliminates an adjacent card: a danger to their neighbours.
NEIGHBOUR_KILLERS = frozenset({"soldier", "cutthroat"})
#: Cards that punish whoever eliminates them (RULINGS B-Ambush, A-Trap).
BAITS = frozenset({"ambush", "trap"})
_NO_ADVICE: Mapping[str, CardAdvice] = MappingProxyType({})


class Table:
    """``family``'s reading of ``seen``: the queue's top cards, who owns them, what they
    are as far as it knows, and the odds of what it cannot see."""

    def __init__(self, seen: Observation, advice: Mapping[str, CardAdvice] = _NO_ADVICE) -> None:
        me = seen.family
        if me is None:
            raise ValueError("a bot reads the observation of its own family, not a spectator's")
        self.seen = seen
        self.advice = advice  # what plugins' bot kinds say of their own cards
        self.me: str = me
        self.round = seen.round
        #: Rounds still to come after this one.
        self.later = LAST_ROUND - seen.round
        queue = seen.queue
        self.size = len(queue)
        tops = [stack[-1] for stack in queue]
        self.tops = tops
        self.heights = [len(stack) for stack in queue]
        self.owners = [seen.owner(card) for card in tops]
        self.up = [seen.is_up(card) for card in tops]
        self.keys = [seen.key(card) or "" for card in tops]
        self.influence = dict(zip(seen.families, seen.seat_influence, strict=True))
        self._pools: dict[str, dict[str, float]] = {}
        self._archers: set[str] | None = None  # who has a face-up Archer, once asked
        # What the advice works out once per reading: stakes by position, and what an
        # unseen card of each family is expected to be worth.
        self.stakes: dict[int, float] = {}
        self.expected: dict[str, float] = {}
        # Whom hurting helps most: the opponent closest to the lead (or ahead of us).
        others = [f for f in seen.families if f != me]
        self.leader = max(others, key=lambda f: self.influence[f]) if others else me

    # Who and what.

    def mine(self, position: int) -> bool:
        return self.owners[position] == self.me

    def adjacent(self, position: int) -> list[int]:
        """The positions next to ``position`` (RULINGS R7)."""
        return [i for i in (position - 1, position + 1) if 0 <= i < self.size]

    def ends(self) -> list[int]:
        return [0] if self.size == 1 else [0, self.size - 1] if self.size else []

    def tokens(self, position: int) -> int:
        return self.seen.tokens_on(self.tops[position])

    def weight(self, family: str) -> float:
        """What one Influence ``family`` loses is worth to us: an opponent's loss helps
        less than our own gain, and the leading opponent's helps most."""
        if family == self.me:
            return 1.0
        return 0.8 if family == self.leader else 0.5

    def position_of(self, card: CardId) -> int | None:
        for i, top in enumerate(self.tops):
            if top == card:
                return i
        return None

    # What cannot be seen.

    def pool(self, family: str) -> dict[str, float]:
        """The chance that one of ``family``'s cards whose key we cannot see is each key."""
        found = self._pools.get(family)
        if found is not None:
            return found
        seen = self.seen
        counts: dict[str, int] = {}
        for key in seen.cards:
            counts[key] = counts.get(key, 0) + 1
        colours = seen.colours
        for card in range(len(colours)):
            if colours[card] == family:
                known = seen.key(card)
                if known is not None and counts.get(known, 0) > 0:
                    counts[known] -= 1
        total = sum(counts.values())
        found = {k: n / total for k, n in counts.items() if n > 0} if total > 0 else {}
        self._pools[family] = found
        return found

    def chance(self, family: str, key: str) -> float:
        """The chance that an unseen card of ``family`` is a ``key``."""
        return self.pool(family).get(key, 0.0)

    def bait_chance(self, position: int) -> float:
        """The chance that the top card at ``position`` punishes an opponent who
        eliminates it (an Ambush or a Trap), as far as we can tell."""
        key = self.keys[position]
        if key:
            return 1.0 if key in BAITS and not self.up[position] else 0.0
        owner = self.owners[position]
        return self.chance(owner, "ambush") + self.chance(owner, "trap")

    # Dangers.

    def threat(self, position: int) -> float:
        """How likely an opponent's face-up card is to eliminate the top card at
        ``position`` before long: a Soldier or Cutthroat beside it (it must pick one of
        its two neighbours), an Archer while it is at an end."""
        me = self.owners[position]
        danger = 0.0
        for i in self.adjacent(position):
            if self.up[i] and self.owners[i] != me and self.keys[i] in NEIGHBOUR_KILLERS:
                danger += 1.0 if len(self.adjacent(i)) == 1 else 0.6
        if position in self.ends() and self.opponent_archers(me):
            danger += 0.5
        return min(danger, 1.0)

    def opponent_archers(self, family: str) -> bool:
        """Whether another family than ``family`` has a face-up Archer on top."""
        found = self._archers
        if found is None:
            found = self._archers = {
                self.owners[i] for i in range(self.size) if self.up[i] and self.keys[i] == "archer"
            }
        return bool(found) and (len(found) > 1 or family not in found)

    def spot_threat(self, neighbours: list[int], at_end: bool, family: str) -> float:
        """The same danger for a card ``family`` would put beside ``neighbours``."""
        danger = 0.0
        for i in neighbours:
            if self.up[i] and self.owners[i] != family and self.keys[i] in NEIGHBOUR_KILLERS:
                danger += 0.6
        if at_end and self.opponent_archers(family):
            danger += 0.5
        return min(danger, 1.0)
