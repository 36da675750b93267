"""Royal Decree: move a card wherever you want in the Queue. Discard Royal Decree."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import Ability, SharedKind

if TYPE_CHECKING:
    from oriflamme import Answer, CardId, Decision, Effects


MOVE = "move"


class MoveKind(SharedKind):
    """The Royal Decree's destination: the index the card will have once moved."""

    name = MOVE
    help = "choose where the card goes"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return self.queue_index(decision, answer)


#: The kind of the Royal Decree's question, which the base set registers.
MOVE_KIND: Final = MoveKind()


class RoyalDecree(Ability):
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({"move": (MOVE,)})

    # RULINGS B-Royal Decree: any top card but the Decree moves, with its face
    # and tokens, to a new position of its own (never onto another card); the
    # card under it becomes the top. The Decree stays where it is during the
    # move and is discarded afterwards (discard_after_use), and the walk goes on
    # from its position (R8).
    def activate(self, game: Effects, card: CardId) -> None:
        own = game.index(card)
        game.ask_target(
            card, [i for i in range(len(game.queue)) if i != own], self.choose_destination
        )

    def choose_destination(self, game: Effects, card: CardId, position: int) -> None:
        target = game.top(position)
        alone = len(game.queue[position]) == 1
        # FORMAT.md: `to` is the index the card has once moved, the Decree still
        # in place. Lifting a lone card closes its gap first.
        positions_left = len(game.queue) - 1 if alone else len(game.queue)
        # docs/rulings.md P2: putting a lone card back where it was is no move.
        options = [to for to in range(positions_left + 1) if not (alone and to == position)]
        game.ask(game.owner(card), MOVE, options, self.move, card, target, subject=target)

    def move(self, game: Effects, card: CardId, target: CardId, to: int) -> None:
        game.move(target, to)
