"""Cutthroat: eliminate an adjacent card and all the opponents' revealed cards with
the same name. If only one card is eliminated, do not gain for eliminating a card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Cutthroat(Ability):
    # RULINGS A-Cutthroat.
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.adjacent(game.index(card)), self.strike)

    def strike(self, game: Effects, card: CardId, position: int) -> None:
        family = game.owner(card)  # before anything can discard (and unbribe) it
        target = game.top(position)
        name = game.key(target)  # its name once turned face up, if it was face down
        # Every elimination is made without its gain; the Cutthroat counts them
        # (a Queen's bonus still applies to each Queen, in her reaction).
        game.eliminate(target, by=card, gain=False)
        # docs/rulings.md P12: the same-name cards are those face up on top once
        # the first target is gone (a card it uncovered included); a card uncovered
        # by one of the sweep's own eliminations is not swept.
        same_name = [
            top
            for top in game.tops()
            if game.key(top) == name and game.is_up(top) and game.owner(top) != family
        ]
        count = 1
        for top in same_name:
            # Still a face-up top card of an opponent (a reaction may have moved it).
            if game.position(top) is not None and game.is_up(top) and game.owner(top) != family:
                game.eliminate(top, by=card, gain=False)
                count += 1
        if count >= 2:
            game.gain(family, count, card)
