"""Spy: steal 1 Influence from a player who has a card adjacent to your Spy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import Game


class Spy(Ability):
    # RULINGS B-Spy: choose an adjacent top card; steal from its owner (the
    # player, not the card). From yourself it changes nothing; from a family
    # with 0 it takes nothing (G7).
    def activate(self, game: Game, card: str) -> None:
        game.ask_target(card, game.adjacent(game.index(card)), self.steal)

    def steal(self, game: Game, card: str, position: int) -> None:
        game.steal(game.owner(card), game.owner(game.top(position)), 1, card)
