"""Soldier: eliminate an adjacent card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Soldier(Ability):
    # RULINGS B-Soldier: the top card of an adjacent position, never itself,
    # even a card of its own family when it is the only one; gain 1.
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.adjacent(game.index(card)), self.strike)

    def strike(self, game: Effects, card: CardId, position: int) -> None:
        game.eliminate(game.top(position), by=card)
