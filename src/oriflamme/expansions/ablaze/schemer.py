"""Schemer: discard this card if it's adjacent to a stack of cards. If not, gain 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Schemer(Ability):
    # RULINGS A-Schemer: checked when it resolves; a stack is 2 or more cards.
    # docs/rulings.md P11: "this card" is the acting card, so a Shapeshifter
    # copying a Schemer next to a stack discards itself. P17: its own position is
    # not adjacent to it, so a Schemer on top of a stack may still gain 2.
    def activate(self, game: Effects, card: CardId) -> None:
        queue = game.queue
        if any(len(queue[i]) > 1 for i in game.adjacent(game.index(card))):
            game.discard(card)
        else:
            game.gain(game.owner(card), 2, card)
