"""Deliberate rule mistakes, each one ruling read wrongly, to check that perft catches them.

Each :class:`Mutation` changes one reading of docs/rulings.md (its id is the ruling's),
the way a mistaken engine would: an ability's method replaced, or one step of the
engine's walk or placement. A mutation is applied from the test side only, with a
:class:`pytest.MonkeyPatch` undone afterwards: nothing in the engine knows of them.
``tests/test_perft_mutations.py`` applies each in turn and looks for the first
reference count (tests/perft/counts.yaml) that it changes.

A replacement is written as the mistaken engine would write it: the original method
with the one reading changed, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from oriflamme import FIRST, LAST, CardId, Effects
from oriflamme.core import _engine
from oriflamme.core._board import Board
from oriflamme.core._decisions import Placement, Placements, new_decision
from oriflamme.core._engine import Engine
from oriflamme.core._identity import NO_CARD
from oriflamme.core._state import PLACEMENT, RESOLUTION
from oriflamme.expansions.ablaze.bribery import Bribery
from oriflamme.expansions.ablaze.cutthroat import Cutthroat
from oriflamme.expansions.ablaze.impersonation import Impersonation
from oriflamme.expansions.ablaze.plot import CHOICES, CHOOSE, Plot
from oriflamme.expansions.ablaze.prince import PRINCE, TWIN, Prince
from oriflamme.expansions.ablaze.schemer import Schemer
from oriflamme.expansions.ablaze.trap import Trap
from oriflamme.expansions.ablaze.twin import Twin
from oriflamme.expansions.base.ambush import Ambush
from oriflamme.expansions.base.archer import Archer
from oriflamme.expansions.base.assassination import Assassination
from oriflamme.expansions.base.royal_decree import MOVE, RoyalDecree
from oriflamme.expansions.base.shapeshifter import KEY as SHAPESHIFTER
from oriflamme.expansions.base.shapeshifter import Shapeshifter
from oriflamme.expansions.base.spy import Spy

Patch = Callable[[pytest.MonkeyPatch], None]


@attrs.frozen
class Mutation:
    name: str
    ruling: str  # the id in docs/rulings.md that the mutation reads wrongly
    what: str  # the mistake, in a few words
    apply: Patch


def replace(
    patch: pytest.MonkeyPatch, owner: type, name: str, function: Callable[..., Any]
) -> None:
    """``owner.name = function``, under the original's name: the engine continues an
    ability's question by the method's name (Effects.ask), which must still be found."""
    function.__name__ = name
    function.__qualname__ = f"{owner.__qualname__}.{name}"
    patch.setattr(owner, name, function)


MUTATIONS: list[Mutation] = []


def mutation(name: str, ruling: str, what: str) -> Callable[[Patch], Patch]:
    def register(apply: Patch) -> Patch:
        MUTATIONS.append(Mutation(name, ruling, what, apply))
        return apply

    return register


# The walk of the resolution phase (RULINGS R8, docs/rulings.md P6).


def _finish_skipping(skip: Callable[[Effects, CardId], bool]) -> Callable[..., None]:
    """Engine._finish, with the walk also moving on when ``skip(effects, card)``, though
    the card left its position and a card under it is now on top."""

    def finish(self: Engine, card: CardId) -> None:
        effects = self.effects
        s = effects._state
        used = s.identity.keys[card] in effects.rules.discard_after_use
        if used and effects.position(card) is not None:
            effects.discard(card)
        if not s.acting_gone and (s.queue[s.walk][-1] == card or skip(effects, card)):
            s.walk += 1
        s.acting = NO_CARD
        s.revealing = NO_CARD

    return finish


@mutation(
    "decree-on-a-stack-skips-the-uncovered-card",
    "P6",
    "the walk moves on past the card a Royal Decree uncovers",
)
def _(patch: pytest.MonkeyPatch) -> None:
    skip = _finish_skipping(lambda game, card: game.key(card) == "royal_decree")
    replace(patch, Engine, "_finish", skip)


@mutation(
    "uncovered-card-skipped",
    "R8",
    "the walk moves on past the card an eliminated or discarded acting card uncovers",
)
def _(patch: pytest.MonkeyPatch) -> None:
    skip = _finish_skipping(lambda game, card: game.key(card) != "royal_decree")
    replace(patch, Engine, "_finish", skip)


@mutation(
    "gone-position-skips-the-next",
    "R8",
    "when the acting card's position is gone, the walk skips the one after it",
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Engine._finish

    def finish(self: Engine, card: CardId) -> None:
        gone = self.effects._state.acting_gone
        original(self, card)
        if gone:
            self.effects._state.walk += 1

    replace(patch, Engine, "_finish", finish)


@mutation(
    "card-put-behind-the-walk-resolves-again",
    "R8",
    "a card moved or put behind the walk is reached again this round",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def insert_position(self: Board, index: int, card: CardId) -> None:
        s = self._state
        s.queue = s.queue[:index] + ((card,),) + s.queue[index:]  # the walk left as it was

    replace(patch, Board, "_insert_position", insert_position)


@mutation(
    "removal-behind-the-walk-skips-a-card",
    "R8",
    "a position removed behind the walk makes the walk skip one",
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Board._remove_top

    def remove_top(self: Board, index: int) -> CardId:
        s = self._state
        behind = s.phase == RESOLUTION and index < s.walk and len(s.queue[index]) == 1
        card = original(self, index)
        if behind and s.walk + 1 < len(s.queue):
            s.walk += 1  # the index the walk had, now one position further on
        return card

    replace(patch, Board, "_remove_top", remove_top)


@mutation("uncovered-card-turns-face-down", "R6", "a card uncovered in a stack is turned face down")
def _(patch: pytest.MonkeyPatch) -> None:
    original = Board._remove_top

    def remove_top(self: Board, index: int) -> CardId:
        s = self._state
        stacked = len(s.queue[index]) > 1
        card = original(self, index)
        if stacked:
            s.up &= ~(1 << s.queue[index][-1])
        return card

    replace(patch, Board, "_remove_top", remove_top)


# Placement (RULINGS G4, docs/rulings.md P3) and the round's end (G5).


def _spots(
    *, any_top: bool = False, face_down_only: bool = False, by_colour: bool = False
) -> Callable[..., tuple[Any, ...]]:
    """Board.spots, with one reading of G4 changed."""

    def spots(self: Board, family: str, *, stacking: bool | None = None) -> tuple[Any, ...]:
        s = self._state
        if not s.queue:
            return (FIRST,)
        if stacking is None:
            stacking = s.round >= 2
        if not stacking:
            return (FIRST, LAST)
        found: list[Any] = [FIRST, LAST]
        for i, stack in enumerate(s.queue):
            top = stack[-1]
            owner = s.identity.colours[top] if by_colour else s.owner(top)
            if face_down_only and s.up >> top & 1:
                continue
            if any_top or owner == family:
                found.append(i)
        return tuple(found)

    return spots


@mutation("stacking-on-any-top-card", "G4", "a card may be stacked on another family's top card")
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Board, "spots", _spots(any_top=True))


@mutation(
    "stacking-only-on-face-down-cards", "G4", "a family may stack only on its face-down top cards"
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Board, "spots", _spots(face_down_only=True))


@mutation(
    "stacking-by-printed-colour",
    "A-Bribery",
    "a family stacks on the cards of its colour, not on those it owns by Bribery",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Board, "spots", _spots(by_colour=True))


def _next_to_place(*, stop_at_empty: bool = False, direction: int = 1) -> Callable[..., None]:
    """Engine._next_to_place, with one reading changed."""

    def next_to_place(self: Engine) -> None:
        effects = self.effects
        s = effects._state
        count = len(s.families)
        while s.placed < count:
            seat = (s.first + direction * s.placed) % count
            family = s.families[seat]
            hand = s.hands[seat]
            if not hand:
                if stop_at_empty:
                    break
                s.placed += 1
                continue
            spots = effects.spots(family)
            if len(hand) == 1 and len(spots) == 1:
                self._place(family, Placement(hand[0], spots[0]))
                continue
            s.pending = new_decision(family, "place", Placements(hand, spots))
            return
        s.phase = RESOLUTION
        s.walk = 0
        s.acting = NO_CARD

    return next_to_place


@mutation(
    "empty-hand-ends-the-placement",
    "P3",
    "a family with an empty hand ends the placement phase instead of being passed over",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Engine, "_next_to_place", _next_to_place(stop_at_empty=True))


@mutation(
    "placement-goes-anticlockwise", "G4", "families place anticlockwise from the first player"
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Engine, "_next_to_place", _next_to_place(direction=-1))


@mutation(
    "first-player-tile-stays", "G5", "the First Player tile does not move on at the end of a round"
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Engine._end_round

    def end_round(self: Engine) -> None:
        s = self.effects._state
        first = s.first
        original(self)
        if s.phase == PLACEMENT:
            s.first = first

    replace(patch, Engine, "_end_round", end_round)


@mutation("a-seventh-round", "G5", "the game goes on after round 6")
def _(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_engine, "LAST_ROUND", 7)


@mutation("game-ends-after-round-5", "G5", "the game ends after round 5")
def _(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_engine, "LAST_ROUND", 5)


# The Royal Decree (RULINGS B-Royal Decree, docs/rulings.md P2).


@mutation(
    "decree-puts-a-card-back-where-it-was",
    "P2",
    "a Royal Decree may move a lone card to the index it has",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def choose_destination(self: RoyalDecree, game: Effects, card: CardId, position: int) -> None:
        target = game.top(position)
        alone = len(game.queue[position]) == 1
        positions_left = len(game.queue) - 1 if alone else len(game.queue)
        options = list(range(positions_left + 1))
        game.ask(game.owner(card), MOVE, options, self.move, card, target, subject=target)

    replace(patch, RoyalDecree, "choose_destination", choose_destination)


@mutation(
    "decree-top-of-a-stack-only-to-other-indices",
    "P2",
    "the top of a stack may not become a new position beside its stack",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def choose_destination(self: RoyalDecree, game: Effects, card: CardId, position: int) -> None:
        target = game.top(position)
        alone = len(game.queue[position]) == 1
        positions_left = len(game.queue) - 1 if alone else len(game.queue)
        options = [
            to
            for to in range(positions_left + 1)
            if not (to == position or (not alone and to == position + 1))
        ]
        game.ask(game.owner(card), MOVE, options, self.move, card, target, subject=target)

    replace(patch, RoyalDecree, "choose_destination", choose_destination)


@mutation("decree-may-move-itself", "B-Royal Decree", "a Royal Decree may pick itself")
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: RoyalDecree, game: Effects, card: CardId) -> None:
        game.ask_target(card, range(len(game.queue)), self.choose_destination)

    replace(patch, RoyalDecree, "activate", activate)


# The Plot (RULINGS A-Plot, docs/rulings.md P15, P18).


@mutation(
    "plot-asks-with-no-character-left",
    "P18",
    "a Plot asks gain or repeat though no Character is left to act",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def spend(self: Plot, game: Effects, card: CardId, family: str, left: int) -> None:
        if left <= 0:
            return
        game.ask(family, CHOOSE, CHOICES, self.spent, card, family, left)

    replace(patch, Plot, "spend", spend)


@mutation(
    "plot-discarded-after-its-first-activation",
    "A-Plot",
    "the Plot stays in the queue while its first Character acts",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Plot, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        tokens = game.tokens.get(card, 0)
        if tokens:
            game.then(self.spend, card, family, tokens)
        # After the first activation, before the tokens: a method the mutation adds.
        game.then(getattr(self, "leave"), card)  # noqa: B009
        self.activate_one(game, card, family)

    def leave(self: Plot, game: Effects, card: CardId) -> None:
        if game.position(card) is not None:
            game.discard(card)

    replace(patch, Plot, "activate", activate)
    patch.setattr(Plot, "leave", leave, raising=False)


@mutation(
    "plot-ignores-bribed-characters",
    "P15",
    "a Plot activates only the Characters of its family's colour",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def characters(game: Effects, family: str) -> list[int]:
        return [
            i
            for i, top in enumerate(game.tops())
            if game.is_up(top) and game.is_character(top) and game.colour(top) == family
        ]

    characters.__name__ = "characters"
    patch.setattr(Plot, "characters", staticmethod(characters))


# The Prince and its Twin (RULINGS A-Prince, A-Twin, A-Prince/Twin link).


def _twin_spots(*, on_a_prince: bool = False, ends_only: bool = False) -> Callable[..., None]:
    def activate(self: Prince, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        twins = [c for c in game.reserve[family] if game.key(c) == TWIN]
        if game.key(card) != PRINCE or not game.revealed_now(card) or not twins:
            game.gain(family, 1, card)
            return
        options = [
            at
            for at in game.spots(family, stacking=not ends_only)
            if on_a_prince or not isinstance(at, int) or game.key(game.top(at)) != PRINCE
        ]
        game.ask(family, "twin", options, self.place_twin, card, twins[0])

    return activate


@mutation("twin-placed-on-a-prince", "A-Prince", "the Twin may be placed on a Prince")
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Prince, "activate", _twin_spots(on_a_prince=True))


@mutation("twin-placed-only-at-the-ends", "A-Prince", "the Twin may not be placed on a stack")
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Prince, "activate", _twin_spots(ends_only=True))


@mutation(
    "prince-and-twin-unlinked",
    "A-Prince/Twin link",
    "an eliminated Prince or Twin leaves its partner in the queue",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def eliminated(self: Any, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        return None

    replace(patch, Prince, "eliminated", eliminated)
    replace(patch, Twin, "eliminated", eliminated)


# Bribery (RULINGS A-Bribery).


def _bribery_targets(*, stacks: bool = False, own: bool = True) -> Callable[..., None]:
    def activate(self: Bribery, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        options = [
            i
            for i, stack in enumerate(game.queue)
            if (stacks or len(stack) == 1)
            and game.is_up(stack[-1])
            and game.is_character(stack[-1])
            and (own or game.owner(stack[-1]) != family)
        ]
        game.ask_target(card, options, self.bribe)

    return activate


@mutation("bribery-on-top-of-a-stack", "A-Bribery", "Bribery may take the top card of a stack")
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Bribery, "activate", _bribery_targets(stacks=True))


@mutation(
    "bribery-never-on-its-own-family",
    "A-Bribery",
    "Bribery may not take a Character of its own family",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Bribery, "activate", _bribery_targets(own=False))


# The Ambush and the Trap (RULINGS B-Ambush, A-Trap).


@mutation(
    "ambush-attacker-stays",
    "B-Ambush",
    "an opponent's card that eliminates an Ambush stays in the queue",
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Ambush.eliminated

    def eliminated(
        self: Ambush, game: Effects, card: CardId, by: CardId | None, owner: str
    ) -> None:
        if by is not None and game.owner(by) != owner:
            game.gain(owner, 4, card)
            return
        original(self, game, card, by, owner)

    replace(patch, Ambush, "eliminated", eliminated)


@mutation(
    "own-ambush-attacker-stays",
    "B-Ambush",
    "a card eliminating its own family's Ambush stays (the revised reading, not the default)",
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Ambush.eliminated

    def eliminated(
        self: Ambush, game: Effects, card: CardId, by: CardId | None, owner: str
    ) -> None:
        if by is not None and game.owner(by) == owner:
            game.gain(owner, 1, card)
            return
        original(self, game, card, by, owner)

    replace(patch, Ambush, "eliminated", eliminated)


@mutation(
    "trap-attacker-stays", "A-Trap", "an opponent's card that eliminates a Trap stays in the queue"
)
def _(patch: pytest.MonkeyPatch) -> None:
    def eliminated(self: Trap, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        if by is not None and game.owner(by) != owner:
            game.steal(owner, game.owner(by), 3, card)

    replace(patch, Trap, "eliminated", eliminated)


@mutation(
    "own-trap-attacker-discarded", "A-Trap", "a card eliminating its own family's Trap is discarded"
)
def _(patch: pytest.MonkeyPatch) -> None:
    original = Trap.eliminated

    def eliminated(self: Trap, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        if by is not None and game.owner(by) == owner:
            game.discard_attacker(by)
            return
        original(self, game, card, by, owner)

    replace(patch, Trap, "eliminated", eliminated)


# The Impersonation (RULINGS A-Impersonation).


def _impersonate(
    *, never: bool = False, stacks: bool = False, own: bool = False
) -> Callable[..., None]:
    def impersonate(self: Impersonation, game: Effects, card: CardId, position: int) -> None:
        family = game.owner(card)
        target = game.top(position)
        replace_it = (
            not never
            and game.is_character(target)
            and (own or game.owner(target) != family)
            and (stacks or len(game.queue[position]) == 1)
        )
        after = position > game.index(card)
        key = game.key(target)
        game.eliminate(target, by=card)
        if not replace_it:
            return
        replacement = self.replacement(game, family, key)
        here = game.position(card)
        if replacement is None or here is None:
            return
        zone, chosen = replacement
        game.take(zone, family, chosen)
        game.insert(chosen, family, here + 1 if after else here, face_up=True)

    return impersonate


@mutation(
    "impersonation-puts-nothing-in",
    "A-Impersonation",
    "an Impersonation never puts its own card in the eliminated card's place",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Impersonation, "impersonate", _impersonate(never=True))


@mutation(
    "impersonation-replaces-the-top-of-a-stack",
    "A-Impersonation",
    "an Impersonation replaces a card that was not alone in its position",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Impersonation, "impersonate", _impersonate(stacks=True))


@mutation(
    "impersonation-replaces-its-own-familys-card",
    "A-Impersonation",
    "an Impersonation replaces a Character of its own family",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Impersonation, "impersonate", _impersonate(own=True))


# The Schemer (RULINGS A-Schemer, docs/rulings.md P17).


@mutation("schemer-counts-its-own-stack", "P17", "a Schemer on top of a stack discards itself")
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Schemer, game: Effects, card: CardId) -> None:
        queue = game.queue
        here = game.index(card)
        if any(len(queue[i]) > 1 for i in (*game.adjacent(here), here)):
            game.discard(card)
        else:
            game.gain(game.owner(card), 2, card)

    replace(patch, Schemer, "activate", activate)


@mutation("schemer-never-discarded", "A-Schemer", "a Schemer next to a stack gains 2 and stays")
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Schemer, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 2, card)

    replace(patch, Schemer, "activate", activate)


# The Cutthroat (RULINGS A-Cutthroat, docs/rulings.md P12).


def _strike(
    *, reread: bool = False, own: bool = False, face_down: bool = False
) -> Callable[..., None]:
    def strike(self: Cutthroat, game: Effects, card: CardId, position: int) -> None:
        family = game.owner(card)
        target = game.top(position)
        name = game.key(target)
        game.eliminate(target, by=card, gain=False)

        def swept(top: CardId) -> bool:
            return (
                game.key(top) == name
                and (face_down or game.is_up(top))
                and (own or game.owner(top) != family)
            )

        count = 1
        if reread:  # each elimination looks at the queue anew
            while found := [top for top in game.tops() if swept(top)]:
                game.eliminate(found[0], by=card, gain=False)
                count += 1
        else:
            for top in [top for top in game.tops() if swept(top)]:
                if game.position(top) is not None and swept(top):
                    game.eliminate(top, by=card, gain=False)
                    count += 1
        if count >= 2:
            game.gain(family, count, card)

    return strike


@mutation(
    "cutthroat-sweeps-what-its-sweep-uncovers",
    "P12",
    "the Cutthroat's sweep also takes a card its own sweep uncovered",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Cutthroat, "strike", _strike(reread=True))


@mutation(
    "cutthroat-sweeps-its-own-family",
    "A-Cutthroat",
    "the Cutthroat's sweep also takes its own family's cards",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Cutthroat, "strike", _strike(own=True))


@mutation(
    "cutthroat-sweeps-face-down-cards",
    "A-Cutthroat",
    "the Cutthroat's sweep also takes face-down cards of that name",
)
def _(patch: pytest.MonkeyPatch) -> None:
    replace(patch, Cutthroat, "strike", _strike(face_down=True))


# Cards that pick a target, and the ends of the queue.


@mutation(
    "archer-cannot-shoot-itself",
    "B-Archer",
    "an Archer at an end of the queue may not eliminate itself",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Archer, game: Effects, card: CardId) -> None:
        own = game.index(card)
        game.ask_target(card, [i for i in game.ends() if i != own], self.shoot)

    replace(patch, Archer, "activate", activate)


@mutation(
    "archer-shoots-only-the-first",
    "B-Archer",
    "an Archer may eliminate only the first card of the queue",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Archer, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.ends()[:1], self.shoot)

    replace(patch, Archer, "activate", activate)


@mutation(
    "assassination-cannot-target-itself",
    "B-Assassination",
    "an Assassination may not eliminate itself",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Assassination, game: Effects, card: CardId) -> None:
        own = game.index(card)
        game.ask_target(card, [i for i in range(len(game.queue)) if i != own], self.kill)

    replace(patch, Assassination, "activate", activate)


@mutation(
    "spy-picks-any-top-card",
    "B-Spy",
    "a Spy may steal through any top card, not only an adjacent one",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Spy, game: Effects, card: CardId) -> None:
        own = game.index(card)
        game.ask_target(card, [i for i in range(len(game.queue)) if i != own], self.steal)

    replace(patch, Spy, "activate", activate)


@mutation(
    "shapeshifter-copies-a-face-down-card",
    "B-Shapeshifter",
    "a Shapeshifter may copy a face-down Character",
)
def _(patch: pytest.MonkeyPatch) -> None:
    def activate(self: Shapeshifter, game: Effects, card: CardId) -> None:
        options = [
            i
            for i in game.adjacent(game.index(card))
            if game.is_character(top := game.top(i)) and game.key(top) != SHAPESHIFTER
        ]
        game.ask_target(card, options, self.copy)

    replace(patch, Shapeshifter, "activate", activate)


#: Names, each once.
assert len({m.name for m in MUTATIONS}) == len(MUTATIONS)
