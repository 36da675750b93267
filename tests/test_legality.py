"""What a save or a position may hold is derived from the card list and the rules, with
or without plugins installed (issue 22, failures 1 and 2), and a plugin's work in a save
is tried before the game is played only where the plugin declares it may be.

Each test names the ruling its check follows (RULINGS.md). Every game is made from a
seed the test prints, and played with answers drawn from it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import oriflamme_house_rules
import pytest

from oriflamme import (
    Ability,
    AbilityError,
    CardId,
    Effects,
    Game,
    GameConfig,
    Placement,
    Position,
    PositionError,
    QueueCard,
    Registry,
    SaveError,
    hookimpl,
    saves,
)
from oriflamme.testing import game_at, registry_with

from .helpers import card_id, label, new_game, one_card_set
from .invariants import broken

BUILT_IN = Registry(entry_points=False)
HOUSE = registry_with({"house": oriflamme_house_rules})
REGISTRIES = {"built-in": BUILT_IN, "house": HOUSE}


def reached(
    registry: Registry,
    found: Callable[[Game], bool],
    *,
    sets: tuple[str, ...] = ("base",),
    families: int = 3,
) -> Game:
    """The first game (by seed, from 0) that random answers bring to a point ``found``
    accepts; the seed is printed."""
    for seed in range(300):
        game = new_game(registry, seed, families, sets=sets)
        rng = random.Random(seed)
        while game.decision is not None:
            if found(game):
                print(f"seed {seed}")
                return game
            game.answer_option(rng.randrange(len(game.decision.options)))
    raise AssertionError("no seed from 0 to 299 reached the point wanted")


def asks(game: Game, kind: str) -> bool:
    return game.decision is not None and game.decision.kind == kind


def load(data: dict[str, Any], registry: Registry) -> Game:
    return saves.load(json.dumps(data), registry=registry)


def refused(data: dict[str, Any], registry: Registry, message: str) -> str:
    """The refusal of ``data``: a one-line SaveError that says ``message``."""
    with pytest.raises(SaveError) as error:
        load(data, registry)
    text = str(error.value)
    assert message in text, text
    assert "\n" not in text
    return text


# Failure 1: illegal saves load, with only the built-in sets (and with a plugin).


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_key_repeated_in_the_card_list_is_refused(name: str) -> None:
    # RULINGS G1: the card list is the one the configuration makes (here the base
    # set's ten cards), each family holding one copy of each.
    registry = REGISTRIES[name]
    game = new_game(registry, 1)
    print("seed 1")
    data = game.snapshot()
    assert load(data, registry) == game
    data["cards"].append("archer")
    refused(data, registry, "the saved card list names 'archer' twice, where set base's list")
    # A game whose configured list repeats a key holds it twice, and loads.
    cards = ("archer", "archer", "soldier", "spy", "heir", "lord", "assassination", "ambush")
    twice = Game.new(GameConfig(seed=2, cards=cards), registry=registry)
    assert twice.cards.count("archer") == 2
    assert load(twice.snapshot(), registry) == twice
    assert broken(twice.snapshot()) is None


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_drawn_card_list_is_one_a_draw_can_give(name: str) -> None:
    # RULINGS G1, G2: a mix draws `size` different cards of its sets, in set order.
    registry = REGISTRIES[name]
    print("seed 3")
    game = Game.new(GameConfig(seed=3, sets=("base", "ablaze"), size=9), registry=registry)
    data = game.snapshot()
    assert load(data, registry) == game
    twice = json.loads(json.dumps(data))
    twice["cards"][1] = twice["cards"][0]
    refused(twice, registry, "9 cards of the sets to shuffle, 8 of them different")
    bigger = json.loads(json.dumps(data))
    bigger["config"]["size"] = 10
    refused(bigger, registry, "it is a draw of 10 different cards of the sets base, ablaze")


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_set_aside_cards_key_changed_to_another_key_is_refused(name: str) -> None:
    # RULINGS G1: each family holds one copy of every card of the list, as dealt.
    registry = REGISTRIES[name]
    game = new_game(registry, 4)
    print("seed 4")
    data = game.snapshot()
    red = data["config"]["families"][0]
    card = data["set_aside"][red][0]
    other = "ambush" if data["identity"][card][1] != "ambush" else "archer"
    data["identity"][card][1] = other
    refused(data, registry, f"{red} holds 2 '{other}' cards, and the card list names 1 '{other}'")


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_hand_card_moved_to_the_set_aside_pile_is_refused(name: str) -> None:
    # RULINGS G2, G4: 7 cards dealt; a card leaves a hand only by being placed.
    registry = REGISTRIES[name]
    game = new_game(registry, 5, first_player="red")
    print("seed 5")
    data = game.snapshot()
    data["set_aside"]["blue"].append(data["hands"]["blue"].pop())
    refused(data, registry, "blue holds 6 cards in round 1 placement: it holds 7")
    # A set-aside card moved into the hand: 8 cards.
    data = game.snapshot()
    data["hands"]["blue"].append(data["set_aside"]["blue"].pop())
    refused(data, registry, "blue holds 8 cards in round 1 placement")


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_hand_card_moved_to_a_pile_is_refused_in_a_later_round(name: str) -> None:
    # RULINGS G4, R5: a card leaves a hand only by being placed, and reaches a pile
    # only from the queue; the pile shows it face up.
    registry = REGISTRIES[name]
    game = reached(registry, lambda g: g.round == 3 and asks(g, "reveal"))
    data = game.snapshot()
    family = data["pending"]["family"]
    card = data["hands"][family].pop()
    data["discarded"][family].append(card)
    data["public"].append(card)
    refused(data, registry, f"{family} holds {len(data['hands'][family])} cards in round 3")


def bribery_point(game: Game) -> bool:
    """A reveal in a later round, green's own face-up Character alone in its position,
    green's Bribery still unplayed (in hand or set aside)."""
    decision = game.decision
    if decision is None or decision.kind != "reveal" or game.round < 2:
        return False
    data = game.snapshot()
    green = data["config"]["families"][2]
    bribery = card_id(game, f"{green}.bribery")
    unplayed = bribery in data["hands"][green] + data["set_aside"][green]
    return unplayed and bool(_own_lone_characters(data, green))


def _own_lone_characters(data: dict[str, Any], family: str) -> list[int]:
    return [
        stack[0]
        for stack in data["queue"]
        if len(stack) == 1
        and stack[0] in data["up"]
        and data["identity"][stack[0]][0] == family
        and stack[0] != data["acting"]
    ]


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_bribery_token_of_a_family_whose_bribery_is_unplayed_is_refused(name: str) -> None:
    # RULINGS A-Bribery: the token is put by playing the Bribery, which is then
    # discarded. On green's own card the token changes no owner (R3): only this rule
    # can refuse it.
    registry = REGISTRIES[name]
    game = reached(registry, bribery_point, sets=("ablaze",))
    data = game.snapshot()
    green = data["config"]["families"][2]
    card = _own_lone_characters(data, green)[0]
    assert load(data, registry) == game
    data["bribes"].append([card, green])
    text = refused(data, registry, f"{green}'s Bribery token is on {label(game, card)}, yet ")
    assert f"{green} has played no Bribery ({green}.bribery is " in text
    assert broken(data) is not None


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_bribery_token_put_by_play_saves_and_loads(name: str) -> None:
    # The same rule never refuses a token the Bribery put (RULINGS A-Bribery).
    registry = REGISTRIES[name]
    game = reached(registry, lambda g: bool(g.snapshot()["bribes"]), sets=("ablaze",))
    data = game.snapshot()
    assert broken(data) is None
    assert load(data, registry) == game


def test_nothing_has_resolved_before_round_ones_resolution() -> None:
    # RULINGS G4, R1: in round 1's placement no card is face up, has tokens, or left.
    game = new_game(BUILT_IN, 6, first_player="red")
    print("seed 6")
    red = game.observe("red").hand
    game.answer(Placement(red[0], "first"))
    data = game.snapshot()
    placed = data["queue"][0][0]
    up = json.loads(json.dumps(data))
    up["up"].append(placed)
    up["public"].append(placed)
    refused(up, BUILT_IN, "is face up in round 1's placement phase: no card has resolved yet")
    tokens = json.loads(json.dumps(data))
    tokens["tokens"].append([placed, 1])
    refused(tokens, BUILT_IN, "carries tokens in round 1's placement phase")


def test_every_save_that_loads_determinises_for_every_family() -> None:
    # Failure 1's symptom: a save that loaded could not be determinised ("red's known
    # cards do not fit its card list"), so a searching bot stopped at its first turn.
    for seed in range(6):
        game = new_game(BUILT_IN, 70 + seed, 3 + seed % 3, sets=("base", "ablaze"))
        print(f"seed {70 + seed}")
        rng = random.Random(seed)
        for _ in range(rng.randrange(20, 60)):
            if game.decision is None:
                break
            game.answer_option(rng.randrange(len(game.decision.options)))
        loaded = load(game.snapshot(), BUILT_IN)
        for family in loaded.families:
            Game.determinise(loaded.observe(family), seed, registry=BUILT_IN)


# Positions: the same rules, as far as a partial position shows them.


def test_a_position_with_a_bribery_token_of_an_unplayed_bribery_is_refused() -> None:
    # RULINGS A-Bribery, checked by the position reader itself (saves.from_position), not
    # only by the scenario reader.
    position = Position(
        queue=((QueueCard("blue.queen", up=True, owner="red"),), (QueueCard("green.felon"),)),
        hands={"red": ("red.bribery",)},
        round=2,
        phase="resolution",
    )
    config = GameConfig(sets=("ablaze",), first_player="red")
    with pytest.raises(PositionError, match=r"red's Bribery token is on blue\.queen, yet red "):
        saves.from_position(position, config, registry=BUILT_IN)
    played = Position(
        queue=position.queue,
        discarded={"red": ("red.bribery",)},
        round=2,
        phase="resolution",
    )
    saves.from_position(played, config, registry=BUILT_IN)


def test_a_position_holds_no_more_set_aside_cards_than_the_deal() -> None:
    # RULINGS G2: the deal sets aside all cards but 7 (3 of the base set's 10).
    aside = tuple(f"red.{key}" for key in ("archer", "soldier", "spy", "heir"))
    with pytest.raises(PositionError, match="red has 4 cards set aside: the deal sets aside 3"):
        game_at({"set_aside": {"red": list(aside)}})
    game_at({"set_aside": {"red": list(aside[:3])}})


def test_a_position_with_a_second_copy_has_a_card_list_that_repeats_it() -> None:
    # FORMAT.md: red.queen.2 is a second Queen: the card list repeats the Queen, so
    # that red's cards fit it (RULINGS G1: one copy of every card of the list each).
    game = game_at(
        {
            "round": 3,
            "phase": "resolution",
            "queue": ["red.impersonation", {"card": "blue.queen", "up": True}],
            "discarded": {"red": ["red.queen.2"]},
            "set_aside": {"red": ["red.queen"]},
        },
        sets=("ablaze",),
    )
    assert game.cards.count("queen") == 2
    assert card_id(game, "red.queen.2") != card_id(game, "red.queen")
    assert game.cards.count("impersonation") == 1  # only the keys shown twice
    # Three copies of one key in one family's zones: the list names it three times.
    third = game_at({"discarded": {"red": ["red.spy", "red.spy.2", "red.spy.3"]}, "round": 2})
    assert third.cards.count("spy") == 3


# What is written is read: a table no rule reaches is not saved.


class Thief(Ability):
    """Takes a card out of its owner's hand and puts it in the queue: what no card of
    the rules does (RULINGS G4)."""

    def activate(self, game: Effects, card: CardId) -> None:
        owner = game.owner(card)
        taken = game.hands[owner][0]
        game.take("hands", owner, taken)
        game.put(taken, owner, "last")


def test_a_game_whose_table_no_rule_reaches_is_not_saved(tmp_path: Path) -> None:
    plugin = SimpleNamespace(
        register_card_sets=hookimpl(lambda: [one_card_set(tmp_path, "thieves", "thief")]),
        register_abilities=hookimpl(lambda: {"thief": Thief()}),
    )
    registry = registry_with({"thieves": plugin})
    game = revealing(registry, "thief", "thieves")
    game.answer(True)
    with pytest.raises(SaveError, match=r"cannot be saved: .*red holds 5 cards in round 1"):
        game.to_json()


# Failure 2: with any plugin installed, the loader went on trying answers no more.


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_royal_decree_move_saved_with_a_family_for_a_card_is_refused(name: str) -> None:
    registry = REGISTRIES[name]
    game = reached(registry, lambda g: asks(g, "move"))
    data = game.snapshot()
    assert data["resume"][:2] == ["royal_decree", "move"]
    assert load(data, registry) == game
    data["resume"][3] = ["red"]
    refused(data, registry, "answering its move decision with 0 leads to a failure")


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_built_in_cards_question_outside_its_turn_is_refused(name: str) -> None:
    # RULINGS R1: a card's ability asks in its turn; an event hook of a plugin
    # installed does not make a built-in card's question possible anywhere else.
    registry = REGISTRIES[name]
    game = reached(registry, lambda g: asks(g, "target"))
    data = game.snapshot()
    data["tasks"] = []
    refused(data, registry, "a target question is asked, yet no card's ability is at work")


class Pointer(Ability):
    """A plugin card that asks its owner for a position and then checks the length of
    the queue it saved with the question."""

    def activate(self, game: Effects, card: CardId) -> None:
        positions = list(range(len(game.queue)))
        game.ask_target(card, positions, self.point, len(game.queue))

    def point(self, game: Effects, card: CardId, length: object, position: int) -> None:
        if length != len(game.queue):  # it checks what a save gives it
            raise ValueError(f"the queue had {length!r} positions, not {len(game.queue)}")
        game.gain(game.owner(card), 1, card)


def pointers(folder: Path, **declaration: Callable[[], object]) -> Registry:
    """The plugin 'pointers' (its card, the Pointer) and its declaration, if given."""
    hooks: dict[str, object] = {
        "register_card_sets": hookimpl(lambda: [one_card_set(folder, "pointers", "pointer")]),
        "register_abilities": hookimpl(lambda: {"pointer": Pointer()}),
    }
    hooks.update({name: hookimpl(hook) for name, hook in declaration.items()})
    return registry_with({"pointers": SimpleNamespace(**hooks)})


class DeclaredPointer(Pointer):
    """The Pointer, declaring (wrongly) that its continuation answers a choice."""

    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = {"point": ("choose", "left")}


def test_a_plugins_continuation_is_held_to_what_it_declares(tmp_path: Path) -> None:
    # Ability.continuations: any card's continuation, a plugin's too, answers the
    # question its class declares; a save waiting on another is refused.
    hooks = {
        "register_card_sets": hookimpl(lambda: [one_card_set(tmp_path, "pointers", "pointer")]),
        "register_abilities": hookimpl(lambda: {"pointer": DeclaredPointer()}),
        "loadable_saves": hookimpl(lambda: True),
    }
    registry = registry_with({"pointers": SimpleNamespace(**hooks)})
    game = revealing(registry, "pointer", "pointers")
    game.answer(True)
    assert game.decision is not None
    assert game.decision.kind == "target"
    refused(game.snapshot(), registry, "pointer.point resumes a target question, which it never")


def test_the_built_in_cards_declare_what_their_continuations_answer() -> None:
    rules = BUILT_IN.rules(("base", "ablaze"), {})
    found = {
        key: getattr(type(ability), "continuations", {}) for key, ability in rules.abilities.items()
    }
    declared = {key: dict(mapping) for key, mapping in found.items() if mapping}
    assert declared == {
        "royal_decree": {"move": ("move",)},
        "prince": {"place_twin": ("twin",)},
        "plot": {"spent": ("choose", "gain", "repeat")},
    }


def revealing(registry: Registry, key: str, plugin_set: str) -> Game:
    """A game whose next answer is red revealing its ``key``, first in the queue (seed 11)."""
    cards = (key, "heir", "lord", "spy", "soldier", "archer", "conspiracy", "ambush")
    config = GameConfig(seed=11, first_player="red", sets=("base", plugin_set), cards=cards)
    print("seed 11")
    game = Game.new(config, registry=registry)
    game.answer(Placement(card_id(game, f"red.{key}"), "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    assert game.decision is not None
    assert (game.decision.kind, game.decision.card) == ("reveal", card_id(game, f"red.{key}"))
    return game


def test_a_save_waiting_on_an_undeclared_plugins_work_is_refused(tmp_path: Path) -> None:
    registry = pointers(tmp_path)
    assert registry.loadable == frozenset()
    game = revealing(registry, "pointer", "pointers")
    assert load(game.snapshot(), registry) == game  # a reveal: no plugin work waits
    game.answer(True)
    assert game.decision is not None
    assert game.decision.kind == "target"
    refused(game.snapshot(), registry, "waits on pointer.point, work of plugin 'pointers', which")


@pytest.mark.parametrize(
    "declared",
    [lambda: False, lambda: None, lambda: "yes", lambda: 1, lambda: [True], lambda: 1 / 0],
    ids=["false", "none", "a word", "one", "a list", "raises"],
)
def test_only_true_declares(tmp_path: Path, declared: Callable[[], object]) -> None:
    registry = pointers(tmp_path, loadable_saves=declared)
    assert registry.loadable == frozenset()
    game = revealing(registry, "pointer", "pointers")
    game.answer(True)
    refused(game.snapshot(), registry, "does not declare that its work may be tried")


def test_a_declared_plugins_work_is_tried_and_a_damaged_one_refused(tmp_path: Path) -> None:
    registry = pointers(tmp_path, loadable_saves=lambda: True)
    assert registry.loadable == frozenset({"pointers"})
    game = revealing(registry, "pointer", "pointers")
    game.answer(True)
    data = game.snapshot()
    loaded = load(data, registry)
    assert loaded == game
    loaded.answer(1)
    game.answer(1)
    assert loaded == game
    # The length the question was saved with, damaged: every answer fails in the
    # plugin's continuation, and the save is refused, never loaded to be wedged.
    data["resume"][3] = [len(data["queue"]) + 1]
    refused(data, registry, "leads to a failure (ValueError: the queue had")


class Faulty(Ability):
    """A plugin card whose ability fails every time."""

    def activate(self, game: Effects, card: CardId) -> None:
        raise RuntimeError("the faulty card fails")


def test_an_answer_plugin_code_fails_on_is_refused_as_in_play(tmp_path: Path) -> None:
    # The plugin's failure is its own, not the save's: the game loads, and the answer
    # is refused in play as it was in the game saved. Every answer failing: refused.
    hooks: dict[str, object] = {
        "register_card_sets": hookimpl(lambda: [one_card_set(tmp_path, "faults", "faulty")]),
        "register_abilities": hookimpl(lambda: {"faulty": Faulty()}),
    }
    registry = registry_with({"faults": SimpleNamespace(**hooks)})
    game = revealing(registry, "faulty", "faults")
    loaded = load(game.snapshot(), registry)
    with pytest.raises(AbilityError, match="the faulty card fails"):
        loaded.answer(True)
    loaded.answer(False)

    def token_added(game: Effects, event: object) -> None:
        raise RuntimeError("no token either")

    hooks["token_added"] = hookimpl(token_added)
    stuck = registry_with({"faults": SimpleNamespace(**hooks)})
    data = game.snapshot()
    refused(data, stuck, "every answer to its reveal decision fails in plugin code")
