"""A family's view shows its own hidden cards and everything public, nothing else."""

from __future__ import annotations

import json

from oriflamme import Game, Placement, Registry
from oriflamme.bots import play_out

from .helpers import new_game, random_bots


def hidden_from(game: Game, family: str) -> set[str]:
    """The cards ``family`` may not know: others' hands, set-aside and face-down cards."""
    hidden: set[str] = set()
    for other in game.families:
        if other != family:
            hidden |= set(game.hands[other]) | set(game.set_aside[other])
    for stack in game.queue:
        for card in stack:
            if card not in game.up and game.family_of[card] != family:
                hidden.add(card)
    return hidden


def test_a_view_shows_own_cards_and_hides_the_others(registry: Registry) -> None:
    game = new_game(registry, 21, first_player="red")
    for family in ("red", "blue", "green"):
        game.answer(Placement(game.hands[family][0], "last"))
    view = game.view("red")
    assert view.hand == game.hands["red"]
    assert view.set_aside == game.set_aside["red"]
    assert view.hand_sizes == {"red": 6, "blue": 6, "green": 6}
    cards = [stack[-1] for stack in view.queue]
    assert cards[0].card == game.queue[0][0]  # red's own face-down card
    assert (cards[1].card, cards[1].family) == (None, "blue")
    assert (cards[2].card, cards[2].family) == (None, "green")
    text = json.dumps(view.to_dict())
    for card in hidden_from(game, "red"):
        assert card not in text


def test_another_familys_decision_shows_only_who_and_what(registry: Registry) -> None:
    game = new_game(registry, 21, first_player="red")
    view = game.view("blue")
    decision = view.decision
    assert decision is not None
    assert (decision.family, decision.kind, tuple(decision.options)) == ("red", "place", ())
    assert game.view("red").decision == game.decision


def test_no_view_ever_names_a_hidden_card(registry: Registry) -> None:
    for seed in range(30):
        print(f"seed={seed}")
        game = new_game(registry, seed)
        bots = random_bots(game, seed)

        play_out(game, bots, on_answer=check_no_leak)


def check_no_leak(game: Game, _answer: object) -> None:
    for family in game.families:
        text = json.dumps(game.view(family).to_dict())
        leaked = [c for c in hidden_from(game, family) if f'"{c}"' in text]
        assert not leaked, f"{family} sees {leaked}"
