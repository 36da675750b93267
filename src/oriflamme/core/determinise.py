"""Determinisation: from one family's observation and a seed, a complete game that
agrees with everything that family has seen, for search (ISMCTS) and for analysis.

The other families' cards whose keys the family cannot know (in hand, set aside, face
down in the queue) are dealt at random among those places, from what each family's
card list leaves once its known cards are taken out: every deal consistent with the
observation can come out, and only those. The sample's observation for that family
equals the one it was made from.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from .config import GameConfig
from .decisions import Decision, Placements
from .effects import Effects
from .errors import OriflammeError
from .identity import NO_CARD, CardId, Identity
from .observation import Observation
from .state import State, Zone

if TYPE_CHECKING:
    from .plugins import Registry


class DeterminiseError(OriflammeError):
    """An observation that no complete game of its card list can agree with."""


def determinise(
    observation: Observation, seed: int, registry: Registry, *, recording: bool = True
) -> State:
    """A state that ``observation`` could be of, its unseen cards dealt from ``seed``."""
    rng = random.Random(seed)
    rules = registry.rules(observation.sets, dict(observation.variants), extra=observation.cards)
    keys, hands, set_aside = _deal_unseen(observation, rng)
    config = GameConfig(
        families=observation.families,
        sets=observation.sets,
        cards=observation.cards,
        seed=seed,
        first_player=observation.first_player,
        direction=observation.direction,
        variants=dict(observation.variants),
    )
    state = State.empty(
        rules,
        config,
        Identity(observation.colours, keys),
        cards=observation.cards,
        direction=observation.direction,
        recording=recording,
    )
    state.queue = observation.queue
    state.up = observation.up_mask
    state.tokens = observation.token_pairs
    state.bribes = observation.card_bribes
    state.set_zone("hands", hands)
    state.set_zone("set_aside", set_aside)
    state.reserve = observation.seat_reserve
    state.discarded = observation.seat_discarded
    state.eliminated = observation.seat_eliminated
    state.influence = observation.seat_influence
    state.public = observation.shown
    state.round = observation.round
    state.phase = observation.phase
    state.first = observation.first
    state.placed = observation.placed
    state.walk = observation.walk
    state.acting = NO_CARD if observation.acting is None else observation.acting
    state.acting_gone = observation.acting_gone
    state.revealing = NO_CARD if observation.revealing is None else observation.revealing
    state.resume = observation.resume
    state.tasks = observation.tasks
    state.log = observation.log if recording else None
    state.pending = _pending(observation.decision, state)
    return state


def _deal_unseen(observation: Observation, rng: random.Random) -> tuple[list[str], Zone, Zone]:
    """Every card id's key, and each family's hand and set-aside cards (by seat), the
    cards the observing family cannot see dealt at random."""
    colours = observation.colours
    keys: list[str] = [observation.key(card) or "" for card in range(len(colours))]
    placed = {card for stack in observation.queue for card in stack}
    for zone in (observation.seat_reserve, observation.seat_discarded, observation.seat_eliminated):
        for cards in zone:
            placed.update(cards)
    hands: list[tuple[CardId, ...]] = []
    set_aside: list[tuple[CardId, ...]] = []
    for seat, family in enumerate(observation.families):
        if family == observation.family:
            hands.append(observation.hand)
            set_aside.append(observation.set_aside)
            continue
        ids = [card for card, colour in enumerate(colours) if colour == family]
        unknown = [card for card in ids if not keys[card]]
        pool = Counter(observation.cards)
        pool.subtract(keys[card] for card in ids if keys[card])
        left = sorted(pool.elements())
        if min(pool.values(), default=0) < 0 or len(left) != len(unknown):
            raise DeterminiseError(
                f"{family}'s known cards do not fit its card list "
                f"({len(unknown)} unseen cards, {len(left)} keys left to deal)"
            )
        rng.shuffle(left)
        for card, key in zip(unknown, left, strict=True):
            keys[card] = key
        # Which unseen ids are in hand and which set aside is not seen either.
        hidden = [card for card in ids if card not in placed]
        rng.shuffle(hidden)
        in_hand = observation.hand_counts[seat]
        aside = observation.set_aside_counts[seat]
        if len(hidden) != in_hand + aside:
            raise DeterminiseError(
                f"{family} has {len(hidden)} cards out of play, not the "
                f"{in_hand + aside} its hand and set-aside cards count"
            )
        hands.append(tuple(sorted(hidden[:in_hand])))
        set_aside.append(tuple(sorted(hidden[in_hand:])))
    return keys, tuple(hands), tuple(set_aside)


def _pending(decision: Decision | None, state: State) -> Decision | None:
    """The pending decision; another family's placement is rebuilt from its dealt hand."""
    if decision is None or decision.options:
        return decision
    if decision.kind != "place":
        raise DeterminiseError(
            f"{decision.family}'s {decision.kind} decision hides its options: "
            "it cannot be rebuilt from this observation"
        )
    family = decision.family
    spots = Effects(state, state.rules).spots(family)
    return Decision(family, "place", Placements(state.hands[state.seat[family]], spots))
