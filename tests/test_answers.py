"""Answers: a legal one plays on; a refused one says why and changes nothing."""

from __future__ import annotations

import pytest

from oriflamme import Game, IllegalAnswer, Placement, Registry

from .helpers import new_game, played


def refuse(game: Game, answer: object, message: str) -> None:
    before = game.snapshot()
    with pytest.raises(IllegalAnswer) as error:
        game.answer(answer)
    assert message in str(error.value)
    assert game.snapshot() == before


def test_placement_answers(registry: Registry) -> None:
    game = new_game(registry, 8, first_player="red")
    hand = game.hands["red"]
    missing = next(c for c in game.set_aside["red"])
    refuse(game, Placement(missing, "first"), f"{missing} is not in red's hand")
    refuse(game, Placement("blue.spy", "first"), "blue.spy is not in red's hand")
    refuse(game, Placement(hand[0], "middle"), "'first', 'last' or a position index")
    refuse(game, Placement(hand[0], 0), "there is no position 0: the queue has 0 positions")
    refuse(game, (hand[0],), "a placement is answered Placement(card, at)")
    refuse(game, True, "a placement is answered Placement(card, at)")
    game.answer(Placement(hand[0], "last"))  # an empty queue: "last" is "first"
    assert game.queue == [(hand[0],)]
    blue = game.hands["blue"][0]
    refuse(game, Placement(blue, 0), "cards may be stacked only from round 2 on (RULINGS G4)")
    game.answer((blue, "first"))  # a plain pair is accepted too
    assert game.queue == [(blue,), (hand[0],)]


def test_refusals_for_every_kind_name_the_decision(registry: Registry) -> None:
    game = new_game(registry, 8, first_player="red")
    for family in ("red", "blue", "green"):
        game.answer(Placement(game.hands[family][0], "last"))
    decision = game.decision
    assert decision is not None
    assert decision.kind == "reveal"
    refuse(
        game,
        1,
        f"{decision.family} must answer a reveal decision for {decision.card}: "
        "a reveal is answered True or False, not 1",
    )
    refuse(game, "yes", "not 'yes'")


def test_a_game_that_is_over_refuses_answers(registry: Registry) -> None:
    game = played(registry, 4)
    assert game.over
    assert game.decision is None
    with pytest.raises(IllegalAnswer, match="the game is over"):
        game.answer(True)
    assert not game.legal(True)
