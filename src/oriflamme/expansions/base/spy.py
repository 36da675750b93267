"""Spy: steal 1 Influence from a player who has a card adjacent to your Spy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Spy(Ability):
    # RULINGS B-Spy: choose an adjacent top card; steal from its owner (the
    # player, not the card). From yourself it changes nothing; from a family
    # with 0 it takes nothing (G7).
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.adjacent(game.index(card)), self.steal)

    def steal(self, game: Effects, card: CardId, position: int) -> None:
        game.steal(game.owner(card), game.owner(game.top(position)), 1, card)
