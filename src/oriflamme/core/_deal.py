"""Setting up a new game by the rulebook (RULINGS G2): shuffle each family's cards, keep
7 in hand, set the rest aside, and put the reserve cards (Ablaze's Twin) beside it.

Card ids are handed out after the shuffle, family by family: each family's block of
ids holds its cards in shuffled order, the hand first. An id therefore tells nothing
about the card behind it; only the colour of its block, which the card's back shows.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ._config import DIRECTIONS, GameConfig
from ._identity import CardId, Identity
from ._rules import GameRules
from ._state import State

HAND_SIZE = 7  # RULINGS G2: every family keeps 7 cards; the rest are set aside


@lru_cache(maxsize=64)
def _colours(families: tuple[str, ...], size: int) -> tuple[str, ...]:
    """The colour of every card id: ``size`` ids per family, in seat order."""
    return tuple(family for family in families for _ in range(size))


def deal(
    config: GameConfig,
    rules: GameRules,
    cards: tuple[str, ...],
    rng: random.Random,
    *,
    seed: int,
    recording: bool = True,
) -> State:
    """The state of a new game of ``cards`` (the card list), dealt with ``rng``.

    Its first player and the direction tile come from ``config`` or, when it leaves
    them open, from ``rng``; then each family's cards are shuffled in seat order.
    """
    draw = rng.random  # int(random() * n) is uniform to within n / 2**53
    families = config.families
    first = config.first_player or families[int(draw() * len(families))]
    direction = config.direction or DIRECTIONS[int(draw() * len(DIRECTIONS))]
    dealt = rules.shuffled
    shuffled = [key for key in cards if key in dealt]
    waiting = tuple(key for key in cards if key not in dealt)
    size = len(cards)
    count = len(shuffled)
    keys: list[str] = []
    hands: list[tuple[CardId, ...]] = []
    set_aside: list[tuple[CardId, ...]] = []
    reserve: list[tuple[CardId, ...]] = []
    for seat in range(len(families)):
        deck = shuffled.copy()
        for i in range(count - 1, 0, -1):  # Fisher-Yates
            j = int(draw() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        keys += deck
        keys += waiting
        start = seat * size
        # Which ids are set aside is drawn too, so that an id does not tell whether
        # its card was dealt into the hand.
        ids = list(range(start, start + count))
        for i in range(count - HAND_SIZE):
            j = i + int(draw() * (count - i))
            ids[i], ids[j] = ids[j], ids[i]
        set_aside.append(tuple(sorted(ids[: count - HAND_SIZE])))
        hands.append(tuple(sorted(ids[count - HAND_SIZE :])))
        reserve.append(tuple(range(start + count, start + size)))
    identity = Identity(_colours(families, size), keys)
    state = State.empty(
        rules, config, identity, cards=cards, direction=direction, recording=recording
    )
    state.seed = seed
    state.set_zone("hands", tuple(hands))
    state.set_zone("set_aside", tuple(set_aside))
    state.reserve = tuple(reserve)
    # The reserve waits face up beside its family: every family sees it.
    if waiting:
        public = [""] * len(keys)
        for waiting_ids in reserve:
            for card in waiting_ids:
                public[card] = keys[card]
        state.public = tuple(public)
    state.first = families.index(first)
    return state
