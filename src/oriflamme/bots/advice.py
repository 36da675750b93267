"""What the heuristic bot knows of a card (:class:`CardAdvice`), and the values it
works out from that knowledge: what a card in play is worth to its owner, what
eliminating it brings, from one family's reading of the table (:class:`Reading`).

Values are in Influence, from the reading family's side: its own gain counts 1, an
opponent's loss counts :meth:`Reading.weight` (a little less: hurting one of two
opponents helps only against that one). They are rough on purpose: a rule of thumb
that a player could apply at the table, not a search. The built-in cards' advice is
in :mod:`oriflamme.bots.cards`; a plugin gives its own for its cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import Answer, Decision
from oriflamme.compiling import mypyc_attr

from .reading import LAST_ROUND, Reading

if TYPE_CHECKING:
    from .spots import Spot

UNKNOWN_WORTH: Final = 1.0


@mypyc_attr(allow_interpreted_subclasses=True)  # plugins subclass it
class CardAdvice:
    """What the heuristic bot should know of a card, given to
    :class:`~oriflamme.bots.HeuristicBot` (``advice={key: CardAdvice()}``) by a bot kind
    a plugin registers; every built-in card has its own (:mod:`oriflamme.bots.cards`),
    which advice given for its key replaces. Override what differs from the defaults:
    they take the card for a Character whose ability helps a little.
    """

    #: What the card is worth to its owner: per round for a Character, once for an
    #: Intrigue (a Soldier is 1.5, an Heir 2).
    # Class attributes: compiled, a plain annotated one would be an instance slot that
    # hides the value a subclass sets in its body.
    worth: ClassVar[float] = UNKNOWN_WORTH
    #: Whether the card is an Intrigue, discarded once used (a Character stays in the
    #: queue and acts every round).
    intrigue: ClassVar[bool] = False
    #: Whether the card is there to be eliminated face down: it punishes whoever does
    #: it (an Ambush, a Trap). The bot places it where an opponent must hit it.
    bait: ClassVar[bool] = False
    #: Whether a Shapeshifter may copy it (an Intrigue never is).
    copyable: ClassVar[bool] = True
    #: What the card, face up, is bound to eliminate when it acts, a danger to the cards
    #: there: :data:`~oriflamme.bots.reading.NEIGHBOURS` (one of its neighbours: a
    #: Soldier, a Cutthroat), :data:`~oriflamme.bots.reading.ENDS` (the card at an end:
    #: an Archer), or ``""`` (nothing the bot foresees).
    threatens: ClassVar[str] = ""

    # Revealing.

    def activation(self, table: Reading, position: int) -> float:
        """What the card's ability brings the family reading ``table`` if it acts now
        from ``position`` (the family's own card on top there), in Influence: the bot
        reveals the card when this is worth more than waiting."""
        return 0.5

    def reveal(self, table: Reading, position: int) -> bool:
        """Whether to reveal our face-down card at ``position`` now. The default: in the
        last round, when it gains anything; a Character when its :meth:`activation`
        brings 0.5, an Intrigue when it beats a bar that drops round by round; any card
        when it is in danger and revealing gains anything."""
        tokens = table.tokens(position)
        act = self.activation(table, position)
        if table.round == LAST_ROUND:
            return act + tokens > 0.0
        threat = table.threat(position)
        if self.intrigue:
            bar = 2.5 - 0.4 * (table.round - 1)
            return act >= bar or (threat > 0.3 and act > 0.0)
        return act >= 0.5 or (threat > 0.3 and act + tokens > 0.0)

    # Choosing.

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        """What choosing ``position`` brings, when the card's ability (``acting``: the
        position of the acting card, None if it has left the queue) asks for a target.
        The default prefers an opponent's face-up card, and never one's own."""
        if table.mine(position):
            return -1.0
        return 1.0 - 2.0 * table.bait_chance(position)

    def answer(self, table: Reading, decision: Decision, option: Answer) -> float:
        """What ``option`` brings, when the card's ability asks a question of another
        kind than a target (``decision.kind``: a Royal Decree's ``move``, a Prince's
        ``twin``, a Plot's ``choose``, a plugin's own; ``decision.ability`` is the asking
        ability's key, ``decision.subject`` the other card it is about, if any: the card
        a Royal Decree moves). The bot plays the option of the highest value. The
        default prefers the first option."""
        return 1.0 if option is decision.options[0] else 0.0

    # Placing.

    def priority(self, table: Reading) -> float:
        """How much playing the card now beats keeping it for later. The default: a
        Character that pays every round, the earlier, the more rounds it pays."""
        return 1.0 + self.worth * horizon(table) / 2

    def fit(self, table: Reading, spot: Spot) -> float:
        """How well the card suits ``spot``: away from danger (a bait, into it), as
        :meth:`suits` says of its neighbours, and never covering a card of ours that
        pays every round for nothing."""
        value = 0.0
        if self.bait:
            value += 3.0 * spot.danger  # there to be hit
        elif spot.danger:
            value -= 0.5 * spot.danger * self.at_stake(table)
        value += self.suits(table, spot)
        if spot.covers is not None:
            # An Intrigue on top acts and leaves, uncovering the card again.
            paying = spot.paying * (0.4 if self.intrigue else 1.0)
            value -= paying + spot.cover_cost
        return value

    def suits(self, table: Reading, spot: Spot) -> float:
        """What ``spot``'s neighbours bring the card's ability (0 by default)."""
        return 0.0

    def at_stake(self, table: Reading) -> float:
        """What we lose if the card, just placed, is eliminated before it acts."""
        if self.intrigue:
            return self.worth
        return self.worth * horizon(table)

    # Eliminated.

    def future(self, table: Reading, tokens: int) -> float:
        """What the card, in play with ``tokens`` on it, would still bring its owner
        besides its tokens: what its owner loses if it is eliminated now."""
        if self.intrigue:
            return self.worth
        return self.worth * horizon(table)

    def killed_own(self, table: Reading, position: int, value: float, loss: float) -> float:
        """What eliminating our own card at ``position`` brings us, ``value`` what the
        elimination itself brings, ``loss`` what our attacker loses if it is hit back."""
        return value - stake(table, position)

    def kill_bonus(self, table: Reading, position: int, weight: float) -> float:
        """What eliminating an opponent's card at ``position`` brings besides its stake
        (``weight``: what its owner's Influence is worth to us), 0 by default."""
        return 0.0

    def bite(self, table: Reading, weight: float, loss: float) -> float:
        """What eliminating the card face down costs us (a bait's punishment; ``loss``:
        what our attacker loses if it is discarded), 0 by default."""
        return 0.0


#: The advice of a card none is given for: a plugin's card the bot was not taught.
UNTAUGHT: Final = CardAdvice()


def advice_of(table: Reading, key: str) -> CardAdvice:
    """The advice ``table`` was given for ``key`` (the default one if none)."""
    told = table._told
    found = told.get(key) if told is not None else table.advice.get(key)
    return found if found is not None else UNTAUGHT


def worth(table: Reading, key: str) -> float:
    """What a card of ``key`` is worth to its owner (:attr:`CardAdvice.worth`)."""
    return advice_of(table, key).worth


def horizon(table: Reading) -> float:
    """How many more times a Character in play now can be expected to act: few, since
    cards are eliminated, covered and outlived."""
    return min(table.later + 1, 3)


def stake(table: Reading, position: int) -> float:
    """What the owner of the top card at ``position`` loses if it is eliminated now:
    the tokens on it and what it would have brought (an expectation over what it may
    be, for a card we cannot see)."""
    found = table.stakes.get(position)
    if found is not None:
        return found
    tokens = table.tokens(position)
    key = table.keys[position]
    if key:
        found = tokens + advice_of(table, key).future(table, tokens)
    else:
        owner = table.owners[position]
        expected = table.expected.get(owner)
        if expected is None:
            pool = table.pool(owner)
            # sum() of a list: the summation is sum()'s own, whatever the Python.
            expected = table.expected[owner] = sum(
                [p * advice_of(table, k).future(table, 0) for k, p in pool.items()]
            )
        found = tokens + expected
    table.stakes[position] = found
    return found


def kill_value(table: Reading, position: int, attacker: str, gain: bool = True) -> float:
    """What eliminating the top card at ``position`` brings us, our card ``attacker``
    (a key) doing it: the elimination's 1 (unless ``gain`` is False, a Cutthroat's
    single kill), what its owner loses, and the risk of hitting a bait."""
    value = 1.0 if gain else 0.0
    owner = table.owners[position]
    key = table.keys[position]
    target = advice_of(table, key)
    # What we lose if the attacker is discarded by a bait: a Character's rounds to come.
    hitting = advice_of(table, attacker)
    loss = 0.0 if hitting.intrigue else hitting.worth * horizon(table) * 0.5
    if owner == table.me:
        return target.killed_own(table, position, value, loss)
    w = table.weight(owner)
    value += w * stake(table, position)
    bonus = target.kill_bonus(table, position, w)
    if bonus:
        value += bonus
    if table.up[position]:
        return value
    if key:
        bite = target.bite(table, w, loss)
        if bite:
            value -= bite
        return value
    bait = table.bait_chance(position)
    if bait:
        # An unseen card: what each bait it may be would cost, by its odds (the last
        # one's, what the others leave of the chance that it is one).
        baits = table.baits()
        cost = 0.0
        left = bait
        for other in baits[:-1]:
            chance = table.chance(owner, other)
            cost += chance * advice_of(table, other).bite(table, w, loss)
            left -= chance
        cost += left * advice_of(table, baits[-1]).bite(table, w, loss)
        value -= cost
    return value


def steal_value(table: Reading, position: int) -> float:
    owner = table.owners[position]
    if owner == table.me or table.influence[owner] <= 0:
        return 0.0
    return 1.0 + table.weight(owner)


def best(values: list[float], default: float = 0.0) -> float:
    return max(values) if values else default


def activation(table: Reading, key: str, position: int) -> float:
    """What the ability of ``key`` brings us if it acts now from ``position`` (our
    card on top there): a Shapeshifter copying it, a Plot activating it, or the card
    itself once revealed."""
    return advice_of(table, key).activation(table, position)
