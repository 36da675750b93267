"""Heir: if there is no other card revealed with the same name, gain 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Heir(Ability):
    # RULINGS B-Heir: no OTHER face-up top card may have the acting card's name,
    # so a Shapeshifter copying an Heir looks for other Shapeshifters, and an
    # Heir is not blocked by a Shapeshifter. Covered cards do not count (R6).
    def activate(self, game: Effects, card: CardId) -> None:
        name = game.key(card)
        for top in game.tops():
            if top != card and game.is_up(top) and game.key(top) == name:
                return
        game.gain(game.owner(card), 2, card)
