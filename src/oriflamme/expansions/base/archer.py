"""Archer: eliminate the first or last card from the Queue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import Game


class Archer(Ability):
    # RULINGS B-Archer: the top card of the first or of the last position, the
    # Archer itself included (Polish note); gain 1 for the elimination.
    def activate(self, game: Game, card: str) -> None:
        game.ask_target(card, game.ends(), self.shoot)

    def shoot(self, game: Game, card: str, position: int) -> None:
        game.eliminate(game.top(position), by=card)
