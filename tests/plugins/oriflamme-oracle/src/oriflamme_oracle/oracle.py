"""Oracle: count the face-down cards in the Queue, then read the omen. Sun: gain 1.
Moon: gain 1 for each face-down card you counted."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import Ability, SharedKind
from oriflamme.text import counted

if TYPE_CHECKING:
    from oriflamme import Answer, CardId, Decision, Effects

OMEN = "omen"
SUN, MOON = "sun", "moon"
#: The omens, in the order they are offered.
OMENS: Final = (SUN, MOON)
#: Far more face-down cards than a queue ever holds: a count past it comes from no game.
MOST_SEEN: Final = 1000


class OmenKind(SharedKind):
    """The Oracle's omen: ``sun`` or ``moon``, in any case, spaces around allowed."""

    name = OMEN
    help = "read the omen"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        if type(answer) is not str:
            raise self.refuse(decision, f"an omen is a word, not {answer!r}")
        word = answer.strip().lower()
        if word not in decision.options:
            raise self.refuse(
                decision, f"{answer!r} is not one of {', '.join(map(repr, decision.options))}"
            )
        return word


#: The kind of the Oracle's question, which this plugin registers.
OMEN_KIND: Final = OmenKind()


class Oracle(Ability):
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({"read": (OMEN,)})

    def activate(self, game: Effects, card: CardId) -> None:
        seen = sum(1 for top in game.tops() if not game.is_up(top))
        game.ask(
            game.owner(card),
            OMEN,
            OMENS,
            self.read,
            card,
            seen,
            question=f"Your Oracle counted {counted(seen, 'face-down card')}. Sun or moon?",
            labels={SUN: "Sun: gain 1", MOON: f"Moon: gain {seen}"},
        )

    def read(self, game: Effects, card: CardId, seen: int, omen: str) -> None:
        # A save may hand these in from anywhere: use only what a game could give.
        if type(seen) is not int or not 0 <= seen <= MOST_SEEN:
            raise ValueError(f"the Oracle counted a number of cards, not {seen!r}")
        if omen not in OMENS:
            raise ValueError(f"the omen is sun or moon, not {omen!r}")
        game.gain(game.owner(card), 1 if omen == SUN else seen, card)
