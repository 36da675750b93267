"""A generous Heir: gains 3 instead of 2, on the same condition."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability, Variant

if TYPE_CHECKING:
    from oriflamme import CardId, Effects

GENEROUS_HEIR = Variant(
    name="generous_heir",
    values=(False, True),
    default=False,
    help="The Heir gains 3 instead of 2 (same condition).",
)


class GenerousHeir(Ability):
    # The Heir's condition (RULINGS B-Heir): no OTHER face-up top card has the
    # acting card's name.
    def activate(self, game: Effects, card: CardId) -> None:
        name = game.key(card)
        if any(top != card and game.is_up(top) and game.key(top) == name for top in game.tops()):
            return
        game.gain(game.owner(card), 3, card)
