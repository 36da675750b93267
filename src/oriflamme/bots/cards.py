"""What the heuristic bot knows of each built-in card, base and Ablaze: one
:class:`CardAdvice` each (:data:`BUILTIN_ADVICE`), as a plugin teaches it its own.

Each says what the card is worth, what its ability brings if it acts now, which target
or answer it prefers, where it is best placed, and when to reveal it; what it does not
say is :class:`CardAdvice`'s default, a Character whose ability helps a little.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import LAST

from .advice import (
    CardAdvice,
    activation,
    advice_of,
    best,
    horizon,
    kill_value,
    stake,
    steal_value,
    worth,
)
from .moves import best_move, move_value
from .reading import ENDS, LAST_ROUND, NEIGHBOURS, Reading
from .spots import spot

if TYPE_CHECKING:
    from oriflamme import Answer, Decision

    from .spots import Spot


# Shared behaviours.


class Intrigue(CardAdvice):
    """An Intrigue: it acts once and is discarded; a Shapeshifter never copies it."""

    intrigue: ClassVar[bool] = True
    copyable: ClassVar[bool] = False


def kill_target(table: Reading, acting: int | None, position: int, key: str) -> float:
    """What eliminating ``position`` brings, for the ability of ``key`` that eliminates
    the card it chooses (the acting card at ``acting``, None if it has left the queue):
    the card that costs its owner most, the leading opponent's first, beware of a bait."""
    attacker = table.keys[acting] if acting is not None else key
    return kill_value(table, position, attacker)


def beside_them(spot: Spot) -> float:
    """How well a card whose ability eliminates a neighbour suits ``spot``: beside an
    opponent's card, never where its only neighbour is ours (it would have to
    eliminate it)."""
    if spot.theirs:
        return 0.5 + 0.2 * spot.their_stake - 0.5 * spot.their_bait
    if spot.ours:
        return -1.0
    return 0.0


class Bait(Intrigue):
    """A card there to be hit face down (RULINGS B-Ambush, A-Trap): played early where
    an opponent must hit it, never revealed before the last round, and then only for
    the sure 1 when no opponent's killer is likely to hit it."""

    bait: ClassVar[bool] = True

    def activation(self, table: Reading, position: int) -> float:
        return 1.0

    def reveal(self, table: Reading, position: int) -> bool:
        # The sure 1 of revealing it, against 4 (or 3 stolen) if it is hit.
        return table.round == LAST_ROUND and 4.0 * table.threat(position) < 1.0

    def priority(self, table: Reading) -> float:
        return 2.6 if table.round < LAST_ROUND else 1.5

    def future(self, table: Reading, tokens: int) -> float:
        return 0.0  # eliminating it is what its owner hopes for: see bite


# Base.


class ArcherAdvice(CardAdvice):
    worth: ClassVar[float] = 1.3
    threatens: ClassVar[str] = ENDS

    def activation(self, table: Reading, position: int) -> float:
        return best([kill_value(table, i, "archer") for i in table.ends()])

    def priority(self, table: Reading) -> float:
        return 0.7 + self.worth * horizon(table) / 2

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return kill_target(table, acting, position, "archer")


class SoldierAdvice(CardAdvice):
    worth: ClassVar[float] = 1.5
    threatens: ClassVar[str] = NEIGHBOURS

    def activation(self, table: Reading, position: int) -> float:
        return best([kill_value(table, i, "soldier") for i in table.adjacent(position)])

    def priority(self, table: Reading) -> float:
        return 0.7 + self.worth * horizon(table) / 2

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return kill_target(table, acting, position, "soldier")

    def suits(self, table: Reading, spot: Spot) -> float:
        return beside_them(spot)


class SpyAdvice(CardAdvice):
    """Steals from the leader; placed beside a family with Influence."""

    worth: ClassVar[float] = 1.0

    def activation(self, table: Reading, position: int) -> float:
        return best([steal_value(table, i) for i in table.adjacent(position)])

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return steal_value(table, position)

    def suits(self, table: Reading, spot: Spot) -> float:
        return 0.5 if spot.rich else -0.2


class HeirAdvice(CardAdvice):
    worth: ClassVar[float] = 2.0

    def activation(self, table: Reading, position: int) -> float:
        acting = table.keys[position]
        others = [
            i
            for i in range(table.size)
            if i != position and table.up[i] and table.keys[i] == acting
        ]
        if not others:
            return 2.0
        # Another face-up card of the same name: neither gains; an opponent's is blocked.
        return sum([2.0 * table.weight(table.owners[i]) for i in others if not table.mine(i)])


class AssassinationAdvice(Intrigue):
    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        return best(
            [kill_value(table, i, "assassination") for i in range(table.size) if i != position]
        )

    def priority(self, table: Reading) -> float:
        return 1.8

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return kill_target(table, acting, position, "assassination")


class RoyalDecreeAdvice(Intrigue):
    """Moves the card whose move shifts the dangers most our way (see
    :mod:`oriflamme.bots.moves`); kept for last."""

    worth: ClassVar[float] = 0.4

    def activation(self, table: Reading, position: int) -> float:
        moves = [best_move(table, t, position) for t in range(table.size) if t != position]
        return max(moves) if moves else 0.0

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return best_move(table, position, acting)

    def answer(self, table: Reading, decision: Decision, option: Answer) -> float:
        subject = decision.subject
        if decision.kind == "move" and subject is not None:
            moved = table.position_of(subject)
            if moved is not None:
                return move_value(table, moved, option) if type(option) is int else -9.0
        return super().answer(table, decision, option)

    def priority(self, table: Reading) -> float:
        return 0.5


class LordAdvice(CardAdvice):
    """Gains more beside our own cards."""

    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        return 1.0 + sum([1 for i in table.adjacent(position) if table.mine(i)])

    def suits(self, table: Reading, spot: Spot) -> float:
        return float(spot.ours)


class ShapeshifterAdvice(CardAdvice):
    """Copies the neighbour that pays most; placed beside a face-up Character worth
    copying."""

    worth: ClassVar[float] = 1.0
    copyable: ClassVar[bool] = False

    def activation(self, table: Reading, position: int) -> float:
        copied: list[float] = []
        for i in table.adjacent(position):
            if table.up[i]:
                key = table.keys[i]
                told = advice_of(table, key)
                if not told.intrigue and told.copyable:
                    copied.append(activation(table, key, position))
        return best(copied)

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        if acting is None:
            return super().target(table, acting, position)
        return activation(table, table.keys[position], acting)

    def priority(self, table: Reading) -> float:
        return 1.2

    def suits(self, table: Reading, spot: Spot) -> float:
        return 0.5 * spot.copy


class AmbushAdvice(Bait):
    worth: ClassVar[float] = 1.0

    def killed_own(self, table: Reading, position: int, value: float, loss: float) -> float:
        if not table.up[position]:
            return value + 1.0 - loss  # counts as revealing it (first edition)
        return super().killed_own(table, position, value, loss)

    def bite(self, table: Reading, weight: float, loss: float) -> float:
        # Its owner gains 4 and our card is discarded.
        return 4 * weight + loss


class ConspiracyAdvice(Intrigue):
    """Played early and kept face down while it grows: its tokens count double when it
    is revealed."""

    worth: ClassVar[float] = 1.0

    def activation(self, table: Reading, position: int) -> float:
        return 0.0  # its gain is its tokens

    def reveal(self, table: Reading, position: int) -> bool:
        tokens = table.tokens(position)
        if table.round == LAST_ROUND or tokens >= 4:
            return True
        return table.threat(position) > 0.3 and tokens >= 1

    def priority(self, table: Reading) -> float:
        return 3.4 - 0.5 * (table.round - 1)  # the earlier, the more it grows

    def at_stake(self, table: Reading) -> float:
        return 2.0 + 0.5 * table.later

    def future(self, table: Reading, tokens: int) -> float:
        return 1.0 + tokens  # its tokens count double when it is revealed


# Ablaze.


class PrinceAdvice(CardAdvice):
    """Puts the Twin out of danger, where it still acts this round; eliminating it
    discards its Twin too."""

    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        return 1.0

    def answer(self, table: Reading, decision: Decision, option: Answer) -> float:
        if decision.kind != "twin":
            return super().answer(table, decision, option)
        if type(option) is not str and type(option) is not int:
            return 0.0
        # Ahead of the walk (the last end) it still acts this round.
        ahead = option == LAST or (isinstance(option, int) and option > table.seen.walk)
        twin = advice_of(table, "twin").fit(table, spot(table, option))
        return twin + (1.0 if ahead else 0.0)

    def kill_bonus(self, table: Reading, position: int, weight: float) -> float:
        return weight * worth(table, "twin") * horizon(table)  # its Twin is discarded with it


class TwinAdvice(CardAdvice):
    worth: ClassVar[float] = 1.0

    def activation(self, table: Reading, position: int) -> float:
        return 1.0

    def kill_bonus(self, table: Reading, position: int, weight: float) -> float:
        return weight * worth(table, "prince") * horizon(table)  # its Prince goes with it


class QueenAdvice(CardAdvice):
    worth: ClassVar[float] = 2.0

    def activation(self, table: Reading, position: int) -> float:
        return 2.0

    def kill_bonus(self, table: Reading, position: int, weight: float) -> float:
        return 1.0  # RULINGS A-Queen: her killer gains 1 more


class CutthroatAdvice(CardAdvice):
    worth: ClassVar[float] = 1.0
    threatens: ClassVar[str] = NEIGHBOURS

    def activation(self, table: Reading, position: int) -> float:
        return best([cutthroat_value(table, i) for i in table.adjacent(position)])

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return cutthroat_value(table, position)

    def priority(self, table: Reading) -> float:
        return 0.7 + self.worth * horizon(table) / 2

    def suits(self, table: Reading, spot: Spot) -> float:
        return beside_them(spot)


class ApothecaryAdvice(CardAdvice):
    worth: ClassVar[float] = 1.0

    def activation(self, table: Reading, position: int) -> float:
        return best(
            [kill_value(table, i, "apothecary") for i in apothecary_targets(table, position)]
        )

    def priority(self, table: Reading) -> float:
        return 1.3

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return kill_target(table, acting, position, "apothecary")


class FelonAdvice(CardAdvice):
    """Hurts its neighbours: placed beside an opponent's cards, not ours."""

    worth: ClassVar[float] = 0.5

    def activation(self, table: Reading, position: int) -> float:
        adjacent = table.adjacent(position)
        return sum([table.weight(table.owners[i]) if not table.mine(i) else -1.0 for i in adjacent])

    def priority(self, table: Reading) -> float:
        return 1.0

    def suits(self, table: Reading, spot: Spot) -> float:
        return 0.5 * spot.theirs - spot.ours


class SchemerAdvice(CardAdvice):
    """Discarded beside a stack: kept away from stacks."""

    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        if any(table.heights[i] > 1 for i in table.adjacent(position)):
            return -stake(table, position)  # it is discarded
        return 2.0

    def priority(self, table: Reading) -> float:
        if any(height > 1 for height in table.heights):
            return 1.5
        return super().priority(table)

    def suits(self, table: Reading, spot: Spot) -> float:
        return -1.5 if spot.stacks else 0.0


class ImpersonationAdvice(Intrigue):
    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        return best([impersonation_value(table, i, position) for i in table.adjacent(position)])

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return impersonation_value(table, position, acting if acting is not None else 0)

    def priority(self, table: Reading) -> float:
        return 1.6

    def suits(self, table: Reading, spot: Spot) -> float:
        return beside_them(spot)


class PlotAdvice(Intrigue):
    """Activates our best Character, and repeats while that pays more than 1."""

    worth: ClassVar[float] = 1.0

    def activation(self, table: Reading, position: int) -> float:
        # Each token on it repeats the activation or gains 1.
        act = best([activation(table, table.keys[i], i) for i in plot_targets(table)])
        tokens = table.tokens(position)
        return act * (1 + tokens) if act > 1.0 else act + tokens

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return activation(table, table.keys[position], position)

    def answer(self, table: Reading, decision: Decision, option: Answer) -> float:
        if decision.kind != "choose":
            return super().answer(table, decision, option)
        # Repeat while our best Character pays more than the token would.
        targets = plot_targets(table)
        top = max((activation(table, table.keys[i], i) for i in targets), default=0.0)
        return 1.0 if (str(option) == "repeat") == (top > 1.0) else 0.0

    def priority(self, table: Reading) -> float:
        return 0.8 + 0.5 * len(plot_targets(table))


class TrapAdvice(Bait):
    worth: ClassVar[float] = 1.0

    def bite(self, table: Reading, weight: float, loss: float) -> float:
        # It steals 3 from us and our card is discarded.
        return 3 + 3 * weight + loss


class BriberyAdvice(Intrigue):
    """Takes the opponent's best lone Character."""

    worth: ClassVar[float] = 1.5

    def activation(self, table: Reading, position: int) -> float:
        return best([bribe_value(table, i) for i in bribe_targets(table)])

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        return bribe_value(table, position)

    def priority(self, table: Reading) -> float:
        return 1.0 + 0.6 * any(not table.mine(i) for i in bribe_targets(table))


#: The advice of every built-in card, by key: what :class:`~oriflamme.bots.HeuristicBot`
#: starts from (advice it is given for a key replaces the built-in one).
BUILTIN_ADVICE: Final[Mapping[str, CardAdvice]] = MappingProxyType(
    {
        # Base.
        "archer": ArcherAdvice(),
        "soldier": SoldierAdvice(),
        "spy": SpyAdvice(),
        "heir": HeirAdvice(),
        "assassination": AssassinationAdvice(),
        "royal_decree": RoyalDecreeAdvice(),
        "lord": LordAdvice(),
        "shapeshifter": ShapeshifterAdvice(),
        "ambush": AmbushAdvice(),
        "conspiracy": ConspiracyAdvice(),
        # Ablaze.
        "prince": PrinceAdvice(),
        "twin": TwinAdvice(),
        "queen": QueenAdvice(),
        "cutthroat": CutthroatAdvice(),
        "apothecary": ApothecaryAdvice(),
        "felon": FelonAdvice(),
        "schemer": SchemerAdvice(),
        "impersonation": ImpersonationAdvice(),
        "plot": PlotAdvice(),
        "trap": TrapAdvice(),
        "bribery": BriberyAdvice(),
    }
)


# What some abilities bring, by target.


def cutthroat_value(table: Reading, position: int) -> float:
    """RULINGS A-Cutthroat: the target, then every opponent's face-up top card of its
    name; a single elimination gains nothing."""
    key = table.keys[position]
    same = [
        i
        for i in range(table.size)
        if i != position and key and table.up[i] and table.keys[i] == key and not table.mine(i)
    ]
    if not same:
        return kill_value(table, position, "cutthroat", gain=False)
    return sum([kill_value(table, i, "cutthroat") for i in [position, *same]])


def impersonation_value(table: Reading, position: int, acting: int) -> float:
    """Eliminate an adjacent card; an opponent's lone Character comes back as ours, if
    we hold its name among our discarded, eliminated or set-aside cards."""
    value = kill_value(table, position, "impersonation")
    key = table.keys[position]
    if (
        key
        and table.up[position]
        and not table.mine(position)
        and not advice_of(table, key).intrigue
        and table.heights[position] == 1
        and _can_replace(table, key)
    ):
        value += worth(table, key) * horizon(table)
    return value


def _can_replace(table: Reading, key: str) -> bool:
    seen = table.seen
    zones = [seen.discarded[table.me], seen.eliminated[table.me]]
    if key != "twin":
        zones.append(seen.set_aside)
    return any(seen.key(card) == key for zone in zones for card in zone)


def apothecary_targets(table: Reading, position: int) -> list[int]:
    """RULINGS A-Apothecary: a top card next to another of our top cards."""
    friends = {i for i in range(table.size) if i != position and table.mine(i)}
    return [
        i
        for i in range(table.size)
        if i != position and any(j in friends for j in table.adjacent(i))
    ]


def bribe_targets(table: Reading) -> list[int]:
    """RULINGS A-Bribery: face-up Characters alone in their position."""
    return [
        i
        for i in range(table.size)
        if table.heights[i] == 1 and table.up[i] and not advice_of(table, table.keys[i]).intrigue
    ]


def bribe_value(table: Reading, position: int) -> float:
    owner = table.owners[position]
    if owner == table.me:
        return 0.0
    gained = worth(table, table.keys[position]) * horizon(table)
    return gained * (1.0 + table.weight(owner))


def plot_targets(table: Reading) -> list[int]:
    return [
        i
        for i in range(table.size)
        if table.up[i] and table.mine(i) and not advice_of(table, table.keys[i]).intrigue
    ]
