"""Questions and answers in words: how each kind of decision is put to a person.

A kind of decision (:class:`~oriflamme.DecisionKind`) checks answers; the sentences are
here. :func:`question_text` and :func:`answer_text` word a decision for the family
asked, through a :class:`Naming` (cards and positions as that family sees them, its
observation, and the game's card definitions). Positions are counted from 1, as the
table shows them, and every answer says what it does. In order:

* a kind whose class defines its own ``question`` / ``option`` methods (a plugin's)
  words itself, as it always did: ``question(decision, naming) -> str`` and
  ``option(decision, option, naming) -> str``;
* the kinds that ship with oriflamme are worded here, by name;
* any other question says the asker's ``question`` (else ``Your <card>: <help>``) and
  each option's label (the asker's ``labels``), else the option itself.

What comes from a plugin or a save is escaped (:func:`~oriflamme.text.escaped`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from oriflamme import (
    Answer,
    At,
    CardDef,
    CardId,
    Decision,
    DecisionKind,
    Observation,
    Placement,
    RevealTokens,
)
from oriflamme.text import escaped


class Naming(Protocol):
    """Names of things as one family sees them, handed to a kind's ``question`` and
    ``option`` (:class:`~oriflamme.text.Words` is one)."""

    @property
    def seen(self) -> Observation:
        """The observation the words are of: what they may tell (tokens, keys)."""
        ...

    @property
    def definitions(self) -> Mapping[str, CardDef]:
        """The game's cards by key (names, texts, what revealing one does with its
        tokens): the rules are public, as the rulebook is."""
        ...

    @property
    def language(self) -> str:
        """The language of card names and texts: ``en``, or a code the card data names."""
        ...

    def card(self, card: CardId | None) -> str:
        """A card: ``blue Soldier``, or ``a face-down card`` if the family may not know it."""
        ...

    def position(self, index: int) -> str:
        """The top card of the position at index ``index``, counted from 1 as the table
        shows it: index 2 is ``position 3: blue's face-down card``."""
        ...

    def spot(self, at: At) -> str:
        """A place in the queue: ``at the first end``, ``on top of position 2: ...``."""
        ...


def counted(count: int, noun: str) -> str:
    """``count`` ``noun``, the noun agreeing (``1 token``, ``2 tokens``, ``0 tokens``)."""
    return f"{count} {noun}{'s' * (count != 1)}"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def question_text(kind: DecisionKind, words: Naming, decision: Decision) -> str:
    """The question, in words (a plugin's or a save's, escaped)."""
    own: Callable[[Decision, Naming], str] | None = getattr(kind, "question", None)
    if own is not None:
        return escaped(own(decision, words))
    builtin = _QUESTIONS.get(kind.name) if _shipped(kind) else None
    if builtin is not None:
        return escaped(builtin(decision, words))
    return escaped(_question(kind, decision, words))


def answer_text(kind: DecisionKind, words: Naming, decision: Decision, answer: Answer) -> str:
    """One legal answer, in words (a plugin's labels or a save's, escaped)."""
    own: Callable[[Decision, Answer, Naming], str] | None = getattr(kind, "option", None)
    if own is not None:
        return escaped(own(decision, answer, words))
    builtin = _OPTIONS.get(kind.name) if _shipped(kind) else None
    if builtin is not None:
        return escaped(builtin(decision, answer, words))
    return escaped(_option(decision, answer))


def _shipped(kind: DecisionKind) -> bool:
    """Whether ``kind`` ships with oriflamme: a plugin's is never worded as one of ours."""
    return type(kind).__module__.split(".", 1)[0] == "oriflamme"


def _question(kind: DecisionKind, decision: Decision, words: Naming) -> str:
    """The asker's question, else the kind's ``help`` about the acting card."""
    if decision.question:
        return decision.question
    about = f"Your {words.card(decision.card)}: " if decision.card is not None else ""
    return f"{about}{kind.help}"


def _option(decision: Decision, option: Answer) -> str:
    """The asker's label for ``option``, else the option itself."""
    label = _label(decision, option)
    return label if label is not None else str(option)


def _label(decision: Decision, option: Answer) -> str | None:
    if decision.labels is None:
        return None
    try:
        return decision.labels[list(decision.options).index(option)]
    except ValueError:
        return None


# The placement phase.


def _place_question(decision: Decision, words: Naming) -> str:
    return "Place a card from your hand, face down: which card, and where?"


def _place_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, Placement)
    return f"Put your {words.card(option.card)} {words.spot(option.at)}"


# A face-down card's turn (RULINGS R1).


def _reveal_question(decision: Decision, words: Naming) -> str:
    card = decision.card
    tokens = words.seen.tokens_on(card) if card is not None else 0
    on_it = f", with {counted(tokens, 'token')} on it," if tokens else ""
    return f"Your {words.card(card)}{on_it} is next: reveal it, or keep it face down?"


def _reveal_option(decision: Decision, option: Answer, words: Naming) -> str:
    card = decision.card
    tokens = words.seen.tokens_on(card) if card is not None else 0
    if not option:
        # RULINGS R1: declining adds a token, which revealing later pays out.
        more = "1 token" if not tokens else f"a {ordinal(tokens + 1)} token"
        return f"Keep it face down (it gets {more})"
    return f"Reveal it ({_revealing(words, card, tokens)})"


def _revealing(words: Naming, card: CardId | None, tokens: int) -> str:
    """What revealing ``card`` does with its ``tokens`` (RULINGS R2), then its ability."""
    key = words.seen.key(card) if card is not None else None
    definition = words.definitions.get(key) if key is not None else None
    mode = definition.reveal_tokens if definition is not None else None
    on_it, goes = "its " + counted(tokens, "token"), "goes" if tokens == 1 else "go"
    if not tokens:
        return "apply its ability"
    if mode is RevealTokens.ABILITY:
        return f"apply its ability, which spends {on_it}"
    if mode is RevealTokens.GAIN:
        paid = f"gain {on_it}"
    elif mode is RevealTokens.DOUBLE:
        paid = f"gain twice {on_it}: {2 * tokens} Influence"
    elif mode is RevealTokens.SUPPLY:
        paid = f"{on_it} {goes} back to the supply"
    else:  # words of a family that may not know the card: no more than its face tells
        paid = f"{on_it} {goes} as the card says"
    return f"{paid}, then apply its ability"


# An ability chooses a card in the queue, named by its position.


def _target_question(decision: Decision, words: Naming) -> str:
    if decision.question:
        return decision.question
    return f"{_acting(decision, words)} Which card?"


def _target_option(decision: Decision, option: Answer, words: Naming) -> str:
    label = _label(decision, option)
    if label is not None:
        return label
    assert isinstance(option, int)
    where = words.position(option)
    return where[:1].upper() + where[1:]  # an answer begins with a capital


def _acting(decision: Decision, words: Naming) -> str:
    """``Your blue Archer: "<its text>"``: the acting card and the text of the ability
    that asks, which says what the chosen card is for. A Shapeshifter asks with the
    ability it copies, which the decision names (``Decision.ability``: public, as at
    the table, where everyone sees which card is copied)."""
    card = decision.card
    acting = f"Your {words.card(card)}"
    seen = words.seen
    key = seen.key(card) if card is not None else None
    if key is None:
        return f"{acting}:"
    ability = decision.ability
    definitions = words.definitions
    if ability is not None and ability != key and ability in definitions:
        key = ability
        name = definitions[key].name_in(words.language)
        acting += f", copying {'an' if name[:1] in 'AEIOU' else 'a'} {name}"
    return f'{acting}: "{definitions[key].text_in(words.language)}"'


# The Royal Decree's destination: the index the card will have once moved.


def _move_question(decision: Decision, words: Naming) -> str:
    return f"Your {words.card(decision.card)} moves the card you chose: where to?"


def _move_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, int)
    # FORMAT.md: the index the card has once moved, the Decree still in place.
    return f"Move it so that it becomes position {option + 1}"


# The Prince places its Twin: as ``at`` in a placement.


def _twin_question(decision: Decision, words: Naming) -> str:
    return f"Your {words.card(decision.card)} places your Twin, face up: where?"


def _twin_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, str | int)
    return f"Put the Twin {words.spot(option)}"


# A choice among named options; the asker words them (``labels``).


def _choose_question(decision: Decision, words: Naming) -> str:
    if decision.question:
        return decision.question
    return f"Your {words.card(decision.card)} chooses one of these:"


def _choose_option(decision: Decision, option: Answer, words: Naming) -> str:
    return _option(decision, option)


#: The questions of the kinds that ship with oriflamme, by the kind's name.
_QUESTIONS: dict[str, Callable[[Decision, Naming], str]] = {
    "place": _place_question,
    "reveal": _reveal_question,
    "target": _target_question,
    "move": _move_question,
    "twin": _twin_question,
    "choose": _choose_question,
}
#: Their answers, by the kind's name.
_OPTIONS: dict[str, Callable[[Decision, Answer, Naming], str]] = {
    "place": _place_option,
    "reveal": _reveal_option,
    "target": _target_option,
    "move": _move_option,
    "twin": _twin_option,
    "choose": _choose_option,
}
