"""The house rules' own tests, written as a plugin author would, with oriflamme.testing."""

from __future__ import annotations

import random
from pathlib import Path

import oriflamme_house_rules

from oriflamme import CardId, Game, GameConfig, Placement
from oriflamme.bots import make_bot
from oriflamme.events import Eliminated, Gained, Placed, Stolen
from oriflamme.saves import load
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


# The Pickpocket's question, as the engine asks it.

ROBBING = {
    "round": 2,
    "phase": "resolution",
    "influence": {"red": 1, "blue": 2, "green": 5},
    "queue": [
        {"card": "blue.soldier", "up": True},
        {"card": "red.pickpocket", "tokens": 1},
        "green.lord",
    ],
    "resolving": 1,
    "hands": {
        "red": ["red.spy", "red.heir"],
        "blue": ["blue.spy", "blue.heir"],
        "green": ["green.spy", "green.heir"],
    },
}


def asked() -> Game:
    """The game at red's Pickpocket's question: rob blue (position 0) or green (2)."""
    game = game_at(ROBBING, sets=["base", "house"], plugins=PLUGINS)
    game.answer(True)  # red reveals its Pickpocket
    return game


def test_the_pickpocket_asks_its_family_which_neighbour_to_rob() -> None:
    game = asked()
    decision = game.decision
    assert decision is not None
    # A target question, to red, among the positions of both neighbours; the decision
    # names the asking ability, so that a person and a bot know what it is for.
    assert (decision.family, decision.kind, decision.options) == ("red", "target", (0, 2))
    assert decision.ability == "pickpocket"
    game.answer(2)
    assert Stolen("red", "green", 1, decision.card) in game.events
    assert game.scores == {"red": 3, "blue": 2, "green": 4}


def in_hand(game: Game, family: str, key: str) -> CardId:
    """``family``'s card ``key``, from its hand as the family sees it."""
    seen = game.observe(family)
    return next(card for card in seen.hand if seen.key(card) == key)


def test_a_game_saved_at_the_pickpockets_question_loads_and_goes_on() -> None:
    # A game dealt as the rules deal it (a save holds only such games), the Pickpocket
    # placed between blue's Heir and green's.
    registry = registry_with(PLUGINS)
    cards = ("pickpocket", "heir", "lord", "spy", "soldier", "archer", "conspiracy")
    config = GameConfig(seed=5, first_player="red", sets=("base", "house"), cards=cards)
    game = Game.new(config, registry=registry)
    game.answer(Placement(in_hand(game, "red", "pickpocket"), "first"))
    game.answer(Placement(in_hand(game, "blue", "heir"), "first"))
    game.answer(Placement(in_hand(game, "green", "heir"), "last"))
    game.answer(False)  # blue keeps its Heir hidden
    game.answer(True)  # red reveals its Pickpocket: which neighbour to rob?
    decision = game.decision
    assert decision is not None
    assert (decision.family, decision.kind, decision.options) == ("red", "target", (0, 2))
    # The plugin declares loadable_saves: its continuation checks what it is handed.
    loaded = load(game.to_json(), registry=registry)
    assert loaded.decision == decision
    loaded.answer(2)
    assert loaded.scores == {"red": 2, "blue": 1, "green": 0}


def test_the_house_bot_robs_the_richest_neighbour() -> None:
    game = asked()
    decision = game.decision
    assert decision is not None
    bot = make_bot("house_heuristic", registry=registry_with(PLUGINS), seed=3)
    assert bot.choose(game.observe("red")) == 2  # green holds 5, blue 2
