"""The observation vector: every slot named, and each block holding what the agent's
own view shows, checked against that view in seeded games of every kind."""

from __future__ import annotations

import random

import pytest

from oriflamme import Game, GameConfig, Registry
from oriflamme.rl.actions import POSITIONS, card_pool
from oriflamme.rl.observations import QUESTIONS, SEAT_FIELDS, SEATS, Encoding

CONFIGS = [
    GameConfig(families=("red", "blue", "green"), sets=("base",)),
    GameConfig(families=("red", "blue", "green", "yellow"), sets=("ablaze",)),
    GameConfig(families=tuple("abcde"), sets=("base", "ablaze")),
]


def slot(encoding: Encoding, vector: list[float], name: str) -> float:
    return vector[encoding.names().index(name)]


def test_the_blocks_have_the_documented_sizes() -> None:
    encoding = Encoding(["soldier", "archer", "lord"])
    k = 3
    assert encoding.size == (
        6 + 3 + 5 + 5 + 5 + len(QUESTIONS) + SEATS * len(SEAT_FIELDS) + 2 * k
    ) + SEATS * 3 * (k + 1) + POSITIONS * (k + 18)
    assert encoding.per_position == k + 18
    assert encoding.names()[encoding.queue_start] == "queue[0].occupied"
    assert encoding.names()[-1] == "queue[39].asked_about"


@pytest.mark.parametrize("number", range(6))
def test_each_block_holds_what_the_view_shows(number: int) -> None:
    seed = 4000 + number
    print(f"seed {seed}")
    registry = Registry(entry_points=False)
    config = CONFIGS[number % len(CONFIGS)]
    encoding = Encoding(card_pool(config, registry))
    game = Game.new(config, registry=registry, seed=seed)
    rng = random.Random(seed)
    while True:
        for me, family in enumerate(game.families):
            seen = game.observe(family)
            vector = encoding.encode(seen)
            assert min(vector) >= 0
            assert slot(encoding, vector, f"round={seen.round}") == 1
            assert slot(encoding, vector, f"phase={seen.phase}") == 1
            for seat, other in enumerate(game.families):
                rel = (seat - me) % len(game.families)
                assert slot(encoding, vector, f"seat[{rel}].influence") == seen.influence[other]
                assert slot(encoding, vector, f"seat[{rel}].hand") == seen.hand_sizes[other]
            for key in encoding.cards:
                held = sum(seen.key(card) == key for card in seen.hand)
                assert slot(encoding, vector, f"hand.{key}") == held
            for position, stack in enumerate(seen.queue):
                top = stack[-1]
                shown = seen.key(top) or "unknown"
                assert slot(encoding, vector, f"queue[{position}].occupied") == 1
                assert slot(encoding, vector, f"queue[{position}].key={shown}") == 1
                assert slot(encoding, vector, f"queue[{position}].face_up") == seen.is_up(top)
                tokens = seen.tokens_on(top)
                assert slot(encoding, vector, f"queue[{position}].tokens") == tokens
            for position in range(len(seen.queue), POSITIONS):
                assert slot(encoding, vector, f"queue[{position}].occupied") == 0
            if seen.decision is not None:
                rel = (game.families.index(seen.decision.family) - me) % len(game.families)
                assert slot(encoding, vector, f"asked=seat[{rel}]") == 1
        if game.over:
            break
        decision = game.decision
        assert decision is not None
        game.answer(rng.choice(decision.options))


def test_a_spectator_has_no_vector() -> None:
    game = Game.new(CONFIGS[0], registry=Registry(entry_points=False), seed=1)
    with pytest.raises(ValueError, match="one family's own observation"):
        Encoding(game.cards).encode(game.observe(None))
