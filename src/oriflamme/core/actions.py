"""What cards do to the game, in the rulebook's words: gain, lose, steal, eliminate,
discard, move, place. Abilities call these; each records its event and tells
the observers.
"""

from __future__ import annotations

from typing import Any

from .errors import OriflammeError, PluginError
from .events import EVENT_TYPES, Bribed, Discarded, Eliminated, Moved, Placed
from .queue import Queue


class Actions(Queue):
    __slots__ = ()

    def _emit(self, kind: str, *fields: Any) -> None:
        """Log an event and tell its observers."""
        self.log.append((kind, *fields))
        if kind in self.rules.observers:
            self._notify(kind, fields)

    def _notify(self, kind: str, fields: tuple[Any, ...]) -> None:
        event = EVENT_TYPES[kind](*fields)
        for plugin, hook, observer in self.rules.observers[kind]:
            try:
                observer(self, event)
            except OriflammeError:
                raise
            except Exception as exc:
                raise PluginError(
                    f"plugin {plugin!r} failed in hook {hook} "
                    f"({event!r}): {type(exc).__name__}: {exc}"
                ) from exc

    # Who and what.

    def owner(self, card: str) -> str:
        """The family that owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        bribes = self.bribes
        if bribes and card in bribes:
            return bribes[card]
        return self.family_of[card]

    def key(self, card: str) -> str:
        """The card key (its name) of ``card``."""
        return self.key_of[card]

    def is_up(self, card: str) -> bool:
        return card in self.up

    def is_character(self, card: str) -> bool:
        return self.rules.definitions[self.key_of[card]].is_character

    def variant(self, name: str) -> Any:
        """The value of rules variant ``name`` in this game."""
        return self.rules.variants[name]

    # Influence (RULINGS G7: it never goes below 0).

    def gain(self, family: str, amount: int, card: str | None = None) -> None:
        """``family`` gains ``amount`` Influence from the supply (because of ``card``)."""
        if amount > 0:
            self.influence[family] += amount
            self.log.append(("gained", family, amount, card))

    def lose(self, family: str, amount: int, card: str | None = None) -> int:
        """``family`` loses up to ``amount`` to the supply; returns what it lost."""
        taken = min(amount, self.influence[family])
        if taken > 0:
            self.influence[family] -= taken
            self.log.append(("lost", family, taken, card))
        return taken

    def steal(self, thief: str, victim: str, amount: int, card: str | None = None) -> int:
        """``thief`` takes up to ``amount`` from ``victim``; returns what was taken.

        RULINGS B-Spy: stealing from yourself changes nothing.
        """
        if thief == victim:
            return 0
        taken = min(amount, self.influence[victim])
        if taken > 0:
            self.influence[victim] -= taken
            self.influence[thief] += taken
            self.log.append(("stolen", thief, victim, taken, card))
        return taken

    # Cards leaving the queue.

    def eliminate(self, card: str, by: str | None, *, gain: bool = True) -> None:
        """Eliminate top card ``card``, by card ``by`` (RULINGS R5).

        It is turned face up, its tokens go back to the supply, it goes to its
        original owner's eliminated pile (a Bribery token on it is removed), and
        the owner of ``by`` gains 1 unless ``gain`` is False (the Cutthroat counts
        its own). Its ability does not apply; only its reaction, if it has one.
        """
        position = self.position(card)
        if position is None:
            raise ValueError(f"{card} is not the top card of a position in the queue")
        owner = self.owner(card)
        # The eliminator's owner, read now: a card that eliminates itself loses its
        # Bribery token with it, and its briber still gains (RULINGS R3, R5).
        eliminator = self.owner(by) if by is not None else None
        face_down = card not in self.up
        tokens = self.tokens.pop(card, 0)
        self._remove_top(position)
        self.up.discard(card)
        self.bribes.pop(card, None)
        family = self.family_of[card]
        self.eliminated[family] = (*self.eliminated[family], card)
        fields = (card, by, owner, tokens, face_down)
        self.log.append((Eliminated.kind, *fields))  # logged before the gain it causes
        if gain and eliminator is not None:
            self.gain(eliminator, 1, by)
        if Eliminated.kind in self.rules.observers:
            self._notify(Eliminated.kind, fields)  # docs/rulings.md P7
        reaction = self.rules.reactions.get(self.key_of[card])
        if reaction is not None:
            reaction.eliminated(self, card, by, owner)  # type: ignore[arg-type]

    def discard(self, card: str) -> None:
        """Discard top card ``card`` from the queue into its original owner's pile.

        A card that carried a Bribery token goes to the eliminated pile instead
        (RULINGS A-Bribery). Tokens on it go back to the supply.
        """
        position = self.position(card)
        if position is None:
            raise ValueError(f"{card} is not the top card of a position in the queue")
        owner = self.owner(card)
        self.tokens.pop(card, None)
        self._remove_top(position)
        self.up.discard(card)
        family = self.family_of[card]
        if self.bribes.pop(card, None) is not None:
            pile = "eliminated"
            self.eliminated[family] = (*self.eliminated[family], card)
        else:
            pile = "discarded"
            self.discarded[family] = (*self.discarded[family], card)
        self._emit(Discarded.kind, card, owner, pile)

    def discard_attacker(self, card: str) -> None:
        """Discard ``card``, a card that eliminated a card reacting to it (an Ambush,
        a Trap), if it is still on top in the queue. It is discarded, not
        eliminated: nothing reacts to it."""
        if self.position(card) is not None:
            self.discard(card)

    def in_queue(self, card: str) -> bool:
        """Whether ``card`` is anywhere in the queue, covered or not."""
        return any(card in stack for stack in self.queue)

    # Cards moving within or into the queue.

    def move(self, card: str, to: int) -> None:
        """Move top card ``card`` to be a new position at index ``to`` once moved.

        It keeps its face and tokens; the card under it, if any, becomes the top.
        """
        source = self.position(card)
        if source is None:
            raise ValueError(f"{card} is not the top card of a position in the queue")
        self._remove_top(source)
        self._insert_position(to, card)
        self.log.append((Moved.kind, card, source, to, card in self.up))

    def put(self, card: str, family: str, at: str | int, *, face_up: bool = False) -> None:
        """Put ``card`` (already out of its zone) into the queue for ``family``.

        ``at`` is ``"first"``, ``"last"`` or the index of a position to stack on.
        """
        if at == "first":
            self.insert(card, family, 0, face_up=face_up)
        elif at == "last":
            self.insert(card, family, len(self.queue), face_up=face_up)
        else:
            index = int(at)
            on = self.queue[index][-1]
            self._stack_on(index, card)
            if face_up:
                self.up.add(card)
            self._emit(Placed.kind, family, card, index, on, face_up)

    def insert(self, card: str, family: str, index: int, *, face_up: bool = False) -> None:
        """Put ``card`` into the queue as a new position at ``index``, for ``family``.

        The walk treats it like any card placed ahead of or behind it (RULINGS R8).
        """
        self._insert_position(index, card)
        if face_up:
            self.up.add(card)
        self._emit(Placed.kind, family, card, index, None, face_up)

    def bribe(self, card: str, family: str) -> None:
        """Put ``family``'s Bribery token on ``card``, replacing any other (RULINGS A-Bribery).

        The card now belongs to ``family`` (R3) until it leaves the queue.
        """
        self.bribes[card] = family
        self._emit(Bribed.kind, card, family)

    def take(self, zone: str, family: str, card: str) -> None:
        """Take ``card`` out of ``family``'s ``zone`` (hands, reserve, discarded...)."""
        pile = self.pile(zone)
        cards = pile[family]
        index = cards.index(card)
        pile[family] = cards[:index] + cards[index + 1 :]
