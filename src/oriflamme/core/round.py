"""A round of the game: the placement phase, then the resolution phase, run as a
loop that stops whenever a family must answer.

Work in progress is kept as data so a game can be cloned or saved at any
question: ``pending`` is the question, with how to continue once answered, and
``tasks`` is a stack of work waiting for the current ability to finish.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .actions import Actions
from .cardsets import RevealTokens
from .decisions import (
    FIRST,
    LAST,
    REVEAL_OPTIONS,
    Answer,
    At,
    Decision,
    DecisionKind,
    Placement,
    Placements,
)
from .events import GameEnded, Revealed, RoundEnded, RoundStarted, TokenAdded
from .rules import INERT
from .scoring import final_scores, winners
from .state import END, LAST_ROUND, PLACEMENT, RESOLUTION

AbilityMethod = Callable[..., None]


class Round(Actions):
    __slots__ = ()

    # Questions, and work to do after them.

    def ask(
        self,
        family: str,
        kind: DecisionKind,
        options: Sequence[Answer],
        then: AbilityMethod,
        card: str,
        *args: Any,
    ) -> None:
        """Ask ``family`` to choose among ``options``, then call ``then``.

        ``then(game, card, *args, answer)`` is called with the answer.

        ``then`` must be a method of a registered ability. RULINGS R4: with no
        option nothing happens; with exactly one it is applied without asking.
        """
        count = len(options)
        if count == 0:
            return
        if count == 1:
            then(self, card, *args, options[0])
            return
        # A tuple: the decision is a value, equal to itself once saved and loaded.
        self.pending = Decision(family, kind, tuple(options), card)
        self.resume = (self._ability_key(then), then.__name__, card, args)

    def ask_target(
        self, card: str, positions: Sequence[int], then: AbilityMethod, *args: Any
    ) -> None:
        """Ask ``card``'s owner to choose one of the top cards at ``positions``."""
        self.ask(self.owner(card), "target", positions, then, card, *args)

    def then(self, then: AbilityMethod, card: str, *args: Any) -> None:
        """Call ``then(game, card, *args)`` once the work started after this call is done."""
        self.tasks.append((self._ability_key(then), then.__name__, card, args))

    def _ability_key(self, method: AbilityMethod) -> str:
        # A continuation is stored by name (ability key, method name) so that a
        # game waiting on it can be cloned and saved.
        key = self.rules.ability_keys.get(id(getattr(method, "__self__", None)))
        if key is None:
            raise TypeError(
                f"{method!r} is not a method of a registered ability: "
                "ask() and then() continue with one, by name"
            )
        return key

    def apply_ability(self, key: str, card: str) -> None:
        """Apply the ability of card key ``key`` with ``card`` acting (a copy, or a Plot)."""
        self.rules.ability(key).activate(self, card)  # type: ignore[arg-type]

    # The loop.

    def _run(self) -> None:
        """Play on until a family must answer or the game is over."""
        tasks = self.tasks
        abilities = self.rules.abilities
        queue = self.queue
        while self.pending is None:
            if tasks:
                key, name, card, args = tasks.pop()
                if key is None:
                    getattr(self, name)(card, *args)
                else:
                    getattr(abilities[key], name)(self, card, *args)
            elif self.phase == RESOLUTION:
                # The walk (RULINGS R1): the top card of the next position resolves.
                walk = self.walk
                if walk >= len(queue):
                    self._end_round()
                    continue
                card = queue[walk][-1]
                self.acting = card
                self.acting_gone = False
                if card in self.up:
                    self._activate(card)
                else:  # a face-down card's reveal is always asked, of its owner
                    self.pending = Decision(self.owner(card), "reveal", REVEAL_OPTIONS, card)
            elif self.phase == PLACEMENT:
                self._next_to_place()
            else:
                return

    # Placement phase (RULINGS G4).

    def _next_to_place(self) -> None:
        count = len(self.families)
        while self.placed < count:
            family = self.families[(self.first + self.placed) % count]
            hand = self.hands[family]
            if not hand:
                self.placed += 1  # docs/rulings.md P3: nothing to place, no turn
                continue
            spots = self.spots(family)
            if len(hand) == 1 and len(spots) == 1:
                self._place(family, Placement(hand[0], spots[0]))  # R4: one answer, not asked
                continue
            self.pending = Decision(family, "place", Placements(hand, spots))
            return
        self.phase = RESOLUTION
        self.walk = 0
        self.acting = None

    def spots(self, family: str, *, stacking: bool | None = None) -> tuple[At, ...]:
        """Where ``family`` may put a card: the ends, and (from round 2) its own top cards."""
        if not self.queue:
            return (FIRST,)  # FORMAT: in an empty queue first and last are one answer
        if stacking is None:
            stacking = self.round >= 2
        if not stacking:
            return (FIRST, LAST)
        if self.bribes:
            owner = self.owner
            return (
                FIRST,
                LAST,
                *[i for i, stack in enumerate(self.queue) if owner(stack[-1]) == family],
            )
        family_of = self.family_of
        return (
            FIRST,
            LAST,
            *[i for i, stack in enumerate(self.queue) if family_of[stack[-1]] == family],
        )

    def _place(self, family: str, placement: Placement) -> None:
        card = placement.card
        hand = self.hands[family]
        index = hand.index(card)
        self.hands[family] = hand[:index] + hand[index + 1 :]
        self.put(card, family, placement.at)
        self.placed += 1

    # Resolution phase (RULINGS R1, R8).

    def _decline(self, card: str) -> None:
        tokens = self.tokens.get(card, 0) + 1
        self.tokens[card] = tokens
        self.log.append((TokenAdded.kind, card, self.owner(card), self.walk, tokens))
        self.walk += 1
        self.acting = None

    def _reveal(self, card: str) -> None:
        # RULINGS R2: gain the tokens on it, then apply its ability.
        owner = self.owner(card)
        self.up.add(card)
        tokens = self.tokens.pop(card, 0)
        mode = self.rules.definitions[self.key_of[card]].reveal_tokens
        gained = 0
        if mode is RevealTokens.GAIN:
            gained = tokens
        elif mode is RevealTokens.DOUBLE:
            gained = 2 * tokens
        elif mode is RevealTokens.ABILITY and tokens:
            self.tokens[card] = tokens  # the ability spends them (Ablaze's Plot)
        self.gain(owner, gained, card)
        self._emit(Revealed.kind, card, owner, tokens, gained)
        self.revealing = card
        self._activate(card)

    def _activate(self, card: str) -> None:
        tasks = self.tasks
        finish = (None, "_finish", card, ())
        tasks.append(finish)
        ability = self.rules.abilities.get(self.key_of[card], INERT)
        ability.activate(self, card)  # type: ignore[arg-type]
        if self.pending is None and tasks[-1] is finish:
            tasks.pop()  # the ability is done: finish now rather than through the loop
            self._finish(card)

    def _finish(self, card: str) -> None:
        if self.key_of[card] in self.rules.discard_after_use and self.position(card) is not None:
            self.discard(card)
        # RULINGS R8: if the acting card is still on top of its position, the walk
        # moves on; if it left and a card under it is now on top, that card resolves
        # next (a Royal Decree on a stack too: docs/rulings.md P6); if the position
        # is gone, the one that followed it now has its index.
        if not self.acting_gone and self.queue[self.walk][-1] == card:
            self.walk += 1
        self.acting = None
        self.revealing = None

    def _end_round(self) -> None:
        self._emit(RoundEnded.kind, self.round)
        if self.round >= LAST_ROUND:
            self.phase = END  # RULINGS G5: after round 6 the game ends
            scores = final_scores(self)
            self._emit(GameEnded.kind, tuple(scores.items()), winners(self))
            return
        self.round += 1
        self.first = (self.first + 1) % len(self.families)  # RULINGS G5
        self.placed = 0
        self.phase = PLACEMENT
        self.walk = 0
        self._emit(RoundStarted.kind, self.round, self.families[self.first])

    def revealed_now(self, card: str) -> bool:
        """Whether ``card`` was revealed by its owner this turn (not already face up)."""
        return self.revealing == card
