"""Plot: discard Plot. Activate the ability of any revealed character of your
family. Each Influence on the Plot can either be gained or discarded to repeat
the effect above."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from oriflamme import Ability, SharedKind

if TYPE_CHECKING:
    from oriflamme import Answer, CardId, Decision, Effects

GAIN, REPEAT = "gain", "repeat"
#: The options of the Plot's question, in order (what a learning agent's actions name).
CHOICES: Final = (GAIN, REPEAT)
#: The Plot's words for its choice, shown to the family asked.
WORDS = {
    GAIN: "Gain: take 1 Influence for this token",
    REPEAT: "Repeat: this token goes back to the supply, and a face-up Character of yours "
    "acts again",
}


CHOOSE = "choose"


class ChooseKind(SharedKind):
    """A choice among named options (the Plot's); the asker words them (``labels``)."""

    name = CHOOSE
    help = "choose"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return self.word(decision, answer)


#: The kind of the Plot's question, which Ablaze registers.
CHOOSE_KIND: Final = ChooseKind()


class Plot(Ability):
    # The Plot's words for its choice (A-Plot).
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"spent": (CHOOSE, *CHOICES)}
    )

    # RULINGS A-Plot. Revealing it gained nothing (reveal_tokens: ability): its
    # tokens wait on it for this ability.
    def activate(self, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        tokens = game.tokens.get(card, 0)
        # Discard the Plot first: it is out of the queue for adjacency and targets
        # (its tokens, read above, are kept aside). The walk then goes on after
        # its old position (R8).
        game.discard(card)
        if tokens:
            game.then(self.spend, card, family, tokens)  # after the first activation
        self.activate_one(game, card, family)

    @staticmethod
    def characters(game: Effects, family: str) -> list[int]:
        """Positions whose top is a face-up Character ``family`` owns (by Bribery
        too: docs/rulings.md P15)."""
        return [
            i
            for i, top in enumerate(game.tops())
            if game.is_up(top) and game.is_character(top) and game.owner(top) == family
        ]

    def activate_one(self, game: Effects, card: CardId, family: str) -> None:
        # None: no effect (and the tokens will be gained).
        game.ask(family, "target", self.characters(game, family), self.apply, card)

    def apply(self, game: Effects, card: CardId, position: int) -> None:
        character = game.top(position)
        # The Character acts as itself: its position, its name, its owner.
        game.apply_ability(game.key(character), character, character)

    def spend(self, game: Effects, card: CardId, family: str, left: int) -> None:
        """Token by token, once the previous activation is fully resolved."""
        if left <= 0:
            return
        if not self.characters(game, family):
            game.gain(family, left, card)  # docs/rulings.md P18: nothing to repeat
            return
        game.ask(
            family,
            CHOOSE,
            CHOICES,
            self.spent,
            card,
            family,
            left,
            question=(
                f"Your Plot has {left} token{'s' * (left != 1)} left. The next one: gain it, "
                "or spend it to repeat?"
            ),
            labels=WORDS,
        )

    def spent(self, game: Effects, card: CardId, family: str, left: int, choice: str) -> None:
        if choice == GAIN:
            game.gain(family, 1, card)
            self.spend(game, card, family, left - 1)
            return
        # Repeat: the token returns to the supply and a Character acts again; the
        # next token is decided once that activation is fully resolved.
        game.then(self.spend, card, family, left - 1)
        self.activate_one(game, card, family)
