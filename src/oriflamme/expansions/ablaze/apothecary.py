"""Apothecary: eliminate a card adjacent to another card of your family."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Apothecary(Ability):
    # RULINGS A-Apothecary: any top card but the Apothecary itself that is next
    # to another top card (not the Apothecary) owned by the Apothecary's owner,
    # face up or down. None: no effect. Gain 1; the elimination is the
    # Apothecary's (a Trap it hits discards it).
    def activate(self, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        own = game.index(card)
        queue = game.queue
        friends = {i for i in range(len(queue)) if i != own and game.owner(game.top(i)) == family}
        options = [
            i for i in range(len(queue)) if i != own and any(j in friends for j in game.adjacent(i))
        ]
        game.ask_target(card, options, self.poison)

    def poison(self, game: Effects, card: CardId, position: int) -> None:
        game.eliminate(game.top(position), by=card)
