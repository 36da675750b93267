"""Jester: gain 1 for each adjacent face-down card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Jester(Ability):
    # Adjacent means the top cards of the neighbouring positions (RULINGS R7).
    def activate(self, game: Effects, card: CardId) -> None:
        neighbours = [game.top(i) for i in game.adjacent(game.index(card))]
        game.gain(game.owner(card), sum(1 for top in neighbours if not game.is_up(top)), card)
