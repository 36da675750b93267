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
from typing import TYPE_CHECKING, Final, cast

from oriflamme import CardId, Observation

if TYPE_CHECKING:
    from .advice import CardAdvice

LAST_ROUND = 6

#: What a face-up card may be bound to eliminate (CardAdvice.threatens): one of its
#: neighbours (a Soldier, a Cutthroat), or the card at an end (an Archer).
NEIGHBOURS: Final = "neighbours"
ENDS: Final = "ends"
_NO_ADVICE: Final[Mapping[str, CardAdvice]] = MappingProxyType({})
_NO_ADVICE_DICT: Final[dict[str, CardAdvice]] = {}  # never written: read where no advice is

#: Pools (see Reading.pool) as readers worked them out, by the keys a family's cards are
#: known to have (in id order), each with the card list it was worked out from: a
#: family's pool is that list less those keys, whoever reads it.
_KnownPools = dict[tuple[str, ...], tuple[object, dict[str, float]]]
_KNOWN_POOLS_SIZE: Final = 1024


class Reading:
    """``family``'s reading of ``seen``: the queue's top cards, who owns them, what they
    are as far as it knows, and the odds of what it cannot see."""

    def __init__(self, seen: Observation, advice: Mapping[str, CardAdvice] = _NO_ADVICE) -> None:
        me = seen.family
        if me is None:
            raise ValueError("a bot reads the observation of its own family, not a spectator's")
        self.seen = seen
        self.advice = advice  # what the bot knows of each card, by key
        # The same advice as a dict, read often (compiled, a Mapping's get is a method
        # call, a dict's is not); None: a Mapping of another kind, read as it is.
        self._told: dict[str, CardAdvice] | None = (
            cast("dict[str, CardAdvice]", advice)
            if type(advice) is dict
            else _NO_ADVICE_DICT
            if advice is _NO_ADVICE
            else None
        )
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
        families = seen.families
        influence: dict[str, int] = dict(seen.influence)
        self.influence = influence
        self._pools: dict[str, dict[str, float]] = {}
        # The pools a bot worked out from other readings of the same game, if it keeps
        # them (HeuristicBot does): a pool changes only when a card is seen.
        self._known_pools: _KnownPools | None = None
        self._archers: set[str] | None = None  # who has a face-up card hitting an end
        self._baits: list[str] | None = None  # the keys of the cards that bite, once asked
        # What the advice works out once per reading: stakes by position, and what an
        # unseen card of each family is expected to be worth.
        self.stakes: dict[int, float] = {}
        self.expected: dict[str, float] = {}
        # The dangers of the queue as it is (see moves.balance), once asked.
        self._balance: float | None = None
        # Whom hurting helps most: the opponent closest to the lead (or ahead of us). Of
        # the richest, the first to play after us: a rule every seat reads alike (the
        # first in seat order would make the first seat everyone's target on a tie).
        leader = me
        most = 0
        seat = families.index(me)
        for family in families[seat + 1 :] + families[:seat]:
            held = influence[family]
            if leader == me or held > most:
                leader, most = family, held
        self.leader = leader

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

    # What the cards do, as the advice says (see CardAdvice).

    def _told_of(self, key: str) -> CardAdvice | None:
        told = self._told
        return told.get(key) if told is not None else self.advice.get(key)

    def threatens(self, key: str) -> str:
        """What a face-up card of ``key`` is bound to eliminate: :data:`NEIGHBOURS`,
        :data:`ENDS`, or ``""``."""
        found = self._told_of(key)
        return found.threatens if found is not None else ""

    def is_bait(self, key: str) -> bool:
        """Whether a card of ``key`` punishes whoever eliminates it face down."""
        found = self._told_of(key)
        return found is not None and found.bait

    def baits(self) -> list[str]:
        """The keys of the cards that punish whoever eliminates them face down, in the
        order of the advice (an Ambush, a Trap)."""
        found = self._baits
        if found is None:
            advice = self._told if self._told is not None else self.advice
            found = self._baits = [key for key, told in advice.items() if told.bait]
        return found

    # What cannot be seen.

    def pool(self, family: str) -> dict[str, float]:
        """The chance that one of ``family``'s cards whose key we cannot see is each key."""
        found = self._pools.get(family)
        if found is not None:
            return found
        seen = self.seen
        colours = seen.colours
        knowns: list[str] = []
        for card in range(len(colours)):
            if colours[card] == family:
                key = seen.key(card)
                if key is not None:
                    knowns.append(key)
        shared = self._known_pools
        cards = seen.cards
        known = tuple(knowns)
        if shared is not None:
            entry = shared.get(known)
            if entry is not None and entry[0] is cards:
                found = self._pools[family] = dict(entry[1])  # this reading's own copy
                return found
        counts: dict[str, int] = {}
        for key in cards:
            counts[key] = counts.get(key, 0) + 1
        for key in knowns:
            left = counts.get(key, 0)
            if left > 0:
                counts[key] = left - 1
        total = 0
        for count in counts.values():
            total += count
        found = {k: n / total for k, n in counts.items() if n > 0} if total > 0 else {}
        self._pools[family] = found
        if shared is not None:
            if len(shared) >= _KNOWN_POOLS_SIZE:
                shared.clear()
            shared[known] = (cards, dict(found))
        return found

    def chance(self, family: str, key: str) -> float:
        """The chance that an unseen card of ``family`` is a ``key``."""
        return self.pool(family).get(key, 0.0)

    def bait_chance(self, position: int) -> float:
        """The chance that the top card at ``position`` punishes an opponent who
        eliminates it (an Ambush or a Trap), as far as we can tell."""
        key = self.keys[position]
        if key:
            return 1.0 if self.is_bait(key) and not self.up[position] else 0.0
        owner = self.owners[position]
        chance = 0.0
        for bait in self.baits():
            chance += self.chance(owner, bait)
        return chance

    # Dangers.

    def threat(self, position: int) -> float:
        """How likely an opponent's face-up card is to eliminate the top card at
        ``position`` before long: a Soldier or Cutthroat beside it (it must pick one of
        its two neighbours), an Archer while it is at an end."""
        me = self.owners[position]
        danger = 0.0
        for i in self.adjacent(position):
            if self.up[i] and self.owners[i] != me and self.threatens(self.keys[i]) == NEIGHBOURS:
                danger += 1.0 if len(self.adjacent(i)) == 1 else 0.6
        size = self.size
        at_end = size > 0 and (position == 0 or position == size - 1)  # in self.ends()
        if at_end and self.opponent_archers(me):
            danger += 0.5
        return min(danger, 1.0)

    def opponent_archers(self, family: str) -> bool:
        """Whether another family than ``family`` has a face-up Archer on top (a card
        bound to eliminate the card at an end)."""
        found = self._archers
        if found is None:
            found = self._archers = {
                self.owners[i]
                for i in range(self.size)
                if self.up[i] and self.threatens(self.keys[i]) == ENDS
            }
        return bool(found) and (len(found) > 1 or family not in found)

    def spot_threat(self, neighbours: list[int], at_end: bool, family: str) -> float:
        """The same danger for a card ``family`` would put beside ``neighbours``."""
        danger = 0.0
        for i in neighbours:
            if (
                self.up[i]
                and self.owners[i] != family
                and self.threatens(self.keys[i]) == NEIGHBOURS
            ):
                danger += 0.6
        if at_end and self.opponent_archers(family):
            danger += 0.5
        return min(danger, 1.0)
