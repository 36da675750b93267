"""Assassination: eliminate any card in the Queue. Discard Assassination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import Game


class Assassination(Ability):
    # RULINGS B-Assassination: any top card, the Assassination itself included
    # (Polish note); gain 1. The engine discards it afterwards if it is still
    # there (discard_after_use in cards/base.yaml).
    def activate(self, game: Game, card: str) -> None:
        game.ask_target(card, range(len(game.queue)), self.kill)

    def kill(self, game: Game, card: str, position: int) -> None:
        game.eliminate(game.top(position), by=card)
