"""The base class of every card ability, built-in or from a plugin.

An ability is an object registered for a card key (hook ``register_abilities``). The
engine calls :meth:`Ability.activate` when a card with that key resolves face up (or
when another card applies that key's ability: a Shapeshifter copying it, a Plot).
``card`` is always the *acting* card: the one whose position, name and owner the
ability uses (RULINGS B-Shapeshifter). ``game`` is the game's
:class:`~oriflamme.Effects`: what the ability may read and do.

An ability that must choose calls :meth:`Effects.ask`, naming one of its own public
methods to call with the answer: asking is the last thing it does, since the game may
stop there until a player answers. Work that must follow a nested ability is put on
the task stack first with :meth:`Effects.then`. Continuations are stored by method
name, so a game waiting on a question can be cloned and saved.

One ability object serves every game of a registry: keep no state on it.
"""

from __future__ import annotations

from typing import Final

from ._compiling import mypyc_attr
from ._effects import Effects
from ._identity import CardId
from ._rules import CardAbility


@mypyc_attr(allow_interpreted_subclasses=True)  # plugins subclass it
class Ability:
    """Override :meth:`activate`; override :meth:`eliminated` if the card reacts to it."""

    # No attributes of its own: the ability that does nothing (``INERT``) serves every
    # game, and nothing handed out may change it. A subclass without ``__slots__``
    # still has a ``__dict__`` for its settings.
    __slots__ = ()

    def activate(self, game: Effects, card: CardId) -> None:
        """Apply the ability, ``card`` acting. The default does nothing."""

    def eliminated(self, game: Effects, card: CardId, by: CardId | None, owner: str) -> None:
        """React to ``card``'s own elimination (RULINGS R5: only where its text says so).

        Called after the card is in its pile and the eliminator's owner has gained for
        the elimination. ``by`` is the eliminating card (None if no card did it);
        ``owner`` owned ``card`` at the moment it was eliminated.
        """


#: The ability of a card that no plugin implements: it does nothing.
INERT: Final = Ability()


def reacts_to_elimination(ability: CardAbility) -> bool:
    """Whether ``ability`` overrides :meth:`Ability.eliminated` (so the engine must call it)."""
    return type(ability).eliminated is not Ability.eliminated
