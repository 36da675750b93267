"""Pickpocket: steal 1 Influence from the owner of an adjacent card of another family,
the one your family chooses.

The card that asks a question. Its ability works out the options, asks, and stops:
the answer comes later (a person may take minutes; the game may be saved meanwhile),
and the engine then calls the continuation it named, :meth:`Pickpocket.steal`, with
the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from oriflamme import Ability

if TYPE_CHECKING:
    from oriflamme import CardId, Effects


class Pickpocket(Ability):
    # What each continuation answers (checked when a saved game waiting on it is
    # loaded): ``steal`` answers a ``target`` question, a queue position.
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"steal": ("target",)}
    )

    def activate(self, game: Effects, card: CardId) -> None:
        here = game.position(card)
        if here is None:  # applied by a card that has left the queue: no neighbours
            return
        family = game.owner(card)
        # Adjacent means the top cards of the neighbouring positions (RULINGS R7).
        victims = [i for i in game.adjacent(here) if game.owner(game.top(i)) != family]
        # The acting card's owner chooses among the positions. No option: nothing
        # happens; one: it is applied without asking (RULINGS R4). Either way
        # ``steal`` runs after this method returns: asking is the last thing it does.
        game.ask_target(card, victims, self.steal)

    def steal(self, game: Effects, card: CardId, position: int) -> None:
        # A continuation: ``ask_target``'s arguments (none here) then the answer, a
        # position the engine has checked against the options. A saved game hands it
        # what the save holds, so it checks what it is given all the same
        # (docs/plugins.md, "Saved games").
        if type(position) is not int or not 0 <= position < len(game.queue):
            raise ValueError(f"a position of the queue is expected, not {position!r}")
        thief = game.owner(card)
        victim = game.owner(game.top(position))
        if victim == thief:
            raise ValueError(f"position {position} holds a card of the Pickpocket's own family")
        game.steal(thief, victim, 1, card)
