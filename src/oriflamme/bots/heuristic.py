"""The heuristic bot: rules of thumb a good player uses, for every base and Ablaze card."""

from __future__ import annotations

import random
from collections.abc import Mapping

from oriflamme import FIRST, LAST, Answer, At, Observation, Placements
from oriflamme.compiling import mypyc_attr

from . import advice as rules
from .advice import INTRIGUES, CardAdvice, activation, horizon, kill_value, stake, worth
from .moves import best_move, move_value
from .play import pending
from .reading import BAITS, LAST_ROUND, Table, _KnownPools

#: Keys whose ability picks a card to eliminate, by the method that receives the answer.
_KILLS = frozenset({"archer", "soldier", "assassination", "apothecary"})


@mypyc_attr(allow_interpreted_subclasses=True)  # a plugin's bot kind may extend it
class HeuristicBot:
    """Plays by rules of thumb, from its family's observation only.

    **Placing.** Every card in hand gets a score for being played now, and every spot
    a score for that card; the best pair is played, so the weakest card is the one left
    in hand at the end.

    - Play early what pays every round (Heir, Queen, Lord, Prince, Schemer) and the
      Conspiracy (it grows while it waits); keep the Royal Decree for last.
    - Play the Ambush and the Trap where an opponent's face-up Soldier or Cutthroat
      must pick a neighbour, or at an end while an opponent has a face-up Archer: they
      are there to be hit.
    - Keep every other card away from those dangers.
    - Put a Soldier, Cutthroat or Impersonation beside an opponent's card, never
      where its only neighbour is ours (it would have to eliminate it); a Lord beside
      our own cards, a Felon beside theirs, a Spy beside a family with Influence, a
      Shapeshifter beside a face-up Character worth copying, a Schemer away from stacks.
    - Stack on our own card to protect a valuable one under threat (the top card takes
      the hit), best with an Intrigue, which leaves after acting and uncovers it; never
      cover a card that pays every round for nothing.

    **Revealing.** When one of its face-down cards comes up:

    - Never reveal an Ambush or a Trap before the last round: an opponent may hit it.
      In the last round, reveal it for the sure 1 unless an opponent's killer is
      likely to hit it.
    - Keep a Conspiracy face down while it grows: reveal it with 4 tokens, when it is
      in danger, or in the last round.
    - Reveal a Character when its ability brings something now (a Soldier with an
      opponent beside it, an Heir no other face-up Heir blocks, or one that blocks an
      opponent's); wait while it would only hurt us.
    - Reveal an Intrigue (Assassination, Impersonation, Bribery, Plot, Royal Decree)
      when its effect is worth more than waiting for a better one, a bar that drops
      round by round; at once when the card is in danger.
    - In the last round, reveal whatever gains anything.

    **Choosing targets.** Eliminate the opponent's card that costs its owner most (its
    tokens, the rounds it would have paid, a Queen's bonus, a Prince's Twin), the
    leading opponent's first; beware an opponent's face-down card that may be an
    Ambush or a Trap (the odds come from the cards of theirs it has not seen); never
    our own card unless there is nothing else. Steal from the leader. Copy the
    neighbour that pays most. Bribe the opponent's best lone Character. A Royal Decree
    moves the card whose move shifts the dangers most our way. A Plot activates our
    best Character, and repeats while that pays more than 1.

    **Other cards.** A card of a plugin's set is worth 1 and is revealed when it comes
    up; a target for its ability is an opponent's card, face up rather than down, never
    our own; a plugin's own kind of question gets its first option. A plugin teaches
    the bot its cards with :class:`~oriflamme.bots.advice.CardAdvice` (``advice=``).

    Ties are broken at random, from ``seed`` or the generator given.
    """

    # The odds of unseen cards, kept from reading to reading (see Table.pool); made at
    # the first, so that a subclass's own __init__ need not.
    _known_pools: _KnownPools | None = None

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        advice: Mapping[str, CardAdvice] | None = None,
    ) -> None:
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self._random = rng.random
        self.advice: dict[str, CardAdvice] = dict(advice or {})

    def choose(self, observation: Observation) -> Answer:
        decision = pending(observation)
        options = decision.options
        if len(options) == 1:
            return options[0]
        scores = self.scores(observation)
        top = max(scores)
        best = [i for i, score in enumerate(scores) if score >= top - 1e-9]
        return options[best[int(self._random() * len(best))]]

    def scores(self, observation: Observation) -> list[float]:
        """A score for each option of the pending decision: the bot plays the highest."""
        decision = pending(observation)
        table = Table(observation, self.advice)
        pools = self._known_pools
        if pools is None:
            pools = self._known_pools = {}
        table._known_pools = pools
        kind = decision.kind
        options = decision.options
        if kind == "place" and isinstance(options, Placements):
            return self.placements(table, options)
        if kind == "reveal" and decision.card is not None:
            reveal = self.reveal(table, table.position_of(decision.card))
            return [1.0 if option is reveal else 0.0 for option in options]
        key = decision.ability
        if key is None:
            return [1.0] + [0.0] * (len(options) - 1)
        acting_card = decision.card
        acting = table.position_of(acting_card) if acting_card is not None else None
        if kind == "target":
            return [self.target(table, key, acting, o) if type(o) is int else -9.0 for o in options]
        subject = decision.subject
        if kind == "move" and key == "royal_decree" and subject is not None:
            moved = table.position_of(subject)
            if moved is not None:
                return [move_value(table, moved, o) if type(o) is int else -9.0 for o in options]
        if kind == "twin":
            return [self.twin(table, option) for option in options]
        if kind == "choose" and key == "plot":
            return [self.plot_choice(table, str(option)) for option in options]
        # A plugin's question: its first option.
        return [1.0] + [0.0] * (len(options) - 1)

    # Placing.

    def placements(self, table: Table, options: Placements) -> list[float]:
        """Option numbers run card by card, spots within (see :class:`Placements`)."""
        spots = [self.spot(table, at) for at in options.ats]
        scores: list[float] = []
        for card in options.cards:
            key = table.seen.key(card) or ""
            now = self.priority(table, key)
            for spot in spots:
                scores.append(now + self.fit(table, key, spot))
        return scores

    def priority(self, table: Table, key: str) -> float:
        """How much playing a ``key`` now beats keeping it for later."""
        round_ = table.round
        if key == "conspiracy":
            return 3.4 - 0.5 * (round_ - 1)  # the earlier, the more it grows
        if key in BAITS:
            return 2.6 if round_ < LAST_ROUND else 1.5
        if key == "assassination":
            return 1.8
        if key == "impersonation":
            return 1.6
        if key == "royal_decree":
            return 0.5
        if key == "bribery":
            return 1.0 + 0.6 * any(not table.mine(i) for i in rules.bribe_targets(table))
        if key == "plot":
            return 0.8 + 0.5 * len(rules.plot_targets(table))
        if key == "felon":
            return 1.0
        if key == "shapeshifter":
            return 1.2
        if key == "apothecary":
            return 1.3
        if key in ("soldier", "archer", "cutthroat"):
            return 0.7 + worth(table, key) * horizon(table) / 2
        if key == "schemer" and any(height > 1 for height in table.heights):
            return 1.5
        # A Character that pays every round: the earlier, the more rounds it pays.
        return 1.0 + worth(table, key) * horizon(table) / 2

    def spot(self, table: Table, at: At) -> Spot:
        """What a spot offers whatever card goes there."""
        if at == FIRST:
            return Spot(table, [0] if table.size else [], True, None)
        if at == LAST:
            return Spot(table, [table.size - 1] if table.size else [], True, None)
        if isinstance(at, int):
            return Spot(table, table.adjacent(at), at in table.ends(), at)
        return Spot(table, [], False, None)

    def fit(self, table: Table, key: str, spot: Spot) -> float:
        """How well a ``key`` suits ``spot``."""
        value = 0.0
        if key in BAITS:
            value += 3.0 * spot.danger  # there to be hit
        elif spot.danger:
            value -= 0.5 * spot.danger * self.own_stake(table, key)
        if key in ("soldier", "cutthroat", "impersonation"):
            if spot.theirs:
                value += 0.5 + 0.2 * spot.their_stake - 0.5 * spot.their_bait
            elif spot.ours:
                value -= 1.0  # it would have to eliminate our own card
        elif key == "spy":
            value += 0.5 if spot.rich else -0.2
        elif key == "lord":
            value += spot.ours
        elif key == "felon":
            value += 0.5 * spot.theirs - spot.ours
        elif key == "schemer":
            value -= 1.5 if spot.stacks else 0.0
        elif key == "shapeshifter":
            value += 0.5 * spot.copy
        covers = spot.covers
        if covers is not None:
            # An Intrigue on top acts and leaves, uncovering the card again.
            paying = spot.paying * (0.4 if key in INTRIGUES else 1.0)
            value -= paying + spot.cover_cost
        return value

    def own_stake(self, table: Table, key: str) -> float:
        if key == "conspiracy":
            return 2.0 + 0.5 * table.later
        if key in INTRIGUES:
            return worth(table, key)
        return worth(table, key) * horizon(table)

    # Revealing.

    def reveal(self, table: Table, position: int | None) -> bool:
        """Whether to reveal our face-down card at ``position`` now."""
        if position is None:
            return True
        key = table.keys[position]
        tokens = table.tokens(position)
        last = table.round == LAST_ROUND
        threat = table.threat(position)
        if key in BAITS:
            # The sure 1 of revealing it, against 4 (or 3 stolen) if it is hit.
            return last and 4.0 * threat < 1.0
        if key == "conspiracy":
            return last or tokens >= 4 or (threat > 0.3 and tokens >= 1)
        if key == "royal_decree":
            moves = [best_move(table, t, position) for t in range(table.size) if t != position]
            act = max(moves) if moves else 0.0
        else:
            act = activation(table, key, position)
        if key == "plot":
            act = act * (1 + tokens) if act > 1.0 else act + tokens
        if last:
            return act + tokens > 0.0
        if key in INTRIGUES:
            bar = 2.5 - 0.4 * (table.round - 1)
            return act >= bar or (threat > 0.3 and act > 0.0)
        return act >= 0.5 or (threat > 0.3 and act + tokens > 0.0)

    # Targets.

    def target(self, table: Table, key: str, acting: int | None, position: int) -> float:
        """What choosing ``position`` brings, for the ability ``key`` asking (the acting
        card at ``acting``, None if it has left the queue)."""
        attacker = table.keys[acting] if acting is not None else key
        if key in _KILLS:
            return kill_value(table, position, attacker)
        if key == "cutthroat":
            return rules.cutthroat_value(table, position)
        if key == "impersonation":
            return rules.impersonation_value(table, position, acting if acting is not None else 0)
        if key == "spy":
            return rules.steal_value(table, position)
        if key == "bribery":
            return rules.bribe_value(table, position)
        if key == "shapeshifter" and acting is not None:
            return activation(table, table.keys[position], acting)
        if key == "plot":
            return activation(table, table.keys[position], position)
        if key == "royal_decree":
            return best_move(table, position, acting)
        told = self.advice.get(key)
        if told is not None:
            return told.target(table, acting, position)
        return CardAdvice().target(table, acting, position)

    def twin(self, table: Table, at: object) -> float:
        """Where the Prince puts the Twin: out of danger, and where it still acts this
        round (ahead of the walk: the last end)."""
        if type(at) is not str and type(at) is not int:
            return 0.0
        ahead = at == LAST or (isinstance(at, int) and at > table.seen.walk)
        return self.fit(table, "twin", self.spot(table, at)) + (1.0 if ahead else 0.0)

    def plot_choice(self, table: Table, option: str) -> float:
        """Repeat while our best Character pays more than the token would."""
        targets = rules.plot_targets(table)
        best = max((activation(table, table.keys[i], i) for i in targets), default=0.0)
        return 1.0 if (option == "repeat") == (best > 1.0) else 0.0


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

    def __init__(self, table: Table, neighbours: list[int], end: bool, covers: int | None) -> None:
        self.covers = covers
        self.danger = table.spot_threat(neighbours, end, table.me)
        theirs = [i for i in neighbours if not table.mine(i)]
        self.theirs = len(theirs)
        self.ours = len(neighbours) - len(theirs)
        # The largest of each, 0.0 for none, as max(..., default=0.0) finds it (the first
        # of equals): compiled, a loop, where max() of a generator is a call.
        their_stake = 0.0
        for n, i in enumerate(theirs):
            value = stake(table, i)
            if n == 0 or value > their_stake:
                their_stake = value
        self.their_stake = their_stake
        their_bait = 0.0
        for n, i in enumerate(theirs):
            value = table.bait_chance(i)
            if n == 0 or value > their_bait:
                their_bait = value
        self.their_bait = their_bait
        self.rich = any(table.influence[table.owners[i]] > 0 for i in theirs)
        self.stacks = any(table.heights[i] > 1 for i in neighbours)
        copy = 0.0
        found = False
        for i in neighbours:
            key = table.keys[i]
            if table.up[i] and key not in INTRIGUES and key != "shapeshifter":
                value = worth(table, key)
                if not found or value > copy:
                    copy = value
                found = True
        self.copy = copy
        # Covering our own card there: what it would stop paying, and for a face-down
        # one its turns lost; less what shielding it from a threat is worth.
        self.paying = 0.0
        self.cover_cost = 0.0
        if covers is not None:
            under = table.keys[covers]
            if table.up[covers]:
                if under not in INTRIGUES:
                    self.paying = worth(table, under) * min(horizon(table), 2)
            else:
                self.cover_cost = 0.5 + 0.3 * table.tokens(covers)
            self.cover_cost -= 0.7 * table.threat(covers) * stake(table, covers)
