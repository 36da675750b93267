"""The house rules' own tests, written as a plugin author would, with oriflamme.testing."""

from __future__ import annotations

import random
from pathlib import Path

import oriflamme_house_rules

from oriflamme import Game, GameConfig
from oriflamme.events import Eliminated, Gained, Placed
from oriflamme.testing import game_at, registry_with, scenario_tests

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
PLUGINS = {"house": oriflamme_house_rules}

test_scenarios = scenario_tests(SCENARIOS, plugins=PLUGINS)


def test_a_jester_alone_gains_nothing() -> None:
    game = game_at(
        {
            "round": 2,
            "phase": "resolution",
            "queue": [{"card": "red.jester", "up": True}],
            "hands": {
                "red": ["red.spy", "red.heir"],
                "blue": ["blue.spy", "blue.heir"],
                "green": ["green.spy", "green.heir"],
            },
        },
        sets=["base", "house"],
        plugins=PLUGINS,
    )
    position = game.position()
    assert position.influence == {"red": 1, "blue": 1, "green": 1}
    assert position.queue[0][0].up  # the Jester resolved, face up, and stays
    assert game.round == 3


def test_a_bounty_is_paid_whatever_the_eliminating_cards_id() -> None:
    """Every elimination of a face-down card holding tokens pays them to the owner of the
    card that eliminated it: card ids are opaque, and 0 is an id like any other."""
    registry = registry_with(PLUGINS)
    drawn = random.Random("bounty")
    seeds = [drawn.getrandbits(63) for _ in range(400)]  # as the server draws them
    paid = 0
    by_zero = 0
    for seed in seeds:
        config = GameConfig(sets=("base", "house"), seed=seed, variants={"bounty": True})
        game = Game.new(config, registry=registry)
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            game.answer_option(rng.randrange(len(decision.options)))
        events = game.events
        # Base and house cards only: a card's owner is who placed it, all game long.
        owners = {e.card: e.family for e in events if isinstance(e, Placed)}
        for at, event in enumerate(events):
            if not (isinstance(event, Eliminated) and event.face_down and event.tokens):
                continue
            if event.by is None:
                continue
            owner = owners[event.by]
            assert Gained(owner, event.tokens, event.by) in events[at + 1 :], f"seed {seed}"
            paid += 1
            by_zero += event.by == 0
    print(f"{len(seeds)} games: {paid} bounties, {by_zero} by card 0")
    assert by_zero > 0  # else this test could not see the fault it is for
