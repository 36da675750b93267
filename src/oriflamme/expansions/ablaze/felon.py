"""Felon: each player loses 1 for each adjacent card of their family."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Felon(Ability):
    # RULINGS A-Felon: per adjacent top card, its owner loses 1, the Felon's own
    # family included (G7: never below 0).
    def activate(self, game: Effects, card: CardId) -> None:
        for i in game.adjacent(game.index(card)):
            game.lose(game.owner(game.top(i)), 1, card)
