"""Prince: when you reveal your Prince, place your family's Twin, revealed, in the
Queue. Gain 1. When the Prince is eliminated, discard your family's Twin, unless
it is covered by another card."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import Ability, SharedKind

if TYPE_CHECKING:
    from oriflamme import Answer, CardId, Decision, Effects

PRINCE = "prince"
TWIN = "twin"


class TwinKind(SharedKind):
    """The Prince places its Twin: as ``at`` in a placement."""

    name = "twin"
    help = "place the Twin"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return self.queue_place(game, decision, answer, "the Twin")


#: The kind of the Prince's question, which Ablaze registers.
TWIN_KIND: Final = TwinKind()


def discard_partners(game: Effects, partner: str, family: str) -> None:
    """RULINGS A-Prince/Twin link: discard every top card named ``partner`` that
    ``family`` owns now (Bribery counts); covered copies stay. Discarding is not
    eliminating, so nothing chains."""
    for top in [t for t in game.tops() if game.key(t) == partner and game.owner(t) == family]:
        game.discard(top)


class Prince(Ability):
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"place_twin": (TwinKind.name,)}
    )

    # RULINGS A-Prince. Only the Prince's own reveal places the Twin: not a later
    # round, not a Plot (the Plot is the card being revealed), not an
    # Impersonation (the Prince is put face up, never revealed).
    # docs/rulings.md P10: a Shapeshifter copying a Prince, even on the
    # turn it is revealed, only gains 1: the text speaks of revealing "your
    # Prince", and the card revealed is a Shapeshifter.
    def activate(self, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        twins = [c for c in game.reserve[family] if game.key(c) == TWIN]
        if game.key(card) != PRINCE or not game.revealed_now(card) or not twins:
            game.gain(family, 1, card)  # no Twin in the reserve: just gain 1
            return
        # The ends, or on a position whose top the family owns (stacking is
        # allowed in any round: A-Prince ruling), but never on a Prince.
        options = [
            at
            for at in game.spots(family, stacking=True)
            if not isinstance(at, int) or game.key(game.top(at)) != PRINCE
        ]
        game.ask(family, "twin", options, self.place_twin, card, twins[0])

    def place_twin(self, game: Effects, card: CardId, twin: CardId, at: str | int) -> None:
        family = game.owner(card)
        game.take("reserve", family, twin)
        # Placed ahead of the walk, it resolves this round (RULINGS A-Prince, R8).
        game.put(twin, family, at, face_up=True)
        game.gain(family, 1, card)

    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        discard_partners(game, TWIN, owner)
