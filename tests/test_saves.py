"""Saving and loading: a game comes back identical, and plays on identically."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from oriflamme import Game, Registry, SaveError, Variant, hookimpl
from oriflamme.bots import RandomBot, play_out
from oriflamme.saves import load

from .helpers import label, new_game, random_bots


def test_a_saved_game_loads_back_identical_at_every_step(registry: Registry) -> None:
    seed = 99
    print(f"seed={seed}")
    game = new_game(registry, seed)
    steps = 0

    def check(game: Game, _answer: object) -> None:
        nonlocal steps
        steps += 1
        loaded = load(game.to_json(), registry=registry)
        assert loaded == game, f"seed {seed}, step {steps}"
        assert loaded.decision == game.decision

    play_out(game, random_bots(game, seed), on_answer=check)
    assert game.over
    assert load(game.to_json(), registry=registry).winners == game.winners


def test_a_reloaded_game_plays_on_like_the_original(registry: Registry) -> None:
    for seed in range(20):
        print(f"seed={seed}")
        game = new_game(registry, seed)
        bots = random_bots(game, seed)
        for _ in range(seed + 10):
            decision = game.decision
            assert decision is not None
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
        copy = load(game.to_json(), registry=registry)
        tail = {f: RandomBot(seed * 100 + i) for i, f in enumerate(game.families)}
        tail_copy = {f: RandomBot(seed * 100 + i) for i, f in enumerate(game.families)}
        play_out(game, tail)
        play_out(copy, tail_copy)
        assert copy == game


def test_a_clone_is_independent(registry: Registry) -> None:
    game = new_game(registry, 3)
    clone = game.clone()
    assert clone == game
    play_out(clone, random_bots(clone, 3))
    assert clone.over
    assert not game.over
    assert game.snapshot() == new_game(registry, 3).snapshot()


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: "not json", "not a saved game: line 1"),
        (lambda d: json.dumps({"x": 1}), "the 'format' field is missing or wrong"),
        (lambda d: json.dumps({**d, "version": 99}), "saved game version 99 is not supported"),
        (
            lambda d: json.dumps({**d, "version": 1}),
            r"version 1 is not supported \(this engine reads version 2\)",
        ),
        (lambda d: json.dumps({**d, "identity": [["red", "unicorn"]]}), "card 'unicorn'"),
        (lambda d: json.dumps({**d, "queue": 5}), "the saved queue must be a list"),
        (lambda d: json.dumps({**d, "round": 9}), "round must be a whole number from 1 to 6"),
        (lambda d: json.dumps({**d, "round": 2.0}), "round must be a whole number"),
        (lambda d: json.dumps({**d, "round": True}), "round must be a whole number"),
        (lambda d: json.dumps(d).replace('"round": 1', '"round": NaN'), "NaN is not a number"),
        (lambda d: json.dumps(d).replace('"round": 1', '"round": 1' + "0" * 5000), "digits"),
        (lambda d: "[" * 100_000 + "]" * 100_000, "not a saved game"),
        (
            lambda d: json.dumps({**d, "influence": {**d["influence"], "red": -1}}),
            "influence.red must be a whole number from 0",
        ),
        (
            lambda d: json.dumps({**d, "config": {**d["config"], "families": ["red", "blue"]}}),
            "3 to 5 families",
        ),
        (
            lambda d: json.dumps(
                {**d, "config": {**d["config"], "families": ["red\n", "blue", "green"]}}
            ),
            "family name",
        ),
        (
            # A card in two places: in red's hand and in the queue.
            lambda d: json.dumps({**d, "queue": [[d["hands"]["red"][0]]]}),
            "breaks a rule of the game: red.* is in queue position 0 and in red's hand",
        ),
        (
            lambda d: json.dumps({**d, "tasks": [[None, "finish", 0, []]] * 101}),
            "tasks must be a list of at most 100",
        ),
        (
            lambda d: json.dumps({**d, "tasks": [[None, "finish", 0, []]]}),
            "the engine's own work waiting is not the end of the acting card's turn",
        ),
        (
            lambda d: json.dumps({**d, "pending": None}),
            "no question is asked, yet the game is not over",
        ),
        (
            lambda d: json.dumps({**d, "pending": {**d["pending"], "family": "blue"}}),
            "blue is asked to place, but it is not its turn",
        ),
        (
            lambda d: json.dumps(
                {**d, "log": [{"kind": "gained", "family": "red", "amount": 1.5}]}
            ),
            r"log\[0\].amount must be a whole number",
        ),
        (
            lambda d: json.dumps(
                {
                    **d,
                    "config": {**d["config"], "sets": ["gone"]},
                    "rules": {**d["rules"], "sets": ["gone"]},
                }
            ),
            "cannot be played here: unknown card set 'gone'",
        ),
        (
            lambda d: json.dumps({**d, "rules": {**d["rules"], "sets": ["ablaze"]}}),
            "the saved rules.sets must be the sets of config.sets",
        ),
    ],
)
def test_a_bad_save_is_refused_plainly(registry: Registry, mangle: object, message: str) -> None:
    data = new_game(registry, 1).snapshot()
    with pytest.raises(SaveError, match=message):
        load(mangle(data), registry=registry)  # type: ignore[operator]


def test_a_save_names_its_plugins_and_a_missing_or_other_one_is_refused() -> None:
    def house_registry(version: str) -> Registry:
        reg = Registry(entry_points=False)
        reg.register(
            SimpleNamespace(
                register_variants=hookimpl(
                    lambda: [Variant("loud", (False, True), False, "Shout.")]
                )
            ),
            "house",
            distribution="house-rules",
            version=version,
        )
        return reg

    game = new_game(house_registry("1.0"), 5, variants={"loud": True})
    saved = game.snapshot()["rules"]["plugins"]
    assert ["house", "house-rules", "1.0"] in saved
    text = game.to_json()
    assert load(text, registry=house_registry("1.0")) == game
    with pytest.raises(
        SaveError,
        match=r"^this game was saved with plugin 'house' "
        r"\(house-rules 1.0\), which is not installed here",
    ):
        load(text, registry=Registry(entry_points=False))
    with pytest.raises(
        SaveError, match=r"saved with plugin 'house' version 1\.0; version 2\.0 is installed here"
    ):
        load(text, registry=house_registry("2.0"))
    loaded = load(text, registry=house_registry("2.0"), allow_other_versions=True)
    assert loaded.rules.variants["loud"] is True
    # A plugin the game does not use is not recorded: a base game saves only base.
    plain = new_game(house_registry("1.0"), 5)
    assert [p[0] for p in plain.snapshot()["rules"]["plugins"]] == ["base"]


def test_a_save_is_version_2_and_names_every_card_id(registry: Registry) -> None:
    seed = 17
    print(f"seed={seed}")
    game = new_game(registry, seed, 4, sets=("ablaze",))
    data = game.snapshot()
    assert (data["format"], data["version"]) == ("oriflamme-save", 2)
    # The identity gives each id its colour and key, from which its label is made.
    assert len(data["identity"]) == 4 * len(game.cards)
    for card, (colour, key) in enumerate(data["identity"]):
        assert label(game, card).split(".")[:2] == [colour, key]
    loaded = load(game.to_json(), registry=registry)
    assert loaded.position() == game.position()
    assert loaded.position().ids == game.position().ids


def at_a_target_decision(registry: Registry) -> tuple[Game, int]:
    """The first game (by seed, from 0) that random bots bring to a target decision."""
    for seed in range(50):
        print(f"seed={seed}")
        game = new_game(registry, seed)
        bots = random_bots(game, seed)
        decision = game.decision
        while decision is not None and decision.kind != "target":
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
            decision = game.decision
        if decision is not None:
            return game, seed
    raise AssertionError("no seed from 0 to 49 reached a target decision")


@pytest.mark.parametrize(
    ("field", "continuation", "message"),
    [
        (
            "resume",
            [None, "gain", 0, ["red", 1000]],
            "continues with 'gain', not a step of the engine",
        ),
        (
            "resume",
            ["archer", "__init__", 0, []],
            "continues with archer.__init__, which is not a method of a registered ability",
        ),
        ("tasks", [[None, "gain", 0, ["red", 1000]]], "'gain', not a step of the engine"),
        ("tasks", [["archer", "_hidden", 0, []]], "archer._hidden, which is not a method"),
    ],
)
def test_a_continuation_that_is_not_an_ability_method_or_an_engine_step_is_refused(
    registry: Registry, field: str, continuation: object, message: str
) -> None:
    game, seed = at_a_target_decision(registry)
    data = game.snapshot()
    assert data["resume"] is not None
    assert load(json.dumps(data), registry=registry) == game, f"seed {seed}"
    with pytest.raises(SaveError) as error:
        load(json.dumps({**data, field: continuation}), registry=registry)
    assert message in str(error.value)
