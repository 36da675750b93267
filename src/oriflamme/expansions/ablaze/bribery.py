"""Bribery: place your family's Bribery token on any revealed character. This
character now belongs to your family. Discard Bribery."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Bribery(Ability):
    # RULINGS A-Bribery: a face-up Character alone in its position (not on top of
    # a stack), whoever owns it, your own family included; another family's token
    # on it is replaced. None: no effect. The engine discards the Bribery after
    # (discard_after_use), and game.discard / game.eliminate send a bribed card to
    # its original owner's eliminated pile.
    def activate(self, game: Effects, card: CardId) -> None:
        queue = game.queue
        options = [
            i
            for i, stack in enumerate(queue)
            if len(stack) == 1 and game.is_up(stack[0]) and game.is_character(stack[0])
        ]
        game.ask_target(card, options, self.bribe)

    def bribe(self, game: Effects, card: CardId, position: int) -> None:
        game.bribe(game.top(position), game.owner(card))
