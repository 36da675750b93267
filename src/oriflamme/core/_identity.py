"""Which card each card id of a game is: its printed colour and its key.

A card id is an index into the game's identity. Ids are handed out when a family's
cards have been shuffled, so an id tells nothing about the card behind it: a family
that sees another family's face-down card in the queue sees its id (a handle to
follow it by) and its colour (the back of the card shows it), never its key. Who may
know which key is decided by the observation (see :mod:`.observation`), never by the
id itself.

The identity is fixed for a game and shared by its clones; a determinised game
(:mod:`.determinise`) gets a new one, with other keys under the ids it could not see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, NoReturn

#: A card of one game: an index into its identity.
CardId = int
#: "No card", where a slot of the state holds a card or nothing.
NO_CARD: Final = -1


class Identity:
    """The printed colour (original owner) and key of every card id of one game."""

    __slots__ = ("_labels", "_own", "colours", "keys")

    colours: tuple[str, ...]
    keys: tuple[str, ...]
    _own: dict[str, Mapping[CardId, str]]
    _labels: tuple[str, ...] | None

    def __init__(self, colours: Sequence[str], keys: Sequence[str]) -> None:
        if len(colours) != len(keys):
            raise ValueError("an identity needs one colour and one key per card")
        # Set through object: to everyone else the attributes are read-only (an
        # identity is shared by a game's clones).
        object.__setattr__(self, "colours", tuple(colours))
        object.__setattr__(self, "keys", tuple(keys))
        object.__setattr__(self, "_own", {})
        object.__setattr__(self, "_labels", None)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a game's identity cannot be changed (Identity.{name})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a game's identity cannot be changed (Identity.{name})")

    def __len__(self) -> int:
        return len(self.keys)

    def own(self, family: str) -> Mapping[CardId, str]:
        """The keys of ``family``'s own cards, by id: what that family always knows."""
        found = self._own.get(family)
        if found is None:
            colours = self.colours
            found = MappingProxyType(
                {card: key for card, key in enumerate(self.keys) if colours[card] == family}
            )
            self._own[family] = found
        return found

    @property
    def labels(self) -> tuple[str, ...]:
        """Each card's name for a referee: ``red.soldier``; a second copy ``red.soldier.2``.

        Copies are numbered in id order. These names are omniscient (they tell which
        card an id is): scenarios, saves and error messages for the whole table use
        them, never an observation.
        """
        found = self._labels
        if found is None:
            seen: dict[tuple[str, str], int] = {}
            labels = []
            for colour, key in zip(self.colours, self.keys, strict=True):
                count = seen.get((colour, key), 0) + 1
                seen[(colour, key)] = count
                labels.append(f"{colour}.{key}" if count == 1 else f"{colour}.{key}.{count}")
            found = tuple(labels)
            object.__setattr__(self, "_labels", found)
        return found

    def label(self, card: CardId) -> str:
        return self.labels[card]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Identity):
            return NotImplemented
        return self.colours == other.colours and self.keys == other.keys

    def __hash__(self) -> int:
        return hash((self.colours, self.keys))

    def __repr__(self) -> str:
        return f"Identity({len(self.keys)} cards)"
