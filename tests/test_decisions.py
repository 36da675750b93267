"""Decisions: every kind's options go to JSON and back and are accepted as they are;
option numbers follow the documented order; a plugin's own kind of decision is asked,
checked, worded, saved and refused like a built-in one."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    Answer,
    CardId,
    Decision,
    DecisionKind,
    DeterminiseError,
    Effects,
    Game,
    GameConfig,
    IllegalAnswer,
    Placement,
    Placements,
    PluginError,
    Registry,
    hookimpl,
)
from oriflamme.saves import load
from oriflamme.testing import registry_with
from oriflamme.text import Words, answer_text, question_text

from .helpers import card_id, new_game, one_card_set
from .test_properties import FAMILIES, KINDS, seeds

GAMES = 60  # per kind of game, over 3, 4 and 5 families
BUILT_IN = {"place", "reveal", "target", "move", "twin", "choose"}
#: The kinds each kind of game asks: a move is the base game's Royal Decree; a twin
#: (the Prince places its Twin) and a choose (a Plot's tokens) are Ablaze's.
ASKED = {
    "base": {"place", "reveal", "target", "move"},
    "ablaze": {"place", "reveal", "target", "twin", "choose"},
    "mixed": BUILT_IN,
}


def games(registry: Registry, kind: str, count: int) -> Iterator[tuple[int, Game]]:
    chosen = seeds(3, kind, count)
    print(f"{kind}: seeds {chosen.start} to {chosen.stop - 1}, 3 to 5 families")
    for number, seed in enumerate(chosen):
        yield seed, new_game(registry, seed, FAMILIES[number % 3], sets=KINDS[kind])


@pytest.mark.parametrize("kind", KINDS)
def test_an_option_sent_as_json_gives_the_same_game(registry: Registry, kind: str) -> None:
    asked: Counter[str] = Counter()
    for seed, game in games(registry, kind, GAMES):
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            count = len(decision.options)
            # Every option of the rarer kinds; now and then a few of the common ones.
            if decision.kind not in ("place", "reveal"):
                check_json_options(game, decision, range(count), f"seed {seed}")
            elif rng.random() < 0.2:
                numbers = rng.sample(range(count), min(count, 3))
                check_json_options(game, decision, numbers, f"seed {seed}")
            asked[decision.kind] += 1
            game.answer_option(int(rng.random() * count))
    print(dict(asked))
    assert set(asked) == ASKED[kind]


def check_json_options(game: Game, decision: Decision, numbers: Iterable[int], where: str) -> None:
    """Options sent as JSON and back give the same game as the options themselves."""
    sent = json.loads(json.dumps(decision.to_dict()))
    assert (sent["family"], sent["kind"], sent["card"]) == (*decision[:2], decision.card)
    assert len(sent["options"]) == len(decision.options)
    for number in numbers:
        option = decision.options[number]
        what = f"{where}, round {game.round}, {decision.kind} option {number}"
        as_json = game.clone()
        as_json.answer(sent["options"][number])
        as_python = game.clone()
        as_python.answer(option)
        assert as_json.snapshot() == as_python.snapshot(), what
        if isinstance(option, Placement):
            as_dict = game.clone()
            as_dict.answer({"card": option.card, "at": option.at})
            assert as_dict.snapshot() == as_python.snapshot(), what


def spots(game: Game, family: str) -> tuple[str | int, ...]:
    """Where ``family`` may place, from the referee's position (RULINGS G4)."""
    position = game.position()
    if not position.queue:
        return ("first",)
    if position.round < 2:
        return ("first", "last")
    owners = [stack[-1].owner or stack[-1].card.split(".")[0] for stack in position.queue]
    return ("first", "last", *[i for i, owner in enumerate(owners) if owner == family])


@pytest.mark.parametrize("kind", KINDS)
def test_option_numbers_follow_the_documented_order(registry: Registry, kind: str) -> None:
    placements = 0
    for seed, game in games(registry, kind, GAMES // 5):
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            where = f"seed {seed}, round {game.round}, {decision.kind}"
            options = decision.options
            if isinstance(options, Placements):
                placements += 1
                hand = game.observe(decision.family).hand
                ats = options.ats
                assert options.cards == hand, where
                assert ats == spots(game, decision.family), where
                assert len(options) == len(hand) * len(ats), where
                width = len(ats)
                for number in range(len(options)):
                    option = options[number]
                    assert option == Placement(hand[number // width], ats[number % width]), where
                    assert options.index(option) == number, where
                assert list(options) == [options[n] for n in range(len(options))], where
            number = int(rng.random() * len(options))
            by_number = game.clone()
            by_number.answer_option(number)
            game.answer(options[number])
            assert by_number.snapshot() == game.snapshot(), where
    assert placements


# A plugin with a kind of decision of its own.

PICKED: list[str] = []  # what the Picker's continuation received, in order
ROADS = ("north", "south", "east")
ROAD_WORDS = {"north": "take the north road", "south": "take the south road", "east": "go east"}
QUESTION = "Which road does your Picker take?"


@pytest.fixture(autouse=True)
def _nothing_picked() -> None:
    PICKED.clear()


class PickKind(DecisionKind):
    """A road, by name, in any case."""

    name = "pick"
    help = "pick a road"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        if isinstance(answer, str) and answer.lower() in decision.options:
            return answer.lower()
        raise IllegalAnswer(f"{decision.family} must pick a road: there is no road {answer!r}")


class SecretKind(DecisionKind):
    """Options only the family asked may see."""

    name = "secret"
    private_options = True


class Picker(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(
            game.owner(card), "pick", ROADS, self.picked, card, question=QUESTION, labels=ROAD_WORDS
        )

    def picked(self, game: Effects, card: CardId, road: str) -> None:
        PICKED.append(road)
        game.gain(game.owner(card), 1 + ROADS.index(road), card)


class Whisperer(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(game.owner(card), "secret", ("left", "right"), self.heard, card)

    def heard(self, game: Effects, card: CardId, answer: str) -> None:
        PICKED.append(answer)


class Wanderer(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 3, card)  # a change the refusal must take back
        game.ask(game.owner(card), "teleport", ("here", "there"), self.arrived, card)

    def arrived(self, game: Effects, card: CardId, answer: str) -> None:
        PICKED.append(answer)


class Roads:
    """The test plugin: three one-card sets, their abilities, two kinds of decision."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [
            one_card_set(self.folder, name, key)
            for name, key in (("roads", "picker"), ("whispers", "whisperer"), ("maps", "wanderer"))
        ]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"picker": Picker(), "whisperer": Whisperer(), "wanderer": Wanderer()}

    @hookimpl
    def register_decision_kinds(self) -> list[DecisionKind]:
        return [PickKind(), SecretKind()]

    @hookimpl
    def loadable_saves(self) -> bool:
        # Its continuations change nothing but the game (and the test's record of what
        # they receive): a save waiting on them may be tried on copies (docs/plugins.md).
        return True


FILLER = ("heir", "lord", "spy", "soldier", "archer", "conspiracy")


def revealing(registry: Registry, key: str, sets: tuple[str, ...]) -> Game:
    """A game whose first decision in resolution is red revealing its ``key`` card."""
    config = GameConfig(seed=5, first_player="red", sets=("base", *sets), cards=(key, *FILLER))
    game = Game.new(config, registry=registry)
    card = card_id(game, f"red.{key}")
    game.answer(Placement(card, "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    assert game.decision == Decision("red", "reveal", (True, False), card)
    return game


@pytest.fixture
def roads(tmp_path: Path) -> Registry:
    return registry_with({"roads": Roads(tmp_path)})


def test_a_plugin_kind_is_asked_worded_and_sent_as_json(roads: Registry) -> None:
    game = revealing(roads, "picker", ("roads",))
    picker = card_id(game, "red.picker")
    game.answer(True)
    decision = game.decision
    assert decision is not None
    labels = tuple(ROAD_WORDS[road] for road in ROADS)
    assert decision == Decision("red", "pick", ROADS, picker, QUESTION, labels, "picker")
    kind = game.rules.kinds["pick"]
    words = Words(game.observe("red"), game.rules.definitions)
    assert question_text(kind, words, decision) == QUESTION
    assert [answer_text(kind, words, decision, road) for road in ROADS] == list(labels)
    assert game.observe("blue").decision == decision  # its options are not private
    sent = json.loads(json.dumps(decision.to_dict()))
    assert sent == {
        "family": "red",
        "kind": "pick",
        "card": picker,
        "options": list(ROADS),
        "question": QUESTION,
        "labels": list(labels),
        "ability": "picker",
        "subject": None,
    }
    for number, road in enumerate(ROADS):
        as_json, as_python, shouted = game.clone(), game.clone(), game.clone()
        as_json.answer(sent["options"][number])
        as_python.answer(road)
        shouted.answer(road.upper())  # the kind's own canonical form
        assert as_json.snapshot() == as_python.snapshot() == shouted.snapshot()
        assert as_python.scores["red"] == 1 + (1 + number)  # 1 to start, then the road's
    assert [road for road in ROADS for _ in range(3)] == PICKED


def test_a_game_waiting_on_a_plugin_kind_saves_and_loads(roads: Registry) -> None:
    game = revealing(roads, "picker", ("roads",))
    game.answer(True)
    loaded = load(game.to_json(), registry=roads)
    assert loaded == game
    assert loaded.decision == game.decision
    # Loading tried every road on copies (the plugin declares it may): each was picked.
    assert sorted(PICKED) == sorted(ROADS)
    PICKED.clear()
    loaded.answer("east")
    game.answer("east")
    assert loaded == game
    assert PICKED == ["east", "east"]


def test_a_wrong_answer_to_a_plugin_kind_is_refused_in_its_words(roads: Registry) -> None:
    game = revealing(roads, "picker", ("roads",))
    game.answer(True)
    before = game.snapshot()
    for wrong in ("west", "", 0, True, None, ["north"], {"road": "north"}):
        assert not game.legal(wrong)
        with pytest.raises(IllegalAnswer, match=r"^red must pick a road: there is no road "):
            game.answer(wrong)
    with pytest.raises(IllegalAnswer, match="option 3 does not exist"):
        game.answer_option(3)
    with pytest.raises(IllegalAnswer, match="not blue's"):
        game.answer("north", family="blue")
    assert game.snapshot() == before
    assert PICKED == []


def test_asking_an_unknown_kind_is_an_error_naming_it(roads: Registry) -> None:
    game = revealing(roads, "wanderer", ("maps",))
    before = game.snapshot()
    with pytest.raises(PluginError) as error:
        game.answer(True)
    assert isinstance(error.value, AbilityError)
    message = str(error.value)
    assert "unknown decision kind 'teleport'" in message
    assert "answering red's reveal decision with True" in message
    assert game.snapshot() == before  # the reveal, and the 3 gained, are taken back
    game.answer(False)  # and the game goes on from there
    assert game.position().queue[0][0].tokens == 1


def test_a_private_plugin_kind_is_hidden_from_the_others(roads: Registry) -> None:
    game = revealing(roads, "whisperer", ("whispers",))
    whisperer = card_id(game, "red.whisperer")
    game.answer(True)
    decision = game.decision
    assert decision == Decision("red", "secret", ("left", "right"), whisperer, ability="whisperer")
    assert game.observe("red").decision == decision
    for family in ("blue", "green", None):
        # Who asks and about what are public; the options are not.
        hidden = Decision("red", "secret", (), whisperer, ability="whisperer")
        assert game.observe(family).decision == hidden
    sample = Game.determinise(game.observe("red"), 1, registry=roads)
    assert sample.decision == decision
    with pytest.raises(DeterminiseError, match="red's secret decision hides its options"):
        Game.determinise(game.observe("blue"), 1, registry=roads)
    game.answer("right")
    assert PICKED == ["right"]
