"""Assassination: eliminate any card in the Queue. Discard Assassination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Assassination(Ability):
    # RULINGS B-Assassination: any top card, the Assassination itself included
    # (Polish note); gain 1. The engine discards it afterwards if it is still
    # there (discard_after_use in cards/base.yaml).
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, range(len(game.queue)), self.kill)

    def kill(self, game: Effects, card: CardId, position: int) -> None:
        game.eliminate(game.top(position), by=card)
