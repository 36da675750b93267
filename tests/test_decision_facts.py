"""What a question is about, on the decision itself: the key of the asking ability
(``Decision.ability``: a Shapeshifter's copied card's) and the other card it is about
(``Decision.subject``: the card a Royal Decree moves). Both are public at the table,
kept through masking, saves and pickles; old saves without them still load."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import HeuristicBot, IsmctsBot, RandomBot, bot_seed
from oriflamme.saves import load
from oriflamme.testing import game_at, registry_with
from oriflamme.text import table

from .helpers import card_id

FAMILIES = ("red", "blue", "green")
BASE = (
    "spy",
    "heir",
    "lord",
    "soldier",
    "archer",
    "assassination",
    "conspiracy",
    "royal_decree",
    "shapeshifter",
    "ambush",
)


def at(queue: list[Any]) -> Game:
    """The last round's resolution at ``queue``, each family's other cards in hand (one),
    set aside (three) and discarded: a game a save holds."""
    queued = {entry if isinstance(entry, str) else entry["card"] for entry in queue}
    state: dict[str, Any] = {"round": 6, "phase": "resolution", "queue": queue}
    for zone in ("hands", "set_aside", "discarded"):
        state[zone] = {}
    for family in FAMILIES:
        left = [f"{family}.{key}" for key in BASE if f"{family}.{key}" not in queued]
        state["hands"][family] = left[:1]
        state["set_aside"][family] = left[1:4]
        state["discarded"][family] = left[4:]
    return game_at(state, sets=["base"])


def copying_an_archer() -> Game:
    """Red's Shapeshifter, revealed, copies the blue Archer beside it: red is asked
    which end of the queue its Archer's ability hits."""
    game = at(
        [
            {"card": "green.heir", "up": True},
            "red.shapeshifter",
            {"card": "blue.archer", "up": True},
            {"card": "blue.lord", "up": True},
        ]
    )
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.ability) == ("reveal", None)
    game.answer(True)
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.ability) == ("target", "shapeshifter")
    assert decision.subject is None
    game.answer(2)  # the Archer's position
    return game


def moving_a_card() -> tuple[Game, int]:
    """Red's Royal Decree, revealed, moves the blue Soldier: red is asked where to;
    the Soldier's id."""
    game = at(
        [
            "red.royal_decree",
            {"card": "blue.soldier", "up": True},
            {"card": "green.heir", "up": True},
        ]
    )
    game.answer(True)
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.ability, decision.subject) == ("target", "royal_decree", None)
    game.answer(1)
    return game, card_id(game, "blue.soldier")


def test_a_shapeshifter_copying_an_archer_asks_as_the_archer() -> None:
    game = copying_an_archer()
    decision = game.decision
    assert decision is not None
    assert (decision.family, decision.kind) == ("red", "target")
    assert decision.ability == "archer"
    assert decision.card == card_id(game, "red.shapeshifter")
    assert decision.subject is None
    for family in (None, *game.families):
        seen = game.observe(family).decision
        assert seen is not None
        assert (seen.ability, seen.subject) == ("archer", None)
    assert decision.to_dict()["ability"] == "archer"
    # The words name the copied card, from the decision.
    assert "copying an Archer" in table(game.observe("red"), game.rules)


def test_a_royal_decree_names_the_card_it_moves() -> None:
    game, soldier = moving_a_card()
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.ability, decision.subject) == ("move", "royal_decree", soldier)
    assert decision.to_dict()["subject"] == soldier
    for family in (None, *game.families):
        seen = game.observe(family).decision
        assert seen is not None
        assert seen.subject == soldier
    # The heuristic bot reads the moved card from the decision.
    assert HeuristicBot(0).choose(game.observe("red")) in decision.options


@pytest.mark.parametrize("made", ["archer", "decree"])
def test_a_saved_question_reads_back_equal(made: str) -> None:
    game = copying_an_archer() if made == "archer" else moving_a_card()[0]
    registry = registry_with()
    loaded = load(game.to_json(), registry=registry)
    assert loaded.decision == game.decision
    assert loaded.observe("red") == game.observe("red")
    back = pickle.loads(pickle.dumps(game.observe("red")))
    assert back == game.observe("red")
    assert back.decision == game.decision


def test_a_save_written_before_the_subject_still_loads() -> None:
    game, _ = moving_a_card()
    data = json.loads(game.to_json())
    assert "subject" in data["pending"]
    del data["pending"]["subject"]  # as saves were written before it
    loaded = load(json.dumps(data), registry=registry_with())
    decision = loaded.decision
    assert decision is not None
    assert (decision.kind, decision.ability, decision.subject) == ("move", "royal_decree", None)
    assert loaded.decision == game.decision._replace(subject=None)  # type: ignore[union-attr]
    # A bot still answers it.
    assert HeuristicBot(0).choose(loaded.observe("red")) in decision.options
    # A save with no subject to write writes none: its text is as it was.
    assert "subject" not in json.loads(copying_an_archer().to_json())["pending"]


def test_a_saved_subject_must_be_in_the_queue() -> None:
    game, _ = moving_a_card()
    data = json.loads(game.to_json())
    data["pending"]["subject"] = card_id(game, "red.spy")  # in red's hand
    with pytest.raises(Exception, match="not in the queue"):
        load(json.dumps(data), registry=registry_with())


def test_an_ismcts_bot_plays_a_whole_game(registry: Registry) -> None:
    seed = 77
    print(f"seed={seed}")
    game = Game.new(GameConfig(families=COLOURS[:3], seed=seed), registry=registry)
    bots = {family: RandomBot(bot_seed(seed, seat)) for seat, family in enumerate(game.families)}
    searcher = IsmctsBot(seed, registry=registry, iterations=4, playout="random")
    decisions = 0
    while (decision := game.decision) is not None:
        seen = game.observe(decision.family)
        bot = searcher if decision.family == "red" else bots[decision.family]
        game.answer(bot.choose(seen))
        decisions += 1
    assert game.over
    assert decisions > 20
