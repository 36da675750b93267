"""Shapeshifter: copy the ability of an adjacent revealed card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects

KEY = "shapeshifter"


class Shapeshifter(Ability):
    # RULINGS B-Shapeshifter: an adjacent face-up top Character that is not a
    # Shapeshifter (copying one does nothing: Polish note). Its ability applies
    # with the Shapeshifter acting: its position, its name, its owner. Nothing
    # to copy: no effect.
    def activate(self, game: Effects, card: CardId) -> None:
        options = [
            i
            for i in game.adjacent(game.index(card))
            if game.is_up(top := game.top(i)) and game.is_character(top) and game.key(top) != KEY
        ]
        game.ask_target(card, options, self.copy)

    def copy(self, game: Effects, card: CardId, position: int) -> None:
        copied = game.top(position)
        game.apply_ability(game.key(copied), card, copied)
