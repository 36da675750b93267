"""Answers: a legal one plays on; a refused one says why and changes nothing."""

from __future__ import annotations

import pytest

from oriflamme import Game, IllegalAnswer, Placement, Registry

from .helpers import card_id, hand, label, new_game, played


def refuse(game: Game, answer: object, message: str) -> str:
    """``answer`` is refused with ``message`` in its reason, and the game is unchanged."""
    before = game.snapshot()
    with pytest.raises(IllegalAnswer) as error:
        game.answer(answer)
    assert message in str(error.value)
    assert game.snapshot() == before
    return str(error.value)


def queue_ids(game: Game) -> tuple[tuple[int, ...], ...]:
    return game.observe().queue


def test_placement_answers(registry: Registry) -> None:
    seed = 8
    print(f"seed={seed}")
    game = new_game(registry, seed, first_player="red")
    cards = hand(game, "red")
    missing = card_id(game, game.position().set_aside["red"][0])
    refuse(game, Placement(missing, "first"), f"card {missing} is not in red's hand")
    blue_spy = card_id(game, "blue.spy")
    why = refuse(game, Placement(blue_spy, "first"), f"card {blue_spy} is not in red's hand")
    # docs/rulings.md P4: whoever sent it, the refusal names no card of red's hand.
    assert label(game, cards[0]).split(".")[1] not in why
    assert "blue" not in why
    refuse(game, ("red.spy", "first"), "a placement names a card in hand by its id, not 'red.spy'")
    refuse(game, Placement(cards[0], "middle"), "'first', 'last' or a position index")
    refuse(game, Placement(cards[0], 0), "there is no position 0: the queue has no positions")
    refuse(game, (cards[0],), "a placement is answered Placement(card, at)")
    refuse(game, True, "a placement is answered Placement(card, at)")
    refuse(game, {"card": cards[0], "at": "last", "face": "up"}, "is answered Placement(card, at)")
    game.answer(Placement(cards[0], "last"))  # an empty queue: "last" is "first"
    assert queue_ids(game) == ((cards[0],),)
    assert cards[0] not in hand(game, "red")
    blue = hand(game, "blue")[0]
    refuse(game, Placement(blue, 0), "cards may be stacked only from round 2 on (RULINGS G4)")
    game.answer((blue, "first"))  # a plain pair is accepted too
    assert queue_ids(game) == ((blue,), (cards[0],))
    green = hand(game, "green")[0]
    game.answer({"card": green, "at": "last"})  # and the JSON form of a placement
    assert queue_ids(game) == ((blue,), (cards[0],), (green,))


def test_refusals_for_every_kind_name_the_decision(registry: Registry) -> None:
    seed = 8
    print(f"seed={seed}")
    game = new_game(registry, seed, first_player="red")
    placed = [hand(game, family)[0] for family in ("red", "blue", "green")]
    for card in placed:
        game.answer(Placement(card, "last"))
    decision = game.decision
    assert decision is not None
    assert (decision.family, decision.kind, decision.card) == ("red", "reveal", placed[0])
    refuse(
        game,
        1,
        f"{decision.family} must answer a reveal decision: "
        "a reveal is answered True or False, not 1",
    )
    refuse(game, "yes", "not 'yes'")
    refuse(game, Placement(0, "first"), "a reveal is answered True or False")


def test_an_answer_out_of_turn_is_refused(registry: Registry) -> None:
    seed = 8
    print(f"seed={seed}")
    game = new_game(registry, seed, first_player="red")
    before = game.snapshot()
    with pytest.raises(
        IllegalAnswer, match="it is red's turn to answer a place decision, not blue"
    ):
        game.answer(Placement(hand(game, "blue")[0], "first"), family="blue")
    assert game.snapshot() == before


@pytest.mark.parametrize("family", [0, ["red"], None.__class__, b"red"])
def test_a_family_that_is_no_name_is_refused_compiled_or_not(
    registry: Registry, family: object
) -> None:
    """Compiled, a parameter typed str would raise TypeError before the method could
    refuse: every form refuses alike."""
    seed = 8
    print(f"seed={seed}")
    game = new_game(registry, seed, first_player="red")
    before = game.snapshot()
    option = game.decision.options[0] if game.decision else None
    with pytest.raises(IllegalAnswer, match="it is red's turn to answer a place decision"):
        game.answer(option, family=family)
    with pytest.raises(IllegalAnswer, match="it is red's turn to answer a place decision"):
        game.answer_option(0, family=family)
    with pytest.raises(ValueError, match="is not a family of this game"):
        game.observe(family)
    assert game.snapshot() == before


def test_a_game_that_is_over_refuses_answers(registry: Registry) -> None:
    seed = 4
    print(f"seed={seed}")
    game = played(registry, seed)
    assert game.over
    assert game.decision is None
    with pytest.raises(IllegalAnswer, match="the game is over"):
        game.answer(True)
    assert not game.legal(True)


def test_a_number_too_long_to_print_is_refused_plainly(registry: Registry) -> None:
    game = new_game(registry, 2)
    before = game.snapshot()
    with pytest.raises(IllegalAnswer, match="option an int too long to show does not exist"):
        game.answer_option(10**5000)  # too long for repr(): the refusal still reads
    with pytest.raises(IllegalAnswer, match="too long to show"):
        game.answer(10**5000)
    assert game.snapshot() == before
