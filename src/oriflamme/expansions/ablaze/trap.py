"""Trap: discard all Influence on Trap and gain 1. Discard Trap. OR if Trap is
eliminated by an opponent's card, discard the opponent's card and steal 3 from
that player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Trap(Ability):
    # RULINGS A-Trap. Revealed by its owner: its tokens went to the supply
    # (reveal_tokens: supply), it gains 1 here, and the engine discards it
    # (discard_after_use).
    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 1, card)

    # RULINGS A-Trap, eliminated. The eliminator has already gained its 1 (if it
    # gains one: a Cutthroat's single elimination does not).
    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        if by is None:
            return
        eliminator = game.owner(by)  # before the discard removes a Bribery token
        if eliminator == owner:
            return  # by its own owner's card: the attacker stays
        game.steal(owner, eliminator, 3, card)
        game.discard_attacker(by)
