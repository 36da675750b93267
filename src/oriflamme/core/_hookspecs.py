"""The plugin hooks of ``oriflamme``: what a card set or a house rule may provide.

Every hook here is part of the public API. The built-in sets use only these hooks,
exactly as a third-party package would. Mark implementations with
``oriflamme.hookimpl``; declare a package's plugin under the entry-point group
``oriflamme``.

Three kinds of hook:

* ``register_*`` hooks return objects. They are called once, when a
  :class:`~oriflamme.Registry` loads its plugins, one plugin at a time through
  pluggy; the engine collects what they return into tables keyed by name (card key,
  set name, variant name, decision kind). A key provided twice is an error, never a
  silent override, so the order plugins are registered in cannot change a rule.
  What they return is checked, type by type (a list is a ``list`` or a ``tuple``; a
  name is lowercase snake_case, at most 40 characters): a plugin whose hook raises or
  returns anything else is left out, with the hook and what was expected in
  :attr:`Registry.problems <oriflamme.Registry.problems>`, and the others load.
* ``loadable_saves`` declares what a plugin lets a loaded game do with its work (see
  :func:`loadable_saves`); it is called when a game is loaded.
* Event hooks are called through pluggy while a game runs, after the event has
  happened, with ``game`` (the game's :class:`~oriflamme.Effects`) and ``event``. A
  plugin may read the game and act on it through its verbs (``game.gain``,
  ``game.lose``, ``game.discard``...), but must not ask a question. Implementations
  run in the order of their plugins' names, whatever order the plugins were
  registered in; ``tryfirst``, ``trylast`` and wrappers work as pluggy documents. A
  hook no plugin implements costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

import pluggy

from ._ability import Ability
from ._botkinds import BotKind
from ._effects import Effects
from ._events import HOOKS as EVENT_HOOK_NAMES
from ._events import (
    Activated,
    Applied,
    Bribed,
    Discarded,
    Eliminated,
    Gained,
    GameEnded,
    GameStarted,
    Lost,
    Moved,
    Placed,
    Revealed,
    RoundEnded,
    RoundStarted,
    Stolen,
    TokenAdded,
)
from ._kinds import DecisionKind
from ._variants import Variant, VariantValue

PROJECT = "oriflamme"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_card_sets() -> Sequence[Traversable | Path]:
    """Return the card-set YAML files this plugin provides, in a list.

    Called once per registry. Each file defines one set (its ``set:`` name) and
    its cards; see ``cards/base.yaml`` for the format. Ship the files inside your
    package and return them with ``importlib.resources.files(...)`` (or as
    ``pathlib.Path`` objects; a ``str`` is refused). A set name or a card key
    already provided by another plugin is an error. Return an empty list (or do
    not implement the hook) if the plugin brings no cards. At most 64 files; each
    is read within the bounds of :mod:`.yamlfile` (256 KiB, lines of 4,000
    characters, 50 levels of nesting...), and a file that is out of bounds, not
    UTF-8, malformed or of the wrong types leaves the plugin out, named with its
    file and line.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def register_abilities() -> Mapping[str, Ability]:
    """Return the ability of each card key this plugin implements: a mapping of card
    key (a ``str``) to an :class:`~oriflamme.Ability` object.

    Called once per registry; each game looks abilities up in a table built from
    these mappings, never by calling plugins card by card. A key implemented by
    two plugins is an error. A game with a card no plugin gives an ability is an
    error naming the card and its file (``oriflamme cards`` flags it): a card that
    does nothing is given an ``Ability()`` all the same, so that a misspelt key is
    never dealt as a card that does nothing.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def register_variants() -> Sequence[Variant]:
    """Return the rules variants this plugin declares (name, values, default, help),
    in a list of :class:`~oriflamme.Variant` objects.

    A game's configuration chooses a value for each; abilities read it with
    ``game.variant(name)``. A variant name declared twice is an error. A value is
    ``True``, ``False``, an ``int`` (at most 2**63 - 1 either side of 0) or a word
    (a printable ``str`` of 1 to 100 characters, no space at either end); the
    default is one of the values, of the same type; ``help`` is a ``str``.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def replace_abilities(variants: Mapping[str, VariantValue]) -> Mapping[str, Ability]:
    """Return abilities that replace other plugins' abilities, for a game with ``variants``:
    a mapping of card key to :class:`~oriflamme.Ability`, as ``register_abilities``.

    Called once when a registry loads its plugins, with every variant at its
    default (a plugin whose hook fails or returns the wrong type is left out
    then), and once per choice of variants, when a registry builds a game's rules
    table (a failure then refuses to make the game, naming the plugin).
    ``variants`` maps every declared variant to its value in that game.
    This is the one way to change a card another plugin implements: a key
    returned by ``register_abilities`` that another plugin already provides is
    an error, never a silent override. Return an empty mapping (or None) to
    replace nothing, for example when your variant is off. A key no plugin
    implements, or one that two plugins replace in the same game, is an error.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def register_decision_kinds() -> Sequence[DecisionKind]:
    """Return the kinds of decision this plugin's abilities ask (see :mod:`.kinds`), in
    a list of instances of :class:`~oriflamme.DecisionKind` subclasses.

    Called once per registry. A kind's ``name`` (lowercase snake_case) is what
    ``game.ask`` takes; it must not be one of core's kinds (``place``, ``reveal``,
    ``target``) nor another plugin's (the base set registers ``move``, Ablaze ``twin``
    and ``choose``). Its ``help`` is a ``str`` and its ``private_options`` a ``bool``.
    A kind checks answers and says whether its options are private to the family
    asked; :mod:`oriflamme.text` words its questions for people (by its own
    ``question`` and ``option`` methods, if it has them).
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def register_bot_kinds() -> Sequence[BotKind]:
    """Return the kinds of bot this plugin provides, in a list of
    :class:`~oriflamme.BotKind` objects: a house-rule author's bot that knows the
    plugin's cards, say.

    Called once per registry. A kind's ``name`` (lowercase snake_case) is what
    ``--bots`` takes; it must not be a built-in kind's (``random``, ``heuristic``,
    ``ismcts``) nor another plugin's. ``help`` is a ``str``; ``make`` is called as
    ``make(rng, registry, **settings)`` and returns a bot (an object with
    ``choose(observation)``); ``settings`` is a list of at most 32
    :class:`~oriflamme.BotSetting` (name, ``int``/``float``/``str`` type, default of
    that type or None, help, choices or bounds). Anything else leaves the plugin out,
    with the reason, as for every ``register_*`` hook.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def loadable_saves() -> bool:
    """Return True to declare that a saved game waiting on this plugin's work may be
    loaded: a question one of its abilities asked, or a task one queued with ``then``.

    Loading a game tries every answer to its question on copies first, so that a
    damaged save is refused, never played into a failure; a continuation of yours is
    then called with the arguments the save gives (anyone may have written it), once
    for each answer tried. Declare it only if every public method of your abilities
    that ``ask`` or ``then`` continues with checks its arguments (raising on what it
    cannot use) and changes nothing but the game, through its verbs. Without it (the
    default: anything but ``True``, or a hook that raises), a save that waits on your
    work is refused with a :class:`~oriflamme.SaveError` saying so, never accepted
    untried; saves at any other point load whatever you declare.
    """
    raise NotImplementedError  # a specification: pluggy never calls it


@hookspec
def game_started(game: Effects, event: GameStarted) -> None:
    """A new game has been set up (hands dealt, first player chosen); nothing is placed."""


@hookspec
def round_started(game: Effects, event: RoundStarted) -> None:
    """A round begins; its placement phase is next. ``event.round`` is 1 to 6."""


@hookspec
def card_placed(game: Effects, event: Placed) -> None:
    """A card was put into the queue: by its family in the placement phase, or by a card."""


@hookspec
def token_added(game: Effects, event: TokenAdded) -> None:
    """A face-down card's owner did not reveal it: one more token lies on it (none more
    once it holds the most a card may hold, 100; the event is still sent)."""


@hookspec
def card_revealed(game: Effects, event: Revealed) -> None:
    """Its owner revealed a card and gained its tokens; its ability applies next."""


@hookspec
def card_eliminated(game: Effects, event: Eliminated) -> None:
    """A card was eliminated: it is in its pile and the eliminator has gained for it.

    Called before the card's own reaction (an Ambush's, for example), so an
    observer sees the elimination as the rules state it, before its consequences
    (docs/rulings.md P7).
    """


@hookspec
def card_discarded(game: Effects, event: Discarded) -> None:
    """A card left the queue by any effect other than elimination; it is in its pile."""


@hookspec
def card_moved(game: Effects, event: Moved) -> None:
    """A card moved within the queue (a Royal Decree); it keeps its face and tokens."""


@hookspec
def influence_gained(game: Effects, event: Gained) -> None:
    """A family gained Influence from the supply (``event.card``: because of which card)."""


@hookspec
def influence_lost(game: Effects, event: Lost) -> None:
    """A family lost Influence to the supply (never below 0: RULINGS G7)."""


@hookspec
def influence_stolen(game: Effects, event: Stolen) -> None:
    """A family took Influence from another (a Spy, a Trap)."""


@hookspec
def card_bribed(game: Effects, event: Bribed) -> None:
    """A Bribery token was put on a card: its family owns the card now (RULINGS R3)."""


@hookspec
def card_activated(game: Effects, event: Activated) -> None:
    """A face-up card takes its turn in the resolution phase: its ability applies next
    (after its reveal, if it was revealed now)."""


@hookspec
def ability_applied(game: Effects, event: Applied) -> None:
    """A card applies the ability of another card in the queue, as the card whose turn
    it is says (a Shapeshifter's copy, a Plot's Character); that ability applies next."""


@hookspec
def round_ended(game: Effects, event: RoundEnded) -> None:
    """The resolution phase of a round is over; the First Player tile has not moved yet."""


@hookspec
def game_ended(game: Effects, event: GameEnded) -> None:
    """The game is over; ``event`` holds the final scores and the winners."""


#: The event hooks, by the kind of event each observes.
EVENT_HOOKS: dict[str, str] = dict(EVENT_HOOK_NAMES)

#: Every hook, by name.
HOOKS: tuple[str, ...] = (
    "register_card_sets",
    "register_abilities",
    "register_variants",
    "register_decision_kinds",
    "replace_abilities",
    "register_bot_kinds",
    "loadable_saves",
    *EVENT_HOOKS.values(),
)
