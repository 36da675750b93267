"""The observation vector: every slot named, and each block holding what the agent's
own view shows, checked against that view in seeded games of every kind."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from oriflamme import PHASES, Game, GameConfig, Observation, Registry
from oriflamme.rl.actions import POSITIONS, card_pool
from oriflamme.rl.observations import (
    PILES,
    QUESTIONS,
    ROUNDS,
    SEAT_FIELDS,
    SEATS,
    Encoding,
)

CONFIGS = [
    GameConfig(families=("red", "blue", "green"), sets=("base",)),
    GameConfig(families=("red", "blue", "green", "yellow"), sets=("ablaze",)),
    GameConfig(families=tuple("abcde"), sets=("base", "ablaze")),
]
REGISTRY = Registry(entry_points=False)


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


def reference(encoding: Encoding, seen: Observation) -> list[float]:
    """The vector as the module's table defines it, slot by slot: the encoder as it was
    first written, kept here to check the fast one against."""
    family = seen.family
    assert family is not None
    count = len(seen.families)
    me = seen.families.index(family)

    def rel(seat: int) -> int:
        return (seat - me) % count

    by_family = {name: rel(seat) for seat, name in enumerate(seen.families)}
    out = [0.0] * encoding.size
    at = 0
    if 1 <= seen.round <= ROUNDS:
        out[seen.round - 1] = 1.0
    at += ROUNDS
    out[at + PHASES.index(seen.phase)] = 1.0
    at += len(PHASES)
    for seat in range(count):
        out[at + seat] = 1.0
    at += SEATS
    out[at + by_family[seen.first_player]] = 1.0
    at += SEATS
    decision = seen.decision
    if decision is not None:
        out[at + by_family[decision.family]] = 1.0
        kind = decision.kind if decision.kind in QUESTIONS else "other"
        out[at + SEATS + QUESTIONS.index(kind)] = 1.0
    at += SEATS + len(QUESTIONS)
    sizes = (
        tuple(seen.influence.values()),
        tuple(seen.hand_sizes.values()),
        tuple(seen.set_aside_sizes.values()),
        tuple(map(len, seen.reserve.values())),
        tuple(map(len, seen.discarded.values())),
        tuple(map(len, seen.eliminated.values())),
    )
    width = len(SEAT_FIELDS)
    for field, values in enumerate(sizes):
        for seat, value in enumerate(values):
            out[at + rel(seat) * width + field] = float(value)
    at += SEATS * width
    for zone in (seen.hand, seen.set_aside):
        for card in zone:
            out[at + encoding.type_of(seen, card)] += 1.0
        at += len(encoding.cards)
    for pile, by_owner in enumerate((seen.reserve, seen.discarded, seen.eliminated)):
        for seat, cards in enumerate(by_owner.values()):
            base = at + (rel(seat) * len(PILES) + pile) * encoding.types
            for card in cards:
                out[base + encoding.type_of(seen, card)] += 1.0
    at += SEATS * len(PILES) * encoding.types
    assert at == encoding.queue_start
    about = decision.card if decision is not None else None
    for position, stack in enumerate(seen.queue[:POSITIONS]):
        base = encoding.queue_start + position * encoding.per_position
        card = stack[-1]
        out[base] = 1.0
        out[base + 1 + by_family[seen.owner(card)]] = 1.0
        out[base + 1 + SEATS + by_family[seen.colours[card]]] = 1.0
        out[base + 1 + 2 * SEATS] = float(seen.is_up(card))
        flags = base + 2 + 2 * SEATS
        out[flags + encoding.type_of(seen, card)] = 1.0
        flags += encoding.types
        out[flags] = float(seen.tokens.get(card, 0))
        out[flags + 1] = float(len(stack) - 1)
        out[flags + 2] = float(card == seen.acting)
        out[flags + 3] = float(card == seen.revealing)
        out[flags + 4] = float(card == about)
    return out


def observed(config: GameConfig, seed: int) -> Iterator[tuple[Game, Observation]]:
    """Every family's observation at every step of one random game of ``config``."""
    game = Game.new(config, registry=REGISTRY, seed=seed)
    rng = random.Random(seed)
    while True:
        for family in game.families:
            yield game, game.observe(family)
        decision = game.decision
        if decision is None:
            return
        game.answer(rng.choice(decision.options))


def test_the_vector_is_the_tables_slot_for_slot_in_many_seeded_games() -> None:
    seeds = range(4100, 4116)
    print(f"seeds {seeds.start} to {seeds.stop - 1}")
    held: set[str] = set()
    bribed = compared = 0
    for seed in seeds:
        config = CONFIGS[seed % len(CONFIGS)]
        encoding = Encoding(card_pool(config, REGISTRY))
        names = encoding.names()
        for _, seen in observed(config, seed):
            expected = reference(encoding, seen)
            assert encoding.encode(seen) == expected, f"seed {seed}"
            found = encoding.nonzero(seen)
            assert found == {i: v for i, v in enumerate(expected) if v}, f"seed {seed}"
            compared += 1
            held.update(
                names[slot].split(".", 1)[1] for slot in found if slot >= encoding.queue_start
            )
            bribed += any(seen.owner(s[-1]) != seen.colours[s[-1]] for s in seen.queue)
    print(f"{compared} observations, {bribed} with a bribed card")
    # Every flag of a queue position was set somewhere, so each was compared.
    assert {"face_up", "tokens", "under", "acting", "revealing", "asked_about"} <= held
    assert bribed
    assert compared > 1000


def test_the_openspiel_observers_tensors_are_the_vector_and_the_action_counts() -> None:
    np = pytest.importorskip("numpy")
    from oriflamme.rl.openspiel_observer import OriflammeObserver  # noqa: PLC0415

    class Table:
        """What the observer reads of an OpenSpiel state, from an engine's game."""

        def __init__(self, game: Game, actions: list[int]) -> None:
            self.game, self.actions = game, actions

        def observation_of(self, player: int) -> Observation | None:
            return self.game.observe(self.game.families[player])

        def own_actions(self, player: int) -> list[int]:
            return self.actions

        def deal_drawn(self) -> int:
            return 4

        def information_text(self, player: int) -> str:
            return ""

    seed = 4200
    print(f"seed {seed}")
    config = CONFIGS[2]
    pool = card_pool(config, REGISTRY)
    encoding = Encoding(pool)
    plain = OriflammeObserver(encoding, 30, perfect_recall=False)
    recall = OriflammeObserver(encoding, 30, perfect_recall=True)
    rng = random.Random(seed)
    for game, seen in observed(config, seed):
        player = game.families.index(seen.family)
        actions = [rng.randrange(30) for _ in range(rng.randrange(8))]
        table = Table(game, actions)
        expected = reference(encoding, seen)
        assert encoding.array(seen).tolist() == expected
        # An array given is zeroed first: nothing of what it held stays.
        held = np.full(encoding.size, 7.0, np.float32)
        assert encoding.array(seen, held) is held
        assert held.tolist() == expected
        plain.set_from(table, player)
        assert plain.tensor.tolist() == expected
        recall.set_from(table, player)
        counts = [float(actions.count(a)) for a in range(30)]
        assert recall.tensor.tolist() == expected + counts
        assert recall.dict["own_actions"].dtype == np.float32
