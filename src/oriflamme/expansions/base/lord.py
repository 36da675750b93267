"""Lord: earn 1, plus 1 per adjacent card that is in your family."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Lord(Ability):
    # RULINGS B-Lord: adjacent TOP cards owned by the Lord's owner, face up or
    # down (Polish note: only the top of a stack counts).
    def activate(self, game: Effects, card: CardId) -> None:
        owner = game.owner(card)
        bonus = sum(1 for i in game.adjacent(game.index(card)) if game.owner(game.top(i)) == owner)
        game.gain(owner, 1 + bonus, card)
