"""Twin: gain 1. When the Twin is eliminated, discard your family's Prince, unless
it is covered by another card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

from .prince import PRINCE, discard_partners

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Twin(Ability):
    # RULINGS A-Twin. It enters the queue only through a Prince (prince.py) or an
    # Impersonation (impersonation.py); cards/ablaze.yaml keeps it in the reserve.
    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 1, card)

    # RULINGS A-Prince/Twin link: every Prince its owner owns, on top, is discarded.
    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        discard_partners(game, PRINCE, owner)
