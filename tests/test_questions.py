"""A plugin's question that no answer could match fails at once, inside the answer
being applied: the answer is taken back, the error names the plugin, and the game is
never left waiting on a question nobody can answer. Answering by option number is
refused, like any answer, to a family that is not asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    CardId,
    DecisionKind,
    Effects,
    Game,
    IllegalAnswer,
    Placement,
    Registry,
)
from oriflamme.testing import registry_with

from .test_budget import Probe, revealing

Ask = Callable[[Effects, CardId, "Asker"], None]
ANSWERS: list[object] = []


class Asker(Ability):
    """Gains 2, then asks as ``ask`` does while ``wrong``; otherwise asks red to choose
    between two words."""

    def __init__(self, ask: Ask) -> None:
        self.ask = ask
        self.wrong = True

    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 2, card)  # a change the refusal must take back
        if self.wrong:
            self.ask(game, card, self)
        else:
            game.ask(game.owner(card), "choose", ("left", "right"), self.answered, card)

    def answered(self, game: Effects, card: CardId, answer: object) -> None:
        ANSWERS.append(answer)


def asking(options: Any, kind: str = "choose", **words: Any) -> Ask:
    def asks(game: Effects, card: CardId, asker: Asker) -> None:
        game.ask(game.owner(card), kind, options, asker.answered, card, **words)

    return asks


def asks_twice(game: Effects, card: CardId, asker: Asker) -> None:
    game.ask(game.owner(card), "choose", ("a", "b"), asker.answered, card)
    game.ask(game.owner(card), "choose", ("c", "d"), asker.answered, card)


def asks_nobody(game: Effects, card: CardId, asker: Asker) -> None:
    game.ask("purple", "choose", ("a", "b"), asker.answered, card)


def asks_about_no_card(game: Effects, card: CardId, asker: Asker) -> None:
    game.ask(game.owner(card), "choose", ("a", "b"), asker.answered, 10_000)


def asks_about_a_card_out_of_the_queue(game: Effects, card: CardId, asker: Asker) -> None:
    away = next(c for c in range(100) if not any(c in stack for stack in game.queue))
    game.ask(game.owner(card), "choose", ("a", "b"), asker.answered, card, subject=away)


def asks_through_a_built_in_card(game: Effects, card: CardId, asker: Asker) -> None:
    # The spy's method is a registered continuation: the question is still the plugin's.
    spy = game.rules.abilities["spy"]
    game.ask(game.owner(card), "target", ("a", "b"), spy.activate, card)


def queues_a_built_in_card_about_no_card(game: Effects, card: CardId, asker: Asker) -> None:
    game.then(game.rules.abilities["spy"].activate, 10_000)


WHO = "plugin 'probes': the ability of 'probe' "
CASES: dict[str, tuple[Ask, str]] = {
    "unknown kind": (asking(("a", "b"), "teleport"), "unknown decision kind 'teleport'"),
    "a placement": (
        asking((Placement(99, "first"), Placement(98, "last")), "place"),
        "asked a 'place' question: the engine asks those itself",
    ),
    "a reveal": (asking((True, False), "reveal"), "asked a 'reveal' question"),
    "a target named by a string": (
        asking(("a", "b"), "target"),
        "asked red a target question with option 'a', which no answer can match (red must "
        "answer a target decision: a target is answered with a queue index, not 'a')",
    ),
    "a choice of numbers": (
        asking((1, 2)),
        "asked red a choose question with option 1, which no answer can match",
    ),
    "a twin at no place": (
        asking(("first", "nowhere"), "twin"),
        "with option 'nowhere', which no answer can match",
    ),
    "options in a string": (asking("ab"), "with options 'ab': a list or tuple of answers"),
    "options in a set": (asking({"a", "b"}), "a list or tuple of answers is expected"),
    "options in a generator": (
        asking(x for x in "ab"),
        "with options <generator object",
    ),
    "an option that is no JSON value": (
        asking(("a", object())),
        "asked a question no game can save: the options of its choose question hold a object",
    ),
    "an option nested too deep": (
        asking(("a", [[[[[[[[["b"]]]]]]]]])),
        "are too big or too deeply nested",
    ),
    "a question that is no text": (asking(("a", "b"), question=7), "worded its question as 7"),
    "labels that are no mapping": (
        asking(("a", "b"), labels=["A", "B"]),
        "labelled its options with ['A', 'B']: a mapping is expected",
    ),
    "twice": (
        asks_twice,
        "asked while red is already asked a choose question; an ability asks one question "
        "at a time",
    ),
    "a family not in the game": (asks_nobody, "asked 'purple' a choose question"),
    "a card not in the game": (asks_about_no_card, "about card 10000: a card id of the game"),
    "a subject that is no card": (
        asking(("a", "b"), subject="x"),
        "asked a choose question whose subject is card 'x': a card id of the game",
    ),
    "a subject out of the queue": (
        asks_about_a_card_out_of_the_queue,
        "which is not in the queue: the subject is a card in the queue, or None",
    ),
    "through a built-in card's method": (
        asks_through_a_built_in_card,
        "asked red a target question with option 'a', which no answer can match",
    ),
    "a built-in card's task about no card": (
        queues_a_built_in_card_about_no_card,
        "queued a task about card 10000: a card id of the game is expected",
    ),
}


@pytest.fixture(autouse=True)
def _no_answers() -> None:
    ANSWERS.clear()


@pytest.mark.parametrize("case", CASES)
def test_a_question_no_answer_can_match_fails_at_once(tmp_path: Path, case: str) -> None:
    ask, message = CASES[case]
    asker = Asker(ask)
    game = revealing_with(tmp_path, asker)
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    text = str(error.value)
    assert text.startswith(WHO), text
    assert message in text
    assert text.endswith(
        "answering red's reveal decision with True; the game is as it was before this answer"
    )
    assert game.snapshot() == before
    assert game.decision is not None
    assert (game.decision.kind, game.over) == ("reveal", False)
    asker.wrong = False
    game.answer(True)  # the same answer, with a well-behaved plugin
    assert game.scores["red"] == 3
    assert game.decision is not None
    game.answer("right")
    assert ANSWERS == ["right"]


def test_a_plugins_question_names_its_ability_and_its_subject(tmp_path: Path) -> None:
    def asks_about_the_next(game: Effects, card: CardId, asker: Asker) -> None:
        game.ask(game.owner(card), "choose", ("a", "b"), asker.answered, card, subject=game.top(1))

    game = revealing_with(tmp_path, Asker(asks_about_the_next))
    game.answer(True)
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.ability) == ("choose", "probe")
    assert decision.subject == game.observe(None).top(1)
    assert decision.card == game.observe(None).top(0)


def revealing_with(folder: Path, ability: Ability) -> Game:
    """A game whose next answer is red revealing its probe, whose ability is ``ability``."""
    return revealing(registry_with({"probes": Probe(folder, ability)}))


def test_with_no_option_nothing_happens(tmp_path: Path) -> None:
    # RULINGS R4: a choice with nothing to choose from does nothing; the game goes on.
    game = revealing_with(tmp_path, Asker(asking([])))
    game.answer(True)
    assert game.scores["red"] == 3
    assert game.decision is not None
    assert game.decision.kind == "reveal"
    assert ANSWERS == []


class Pair(DecisionKind):
    """A plugin's kind with the default check: exactly one of the options."""

    name = "pair"


def test_a_plugin_question_is_kept_as_json_values(tmp_path: Path) -> None:
    asker = Asker(asking([["a", 1], ["b", 2]], "pair", labels={("a", 1): "A", ("b", 2): "B"}))
    game = revealing(registry_with({"probes": Probe(tmp_path, asker, (Pair(),))}))
    game.answer(True)
    decision = game.decision
    assert decision is not None
    pairs: tuple[object, ...] = (("a", 1), ("b", 2))
    assert decision.options == pairs
    assert decision.labels == ("A", "B")
    game.answer(["b", 2])  # sent back as JSON
    assert ANSWERS == [("b", 2)]


def test_a_choice_must_be_named_by_text(tmp_path: Path) -> None:
    # The choose kind takes text only: pairs would leave a question no answer matches.
    game = revealing_with(tmp_path, Asker(asking([["a", 1], ["b", 2]])))
    before = game.snapshot()
    with pytest.raises(AbilityError, match="with option \\('a', 1\\), which no answer can match"):
        game.answer(True)
    assert game.snapshot() == before


def test_answer_option_refuses_a_family_that_is_not_asked(registry: Registry) -> None:
    game = Game.new(seed=4, first_player="blue", registry=registry)
    before = game.snapshot()
    for family in ("red", "green", "purple", ""):
        with pytest.raises(
            IllegalAnswer,
            match=f"^it is blue's turn to answer a place decision, not {family}'s$",
        ):
            game.answer_option(0, family=family)
    assert game.snapshot() == before
    game.answer_option(0, family="blue")
    assert game.decision is not None
    assert game.decision.family == "green"
    game.answer_option(0)  # no family given: whoever is asked
    assert game.decision.family == "red"


def test_answer_option_refuses_any_family_once_the_game_is_over(registry: Registry) -> None:
    game = Game.new(seed=4, registry=registry, record=False)
    while game.decision is not None:
        game.answer_option(0)
    for family in (None, "red"):
        with pytest.raises(IllegalAnswer, match=r"^the game is over"):
            game.answer_option(0, family=family)
