"""The heuristic bot: rules of thumb a good player uses, for every base and Ablaze card.

What is particular to a card (its worth, when to reveal it, where to place it, what it
chooses) is in its :class:`~oriflamme.bots.advice.CardAdvice`: the built-in cards' in
:mod:`oriflamme.bots.cards`, a plugin's as the plugin's bot kind gives it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from oriflamme import Answer, At, Observation, Placements
from oriflamme.compiling import mypyc_attr

from .advice import CardAdvice, advice_of
from .cards import BUILTIN_ADVICE
from .play import pending
from .reading import Reading, _KnownPools
from .spots import Spot, spot


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
    the bot its cards with :class:`~oriflamme.bots.advice.CardAdvice` (``advice=``),
    laid over the built-in cards' (:data:`~oriflamme.bots.cards.BUILTIN_ADVICE`): advice
    given for a built-in card's key replaces that card's.

    Ties are broken at random, from ``seed`` or the generator given.
    """

    # The odds of unseen cards, kept from reading to reading (see Reading.pool); made at
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
        # What it knows of each card: the built-in cards' advice, with the advice given
        # laid on top (a key given replaces the built-in card's).
        known = dict(BUILTIN_ADVICE)
        if advice:
            known.update(advice)
        self.advice: dict[str, CardAdvice] = known

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
        table = Reading(observation, self.advice)
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
        told = advice_of(table, key)
        return [told.answer(table, decision, option) for option in options]

    # Placing.

    def placements(self, table: Reading, options: Placements) -> list[float]:
        """Option numbers run card by card, spots within (see :class:`Placements`)."""
        spots = [self.spot(table, at) for at in options.ats]
        scores: list[float] = []
        for card in options.cards:
            key = table.seen.key(card) or ""
            now = self.priority(table, key)
            for place in spots:
                scores.append(now + self.fit(table, key, place))
        return scores

    def priority(self, table: Reading, key: str) -> float:
        """How much playing a ``key`` now beats keeping it for later."""
        return advice_of(table, key).priority(table)

    def spot(self, table: Reading, at: At) -> Spot:
        """What a spot offers whatever card goes there."""
        return spot(table, at)

    def fit(self, table: Reading, key: str, spot: Spot) -> float:
        """How well a ``key`` suits ``spot``."""
        return advice_of(table, key).fit(table, spot)

    # Revealing.

    def reveal(self, table: Reading, position: int | None) -> bool:
        """Whether to reveal our face-down card at ``position`` now."""
        if position is None:
            return True
        return advice_of(table, table.keys[position]).reveal(table, position)

    # Targets.

    def target(self, table: Reading, key: str, acting: int | None, position: int) -> float:
        """What choosing ``position`` brings, for the ability ``key`` asking (the acting
        card at ``acting``, None if it has left the queue)."""
        return advice_of(table, key).target(table, acting, position)
