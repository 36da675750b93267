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
name, so a game waiting on a question can be cloned and saved. A class says, in
:attr:`Ability.continuations`, what question each of its continuations answers, so that
a save waiting on one is checked against it (by :mod:`oriflamme.saves`; never in play).

One ability object serves every game of a registry: keep no state on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar, Final

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

    #: What each continuation answers, by method name: ``(kind,)``, the kind of the
    #: question it resumes, or for a ``choose`` question ``("choose", *words)``, the
    #: words it may offer. A continuation not named answers a ``target`` question (as
    #: ``ask_target`` asks). A saved game waiting on a question is refused if the
    #: continuation it resumes is named here with another kind, or other words; it is
    #: read only when a save or a position is loaded, never in play. Read-only (a
    #: MappingProxyType): one class serves every game, and a bot or an ability that
    #: reaches it must not change what another game's save is checked against.
    continuations: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})

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
