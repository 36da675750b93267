"""The plugin hooks of ``oriflamme``: what a card set or a house rule may provide.

Every hook here is part of the public API. The built-in sets use only these hooks,
exactly as a third-party package would. Mark implementations with
``oriflamme.hookimpl``; declare a package's plugin under the entry-point group
``oriflamme``.

Two kinds of hook:

* ``register_*`` hooks return objects. They are called once, when a
  :class:`~oriflamme.Registry` loads its plugins; the engine collects what they
  return into tables keyed by name (card key, set name, variant name). A key
  provided twice is an error, never a silent override, so the order plugins are
  registered in cannot change a rule.
* Event hooks are called while a game runs, after the event has happened. A
  plugin may read the game and react through its public actions
  (``game.gain``, ``game.lose``, ``game.discard``...), but must not ask a
  question. Implementations are called in the order of their plugins' names,
  never in registration order. A game builds its list of observers once, when it
  is created; a hook no plugin implements costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import pluggy

from .ability import Ability
from .events import (
    Discarded,
    Eliminated,
    GameEnded,
    GameStarted,
    Placed,
    Revealed,
    RoundEnded,
    RoundStarted,
)

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from pathlib import Path

    from .game import Game
    from .variants import Variant, VariantValue

PROJECT = "oriflamme"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_card_sets() -> Sequence[Traversable | Path]:  # type: ignore[empty-body]
    """Return the card-set YAML files this plugin provides.

    Called once per registry. Each file defines one set (its ``set:`` name) and
    its cards; see ``cards/base.yaml`` for the format. Ship the files inside your
    package and return them with ``importlib.resources.files(...)``. A set name
    or a card key already provided by another plugin is an error. Return an
    empty sequence (or do not implement the hook) if the plugin brings no cards.
    """


@hookspec
def register_abilities() -> Mapping[str, Ability]:  # type: ignore[empty-body]
    """Return the ability of each card key this plugin implements.

    Called once per registry; each game looks abilities up in a table built from
    these mappings, never by calling plugins card by card. A key implemented by
    two plugins is an error. A card with no ability registered does nothing when
    it resolves (``oriflamme cards`` flags it).
    """


@hookspec
def register_variants() -> Sequence[Variant]:  # type: ignore[empty-body]
    """Return the rules variants this plugin declares (name, values, default, help).

    A game's configuration chooses a value for each; abilities read it with
    ``game.variant(name)``. A variant name declared twice is an error.
    """


@hookspec
def replace_abilities(variants: Mapping[str, VariantValue]) -> Mapping[str, Ability]:  # type: ignore[empty-body]
    """Return abilities that replace other plugins' abilities, for a game with ``variants``.

    Called once per choice of variants, when a registry builds a game's rules
    table. ``variants`` maps every declared variant to its value in that game.
    This is the one way to change a card another plugin implements: a key
    returned by ``register_abilities`` that another plugin already provides is
    an error, never a silent override. Return an empty mapping (or None) to
    replace nothing, for example when your variant is off. A key no plugin
    implements, or one that two plugins replace in the same game, is an error.
    """


@hookspec
def game_started(game: Game, event: GameStarted) -> None:
    """A new game has been set up (hands dealt, first player chosen); nothing is placed."""


@hookspec
def round_started(game: Game, event: RoundStarted) -> None:
    """A round begins; its placement phase is next. ``event.round`` is 1 to 6."""


@hookspec
def card_placed(game: Game, event: Placed) -> None:
    """A card was put into the queue: by its family in the placement phase, or by a card."""


@hookspec
def card_revealed(game: Game, event: Revealed) -> None:
    """Its owner revealed a card and gained its tokens; its ability applies next."""


@hookspec
def card_eliminated(game: Game, event: Eliminated) -> None:
    """A card was eliminated: it is in its pile and the eliminator has gained for it.

    Called before the card's own reaction (an Ambush's, for example), so an
    observer sees the elimination as the rules state it, before its consequences.
    """


@hookspec
def card_discarded(game: Game, event: Discarded) -> None:
    """A card left the queue by any effect other than elimination; it is in its pile."""


@hookspec
def round_ended(game: Game, event: RoundEnded) -> None:
    """The resolution phase of a round is over; the First Player tile has not moved yet."""


@hookspec
def game_ended(game: Game, event: GameEnded) -> None:
    """The game is over; ``event`` holds the final scores and the winners."""


#: Every hook, by name.
HOOKS: tuple[str, ...] = (
    "register_card_sets",
    "register_abilities",
    "register_variants",
    "replace_abilities",
    "game_started",
    "round_started",
    "card_placed",
    "card_revealed",
    "card_eliminated",
    "card_discarded",
    "round_ended",
    "game_ended",
)

#: The event hooks, by the kind of event each observes.
EVENT_HOOKS: dict[str, str] = {
    GameStarted.kind: "game_started",
    RoundStarted.kind: "round_started",
    Placed.kind: "card_placed",
    Revealed.kind: "card_revealed",
    Eliminated.kind: "card_eliminated",
    Discarded.kind: "card_discarded",
    RoundEnded.kind: "round_ended",
    GameEnded.kind: "game_ended",
}
