"""The ISMCTS bot: a search bounded by iterations or time, reproducible from its seed,
that finds the answer that wins where one does."""

from __future__ import annotations

import time

import pytest

from oriflamme import Game, GameConfig, Registry
from oriflamme.bots import IsmctsBot
from oriflamme.testing import game_at

FAMILIES = ("red", "blue", "green")
USED = ("archer", "soldier", "spy", "heir", "assassination", "conspiracy")


def test_it_finds_the_winning_reveal_in_the_last_round(registry: Registry) -> None:
    # Round 6, every card of each family somewhere (a search deals the unseen ones):
    # red's Conspiracy carries 3 tokens; revealing it brings 6 and the win (7 to
    # blue's 4 + 2 from its Heir), keeping it face down loses.
    game = game_at(
        {
            "round": 6,
            "phase": "resolution",
            "queue": [{"card": "red.conspiracy", "tokens": 3}, {"card": "blue.heir", "up": True}],
            "hands": {f: [f"{f}.royal_decree"] for f in FAMILIES},
            "set_aside": {f: [f"{f}.lord", f"{f}.shapeshifter", f"{f}.ambush"] for f in FAMILIES},
            "discarded": {
                f: [
                    f"{f}.{key}"
                    for key in USED
                    if f"{f}.{key}" not in ("red.conspiracy", "blue.heir")
                ]
                for f in FAMILIES
            },
            "influence": {"red": 1, "blue": 4, "green": 0},
        },
        sets=["base"],
    )
    seen = game.observe("red")
    assert seen.decision is not None
    assert seen.decision.kind == "reveal"
    for seed in range(3):
        print(f"seed={seed}")
        bot = IsmctsBot(seed, registry=registry, iterations=20, playout="random")
        assert bot.choose(seen) is True
        assert bot.last_iterations == 20


@pytest.mark.parametrize("playout", ["heuristic", "random"])
def test_the_same_seed_searches_the_same_way(registry: Registry, playout: str) -> None:
    game = Game.new(GameConfig(seed=12, sets=("ablaze",)), registry=registry)
    decision = game.decision
    assert decision is not None
    seen = game.observe(decision.family)
    answers = {IsmctsBot(3, registry=registry, iterations=25, playout=playout).choose(seen)}
    answers.add(IsmctsBot(3, registry=registry, iterations=25, playout=playout).choose(seen))
    assert len(answers) == 1
    assert answers.pop() in decision.options


def test_a_time_budget_bounds_the_search(registry: Registry) -> None:
    game = Game.new(GameConfig(seed=13), registry=registry)
    decision = game.decision
    assert decision is not None
    seen = game.observe(decision.family)
    bot = IsmctsBot(1, registry=registry, iterations=None, seconds=0.2)
    start = time.perf_counter()
    assert bot.choose(seen) in decision.options
    assert time.perf_counter() - start < 2.0  # one iteration past the budget at most
    assert bot.last_iterations >= 1
    both = IsmctsBot(1, registry=registry, iterations=3, seconds=60)
    both.choose(seen)
    assert both.last_iterations == 3  # whichever bound comes first


def test_a_search_needs_a_budget_and_a_known_playout(registry: Registry) -> None:
    with pytest.raises(ValueError, match="give the search a budget"):
        IsmctsBot(1, registry=registry, iterations=None)
    with pytest.raises(ValueError, match="playout must be one of heuristic, learned, random"):
        IsmctsBot(1, registry=registry, playout="clever")
