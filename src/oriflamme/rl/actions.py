"""A fixed, discrete action space covering every decision of every card.

Learning libraries want the same numbered actions at every step, with a mask of those
legal now. An :class:`ActionSpace` is made for a card list and numbers, in blocks:

=========  ============================  ===========================================
block      size                          action
=========  ============================  ===========================================
place      ``K * (2 + N)``               card type ``k`` (its index in the card list)
                                         at the first end, the last end, or on
                                         position ``i`` (``0 <= i < N``)
reveal     2                             reveal, keep face down
target     ``N``                         position ``i``
move       ``N``                         to position ``i``
twin       ``2 + N``                     first end, last end, on position ``i``
choose     ``len(words)``                each named choice (``gain``, ``repeat``...)
other      ``M``                         option ``j`` of any other question (a
                                         plugin's kind, a word not named above)
=========  ============================  ===========================================

``K`` is the number of distinct card types of the list, ``N`` is :data:`POSITIONS` (no
queue of five families grows past it: each places six cards and may add a Twin) and
``M`` is :data:`OTHER`. Two copies of one card type in a hand are one action: they are
the same card to play. Reading an action back takes the first matching option of the
decision, so every legal action is an answer the engine accepts.

Positions and options are numbered from 0 in the action ids, as the engine numbers
them; :meth:`ActionSpace.describe` words an action as the table does, positions from 1
and cards by their names (``place Royal Decree on position 1``), so that it reads like
the queue the terminal's view shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from oriflamme import (
    FIRST,
    LAST,
    Answer,
    Decision,
    GameConfig,
    Observation,
    OriflammeError,
    Placement,
    Registry,
    Setup,
)
from oriflamme.text import escaped

#: Queue positions an action can name.
POSITIONS = 40
#: Options of another question an action can name, by their order.
OTHER = 16
#: The kind of question whose options are named choices (the Plot's).
CHOOSE: Final = "choose"


def choice_words(registry: Registry) -> tuple[str, ...]:
    """The words the ``choose`` questions of ``registry``'s cards may offer, as their
    abilities declare them (``Ability.continuations``: ``("choose", *words)``), card by
    card in key order, each once."""
    words: list[str] = []
    abilities = registry.abilities
    for key in sorted(abilities):
        declarations = type(abilities[key]).continuations
        for method in sorted(declarations):
            declared = declarations[method]
            if type(declared) is tuple and declared and declared[0] == CHOOSE:
                words.extend(word for word in declared[1:] if type(word) is str)
    return tuple(dict.fromkeys(words))


#: The built-in card sets alone, without plugins: the words and names every space
#: knows.
_BUILT_IN: Final = Registry(entry_points=False)

#: The named choices of the built-in cards: the options of the Plot's question,
#: ``gain`` and ``repeat``. Every space numbers these same words, whatever its card list
#: and whatever plugins are installed (read from the built-in sets alone): an action
#: keeps its number from one space to another of the same cards, and the spaces of a
#: configuration keep the size and order they always had, so that an agent trained on
#: them plays on. A plugin's words fall in the ``other`` block.
WORDS: Final[tuple[str, ...]] = choice_words(_BUILT_IN)


def card_names(cards: Sequence[str], registry: Registry) -> dict[str, str]:
    """The name of each card type of ``cards`` as ``registry``'s card data prints it
    (``Royal Decree``), its key for a card the registry lacks. Two types of one name
    (a plugin's own Soldier) are each followed by their key: every action has its own
    text, and OpenSpiel reads an action back from its text."""
    known = registry.cards
    names = {key: escaped(known[key].name) if key in known else key for key in cards}
    taken: dict[str, int] = {}
    for name in names.values():
        taken[name] = taken.get(name, 0) + 1
    return {key: name if taken[name] == 1 else f"{name} ({key})" for key, name in names.items()}


def card_pool(config: GameConfig, registry: Registry) -> tuple[str, ...]:
    """Every card type a game of ``config`` may hold: its card list, or when each game
    draws one from several sets, all their cards; with the reserve cards they bring.

    Spaces made for the pool stay the same whatever card list a deal draws.
    """
    keys = list(config.cards) if config.cards is not None else list(registry.set_cards(config.sets))
    listed = set(keys)
    for key, card in registry.cards.items():
        # A reserve card joins whenever the card it needs is listed (RULINGS G2, A-Twin).
        if card.setup is Setup.RESERVE and card.requires in listed and key not in listed:
            keys.append(key)
    return tuple(dict.fromkeys(keys))


class ActionError(OriflammeError):
    """An action that is not legal now, or an option no action can name."""


class ActionSpace:
    """The actions of games of one card list (see the module's table); ``registry``
    names the cards in :meth:`describe` (the built-in cards' data when None)."""

    def __init__(
        self,
        cards: Sequence[str],
        words: Sequence[str] = WORDS,
        *,
        registry: Registry | None = None,
    ) -> None:
        self.cards = tuple(dict.fromkeys(cards))
        self.words = tuple(dict.fromkeys(words))
        registry = registry if registry is not None else _BUILT_IN
        names = card_names((*self.cards, "twin"), registry)
        #: Each card type's name, in the order of :attr:`cards`.
        self.names = tuple(names[key] for key in self.cards)
        # The card the twin block places, in the card list or not (RULINGS A-Twin).
        self._twin = names["twin"] if "twin" in registry.cards else "Twin"
        self._card = {key: index for index, key in enumerate(self.cards)}
        self._word = {word: index for index, word in enumerate(self.words)}
        spot = 2 + POSITIONS
        self.place = 0
        self.reveal = self.place + len(self.cards) * spot
        self.target = self.reveal + 2
        self.move = self.target + POSITIONS
        self.twin = self.move + POSITIONS
        self.choose = self.twin + spot
        self.other = self.choose + len(self.words)
        self.size = self.other + OTHER

    def encode(self, observation: Observation, option: Answer) -> int:
        """The action of ``option``, one of the decision ``observation`` is asked."""
        decision = _asked(observation)
        kind = decision.kind
        if kind == "place" and isinstance(option, Placement):
            key = observation.key(option.card)
            if key is None or key not in self._card:
                raise ActionError(f"card {option.card} is not one of the card list's types")
            return self.place + self._card[key] * (2 + POSITIONS) + _spot(option.at)
        if kind == "reveal" and type(option) is bool:
            return self.reveal + (0 if option else 1)
        if kind in ("target", "move") and type(option) is int and 0 <= option < POSITIONS:
            return (self.target if kind == "target" else self.move) + option
        if kind == "twin" and (type(option) is int or option in (FIRST, LAST)):
            return self.twin + _spot(option)
        if kind == "choose" and type(option) is str and option in self._word:
            return self.choose + self._word[option]
        index = next((i for i, o in enumerate(decision.options) if o == option), None)
        if index is None:
            raise ActionError(f"{option!r} is not an option of the {kind} question asked")
        if index >= OTHER:
            raise ActionError(f"option {index} of a {kind} question is past the {OTHER} named")
        return self.other + index

    def mask(self, observation: Observation) -> list[bool]:
        """Which actions are legal now (none when this family is not asked)."""
        legal = [False] * self.size
        for action in self.legal(observation):
            legal[action] = True
        return legal

    def legal(self, observation: Observation) -> list[int]:
        """The legal actions now, in increasing order (none when this family is not asked)."""
        if not observation.asked:
            return []
        return sorted({self.encode(observation, option) for option in _asked(observation).options})

    def decode(self, observation: Observation, action: int) -> Answer:
        """The answer ``action`` stands for now; :class:`ActionError` if it is not legal."""
        for option in _asked(observation).options:
            if self.encode(observation, option) == action:
                return option
        raise ActionError(f"action {action} is not legal now")

    def describe(self, action: int) -> str:
        """What ``action`` means, in words, as the table says it: a card by its name,
        positions from 1 (``place Royal Decree on position 1``). It names the card
        type of a placement: a text for the family that plays it, or for a referee."""
        if not 0 <= action < self.size:
            raise ActionError(f"action {action} is not one of 0 to {self.size - 1}")
        spot = 2 + POSITIONS
        if action < self.reveal:
            card, at = divmod(action - self.place, spot)
            return f"place {self.names[card]} {_spot_words(at)}"
        if action < self.target:
            return "reveal" if action == self.reveal else "keep face down"
        if action < self.move:
            return f"target position {action - self.target + 1}"
        if action < self.twin:
            return f"move to position {action - self.move + 1}"
        if action < self.choose:
            return f"place the {self._twin} {_spot_words(action - self.twin)}"
        if action < self.other:
            return f"choose {self.words[action - self.choose]}"
        return f"option {action - self.other + 1} of another question"


def _asked(observation: Observation) -> Decision:
    decision = observation.decision
    if decision is None or not observation.asked:
        raise ActionError(f"{observation.family or 'a spectator'} is not asked anything now")
    return decision


def _spot(at: object) -> int:
    if at == FIRST:
        return 0
    if at == LAST:
        return 1
    if type(at) is int and 0 <= at < POSITIONS:
        return 2 + at
    raise ActionError(f"{at!r} is not a place an action can name")


def _spot_words(spot: int) -> str:
    if spot < 2:
        return ("at the first end", "at the last end")[spot]
    return f"on position {spot - 2 + 1}"
