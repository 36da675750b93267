"""Queen: gain 2. If an opponent eliminates the Queen, they gain 1 additional."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Queen(Ability):
    # RULINGS A-Queen.
    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 2, card)

    # RULINGS A-Queen: eliminated face up or face down by a card an opponent owns,
    # that opponent gains 1 more, on top of any elimination gain (a Cutthroat's
    # single elimination gains none, but this 1 still applies: A-Cutthroat).
    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        if by is None:
            return
        eliminator = game.owner(by)
        if eliminator != owner:
            game.gain(eliminator, 1, card)
