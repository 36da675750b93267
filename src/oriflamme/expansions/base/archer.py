"""Archer: eliminate the first or last card from the Queue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Archer(Ability):
    # RULINGS B-Archer: the top card of the first or of the last position, the
    # Archer itself included (Polish note); gain 1 for the elimination.
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.ends(), self.shoot)

    def shoot(self, game: Effects, card: CardId, position: int) -> None:
        game.eliminate(game.top(position), by=card)
