"""Ambush: if revealed by an opponent's card, discard the attacker and gain 4.
If you reveal it yourself, gain 1. Discard Ambush."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability, Variant

if TYPE_CHECKING:
    from oriflamme import CardId, Effects

OWN_ELIMINATION = Variant(
    name="ambush_own_elimination",
    values=("first_edition", "revised"),
    default="first_edition",
    help="An Ambush eliminated by its own family: first_edition, it counts as revealed "
    "(+1, both cards discarded); revised (Polish), only the elimination's 1.",
)


class Ambush(Ability):
    # Revealed by its owner: its tokens went to the supply (reveal_tokens:
    # supply), it gains 1 here, and the engine discards it (discard_after_use).
    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 1, card)

    # RULINGS B-Ambush, eliminated. The eliminator has already gained its 1 and
    # the Ambush's tokens went to the supply with the elimination (R5).
    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        if by is None:
            return
        if game.owner(by) != owner:
            game.gain(owner, 4, card)
        elif game.variant(OWN_ELIMINATION.name) == "first_edition":
            game.gain(owner, 1, card)  # it counts as revealing your own Ambush
        else:
            return  # revised: the attacking card stays in the queue
        # docs/rulings.md P5: the Ambush, eliminated, is in the eliminated pile; the
        # attacker is discarded.
        game.discard_attacker(by)
